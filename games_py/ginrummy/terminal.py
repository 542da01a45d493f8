"""The Python Tommy's Gin Rummy, played in a terminal as the original is played.

``Session`` runs the program from its first question to F7: the variant
("S FOR STANDARD, O FOR OKLAHOMA, OR C FOR SPACE COWBOY GIN?"), "OPEN HANDS?",
then game after game with the original's deal, computer player and scoring
(games_py.ginrummy.deal, computer, human_hand), drawn on the original's 80x25
screen (table_screen).  The terminal only shows the screen and reads keys: your
decisions reach the game through ``KeyboardPolicy``, a ``HumanPolicy``
(games_py.ginrummy.human) that answers the three prompts from the keyboard, the
same protocol the scripted players of ``trace --human`` use, so the game you play
is the game the traces compare with the original.

Hot keys, at any time as in the original (ON KEY): F1 sound on/off, F2 demo mode
(the computer plays your hand; at a prompt it answers it), F5 the instructions
(GINRUMMY.DOC from the disk), F7 "QUIT?".  Other keys are ignored where the
original ignores them.  Random numbers are spent exactly where the original spends
them (every message's colour, the shuffle's sound effects, the tunes), so a game
started at the same time of day with the same keys deals the same cards.
"""
from __future__ import annotations

import time as _time
from typing import Callable, Protocol

from games_py.ginrummy import computer, human, instructions, rules
from games_py.ginrummy import deal as original
from games_py.ginrummy import table_screen as ts
from games_py.cards import Card
from games_py.ginrummy.computer import Hand, Tunes
from games_py.ginrummy.player import COMPUTER, YOU, Player
from games_py.ginrummy.screen import Screen
from games_py.ginrummy.state import Match
from games_py.ginrummy.terminal_hand import Narrator, TakeOver, TerminalSeat, who
from games_py.tui import instructions as shared_instructions

VARIANT_PROMPT = "S FOR STANDARD, O FOR OKLAHOMA, OR C FOR SPACE COWBOY GIN?"
VARIANT_KEYS = {"S": (rules.STANDARD, "STANDARD"), "O": (rules.OKLAHOMA, "OKLAHOMA"),
                "C": (rules.COWBOY, "SPACE COWBOY")}
OPEN_HANDS_PROMPT = "OPEN HANDS? "
HOT_KEYS = ("F1", "F2", "F5", "F7")
REPAINT_KEYS = ("RESIZE", "CTRL-L")      # tty_io: the terminal resized (SIGWINCH), Ctrl-L

NOTICE_ROW, NOTICE_COLOUR = 16, 0x0F     # a row the original leaves empty during a hand


def overflow_notice(shared: int) -> str:
    """What the original does here, in one line of the screen (76 columns at most)."""
    return f"GINRUMMY.EXE CRASHES HERE ({shared} SHARED CARDS). PLAYING ON BY GINRUMMY.DOC"


UNMODELLED_NOTICE = "GINRUMMY.EXE READS UNMODELLED MEMORY HERE. LAYING OFF BY GINRUMMY.DOC"


# pauses of the original, in seconds of its TIMER (line 3590 and the deal, 10460)
STEP_PAUSE, DEAL_PAUSE, HAND_END_PAUSE, MESSAGE_PAUSE = 0.3, 0.05, 3.0, 0.6


class Quit(Exception):
    """F7 answered Y, or the keys ran out: leave the program."""


class Keyboard(Protocol):
    def key(self, timeout: float | None) -> str | None:
        """The next key: one upper-case character, "F1".."F10", "ESC", "ENTER" or " ";
        None when ``timeout`` seconds pass without one (None: wait for a key).
        Raises EOFError when there will be no more keys."""


class Display(Protocol):
    def show(self, screen: Screen) -> None: ...


class _MessageRandom:
    """The game's RND with a tap on line 12640: every message the program shows spends
    ``message_colour()``; the session draws the message in that colour."""

    def __init__(self, random: original.OriginalRandom, on_message: Callable[[int | None], None]):
        self._random = random
        self._on_message = on_message

    def message_colour(self) -> int | None:
        colour = self._random.message_colour()
        self._on_message(colour)
        return colour

    def __getattr__(self, name: str):
        return getattr(self._random, name)


class Session:
    """The program: its questions, its games, its hot keys."""

    def __init__(self, keyboard: Keyboard, display: Display, start: tuple[int, int, int, int], *,
                 colour: bool = True, disk: str | None = "1612", pace: float = 1.0,
                 clock: Callable[[], float] = _time.monotonic,
                 wall: Callable[[], str] | None = None, demo: bool = False, sound: bool = True,
                 answers: tuple[str, bool] | None = None, games: int | None = None) -> None:
        """``demo``: demo mode from the start (as F2 at the first question); ``answers``:
        the variant and OPEN HANDS? answered by these instead of keys (``demo``);
        ``games``: leave after that many games (None: play on until F7, Y)."""
        self.keyboard, self.display = keyboard, display
        self.answers, self.games_to_play = answers, games
        self.start, self.colour, self.disk, self.pace = start, colour, disk, pace
        self.clock = clock
        self.wall = wall or self._time_of_day
        self._started = clock()
        if hasattr(keyboard, "idle"):
            keyboard.idle = self.tick                   # the clock goes on while a prompt waits
        self.screen = Screen()
        self.random = _MessageRandom(original.OriginalRandom.seeded(start, colour), self._on_message)
        self.sound, self.demo = sound, demo
        self.variant, self.open_hands = rules.STANDARD, False
        self.meld_arrays = computer.MeldArrays()        # S() and SL() live as long as the program
        self.frame = ts.Frame()
        self.hand: Hand | None = None
        self.revealed = False                   # the hand's end shows the computer's hand
        self.laid_off_places: set[int] = set()  # the places of the cards laid off (ticked)
        self.hand_started = self.game_started = 0.0
        self._texts: list[str] = []
        self._prompting = False
        self.events: list[dict] = []
        self.messages: list[str] = []
        self.notices: list[str] = []            # our own lines, where the original has none
        self._overflowed: Hand | None = None

    # -- the screen -------------------------------------------------------------------------
    def seconds_since(self, moment: float) -> int:
        return int(self.clock() - moment)

    def show(self, table: bool = True) -> None:
        """The screen to the display; ``table``: the clock and the logo turn (not over the
        instructions)."""
        if table:
            self.frame.logo_phase = self.frame.logo_phase % 15 + 1
            ts.draw_logo(self.screen, self.frame.logo_phase, self.colour)
            ts.draw_clock(self.screen, self.wall(), not self.colour)
        self.display.show(self.screen)

    def _time_of_day(self) -> str:
        """The PC's clock: the start time (RANDOMIZE TIMER's) plus the time played."""
        h, m, sec, _hs = self.start
        now = (h * 3600 + m * 60 + sec + int(self.clock() - self._started)) % 86400
        return f"{now // 3600:02d}:{now // 60 % 60:02d}:{now % 60:02d}"

    def tick(self) -> None:
        if self.screen.row_text(0)[70:] == "\u250c" + "\u2500" * 8 + "\u2510":   # not over F5's page
            self.show()

    def redraw_frame(self) -> None:
        f = self.frame
        f.sound, f.demo = self.sound, self.demo
        ts.draw_frame(self.screen, f)

    def draw_table(self) -> None:
        hand = self.hand
        if hand is None:
            return
        t, f = hand.t, self.frame
        f.turn = t.turn if t.turn >= 1 else None
        f.knock = t.knock_value if t.knock_set else None
        f.drawn = t.top
        self.redraw_frame()
        for p in Player:
            places = t.hands[p][1:t.hands[p][0] + 1]
            face_up = p == YOU or self.open_hands or self.revealed
            matched = sum(len(m) for m in t.melds.get(p, [])) if face_up else None
            ticks = self.laid_off_places if p != hand.knocker else set()
            ts.draw_hand(self.screen, p, places, face_up, f, matched,
                         hand.shown_pv(p) if face_up else None, ticks)
        ts.draw_pile_and_deck(self.screen, t.pile_top(), t.hands[computer.PILE][0], 52 - t.top, f)
        ts.draw_up(self.screen, hand.player or None, self.demo, not self.colour)

    def conf_overflow(self, player: int, shared: int) -> None:
        """The arrangement of ``player``'s hand found more cards shared by a straight and a
        flat than GINRUMMY.EXE's CONF array holds: the original writes past the array and
        crashes (docs/ginrummy-internals.md, section 12).  The session records the fault the
        traces end with, tells the player in one line (kept until the next deal), and the
        hand is arranged by the document's rule (computer.arrange) and played on.  Said once
        a hand (its later arrangements overflow too: the knock's, the scoring's)."""
        if self._overflowed is self.hand:
            return
        self._overflowed = self.hand
        self.events.append(computer.shared_cards_fault(Player(player).word))
        self._notice(overflow_notice(shared))

    def unmodelled(self, reason: str) -> None:
        """The lay-offs of the original read memory past SL() that the Python game does not
        model (computer.UnmodelledMemory): the hand's lay-offs follow the document instead."""
        self._notice(UNMODELLED_NOTICE)

    def _notice(self, text: str) -> None:
        self.notices.append(text)
        self.screen.put(NOTICE_ROW, 0, text.center(80), NOTICE_COLOUR)
        self.show()
        self.pause(HAND_END_PAUSE)

    # -- messages (line 12640) ----------------------------------------------------------------
    def say_next(self, *texts: str) -> None:
        """The texts of the next messages the game shows (none: forget those not shown)."""
        self._texts = list(texts)

    def _on_message(self, colour: int | None) -> None:
        text = self._texts.pop(0) if self._texts else self._fallback_text()
        self.messages.append(text)
        self.draw_table()
        ts.draw_message(self.screen, text, colour)
        self.show()
        if text and not self._prompting_text(text):
            self.pause(MESSAGE_PAUSE)

    def _fallback_text(self) -> str:
        h = self.hand
        if h is not None and not h.knocker and h.t.top >= computer.DEAD_TOP and h.player:
            return "DEAD HAND"
        return ""

    @staticmethod
    def _prompting_text(text: str) -> bool:
        return text.startswith(("DRAW FROM", "DISCARD WHICH", "KNOCK?", "ARE YOU NUTS"))

    # -- keys ---------------------------------------------------------------------------------
    def _key(self, timeout: float | None) -> str | None:
        """The next key (None: ``timeout`` passed).  A resize of the terminal and Ctrl-L
        repaint the whole screen and come back as keys nobody accepts; while the terminal
        is smaller than 80x25 the game waits (F7 then Y still quits)."""
        try:
            key = self.keyboard.key(timeout)
        except EOFError:
            raise Quit from None
        if key in REPAINT_KEYS:
            self.repaint()
            while not self._fits():
                try:
                    waiting = self.keyboard.key(None)
                except EOFError:
                    raise Quit from None
                if waiting == "F7":
                    self.ask_quit()
                elif waiting in REPAINT_KEYS:
                    self.repaint()
        return key

    def _fits(self) -> bool:
        fits = getattr(self.display, "fits", None)
        return fits() if fits is not None else True

    def repaint(self) -> None:
        """The whole screen again (after a resize, or Ctrl-L)."""
        repaint = getattr(self.display, "repaint", None)
        if repaint is not None:
            repaint(self.screen)
        else:
            self.display.show(self.screen)

    def prompt_key(self) -> str:
        """A key at a prompt; hot keys are served first (F2 turning demo on takes over)."""
        while True:
            key = self._key(None)
            if key is None:
                continue
            if key in HOT_KEYS:
                if self.hot_key(key) and self.demo:
                    raise TakeOver
                continue
            return key

    def pause(self, seconds: float) -> None:
        """The program's waits (TIMER loops): hot keys work, other keys are lost."""
        end = self.clock() + seconds * self.pace
        while True:
            left = max(0.0, end - self.clock())
            key = self._key(left)
            if key is None:
                return
            if key in HOT_KEYS:
                self.hot_key(key)

    def hot_key(self, key: str) -> bool:
        """F1, F2, F5, F7 (lines 13400-13800); True when F2 toggled demo mode."""
        if key == "F1":
            self.sound = not self.sound
        elif key == "F2":
            self.demo = not self.demo
        elif key == "F5":
            self.show_instructions()
        elif key == "F7":
            self.ask_quit()
        self.redraw_frame()
        if self.hand is not None:
            ts.draw_up(self.screen, self.hand.player or None, self.demo, not self.colour)
        self.show()
        return key == "F2"

    def ask_quit(self) -> None:
        saved = [list(self.screen.cells[5])]
        self.screen.put(5, 0, "QUIT?", 0x0F)
        self.show()
        while True:
            key = self._key(None)
            if key == "Y":
                raise Quit
            if key == "N":
                self.screen.cells[5] = saved[0]
                return

    def show_instructions(self) -> None:
        saved = self.screen.copy()
        pages = shared_instructions.pages_from_disk(self.disk, instructions.DOC)
        page = 0
        while True:                                     # the original's colours, whole rows
            shared_instructions.draw_page(self.screen, pages[page], 0x4F, 0x1E, 0xCF)
            self.show(table=False)
            key = self._key(None)
            while key not in (" ", "ESC"):
                key = self._key(None)
            if key == "ESC":
                break
            page = (page + 1) % len(pages)
        self.screen = saved

    def nuts(self) -> bool:
        """A card of a meld chosen: "ARE YOU NUTS? ... CANCEL?" (line 5660).  Y: the
        discard prompt again (a new message); N: that card goes, and this message
        stands for the one the hand shows after your answer."""
        hand = self.hand
        self.say_next(human.SPOILING_PROMPT)
        hand._message()
        while True:
            key = self.prompt_key()
            if key == "Y":
                self.say_next(human.DISCARD_PROMPT)
                hand._message()
                self.say_next("")
                return True
            if key == "N":
                hand.skip_next_message = True
                return False

    # -- the program ----------------------------------------------------------------------------
    def run(self) -> None:
        """Until F7 and Y (or the keys run out): Quit is raised and caught here."""
        try:
            self._run()
        except Quit:
            pass

    def _run(self) -> None:
        random = self.random
        back = random.card_back(0)                              # lines 490-520
        colours = random.colours()                              # lines 630-670
        self.frame = ts.Frame(colours=colours, back=back, mono=not self.colour)
        self.screen.clear()
        self.redraw_frame()
        self.ask_options()
        self.frame.variant = self.variant
        dealer = random.dealer()                                # line 1790
        match = Match(self.variant, events=self.events)    # the match writes its scores there
        tunes = Tunes()
        games = [0, 0, 0]
        while True:                                             # a game (line 1130)
            self.game_started = self.clock()
            self.frame.game = match.game
            while True:                                         # a hand
                dealt = self.deal(dealer, match, back)
                back = dealt.back
                next_dealer, game_over = self.play_hand(dealt, match, tunes, games)
                dealer = next_dealer
                if game_over:
                    break
            if self.games_to_play is not None and match.game >= self.games_to_play:
                raise Quit
            match.new_game()
            dealer = random.dealer()                            # line 1790 again

    def ask_options(self) -> None:
        """Lines 1260 and 1550: the variant, then OPEN HANDS? (hot keys work here too)."""
        self.screen.put(4, 0, VARIANT_PROMPT, 0x0E)
        self.show()
        if self.answers is not None:
            key = next(k for k, (v, _n) in VARIANT_KEYS.items() if v == self.answers[0])
        else:
            key = self.prompt_key_at_start(VARIANT_KEYS)
        self.variant, name = VARIANT_KEYS[key]
        self.screen.put(4, len(VARIANT_PROMPT) + 1, name, 0x0E)
        self.screen.put(5, 0, OPEN_HANDS_PROMPT, 0x0C)
        self.show()
        if self.answers is not None:
            key = "Y" if self.answers[1] else "N"
        else:
            key = self.prompt_key_at_start({"Y": 1, "N": 1})
        self.open_hands = key == "Y"
        self.screen.put(5, len(OPEN_HANDS_PROMPT), key, 0x0C)
        self.show()

    def prompt_key_at_start(self, accepted) -> str:
        while True:
            try:
                key = self.prompt_key()
            except TakeOver:                # F2 here only turns demo mode on
                continue
            if key in accepted:
                return key

    def deal(self, dealer: int, match: Match, back: int) -> original.Deal:
        """Lines 1860-2220: a cleared table, "YOU DEAL" / "I DEAL", the shuffle, the deal."""
        self.hand = None
        self.screen.clear(0, 17)
        ts.draw_up(self.screen, None, self.demo, not self.colour)
        self.frame.hand = match.hand + 1
        self.frame.turn = self.frame.knock = None
        self.frame.drawn = 0
        f = self.frame
        f.hands_won, f.scores, f.points = _boxes(match.hands_won), _boxes(match.scores), _boxes(match.points)
        self.redraw_frame()
        self.say_next(f"{who(dealer)} DEAL", "*SHUFFLING*", "")
        dealt = original.deal_hand(self.random, dealer, back, self.sound)
        self.say_next()
        f.back = dealt.back
        self.hand_started = self.clock()
        self.animate_deal(dealt)
        return dealt

    def animate_deal(self, dealt: original.Deal) -> None:
        """The cards go out one at a time from the deck (lines 2160-2220): yours face up,
        the computer's face down (unless OPEN HANDS), in the order dealt until arranged."""
        shown = {YOU: [], COMPUTER: []}
        ts.draw_pile_and_deck(self.screen, None, 0, 52, self.frame)
        self.show()
        for j in range(20):
            player = 3 - dealt.dealer if j % 2 == 0 else dealt.dealer
            shown[player].append(dealt.deck[j])
            self.frame.drawn = j + 1
            self.redraw_frame()
            for p in Player:
                ts.draw_hand(self.screen, p, shown[p], self.open_hands or p == YOU, self.frame)
            ts.draw_pile_and_deck(self.screen, None, 0, 51 - j, self.frame)
            self.show()
            self.pause(DEAL_PAUSE)
        self.frame.drawn = 21
        self.redraw_frame()
        ts.draw_pile_and_deck(self.screen, dealt.deck[20], 1, 31, self.frame)
        self.show()

    def play_hand(self, dealt: original.Deal, match: Match, tunes: Tunes,
                  games: list[int]) -> tuple[int, bool]:
        """One hand and its score (lines 2230-3060, as game.demo_hand); the next dealer
        and whether the game is over."""
        hand = Hand.dealt(dealt.deck, dealt.dealer, self.variant, self.random, self.open_hands,
                          self.meld_arrays, seats={YOU: TerminalSeat(self)})
        self.events.append(hand.deal_event(match.game, match.next_hand()))   # as the traces write it
        hand.watcher = Narrator(self)
        hand.t.on_overflow = self.conf_overflow            # play on where the original crashes
        hand.t.on_unmodelled = self.unmodelled             # ... or reads what is not modelled
        first_event = len(self.events)
        hand.events = self.events                          # the hand's events, as they happen
        self.hand, self.revealed, self.laid_off_places = hand, False, set()
        hand.play()
        if not hand.knocker:
            self.pause(HAND_END_PAUSE)
            return hand.player, False                      # line 2600: the last mover deals
        self.revealed = True                # both hands face up from the knock's scoring on
        self.say_next(*self.hand_end_texts(hand, first_event))
        score, knocker, knocker_pv, other_pv = hand.outcome
        result = match.score_hand(score, Player(knocker).word, knocker_pv, other_pv)
        hand.finish(self.sound, tunes)                     # its messages and tune (no events)
        self.say_next()
        f = self.frame                                     # the boxes after the messages
        f.hands_won, f.scores = _boxes(match.hands_won), _boxes(match.scores)
        self.redraw_frame()
        self.show()
        self.pause(HAND_END_PAUSE)
        if result is None:
            return hand.winner, False                      # line 3060: the winner deals
        winner = Player.from_word(result.winner)
        games[winner] += 1
        f.games = list(games)
        f.points = _boxes(match.points)
        texts = [f"{who(winner)} WON THE GAME! ({self.seconds_since(self.game_started)} SECS)",
                 f"{who(winner)} GET {result.game_points} GAME POINTS"]
        if result.shutout:
            texts.append("OH NO! YOU SKUNKED ME!" if winner == YOU else "HA HA HA! I SKUNKED YOU!")
        self.say_next(*texts)
        for _ in texts:                                    # lines 3160-3360
            self.random.message_colour()
        self.say_next()
        self.pause(HAND_END_PAUSE)
        return winner, True

    def hand_end_texts(self, hand: Hand, first_event: int) -> list[str]:
        """The messages after a knock (lines 2650-2990): gin or the lay-offs (whose places
        are ticked), an undercut, the winner."""
        score, knocker, _k, _o = hand.outcome
        other = 3 - knocker
        laid = {original.number_of(Card.parse(e["card"]))
                for e in self.events[first_event:] if e["event"] == "layoff"}
        places = hand.t.hands[other][1:hand.t.hands[other][0] + 1]
        self.laid_off_places = {k for k, c in enumerate(places, 1) if c in laid}
        texts = []
        if score.result == rules.GIN:
            texts.append(f"{who(knocker)} GO GIN!")
        elif hand.laid_off:
            layer = "I AM" if other == COMPUTER else "YOU ARE"
            texts.append(f"{layer} LAYING OFF CARD " + " ".join(str(k) for k in sorted(self.laid_off_places)))
        winner = hand.winner
        if winner != knocker:
            texts.append("YOU UNDERCUT ME!" if winner == YOU else "TA TA, AN UNDERCUT!")
        points = f"{score.points} POINT{'' if score.points == 1 else 'S'}"
        texts.append(f"{who(winner)} WON THE HAND! ({points}, {self.seconds_since(self.hand_started)} SECS)")
        return texts


def _boxes(by_word: dict[str, int]) -> list[int]:
    """A match's per-player numbers as the frame's boxes hold them: index 1 you, 2 the computer."""
    return [0, *(by_word[p.word] for p in Player)]


def time_now() -> tuple[int, int, int, int]:
    """The time of day as DOS gives it to TIMER (hundredths), the original's seed."""
    now = _time.time()
    t = _time.localtime(now)
    return t.tm_hour, t.tm_min, t.tm_sec, int(now * 100) % 100


def play_in_terminal(start: tuple[int, int, int, int], *, colour: bool = True,
                     disk: str | None = "1612", pace: float = 1.0, demo: bool = False,
                     sound: bool = True, answers: tuple[str, bool] | None = None,
                     games: int | None = None, command: str = "play") -> int:
    """``python -m games_py.ginrummy play`` (and ``demo`` on a terminal): the game on this
    terminal until F7, Y (or ``games`` games)."""
    import sys

    from games_py.ginrummy.tty_io import AnsiDisplay, TerminalKeyboard
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        sys.stderr.write(f"ginrummy {command}: the game needs a terminal (keys one at a time and an "
                         "80x25 screen); stdin or stdout is not one\n")
        return 2
    import os
    columns, rows = os.get_terminal_size(sys.stdout.fileno())
    if columns < 80 or rows < 25:
        sys.stderr.write(f"ginrummy {command}: the screen is 80x25, this terminal is {columns}x{rows}; "
                         "make it larger\n")
        return 2
    try:
        with TerminalKeyboard() as keyboard, AnsiDisplay(mono=not colour) as display:
            Session(keyboard, display, start, colour=colour, disk=disk, pace=pace, demo=demo,
                    sound=sound, answers=answers, games=games).run()
    except KeyboardInterrupt:                  # Ctrl-C: the terminal is restored, no traceback
        return 130
    return 0


def demo_in_lines(start: tuple[int, int, int, int], out, *, colour: bool = True, pace: float = 0.0,
                  sound: bool = True, answers: tuple[str, bool], games: int = 1) -> int:
    """``demo --plain`` (and ``demo`` into a pipe): the computer plays both hands for
    ``games`` games, told in sentences (games_py.ginrummy.lines)."""
    from games_py.ginrummy.lines import LineDisplay, NoKeys
    display = LineDisplay(out)
    session = Session(NoKeys(), display, start, colour=colour, disk=None, pace=pace, demo=True,
                      sound=sound, answers=answers, games=games)
    display.session = session
    session.run()
    display.show()
    return 0
