"""Tracing the original Tommy's Gin Rummy (GINRUMMY.EXE on PC-SIG disk #1612):
``pcemu trace ginrummy`` (``trace_command``, found through the ``pcemu.tracers``
entry points; the game's knowledge stays with the game, the machine stays generic).

The unmodified program runs in pcemu's machine; the tracer only watches (see
pcemu.trace.qbasic, the machine's generic QuickBASIC tracer) and writes events in the trace format
(docs/trace-format.md) from what the program itself holds:

* the seed: just before DOS answers the INT 21h AH=2Ch of ``RANDOMIZE TIMER``
  (line 110) the machine's clock is set to --time, so that is exactly what the
  program reads, to the hundredth.  Setting the clock then is the same as having
  started the PC at the right moment: the program has not looked at the time
  before.  The RND state is read back after RANDOMIZE;
* the deal: at line 2230, the first statement after the upcard is turned, from
  the hands array H(3, 52) (still in the order dealt), the deck pointer and the
  knock value;
* the play: at every message the program shows (GOSUB 12640, entered at line
  12640 with the text in M$): "I'M DRAWING FROM DECK", "YOU'RE DISCARDING CARD 7",
  "PLAYER 2 KNOCKS", "I AM LAYING OFF CARD 2 9", "YOU WON THE HAND! (...)", ...
  The cards come from the program's arrays at that moment: the top of the deck
  D(TOP+1), the top of the upcard pile H(3, H(3,0)), card n of the hand H(P, n),
  the knocker's straights and flats (the arrays its arrangement fills), and the
  scores from the score variables.  Each draw and discard is checked at the next
  message against the hands, so a misreading stops the trace with an error
  instead of writing a wrong event;
* a fault of the program: at line 8320, when line 8310 has stored more cards shared by
  a straight and a flat than its array CONF holds (C at DGROUP:11C6), the trace ends
  with a ``fault`` event: the program has overwritten another array's descriptor and
  will crash later;
* the melds laid down: at line 2630, after line 2540 arranged the knocker's hand
  again (a new coin toss on shared cards), from S() and F(); written as
  ``rearranged`` when they are not the knock's, and the lay-offs go on them.

Keys, as a user would press them: ``GINRUMMY``, Enter; at the variant prompt
(the first time the program reads keys after turning its ON KEY traps on, so
the earliest moment F1 and F2 act) F1 when --sound off, F2 when --demo, then
S/O/C; at OPEN HANDS? Y or N.  With --human POLICY the policy answers your
prompts (DRAW FROM ..., DISCARD WHICH CARD, KNOCK?, ARE YOU NUTS?): at line 12640
with the prompt in M$ it is asked with the view built from the program's arrays
(games_py.ginrummy.human_hand.table_view), and the run loop types its key; the
program waits for it at INKEY$.  Without --demo or --human nobody plays your hand,
so the trace ends after the first deal.  --display mono gives the machine an MDA card.
After the deal the program's own flags (sound, colour display, open hands,
variant) are checked against the settings: an F1 typed before the program turns
its traps on is lost, and the trace must not claim a session that did not happen.

DGROUP offsets are those of GINRUMMY.EXE 1.0 (docs/ginrummy-internals.md, section 9).
"""
from __future__ import annotations

from dataclasses import dataclass

import click

from games_py import tracing
from games_py.cards import Card
from games_py.ginrummy import computer, game, human, rules, trace
from games_py.ginrummy.cli import check_output, settings_from, trace_options, write_events
from games_py.ginrummy.deal import card_of
from games_py.ginrummy.human_hand import table_view
from games_py.ginrummy.player import Player
from games_py.tracing import TraceFailure, user_errors
from pcemu.trace.qbasic import QuickBasicProcess

PROGRAM = "GINRUMMY.EXE"
PROGRAM_MD5 = "b54a7ce184090f593b0ce8be2eabf839"      # Tommy's Gin Rummy 1.0, disk #1612

# BASIC lines (from the program's statement table)
LINE_AFTER_DEAL = 2230
LINE_MESSAGE = 12640          # GOSUB 12640 shows M$ on line 18
LINE_ARRANGED = 7480          # RETURN of the arrangement (GOSUB 7420 arranges H(P, .))
LINE_LAY_OFFS = 2630          # IF PV(KNOCKER) > 0 THEN lay-offs: after line 2540 arranged the knocker again
LINE_SHARED_STORED = 8320     # reached only after line 8310 stored shared card C in CONF
LINE_LAID_ONE = 6100          # a card was just laid off: X, and the row I of SL() or FL() it went on

# DGROUP offsets
RND_STATE = 0x0850
M_STRING = 0x10C0
TRUE_FLAG, CLUBS = 0x0EFC, 0x0F12
DECK, HANDS = 0x0F68, 0x0FDA               # D(52); H(3, 52): H(P, 0) slots, H(P, k) cards, P 3 = pile
PV, UNMATCHED = 0x0FBC, 0x0FC6             # per player
STRAIGHTS, FLATS = 0x0FFE, 0x100A          # S(4, 52), F(4, 52): S(m, 0) size, S(m, k) cards
STRAIGHTS_LAID, FLATS_LAID = 0x101A, 0x1026  # copies the lay-offs extend
N_STRAIGHTS, N_FLATS = 0x1016, 0x1018
LAY_OFF_FLATS = 0x117A                      # NFL, the lay-offs' flat count (line 6230)
LAID_CARD, LAID_ROW = 0x1132, 0x0F74        # X, and I of the FOR loop of line 6310 or 6490
SCORES, HANDS_WON, GAME_POINTS = 0x1086, 0x1090, 0x109A
GAME, HAND, DEALER = 0x10A6, 0x10D0, 0x10D8
OKLAHOMA, COWBOY = 0x10BC, 0x10BE
OPEN_HANDS, COLOUR_OK, SOUND_ON = 0x0F2E, 0x0F40, 0x0F46   # TRUE (-1) or FALSE (0)
KNOCK_VALUE, KNOCK_SUIT = 0x10E0, 0x1114
KNOCKS = 0x1100                             # the knock decision (lines 5040, 5850)
TURN = 0x10DE                               # "TURN:", counts the non-dealer's moves
TOP = 0x10EC
SHARED = 0x11C6                             # C, the cards shared by a straight and a flat (line 8240)
PLAYER = 0x0F30                             # whose turn it is
P_ARG = 0x10F4                              # P, the player a subroutine works on
PLACES = 0x10FC                             # the places the last arrangement closed up (7150)
KNOCKER, WINNER, OTHER = 0x10FE, 0x1106, 0x1108
HAND_POINTS, KNOCKER_PV, OTHER_PV = 0x110A, 0x110C, 0x110E
GAME_WINNER, GAME_POINTS_WON = 0x111A, 0x1120

# how the prompts of the human's turn begin (the whole texts: games_py.ginrummy.human.PROMPTS)
PROMPT_STARTS = ("DRAW FROM ", "DISCARD WHICH", "KNOCK?", "ARE YOU NUTS?")

MAX_MELDS = 4
ARRANGEMENTS_KEPT = 256
MAX_SECONDS_PER_HAND = 30 * 60             # virtual time: a hand takes one to three minutes
SLICE_TICKS = 1.0
# every statement starts with INT 3, and the program's waits (keys, pauses) are loops of
# statements; only a program that has gone astray runs this long without one
MAX_SECONDS_WITHOUT_STATEMENTS = 20


def player_name(number: int) -> str:
    if number not in (1, 2):
        raise TraceFailure(f"player number {number} is neither 1 (you) nor 2 (the computer)")
    return Player(number).word


_image = tracing.program_image      # (tests/test_speed_equivalence.py reads the image by this name)


def read_program(disk: str) -> bytes:
    """GINRUMMY.EXE from the disk image (a catalogue name such as 1612, or a path)."""
    return tracing.read_program(disk, PROGRAM, PROGRAM_MD5, "Tommy's Gin Rummy 1.0 as on PC-SIG #1612")


@dataclass
class _PendingDraw:
    player: int
    source: str
    card: Card
    hand_before: frozenset[Card]


@dataclass
class _PendingDiscard:
    player: int
    card: Card


class GinRummyTracer:
    """Run the original with ``settings`` and collect the events of ``hands`` hands."""

    def __init__(self, settings: game.Settings, hands: int = 1, disk: str = "1612",
                 first_game: bool = False) -> None:
        from pcemu.machine import Machine
        self.settings = settings
        self.hands_wanted = hands
        self.first_game = first_game       # stop at the first game's end, however many hands
        # a monochrome display (MDA) is what the program's colour test (line 100) sees
        # as mono: it then spends no random numbers on colours
        self.machine = Machine(disks=[f"B:{disk}"], video="cga" if settings.colour else "mda")
        self.process = QuickBasicProcess(self.machine, tracing.program_image(read_program(disk)))
        self.events: list[dict] = []
        self.hands_done = 0
        self.dealt = False                 # the first deal has been traced
        self.in_hand = False               # between a deal and the hand's end
        self.finishing = False             # the hands asked for are over
        self.done = False
        self.seed_read: tuple[int, int, int, int] | None = None
        self._pending_draw: _PendingDraw | None = None
        self._pending_discard: _PendingDiscard | None = None
        self._knock_value: tuple[int, bool] | None = None
        self._knocker_melds: list[list[Card]] = []
        self._arranged: dict[frozenset[Card], list[list[Card]]] = {}
        self._last_discard: dict[int, Card] = {}
        self.messages: list[str] = []
        # --human: the policy answers the prompts; its keys wait here for the run loop
        self.policy = human.policy_from(settings.human) if settings.human is not None else None
        self.keys: list[str] = []
        self._knock_asked: str | None = None   # the key typed at "KNOCK? ", until it is read
        p = self.process
        tracing.watch_seed(p, settings.time, self._seed_read, self._seeded)
        p.at_line(LINE_AFTER_DEAL, self._after_deal)
        p.at_line(LINE_MESSAGE, self._message)
        p.at_line(LINE_ARRANGED, self._arrangement_done)
        p.at_line(LINE_LAY_OFFS, self._arranged_again)
        p.at_line(LINE_SHARED_STORED, self._shared_card_stored)
        p.at_line(LINE_LAID_ONE, self._laid_one)
        self._laid: list[tuple[Card, bool, int]] = []    # (card, on a flat, row) per lay-off

    # -- running ----------------------------------------------------------------------
    def run(self) -> list[dict]:
        m = self.machine
        s = self.settings
        keys = "GINRUMMY{ENTER}{WAIT:COWBOY GIN?}"
        keys += "{F1}" if not s.sound else ""
        keys += "{F2}" if s.demo else ""
        keys += {rules.STANDARD: "S", rules.OKLAHOMA: "O", rules.COWBOY: "C"}[s.variant]
        keys += "{WAIT:OPEN HANDS?}" + ("Y" if s.open_hands else "N")
        m.type(keys)
        if self.seed_read != s.time:
            raise TraceFailure(f"the program read {self.seed_read} at RANDOMIZE TIMER, not {s.time}")
        limit = m.ticks + 18.2065 * MAX_SECONDS_PER_HAND
        hands_seen = 0
        statements, quiet_since = self.process.statements, m.ticks
        while not self.done:
            m.run(SLICE_TICKS)
            if self.process.statements != statements:
                statements, quiet_since = self.process.statements, m.ticks
            elif m.ticks - quiet_since > 18.2065 * MAX_SECONDS_WITHOUT_STATEMENTS:
                raise TraceFailure(
                    f"the program executed no BASIC statement for {MAX_SECONDS_WITHOUT_STATEMENTS} s "
                    f"of virtual time (CS:IP {m.cpu.cs:04X}:{m.cpu.ip:04X}, the program at "
                    f"{self.process.load_segment:04X}:0000); screen:\n" + m.screen_text())
            while self.keys and not self.done:
                m.type(self.keys.pop(0))    # the answer to a prompt, typed as a user would
            if self.dealt and not s.played:
                break                       # nobody plays your hand: the trace ends at the deal
            if self.hands_done != hands_seen:
                hands_seen = self.hands_done
                limit = m.ticks + 18.2065 * MAX_SECONDS_PER_HAND
            if m.ticks > limit:
                raise TraceFailure(f"no hand ended within {MAX_SECONDS_PER_HAND // 60} minutes of "
                                   "virtual time; screen:\n" + m.screen_text())
        self.process.detach()
        return self.events

    # -- the seed ---------------------------------------------------------------------
    def _seed_read(self, time: tuple[int, int, int, int]) -> None:
        self.seed_read = time

    def _seeded(self) -> None:
        p = self.process
        state = int.from_bytes(p.bytes_at(RND_STATE, 3), "little")
        time = self.seed_read or self.settings.time
        s = self.settings
        self.events.append(trace.start_event(
            time=game.format_time(time), variant=s.variant, sound=s.sound, open_hands=s.open_hands,
            demo=s.demo, rnd_seed=state, source="original", colour=s.colour, human=s.human))

    # -- reading the table --------------------------------------------------------------
    def _hand(self, player: int) -> list[int]:
        """H(player, 1..H(player, 0)), gaps (0) included."""
        h = self.process.array2(HANDS, 3, 52)
        return h[player][1:h[player][0] + 1]

    def _cards(self, player: int) -> list[Card]:
        return [card_of(c) for c in self._hand(player) if c]

    def _pile_top(self) -> Card | None:
        pile = self._cards(3)
        return pile[-1] if pile else None

    def _knock_now(self) -> tuple[int, bool]:
        p = self.process
        double = p.integer(OKLAHOMA) != 0 and p.integer(KNOCK_SUIT) == p.integer(CLUBS)
        return p.integer(KNOCK_VALUE), double

    # -- the deal -----------------------------------------------------------------------
    def _check_settings(self) -> None:
        """The program must run with the settings the trace states: a key that came too
        early for its trap, or a display the colour test reads otherwise, would make the
        trace describe a session that did not happen."""
        p, s = self.process, self.settings
        wanted = {"sound": (SOUND_ON, s.sound), "a colour display": (COLOUR_OK, s.colour),
                  "open hands": (OPEN_HANDS, s.open_hands),
                  "Oklahoma scoring": (OKLAHOMA, s.variant in (rules.OKLAHOMA, rules.COWBOY)),
                  "Space Cowboy knocking": (COWBOY, s.variant == rules.COWBOY)}
        for name, (offset, expected) in wanted.items():
            actual = p.integer(offset) != 0
            if actual != expected:
                raise TraceFailure(f"the program dealt with {name} {'on' if actual else 'off'}, "
                                   f"not {'on' if expected else 'off'} as asked")

    def _after_deal(self) -> None:
        p = self.process
        if not self.dealt:
            self._check_settings()
        you, computer, pile = self._cards(1), self._cards(2), self._cards(3)
        if len(you) != 10 or len(computer) != 10 or len(pile) != 1:
            raise TraceFailure(f"after the deal the hands hold {len(you)} and {len(computer)} cards "
                               f"and the pile {len(pile)}")
        knock, double = self._knock_now()
        self._knock_value = (knock, double)
        self.events.append(trace.deal_event(
            game=p.integer(GAME), hand=p.integer(HAND), dealer=player_name(p.integer(DEALER)),
            you=you, computer=computer, upcard=pile[0], stock=52 - p.integer(TOP),
            knock=knock, double=double))
        self.dealt = self.in_hand = True
        if self.hands_wanted == 0:
            self._stop()

    # -- the play, message by message ---------------------------------------------------------
    def _message(self) -> None:
        text = self.process.string(M_STRING)
        self.messages.append(text)
        if self.done:
            return
        if self.in_hand:
            self._settle()
        if self._knock_asked is not None:
            self._knock_answered()
        if self.finishing and text.endswith(" DEAL"):
            self._stop()                    # the next hand begins: the hands asked for are traced
        elif self.policy is not None and text.startswith(PROMPT_STARTS):
            self._answer(text)
        elif "DRAWING" in text:
            self._draw(text)
        elif "DISCARDING CARD" in text:
            self._discard(text)
        elif text.endswith(" KNOCKS"):
            self._knock(int(text.split()[1]))
        elif "LAYING OFF CARD" in text:
            self._lay_off(text)
        elif "WON THE HAND!" in text:
            self._hand_end()
        elif text == "DEAD HAND":
            self.events.append(trace.dead_hand_event(next_dealer=player_name(self.process.integer(PLAYER))))
            self._hand_over()
        elif text.endswith(" GAME POINTS"):
            self._game_end()
            if self.finishing or self.first_game:
                self._stop()

    # -- the human's prompts (--human) ---------------------------------------------------------
    def _view(self) -> human.HumanView:
        """What you see at a prompt, from the program's tables (as the Python game builds it)."""
        p = self.process
        knock, double = self._knock_now()
        return table_view(p.array2(HANDS, 3, 52), p.array(UNMATCHED, 3)[1], p.array(PV, 3)[1],
                          p.integer(TOP), p.integer(TURN), knock, double, self.settings.variant,
                          self.settings.open_hands)

    def _answer(self, text: str) -> None:
        """Ask the policy, and leave the key for the run loop to type: the program waits
        for it at INKEY$ (lines 5370, 5520, 5810), so when it comes only moves the clock."""
        if text not in human.PROMPTS:
            raise TraceFailure(f"the prompt {text!r} is none of those the human policies know")
        view = self._view()
        if text.startswith("DRAW FROM "):
            if (text == human.DRAW_PROMPT) != (view.upcard is not None):
                raise TraceFailure(f"the prompt {text!r} does not fit the upcard pile {view.pile}")
            key = "U" if human.checked_draw(self.policy, view) == human.UPCARD else "D"
        elif text == human.DISCARD_PROMPT:
            key = "123456789AB"[human.checked_discard(self.policy, view) - 1]
        elif text == human.KNOCK_PROMPT:
            key = "Y" if human.checked_knock(self.policy, view) else "N"
            self._knock_asked = key
        else:
            key = "N"                       # "ARE YOU NUTS? ... CANCEL?": no, discard that card
        self.keys.append(key)

    def _knock_answered(self) -> None:
        """The message after "KNOCK? " (the cleared line, 5880): the program's KNOCKS says
        what it made of the key; a no is written as ``knock_declined``."""
        knocks = self.process.integer(KNOCKS) != 0
        if knocks != (self._knock_asked == "Y"):
            raise TraceFailure(f"typed {self._knock_asked} at KNOCK?, but the program's KNOCKS is {knocks}")
        self._knock_asked = None
        if not knocks:
            self.events.append(trace.knock_declined_event(trace.YOU, self.process.array(PV, 3)[1]))

    def _settle(self) -> None:
        """Check the draw and discard announced by earlier messages, and note a new knock value."""
        if self._pending_draw is not None:
            d = self._pending_draw
            gained = set(self._cards(d.player)) - d.hand_before
            if gained:
                if gained != {d.card}:
                    raise TraceFailure(f"{player_name(d.player)} drew {sorted(map(str, gained))} "
                                       f"from the {d.source}, not {d.card} as read before the draw")
                self._pending_draw = None
        if self._pending_discard is not None:
            d = self._pending_discard
            if d.card not in self._cards(d.player):
                if self._pile_top() != d.card:
                    raise TraceFailure(f"{player_name(d.player)} discarded, but {d.card} is not on the pile")
                self._pending_discard = None
        now = self._knock_now()
        if now != self._knock_value:
            self._knock_value = now
            self.events.append(trace.knock_value_event(*now))

    def _draw(self, text: str) -> None:
        p = self.process
        player = 1 if text.startswith("YOU") else 2
        if "UPCARD" in text:
            source, card = trace.FROM_UPCARD, self._pile_top()
        else:
            top = p.integer(TOP)
            source, card = trace.FROM_DECK, card_of(p.array(DECK, 52)[top + 1])
        if card is None:
            raise TraceFailure("a draw from an empty upcard pile")
        self._pending_draw = _PendingDraw(player, source, card, frozenset(self._cards(player)))
        self.events.append(trace.draw_event(player_name(player), source, card))

    def _discard(self, text: str) -> None:
        player = 1 if text.startswith("YOU") else 2
        position = int(text.rsplit(" ", 1)[1])
        slots = self._hand(player)
        if not 1 <= position <= len(slots) or not slots[position - 1]:
            raise TraceFailure(f"'{text}': there is no card {position} in {slots}")
        card = card_of(slots[position - 1])
        self._pending_discard = _PendingDiscard(player, card)
        self._last_discard[player] = card
        self.events.append(trace.discard_event(player_name(player), card))

    def _melds(self, straights: int, flats: int) -> list[list[Card]]:
        p = self.process
        melds = []
        for descriptor, count in ((straights, p.integer(N_STRAIGHTS)), (flats, p.integer(N_FLATS))):
            if not 0 <= count <= MAX_MELDS:
                raise TraceFailure(f"{count} melds of one kind")
            table = p.array2(descriptor, MAX_MELDS, 52)
            for m in range(1, count + 1):
                size = table[m][0]
                melds.append([card_of(c) for c in table[m][1:size + 1]])
        return melds

    def _arrangement_done(self) -> None:
        """Keep the melds the arrangement found for the hand it arranged.  The computer
        also arranges trial hands while it thinks, so the arrays hold the knocker's melds
        only right after its own hand was arranged: remember them by the cards."""
        if not self.in_hand:
            return
        player = self.process.integer(P_ARG)
        if player not in (1, 2):
            return
        if len(self._arranged) >= ARRANGEMENTS_KEPT:
            self._arranged.pop(next(iter(self._arranged)))
        key = frozenset(self._cards(player))
        self._arranged.pop(key, None)
        self._arranged[key] = self._melds(STRAIGHTS, FLATS)

    def _knock(self, knocker: int) -> None:
        """The knocker's melds: the program arranges a hand after each draw, not after the
        discard, so they are the melds of the eleven cards it held, less the discard."""
        p = self.process
        hand = self._cards(knocker)
        melds = self._arranged.get(frozenset(hand))
        discard = self._last_discard.get(knocker)
        if melds is None and discard is not None:
            melds = self._arranged.get(frozenset(hand) | {discard})
            if melds is not None and any(discard in m for m in melds):
                raise TraceFailure(f"the knocker discarded {discard} from a meld; its melds after "
                                   "the discard were never computed")
        if melds is None:
            raise TraceFailure(f"the knocker's hand {[str(c) for c in hand]} was never arranged")
        self._knocker_melds = rules.canonical_melds(melds)
        self.events.append(trace.knock_event(player_name(knocker), melds,
                                             *self._deadwood(knocker, hand, melds)))

    def _deadwood(self, player: int, hand: list[Card], melds: list[list[Card]]) -> tuple[list[Card], int]:
        """The cards of ``hand`` outside ``melds`` and the player's PV, checked: the melds
        must be real melds of distinct cards of the hand, leaving exactly that PV."""
        matched = [c for m in melds for c in m]
        deadwood = [c for c in hand if c not in matched]
        points = self.process.array(PV, 3)[player]
        if (len(set(matched)) != len(matched) or not set(matched) <= set(hand)
                or not all(rules.is_flat(m) or rules.is_straight(m) for m in melds)
                or rules.pv(deadwood) != points):
            raise TraceFailure(f"the knocker's melds {[[str(c) for c in m] for m in melds]} do not fit "
                               f"the hand {[str(c) for c in hand]} with PV {points}")
        return deadwood, points

    def _arranged_again(self) -> None:
        """Line 2630: line 2540 has arranged the knocker's hand once more (FINAL set: no
        thinking pause, but cards shared by a straight and a flat go to a new coin toss,
        line 8660), and line 2550 only shows hands.  S() and F() hold that arrangement;
        the lay-offs go on it.  When its melds are not those the knock showed, or cards
        of the hand lay beyond PLACES and were left out, say so."""
        if not self.in_hand or self.done:
            return
        knocker = self.process.integer(KNOCKER)
        name = player_name(knocker)                     # 1 or 2, or a clear error
        melds = self._melds(STRAIGHTS, FLATS)
        # line 7060 closed up H(P, 1..PLACES) only: cards beyond a gap there were left out
        slots, places = self._hand(knocker), self.process.integer(PLACES)
        arranged = [card_of(c) for c in slots[:places] if c]
        left_out = [card_of(c) for c in slots[places:] if c]
        deadwood, points = self._deadwood(knocker, arranged, melds)
        if rules.canonical_melds(melds) != self._knocker_melds or left_out:
            self._knocker_melds = rules.canonical_melds(melds)
            self.events.append(trace.rearranged_event(name, melds, deadwood, points, left_out))

    def _shared_card_stored(self) -> None:
        """Line 8320: line 8310 has stored shared card C at CONF(C + 5) .. CONF(C + 20).
        Past computer.MAX_SHARED that write went beyond CONF, over the next array's
        descriptor, and the program later crashes: the trace ends here with a ``fault``,
        as the Python game's does (docs/ginrummy-internals.md, section 12)."""
        if self.done or self.process.integer(SHARED) <= computer.MAX_SHARED:
            return
        self.events.append(computer.shared_cards_fault(player_name(self.process.integer(P_ARG))))
        self._stop()

    def _laid_one(self) -> None:
        """Line 6100: card X has just been laid off on row I of SL() (lines 6380-6440) or
        of FL() (line 6520); FL's row then ends with X and holds NFL cards."""
        p = self.process
        card, row = p.integer(LAID_CARD), p.integer(LAID_ROW)
        flat = False
        if 1 <= row <= MAX_MELDS:
            cells = p.array2(FLATS_LAID, MAX_MELDS, 52)[row]
            flat = cells[0] == p.integer(LAY_OFF_FLATS) and cells[cells[0]] == card
        self._laid.append((card_of(card), flat, row))

    def _lay_off(self, text: str) -> None:
        """The message of line 6170 names the places laid off; line 6100 told which row of
        SL() or FL() took each card.  A straight row past the knocker's straights is a
        phantom (docs/ginrummy-internals.md, section 12)."""
        p = self.process
        layer = p.integer(OTHER)
        slots = self._hand(layer)
        melds = self._melds(STRAIGHTS, FLATS)
        straights = p.integer(N_STRAIGHTS)
        rows = {False: melds[:straights], True: melds[straights:]}
        laid, self._laid = self._laid, []
        positions = text.split("CARD", 1)[1].split()
        if len(laid) != len(positions):
            raise TraceFailure(f"'{text}': {len(laid)} lay-offs were seen at line 6100")
        for position, (card, flat, row) in zip(positions, laid):
            if card_of(slots[int(position) - 1]) != card:
                raise TraceFailure(f"'{text}': place {position} is not {card}, the card laid off")
            if not flat and row > straights:
                self.events.append(trace.phantom_layoff_event(player_name(layer), card, row))
                continue
            meld = set(rows[flat][row - 1]) if row - 1 < len(rows[flat]) else set()
            target = next((i for i, m in enumerate(self._knocker_melds) if set(m) == meld), None)
            if target is None:
                raise TraceFailure(f"{card} was laid off, but on none of the knocker's melds")
            self.events.append(trace.layoff_event(player_name(layer), card, target))

    def _hand_end(self) -> None:
        p = self.process
        knocker, winner = p.integer(KNOCKER), p.integer(WINNER)
        knocker_pv, other_pv = p.integer(KNOCKER_PV), p.integer(OTHER_PV)
        result = rules.GIN if knocker_pv < 1 else rules.KNOCK if winner == knocker else rules.UNDERCUT
        scores, won = p.array(SCORES, 3), p.array(HANDS_WON, 3)
        self.events.append(trace.hand_end_event(
            result=result, winner=player_name(winner), knocker=player_name(knocker),
            points=p.integer(HAND_POINTS), double=self._knock_now()[1], knocker_points=knocker_pv,
            opponent_points=other_pv, scores={trace.YOU: scores[1], trace.COMPUTER: scores[2]},
            hands_won={trace.YOU: won[1], trace.COMPUTER: won[2]}))
        self._hand_over()

    def _game_end(self) -> None:
        p = self.process
        winner = p.integer(GAME_WINNER)
        totals, won, points = p.array(SCORES, 3), p.array(HANDS_WON, 3), p.array(GAME_POINTS, 3)
        loser = 3 - winner
        self.events.append(trace.game_end_event(
            winner=player_name(winner),
            box_bonus={trace.YOU: rules.BOX_BONUS * won[1], trace.COMPUTER: rules.BOX_BONUS * won[2]},
            totals={trace.YOU: totals[1], trace.COMPUTER: totals[2]}, shutout=totals[loser] < 1,
            game_points=p.integer(GAME_POINTS_WON),
            points={trace.YOU: points[1], trace.COMPUTER: points[2]}))

    def _hand_over(self) -> None:
        self.hands_done += 1
        self._pending_draw = self._pending_discard = None
        self._laid.clear()
        self._arranged.clear()
        self._last_discard.clear()
        self.in_hand = False
        # a game-ending hand is followed by the game's end: wait for it (or the next deal)
        self.finishing = self.hands_done >= self.hands_wanted

    def _stop(self) -> None:
        self.done = True
        self.machine.cpu.request_stop()


def trace_original(settings: game.Settings, hands: int = 1, disk: str = "1612",
                   first_game: bool = False) -> list[dict]:
    """The events of the original program for ``settings``, ``hands`` hands long (with
    ``first_game``: until the first game ends, if that comes first)."""
    return GinRummyTracer(settings, hands, disk, first_game).run()


@click.command("ginrummy")
@trace_options
@click.option("--disk", default="1612", show_default=True,
              help="The disk with GINRUMMY.EXE: a catalogue name or an image file.")
def trace_command(disk: str, **opts) -> None:
    """Run the unmodified GINRUMMY.EXE and write its events (JSON Lines).

    --time is what the program reads when it seeds RND (RANDOMIZE TIMER): the
    machine's clock is set to it just before that read.  With --human POLICY the
    policy's answers to your prompts are typed as keys; without --demo or --human
    nobody plays your hand, so the trace ends after the first deal."""
    settings = settings_from(opts)
    check_output(opts["output"])
    try:
        events = trace_original(settings, hands=opts["hands"], disk=disk)
    except user_errors() as exc:
        raise click.ClickException(str(exc)) from None
    write_events(events, opts["output"])
