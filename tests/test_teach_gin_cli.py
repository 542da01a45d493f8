"""The command line and the terminal game, driven through stdin/stdout (seed 001 lines)."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from games_py.teach_gin import files
from games_py.teach_gin.cli import main
from games_py.teach_gin.commandline import parse_params
from games_py.teach_gin.console import blank_seconds
from games_py.teach_gin.options import Options

TODAY = "2024-05-06"


def run(args, lines=(), cwd: Path | None = None, stdin=None) -> tuple[int, str]:
    out = io.StringIO()
    inp = stdin if stdin is not None else io.StringIO("".join(l + "\n" for l in lines))
    code = main(list(args), stdin=inp, stdout=out, cwd=cwd, today=TODAY)
    return code, out.getvalue()


class HintFollower(io.TextIOBase):
    """Stdin that reads the screen and answers like a player who always takes the hint.

    It answers the title screen with B once and Q afterwards, so a whole program run
    (title, one game, back to the title, quit) is played through the real terminal UI."""

    def __init__(self, out: io.StringIO) -> None:
        self.out, self.seen, self.started, self.answers = out, 0, False, []

    def readline(self, size=-1) -> str:
        screen = self.out.getvalue()
        new, self.seen = screen[self.seen:], len(screen)
        prompt = screen.rstrip("\n").splitlines()[-1]
        answer = self.answer(prompt, new, screen)
        self.answers.append(answer)
        return answer + "\n"

    def answer(self, prompt: str, new: str, screen: str) -> str:
        if prompt.startswith("B=begin"):
            if self.started:
                return "Q"
            self.started = True
            return "B"
        if "D=deck" in prompt or prompt.startswith("Discard:") or "Knock?" in prompt:
            hint = re.findall(r"Hint: (.*)", new)
            if not hint:
                return "H"
            text = hint[-1]
            if "(D)" in text:
                return "D"
            if "(P)" in text:
                return "P"
            if "(Y)" in text:
                return "Y"
            card = re.match(r"discard (\S+)", text).group(1)
            drawn = re.findall(r"Drawn card: (\S+)", screen)[-1]
            if card == drawn:
                return "D"
            lines = screen.splitlines()
            keys_at = max(i for i, l in enumerate(lines) if "[1]" in l)
            hand = lines[keys_at - 1].split()
            return "1234567890"[hand.index(card)]
        if prompt.startswith("Press Enter"):
            return ""
        if prompt.startswith("P=play again"):
            return "Q"
        raise AssertionError(f"unexpected prompt {prompt!r}")


def test_a_whole_game_played_through_the_terminal(tmp_path):
    """Lines 76-80: draw with D/P, discard with 1-9, 0 or D, answer the knock question; the
    game runs to the score limit; then the stats and score files are written (69, 103)."""
    out = io.StringIO()
    player = HintFollower(out)
    code = main(["--seed", "5", "Tess"], stdin=player, stdout=out, cwd=tmp_path, today=TODAY)
    text = out.getvalue()
    assert code == 0
    assert "wins the game" in text
    finals = re.findall(r"Score: Tess (\d+)   Computer (\d+)", text)
    mine, theirs = map(int, finals[-1])
    assert max(mine, theirs) >= 100
    hands = len(finals)
    st = files.DataStore(tmp_path).load_stats().get("Tess")
    assert (st.points, st.hands, st.won + st.lost) == (mine, hands, 1)
    assert st.won == (1 if mine > theirs else 0)
    if mine > 0:
        assert files.DataStore(tmp_path).load_scores().entries[0].score == mine
    assert "H" in player.answers and any(a in "1234567890" for a in player.answers if a)


def test_the_same_seed_gives_the_same_game(tmp_path):
    outs = []
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        out = io.StringIO()
        main(["--seed", "9", "NODISK"], stdin=HintFollower(out), stdout=out, cwd=tmp_path / d)
        outs.append(out.getvalue())
    assert outs[0] == outs[1]


def test_a_random_seed_is_said_and_deals_the_same_game_again(tmp_path):
    """Issue 22: play, demo and --seed alike in every game: a session started without
    --seed says its seed, and that seed plays it again."""
    out = io.StringIO()
    main(["NODISK"], stdin=HintFollower(out), stdout=out, cwd=tmp_path)
    seed = re.search(r"Seed (\d+) \(--seed \1 deals these cards again\)", out.getvalue()).group(1)
    again = io.StringIO()
    main(["--seed", seed, "NODISK"], stdin=HintFollower(again), stdout=again, cwd=tmp_path)
    assert again.getvalue() == out.getvalue()


def test_undo_and_the_pile_card_rule_in_the_terminal(tmp_path):
    """Line 77: a card taken from the pile comes back with U; it cannot be discarded with D."""
    code, text = run(["--seed", "3", "GO", "NODISK"], ["P", "D", "U", "D", "D", "Q", "Y", "Q"], tmp_path)
    assert code == 0
    assert "cannot go straight back" in text
    assert "puts" in text and "back on the pile" in text
    assert "PLAYER discards" in text


def test_quit_asks_for_confirmation(tmp_path):
    """Line 79: 'Q' returns "upon confirmation, to the title screen"."""
    code, text = run(["--seed", "3", "NODISK"], ["B", "Q", "N", "D", "D", "Q", "Y", "Q"], tmp_path)
    assert text.count("Quit this game?") == 2
    assert "PLAYER discards" in text          # play went on after N
    assert text.count("G I N R U M M Y") == 2  # back at the title after Y


def test_end_of_input_mid_game_records_finished_hands(tmp_path):
    """Line 71: quitting before the end updates the stats if a hand was finished."""
    code, text = run(["--seed", "1", "GO", "000", "Ann"], ["D", "D"] * 40, tmp_path)
    assert code == 0
    assert "wins the game" in text or "The game is a draw" in text
    st = files.DataStore(tmp_path).load_stats().get("Ann")
    assert st.hands == 1


def test_options_menu_keys_and_save(tmp_path):
    """Lines 38-63: N name, G/U bonuses, +/- limit, O, B, E, K, P, R toggles, S saves."""
    keys = ["O", "N", "Bob_0 Lee", "G", "U", "U", "+", "+", "-", "O", "B", "E", "K", "P", "R", "S", "M", "Q"]
    code, text = run([], keys, tmp_path)
    saved = files.parse_config((tmp_path / files.CFG_FILE).read_text())
    assert saved == Options(name="Bob Lee", gin_bonus=10, undercut_bonus=15, score_limit=150,
                            oklahoma=True, big_pips=True, easy=True, knocking=False, pointer=2,
                            sort="SUIT")
    assert "Options saved" in text


def test_question_mark_lists_the_players_in_the_stats_file(tmp_path):
    """Line 41: "a question mark ... will list all the players in the statistics file"."""
    book = files.StatsBook()
    book.record("Zed", 1, 1, "won")
    book.record("Amy", 1, 1, "lost")
    files.DataStore(tmp_path).save_stats(book)
    _, text = run([], ["O", "?", "M", "Q"], tmp_path)
    assert "Players: Amy, Zed" in text


def test_statistics_and_high_score_screens(tmp_path):
    """Lines 29-31: the high scores list and the player's statistics."""
    book = files.StatsBook()
    book.record("Ann", 50, 5, "won")
    files.DataStore(tmp_path).save_stats(book)
    table = files.ScoreTable()
    table.add(files.ScoreEntry("Ann", 50, 100, 5, True, "2024-01-01"))
    files.DataStore(tmp_path).save_scores(table)
    _, text = run(["Ann"], ["S", "M", "H", "", "Q"], tmp_path)
    assert "average score per hand: 10.00" in text and "games won 1, lost 0" in text
    assert re.search(r"Ann\s+10\.00\s+50\s+100\s+5\s+Y\s+2024-01-01", text)


def test_nodisk_high_scores_do_nothing(tmp_path):
    """Line 135: with disk access off "The high scores box will do nothing"."""
    _, text = run(["NODISK"], ["H", "Q"], tmp_path)
    assert "HIGH SCORES" not in text and list(tmp_path.iterdir()) == []


def test_escape_blanks_the_screen_unless_noblank(tmp_path):
    """Line 97: "In keyboard mode, the ESCAPE key is the activation key"; line 99: any key
    brings it back; line 137: NOBLANK disables the boss key."""
    _, text = run(["NODISK"], ["\x1b", "x", "Q"], tmp_path)
    assert "[screen blanked" in text and text.count("B=begin") == 2
    _, text = run(["NODISK", "NOBLANK"], ["\x1b", "Q"], tmp_path)
    assert "[screen blanked" not in text and "'ESC' is not a choice" in text


def test_blank_time_is_two_seconds_per_limit_point_at_least_a_minute():
    """Line 96: "a limit of 100 will blank the screen in 200 seconds ... The minimum time is
    one minute"."""
    assert blank_seconds(100) == 200 and blank_seconds(600) == 1200
    assert blank_seconds(0) == 60 and blank_seconds(20) == 60


def test_bad_keys_get_a_message_not_a_traceback(tmp_path):
    _, text = run(["NODISK", "GO", "--seed", "2"], ["Z", "77", "Q", "Y", "Q"], tmp_path)
    assert "'Z' is not a choice here." in text and "'77' is not a choice here." in text


# ---- the command line ---------------------------------------------------------------

@pytest.mark.parametrize("word", ["/?", "?", "help", "HELP"])
def test_help_words(word, tmp_path):
    """Line 116: "GINRUMMY followed by /? or ? or help or HELP. This must be the first parameter"."""
    code, text = run([word], cwd=tmp_path)
    assert code == 0 and "command line" in text and list(tmp_path.iterdir()) == []


def test_help_counts_only_as_the_first_parameter():
    """Line 122: help, list and view "must be the FIRST parameter"."""
    assert parse_params(["help"]).command == "help"
    launch = parse_params(["Dave", "help"])
    assert launch.command == "play" and launch.name == "help"


def test_list_prints_the_statistics_file(tmp_path):
    """Line 118: "To list all of the contents of the statistics file ... GINRUMMY list"."""
    book = files.StatsBook()
    book.record("Ron-Hill", 40, 4, "won")
    files.DataStore(tmp_path).save_stats(book)
    code, text = run(["list"], cwd=tmp_path)
    assert code == 0 and re.search(r"Ron-Hill\s+average\s+10\.00\s+won\s+1", text)


def test_view_prints_the_document_or_our_rules(tmp_path):
    """Line 120: "To list the contents of this documentation file ... GINRUMMY view"."""
    _, text = run(["view"], cwd=tmp_path)
    assert "Oklahoma" in text and "undercut" in text
    (tmp_path / files.DOC_FILE).write_text("the user's own copy\n")
    _, text = run(["VIEW"], cwd=tmp_path)
    assert text == "the user's own copy\n"


def test_score_limit_needs_three_digits():
    """Lines 124-125: "a number from 000 to 999"; "For numbers less than 100, you MUST use
    leading zeros"."""
    assert parse_params(["234"]).score_limit == 234
    assert parse_params(["025"]).score_limit == 25
    assert parse_params(["000"]).score_limit == 0
    launch = parse_params(["25"])
    assert launch.score_limit is None and launch.name == "25"


def test_name_is_the_last_unrecognised_word_cut_to_eight():
    """Lines 131-133: "typing Paul Schoenberger will give you Schoenbe"; "GINRUMMY Mike ASDF
    will make your name ASDF not Mike"."""
    assert parse_params(["Paul", "Schoenberger"]).name == "Schoenbe"
    assert parse_params(["Mike", "ASDF"]).name == "ASDF"
    assert parse_params(["BobSmith", "go"]).name == "BobSmith"


def test_only_the_first_seven_parameters_count():
    """Line 152: "GINRUMMY 1 2 3 4 5 6 7 GO will NOT execute the GO command"."""
    launch = parse_params(["1", "2", "3", "4", "5", "6", "7", "GO"])
    assert not launch.has("GO") and launch.ignored == ["GO"]
    assert parse_params(["1", "2", "3", "4", "5", "6", "GO"]).has("GO")


def test_switches_are_case_insensitive_names_are_not():
    """Line 154: "all case INsensitive, except for the Player Name"."""
    launch = parse_params(["go", "NoBlank", "laptop", "nodisk", "DaVe"])
    assert launch.switches == {"GO", "NOBLANK", "LAPTOP", "NODISK"} and launch.name == "DaVe"


def test_paths_are_recognised_by_their_start():
    """Line 145: paths "must start with a backslash (\\) or a drive letter and colon (B:) or
    parent directory dots (..)"."""
    assert parse_params(["B:"]).path == "B:"
    assert parse_params(["\\GAMES"]).path == "\\GAMES"
    assert parse_params(["..\\X"]).path == "..\\X"
    assert parse_params(["John", "B:\\", "go"]).path == "B:\\"


def test_go_skips_the_title_screen(tmp_path):
    """Line 143: "To go directly into the game, bypassing the intro screen, use the command GO"."""
    _, text = run(["go", "NODISK", "--seed", "4"], ["Q", "Y", "Q"], tmp_path)
    assert text.index("Hand 1") < text.index("B=begin")
    _, text = run(["NODISK", "--seed", "4"], ["Q"], tmp_path)
    assert "Hand 1" not in text


def test_command_line_overrides_but_does_not_overwrite_the_config(tmp_path):
    """Line 112: NAME and SCORE LIMIT "can be set from the command line, overriding (but not
    overwriting) the configuration file settings"."""
    files.DataStore(tmp_path).save_config(Options(name="Saved", score_limit=300))
    _, text = run(["Carl", "050"], ["Q"], tmp_path)
    assert "player: Carl" in text and "Score limit 50" in text
    assert files.DataStore(tmp_path).load_config() == Options(name="Saved", score_limit=300)


def test_files_go_to_the_path_given(tmp_path):
    """Line 145: "configuration and save files read and saved from or to a different ... directory"."""
    data = tmp_path / "data"
    data.mkdir()
    run([str(data), "--seed", "1", "GO", "000", "Ann"], ["D", "D"] * 40, tmp_path)
    assert (data / files.CFG_FILE).exists() and (data / files.STA_FILE).exists()
    assert not (tmp_path / files.CFG_FILE).exists()


def test_invalid_path_falls_back_to_the_current_directory(tmp_path):
    """Line 150: an invalid path makes the current directory the default path."""
    code, text = run(["/no/such/dir", "Q"], ["Q"], tmp_path)
    assert code == 0 and "invalid" in text and (tmp_path / files.CFG_FILE).exists()


def test_bad_seed_and_unknown_options_are_clear_errors(tmp_path):
    code, text = run(["--seed", "abc"], cwd=tmp_path)
    assert code == 2 and "--seed needs a whole number" in text
    code, text = run(["--colour"], cwd=tmp_path)
    assert code == 2 and "unknown option --colour" in text
    code, text = run(["--easy"], cwd=tmp_path)
    assert code == 2 and "only go with demo" in text


def test_demo_prints_both_hands_and_is_reproducible(tmp_path):
    code, a = run(["demo", "--seed", "12", "NODISK"], cwd=tmp_path)
    _, b = run(["demo", "--seed", "12", "NODISK"], cwd=tmp_path)
    assert code == 0 and a == b
    assert "South" in a and "North" in a and "Game over after" in a
    first = re.search(r"Hand 1: upcard (\S+).*\n  South (.*)\n  North (.*)\n", a)
    south, north = first.group(2).split(), first.group(3).split()
    assert len(south) == len(north) == 10 and not set(south) & set(north)
    _, c = run(["demo", "--seed", "13", "NODISK", "000", "--oklahoma", "--no-knock"], cwd=tmp_path)
    assert "Oklahoma on, knocking off" in c and c.count("Hand ") == 1


def test_enter_on_the_title_screen_begins_the_game(tmp_path):
    """Line 25: "Typing 'B' ... starts the game ... Hitting ENTER will also choose this"."""
    _, text = run(["NODISK", "--seed", "4"], ["", "Q", "Y", "Q"], tmp_path)
    assert "Hand 1" in text


def test_deck_count_turns_red_at_seven():
    """Line 182: "If the number or cards left is 7 or lower, the number on the deck will be red"."""
    from games_py.teach_gin.render import Style, deck_count
    assert deck_count(8, Style(False)) == "8" and deck_count(7, Style(False)) == "7!"
    assert deck_count(7, Style(True)) == "\x1b[31m7\x1b[0m" and deck_count(8, Style(True)) == "8"


def test_big_pips_show_one_big_suit_symbol():
    """Line 51: BIG PIPS gives "one big number and one big symbol for the suit"."""
    from games_py.cards import card
    from games_py.teach_gin.render import Style
    assert Style(False, big_pips=True).card(card("QH")) == "Q\u2665"
    assert Style(False, big_pips=False).card(card("QH")) == "QH"


def test_spade_upcard_marks_the_knock_card_and_laptop_means_no_colour(tmp_path):
    """Line 190: "a RED box will be drawn around the knock card when the first upcard is a
    spade"; line 141: LAPTOP for monochrome screens (here: no colour codes at all)."""
    import random as _random
    from games_py.teach_gin import rules
    from games_py.teach_gin.console import Console
    from games_py.teach_gin.human import GameRef, TerminalPlayer
    from games_py.teach_gin.observation import observe
    from games_py.teach_gin.render import Style
    o = Options(oklahoma=True)
    seed = next(s for s in range(200)
                if rules.deal(o, _random.Random(s)).upcard.suit == "S")
    game = rules.new_game(o, _random.Random(seed))
    out = io.StringIO()
    player = TerminalPlayer(Console(io.StringIO(), out, Style(False), None), GameRef(game), "Ann", "RANK")
    player.show_table(observe(game.hand, 0))
    assert "spade upcard: points doubled" in out.getvalue() and "\x1b[" not in out.getvalue()


# -- issue 22: the prompt offers what the game takes; the hand comes back after a blank --------
def _discard_prompts(text: str) -> list[str]:
    return [line for line in text.splitlines() if "Discard: 1-9,0=card" in line]


def test_the_discard_prompt_offers_d_only_for_a_card_drawn_from_the_deck(tmp_path):
    """Line 77: the card taken from the pile cannot be discarded at once, so that prompt
    offers U (undo), not D; after a draw from the deck it offers D."""
    _, text = run(["--seed", "3", "GO", "NODISK"], ["P", "D", "U", "D", "D", "Q", "Y", "Q"], tmp_path)
    prompts = _discard_prompts(text)
    assert "U=undo" in prompts[0] and "D=drawn card" not in prompts[0]
    assert "cannot go straight back" in text                 # D typed anyway: told why
    deck = [p for p in prompts if "U=undo" not in p]
    assert deck and all("D=drawn card" in p for p in deck)


def test_the_hand_is_shown_again_after_the_boss_key(tmp_path):
    """Line 97: ESC blanks the screen; the key that brings it back shows the table again
    before the same question."""
    _, text = run(["--seed", "3", "GO", "NODISK"], ["D", "\x1b", "", "D", "Q", "Y", "Q"], tmp_path)
    after = text.split("[screen blanked - press Enter]", 1)[1]
    table, prompt = after.split("Discard: 1-9,0=card", 1)
    assert "Your hand (deadwood" in table and "Drawn card:" in table and "Deck:" in table
    before = text.split("[screen blanked")[0]
    hand = before[before.rindex("Your hand (deadwood"):before.rindex("Discard: 1-9,0=card")]
    assert hand in table                                      # the same hand, the same keys


def test_the_hand_is_shown_again_after_the_idle_blank():
    """Lines 95-96: after the blank time without a key the screen blanks; a key brings the
    table back before the question is asked again."""
    from games_py.teach_gin.console import Console
    from games_py.teach_gin.render import Style
    out = io.StringIO()
    console = Console(io.StringIO("7\n"), out, Style(False), lambda: 60)
    timed_out = [True]

    def readline():                                  # the first wait times out: blanked
        if timed_out:
            timed_out.pop()
            console.blank()
            return None
        return console.inp.readline()
    console._readline = readline
    console.inp = io.StringIO("\n7\n")               # Enter wakes it, then the answer
    drawn = []
    assert console.ask("> ", lambda: drawn.append(out.getvalue().count("[screen blanked"))) == "7"
    assert drawn == [1]                               # redrawn once, after the blank
    assert out.getvalue().count("> ") == 2
