"""The terminal game and `python -m games_py.tonk`: scripted play on stdin, the
function keys, the command-line switches, the pot file, and demo mode."""
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games_py.cards import card, cards
from games_py.tonk.__main__ import main
from games_py.tonk.match import stacked_deck
from games_py.tonk.options import Options, SwitchError, parse_switches
from games_py.tonk.rules import deal
from games_py.tonk.terminal import TerminalGame

REPO = Path(__file__).resolve().parents[1]
TENS = "10S JS QH KD 10H JC QC"


class Feeder(io.StringIO):
    """stdin that answers each prompt through ``answer(prompt, out_so_far)`` and echoes
    the answer into the output."""

    def __init__(self, out, answer, limit=2000):
        super().__init__()
        self.out, self.answer, self.limit = out, answer, limit
        self.asked = []

    def readline(self, *args):
        if len(self.asked) >= self.limit:
            return ""
        text = self.out.getvalue()
        prompt = text[text.rfind("\n") + 1:]
        reply = self.answer(prompt, text)
        self.asked.append((prompt, reply))
        if reply is None:
            return ""
        self.out.write(reply + "\n")       # echo, as a terminal would
        return reply + "\n"


def lines_feeder(out, replies):
    replies = list(replies)
    return Feeder(out, lambda prompt, text: replies.pop(0) if replies else None)


def game(inp_factory, *, switches="", seed=1, pot_path=None, color=False, session=None, hands=None):
    out = io.StringIO()
    opts = parse_switches([switches]) if switches else Options()
    inp = inp_factory(out)
    g = TerminalGame(inp, out, opts, seed, pot_path=pot_path, color=color, session=session, hands=hands)
    return g, out


class OneHand:
    """A session that always deals the same stacked hand (dealer B = the computer)."""

    def __init__(self, you, me, upcard, dealer=1, stock_top=(), no_passing=False):
        self.deck = stacked_deck([cards(you), cards(me)], card(upcard), dealer, cards(" ".join(stock_top)))
        self.dealer, self.no_passing = dealer, no_passing
        self.can_replay = False

    def new_hand(self, replay=False):
        return deal(self.deck, self.dealer, self.no_passing)


def simple_answers(bet="25", hands=3):
    """Plays by drawing and throwing the highest card, never tonking, for ``hands`` hands."""
    played = {"n": 0}

    def answer(prompt, text):
        if "YOUR BET" in prompt:
            if played["n"] >= hands:
                return "F7"
            played["n"] += 1
            return bet
        if "REPLAY" in prompt:
            return "N"
        if "MY TURN" in prompt or "EXHAUSTED" in prompt:
            return ""
        if "YOU'RE UP" in prompt:
            return "D"
        if "DISCARD" in prompt:
            hand_line = [ln for ln in text.splitlines() if ln.startswith("YOU: ")][-1]
            found = re.findall(r"(\d+):(\w+)", hand_line.split("PV:")[0])
            worst = max(found, key=lambda f: card(f[1]).pip_value)
            return worst[0]
        return None
    return answer


# --------------------------------------------------------------- scripted play

def test_scripted_game_settles_bets_and_saves_the_pot(tmp_path):
    """'WHEN YOU EXIT THE PROGRAM THE COMPUTER WILL AUTOMATICALLY SAVE YOUR POT'.
    [002_b5a441868e5ee1bb.txt line 68]"""
    pot = tmp_path / "TONK.SCR"
    g, out = game(lambda o: Feeder(o, simple_answers()), pot_path=str(pot))
    assert g.run() == 0
    text = out.getvalue()
    assert "HANDS PLAYED: 3." in text
    changes = [(+1 if w == "WIN" else -1) * int(v) for w, v in re.findall(r"YOU (WIN|LOSE) \$(\d+)\.", text)]
    carried = text.count("CARRIED OVER TO THE NEXT HAND")
    assert len(changes) + carried == 3
    saved = pot.read_text().splitlines()
    assert saved[1] == f"pot {sum(changes)}" and saved[2] == "bet 25"


def test_same_seed_same_game():
    outs = []
    for _ in range(2):
        g, out = game(lambda o: Feeder(o, simple_answers(hands=2)), seed=42)
        g.run()
        outs.append(out.getvalue())
    assert outs[0] == outs[1]
    g, out = game(lambda o: Feeder(o, simple_answers(hands=2)), seed=43)
    g.run()
    assert out.getvalue() != outs[0]


def test_bad_input_gets_a_message_not_a_traceback():
    g, out = game(lambda o: lines_feeder(o, ["abc", "0", "1000", "", "5", "X", "M 1", "S 1", "S 1 9", "D", "99", "QQ"]),
                  session=OneHand("2C 3H 5D 7C 8S 9D KH", "KS QH 2D 7D 8D 3C 4H", "4S", stock_top=["JD"]))
    assert g.run() == 0
    text = out.getvalue()
    assert "'abc' is not an amount" in text
    assert "must be $1 to $999, not $0" in text and "not $1000" in text
    assert "no last bet yet" in text
    assert "?? T, P, D or S i j" in text
    assert "switch takes two card numbers" in text and "card positions must be 1..7" in text
    assert "card number must be 1..8, not 99" in text
    assert "'QQ' is neither a card number nor a card" in text
    assert "Traceback" not in text


def test_end_of_input_quits_cleanly_and_saves(tmp_path):
    """[002_b5a441868e5ee1bb.txt lines 68-70]"""
    pot = tmp_path / "TONK.SCR"
    g, out = game(lambda o: lines_feeder(o, ["12"]), pot_path=str(pot))
    assert g.run() == 0
    assert "HANDS PLAYED: 0." in out.getvalue()
    assert pot.read_text().splitlines()[1:] == ["pot 0", "bet none", "carry 0"]


def test_enter_repeats_last_bet_from_the_saved_file(tmp_path):
    """'IF YOU WANT THE SAME BET AS LAST TIME, JUST HIT THE <ENTER> KEY'.
    [002_b5a441868e5ee1bb.txt line 65]"""
    pot = tmp_path / "TONK.SCR"
    pot.write_text("TONK.SCR 1\npot 70\nbet 33\ncarry 0\n")
    g, out = game(lambda o: lines_feeder(o, ["", "T"]), pot_path=str(pot),
                  session=OneHand("2C 3H 5D 7C 8S 9D KH", "KS QH 2D 7D 8D 3C 4H", "4S"))
    g.run()
    text = out.getvalue()
    assert "YOUR POT: $70. YOUR BET ($1-$999, <ENTER> = $33)?" in text
    assert "PLAYING FOR $33" in text


def test_corrupt_pot_file_is_reported_and_kept(tmp_path):
    """[002_b5a441868e5ee1bb.txt lines 68-70]"""
    pot = tmp_path / "TONK.SCR"
    pot.write_bytes(b"\x00\x01junk")
    g, out = game(lambda o: lines_feeder(o, []), pot_path=str(pot))
    assert g.run() == 0
    assert "TONK.SCR is damaged" in out.getvalue()
    assert (tmp_path / "TONK.SCR.bad").read_bytes() == b"\x00\x01junk"
    assert pot.read_text().startswith("TONK.SCR 1\npot 0")


# --------------------------------------------------------------- moves typed by the human

def test_pluck_meld_and_discard_commands():
    """P(luck), M(eld) with card numbers or names, then a discard by name.
    [002_b5a441868e5ee1bb.txt lines 98-106]"""
    g, out = game(lambda o: lines_feeder(o, ["10", "P", "M 9S 2", "KH", "F7"]),
                  session=OneHand("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", "9H"))
    g.run()
    text = out.getvalue()
    assert "CAN MELD WITH: 9D 9S" in text
    assert "YOU MELD 9D 9H 9S." in text and "YOU DISCARD KH." in text
    assert "YOUR MELDS: [1] 9D 9H 9S" in text


def test_return_the_upcard_and_no_passing_switch():
    """[002_b5a441868e5ee1bb.txt lines 98-104]"""
    g, out = game(lambda o: lines_feeder(o, ["10", "P", "R", "F7"]),
                  session=OneHand("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", "4S"))
    g.run()
    assert "YOU RETURN THE UPCARD 4S." in out.getvalue()
    g, out = game(lambda o: lines_feeder(o, ["10", "P", "F7"]), switches="P",
                  session=OneHand("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", "4S", no_passing=True))
    g.run()
    text = out.getvalue()
    assert "no passing (P)" in text and "P(LUCK)" not in text


def test_hit_command():
    """[002_b5a441868e5ee1bb.txt lines 105-106]"""
    g, out = game(lambda o: lines_feeder(o, ["10", "P", "M 9S 9D", "KH", "", "D", "H 4D 1", "H 9C 1", "F7"]),
                  session=OneHand("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", "9H",
                                  stock_top=["AS", "9C"]))
    g.run()
    text = out.getvalue()
    assert "YOU DRAW 9C." in text
    assert "?? 4D is not in your hand" in text
    assert "YOU HIT MELD 1 WITH 9C." in text
    assert "YOUR MELDS: [1] 9C 9D 9H 9S" in text


def test_replay_deals_the_last_hand_again():
    """'AT THE BEGINNING OF EACH HAND, YOU HAVE THE OPTION OF REPLAYING THE LAST HAND'.
    [002_b5a441868e5ee1bb.txt line 127]"""
    g, out = game(lambda o: lines_feeder(o, ["10", "T", "", "Y", "T", "", "N", "F7"]), seed=5)
    g.run()
    text = out.getvalue()
    assert "HAND 2 (REPLAY)" in text
    # the first view of your hand in each hand: hand 2 repeats hand 1, hand 3 is new
    hands = re.findall(r"HAND (\d)( \(REPLAY\))?: [^\n]*\n(?:.*\n){5}(YOU: [^\n]*)", text)
    assert [h[0] for h in hands] == ["1", "2", "3"]
    assert hands[0][2] == hands[1][2] and hands[1][2] != hands[2][2]


def test_switch_command_reorders_the_hand():
    """'SORT YOUR HAND 2 CARDS AT A TIME WITH THE S(WITCH) COMMAND'.
    [002_b5a441868e5ee1bb.txt line 95]"""
    g, out = game(lambda o: lines_feeder(o, ["10", "S 1 7", "F7"]),
                  session=OneHand("9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", "9H"))
    g.run()
    hands = [ln for ln in out.getvalue().splitlines() if ln.startswith("YOU: ")]
    assert hands[0].startswith("YOU: 1:9S") and hands[1].startswith("YOU: 1:KH") and "7:9S" in hands[1]


def test_human_can_tonk_on_the_computers_turn():
    """'IF IT IS THE COMPUTER'S TURN, JUST HIT "T" BEFORE THE COMPUTER MAKES A PLAY'.
    [002_b5a441868e5ee1bb.txt line 92]"""
    g, out = game(lambda o: lines_feeder(o, ["10", "T", "F7"]),
                  session=OneHand("AS 2S 3S 9C 9D 5H 6S", "KS KH 2C 7D 8D 3C 4H", "4D", dealer=0))
    g.run()
    text = out.getvalue()
    assert "MY TURN. <ENTER> LETS ME PLAY, T CALLS TONK:" in text
    assert "YOU CALL TONK!" in text and "YOU TONKED WITH 29 AGAINST 44: YOU WIN." in text
    assert "YOU WIN $10." in text


def test_undercut_message_and_double_payment():
    """[002_b5a441868e5ee1bb.txt lines 109-112]"""
    g, out = game(lambda o: lines_feeder(o, ["10", "T", "F7"]),
                  session=OneHand("AS 2S 3S 9C 9D 5H 6S", "AH 2H 3H 4H 9S 2D 3D", "4D"))
    g.run()
    text = out.getvalue()
    assert "YOU TONKED WITH 29 BUT I UNDERCUT WITH 14: YOU PAY DOUBLE." in text
    assert "YOU LOSE $20." in text


def test_computer_ten_card_hand_beats_a_human_who_plays_instead_of_calling():
    """The race: 'THIS IS REALLY A RACE TO SEE WHO CALLS TONK FIRST'; the human is asked
    first (the handicap), but a pluck or draw lets the computer call.
    [002_b5a441868e5ee1bb.txt line 85]"""
    g, out = game(lambda o: lines_feeder(o, ["10", "D", "F7"]),
                  session=OneHand("AS 2S 3S 9C 9D 5H 6S", TENS, "4D"))
    g.run()
    text = out.getvalue()
    assert "I CALL TONK! (I TIED MY SHOELACES FIRST" in text
    assert "I WIN: ALL TEN-POINT CARDS BEFORE THE FIRST PLAY." in text
    assert "YOU DRAW" not in text


def test_human_who_calls_first_wins_the_race():
    """'THE COMPUTER GIVES YOU A HANDICAP': both hold ten-point cards, the human calls.
    [002_b5a441868e5ee1bb.txt line 86]"""
    g, out = game(lambda o: lines_feeder(o, ["10", "T", "F7"]),
                  session=OneHand("10C JD QS KC KH 10D JH", TENS, "4D", dealer=0))
    g.run()
    text = out.getvalue()
    assert "MY TURN" in text           # the computer leads, the human still gets the first word
    assert "YOU WIN: ALL TEN-POINT CARDS BEFORE THE FIRST PLAY." in text


# --------------------------------------------------------------- function keys and switches

def run_keys(keys, **kw):
    g, out = game(lambda o: lines_feeder(o, keys), session=OneHand(
        "9S 9D 2C 3H 5D 7C KH", "KS QH 2D 7D 8D 3C 4H", "9H"), **kw)
    g.run()
    return out.getvalue()


def test_toggle_legends_show_the_mode_that_will_be_entered():
    """'THE LEGEND FOR A TOGGLE SWITCH INDICATES THE MODE THAT WILL BE ENTERED BY PRESSING
    THE KEY, WHICH IS THE OPPOSITE OF THE MODE IN EFFECT'.
    [002_b5a441868e5ee1bb.txt line 141]"""
    text = run_keys(["10", "F1", "F3", "F7"])
    legends = [ln for ln in text.splitlines() if ln.startswith("F1 ")]
    assert legends[0].startswith("F1 SOUND OFF  F2 DEMO ON  F3 AUTOSORT ON")
    assert "SOUND OFF." in text and legends[1].startswith("F1 SOUND ON")
    assert "AUTOSORT ON." in text and "F3 AUTOSORT OFF" in legends[2]


def test_s_switch_starts_with_sound_off_and_f1_turns_it_on():
    """'S START UP WITH SOUND OFF'; 'F1 SOUND EFFECTS TOGGLE'.
    [002_b5a441868e5ee1bb.txt lines 133, 144]"""
    tonk = ["10", "T", "F7"]
    assert "\a" in run_keys(tonk)
    assert "\a" not in run_keys(tonk, switches="S")
    assert "\a" in run_keys(["F1"] + tonk, switches="S")


def test_f3_autosort_orders_the_hand_for_the_lowest_count():
    """'IN AUTOSORT MODE THE COMPUTER SORTS YOUR HAND FOR THE LOWEST UNMATCHED PV SCORE'.
    [002_b5a441868e5ee1bb.txt line 136]"""
    g, out = game(lambda o: lines_feeder(o, ["10", "F3", "F7"]), session=OneHand(
        "KH 9S 2C 9D 5D 9C 3H", "KS QH 2D 7D 8D 3C 4H", "4S"))
    g.run()
    hands = [ln for ln in out.getvalue().splitlines() if ln.startswith("YOU: ")]
    assert hands[-1].startswith("YOU: 1:9C  2:9D  3:9S  4:2C  5:3H  6:5D  7:KH")


def test_f5_shows_instructions_and_f7_quits():
    """[002_b5a441868e5ee1bb.txt lines 138-139]"""
    text = run_keys(["F5", "F7"])
    assert "COMMANDS" in text and "pluck the upcard" in text
    assert "HANDS PLAYED: 0." in text


def test_real_function_keys_work_like_typed_ones():
    """'FUNCTION KEYS: THESE ARE HOT KEYS': the escape sequence a terminal sends
    for F5 (xterm) and F7 (xterm) does what typing F5 and F7 does.
    [002_b5a441868e5ee1bb.txt lines 131, 133, 138-139]"""
    text = run_keys(["\x1b[15~", "\x1b[18~"])
    assert "COMMANDS" in text and "pluck the upcard" in text
    assert "HANDS PLAYED: 0." in text
    f1 = run_keys(["\x1bOP", "\x1b[18~"])       # xterm's F1, then F7
    assert "SOUND OFF." in f1 and "??" not in f1


def test_f10_border_color_only_on_color_displays():
    """'F10 (COLOR MONITORS ONLY) CHANGE THE SCREEN BORDER COLOR'; M forces mono.
    [002_b5a441868e5ee1bb.txt line 140]"""
    mono = run_keys(["10", "F10", "F7"])
    assert "COLOR DISPLAYS ONLY" in mono and "\x1b[" not in mono
    color = run_keys(["10", "F10", "F7"], color=True)
    assert "BORDER: GREEN." in color and "\x1b[32m====" in color
    assert "\x1b[31m9H\x1b[0m" in color          # red suits in red


def test_f2_demo_mode_lets_the_computer_play_your_hand():
    """'F2 DEMO MODE TOGGLE. IN DEMO MODE THE COMPUTER PLAYS BOTH HANDS WHILE YOU WATCH.'
    [002_b5a441868e5ee1bb.txt line 134]"""
    g, out = game(lambda o: lines_feeder(o, ["F2", "10", "", "", "", "", "F7"]), seed=8)
    g.run()
    text = out.getvalue()
    assert "DEMO MODE: I PLAY YOUR HAND TOO" in text
    assert "HANDS PLAYED: 3." in text          # bets and replay answers only, no move typed
    assert "YOU'RE UP" not in text and "MY TURN" not in text


@pytest.mark.parametrize("args,sound,display,no_passing", [
    ([], True, "auto", False), (["MS"], False, "mono", False), (["/C", "p"], True, "color", True),
    (["s", "P"], False, "auto", True)])
def test_command_line_switches(args, sound, display, no_passing):
    """'S START UP WITH SOUND OFF, M FORCE MONO ..., C FORCE COLOR ..., P PROHIBIT
    PASSING', e.g. '>TONK MS'.
    [002_b5a441868e5ee1bb.txt lines 144, 146-147]"""
    opts = parse_switches(args)
    assert (opts.sound, opts.display, opts.no_passing) == (sound, display, no_passing)


def test_unknown_or_contradictory_switches_are_explained(capsys):
    """[002_b5a441868e5ee1bb.txt lines 143-148]"""
    with pytest.raises(SwitchError, match="unknown switch 'X'"):
        parse_switches(["X"])
    with pytest.raises(SwitchError, match="contradict"):
        parse_switches(["MC"])
    assert main(["play", "Q"]) == 2
    assert "unknown switch 'Q'" in capsys.readouterr().err
    assert main(["demo", "--bet", "0"]) == 2
    assert "--bet must be" in capsys.readouterr().err
    assert main(["demo", "--delay", "-1"]) == 2
    assert "--delay cannot be negative" in capsys.readouterr().err


# --------------------------------------------------------------- the program itself

def run_module(args, stdin="", cwd=None):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "games_py.tonk", *args], input=stdin,
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=60)


def test_demo_mode_plays_by_itself_and_is_repeatable(tmp_path):
    """[002_b5a441868e5ee1bb.txt lines 134-135]"""
    a = run_module(["demo", "--seed", "4", "--hands", "3"], cwd=tmp_path)
    b = run_module(["demo", "--seed", "4", "--hands", "3"], cwd=tmp_path)
    assert a.returncode == 0 and a.stdout == b.stdout and not a.stderr
    assert "HAND 3:" in a.stdout and "HANDS PLAYED: 3." in a.stdout
    assert not (tmp_path / "TONK.SCR").exists()       # a demo does not touch your pot


def test_play_from_stdin_keeps_tonk_scr_in_the_current_directory(tmp_path):
    """[002_b5a441868e5ee1bb.txt lines 68-70]"""
    r = run_module(["play", "S", "--seed", "9"], stdin="15\nF7\n", cwd=tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr
    assert "No TONK.SCR yet" in r.stdout and "\a" not in r.stdout
    assert (tmp_path / "TONK.SCR").read_text().splitlines()[2] == "bet none"
    r = run_module(["play", "--seed", "9"], stdin="", cwd=tmp_path)
    assert r.returncode == 0 and "No TONK.SCR" not in r.stdout


def test_playing_to_the_end_of_the_deck_shows_the_break_and_the_showdown():
    """'THE BREAK' and 'IF THE DECK IS EXHAUSTED AND NO PLAYER GOES TONK, THE PLAYER WITH
    THE LOWEST TOTAL UNMATCHED POINTS WINS'.  The computer is told never to tonk short
    of zero, and the human draws and throws back every card.
    [002_b5a441868e5ee1bb.txt line 119]"""
    from games_py.tonk.players import ComputerPlayer
    bets = ["10"]

    def answer(prompt, text):
        if "YOUR BET" in prompt:
            return bets.pop() if bets else "F7"
        if "REPLAY" in prompt:
            return "N"
        if "YOU'RE UP" in prompt:
            return "D"
        if "DISCARD" in prompt:
            return "8"
        return ""          # the computer's turn, and the exhausted deck
    g, out = game(lambda o: Feeder(o, answer), seed=3)
    g.computer = ComputerPlayer(caution=0.0)
    g.run()
    text = out.getvalue()
    assert "DECK: 2   AT THE BREAK" in text
    breaker = re.search(r"AFTER THE BREAK \(BREAKER: (YOU|ME)\)", text).group(1)
    assert "DECK: 0" in text
    assert "DECK EXHAUSTED: LOWEST COUNT WINS" in text
    mine = int(re.search(r"YOUR HAND: .*UNMATCHED: (\d+)", text).group(1))
    theirs = int(re.search(r"MY HAND: .*UNMATCHED: (\d+)", text).group(1))
    winner = re.search(r"LOWEST COUNT WINS.*: (YOU|I) WIN\.", text).group(1)
    if mine == theirs:
        assert winner == ("YOU" if breaker == "YOU" else "I")
    else:
        assert winner == ("YOU" if mine < theirs else "I")
