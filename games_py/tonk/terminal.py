"""The line-based terminal game: renders what the human may see, reads commands.

Everything is read from ``inp`` and written to ``out`` line by line, so a game can
be scripted on stdin.  The function keys of the original are typed as F1 ... F10
at any prompt ('THESE ARE HOT KEYS, MEANING THEY CAN BE HIT AT ANY TIME').
"""
from __future__ import annotations

import random
import time
from typing import Callable, Sequence, TextIO

from games_py.cards import Card
from games_py.melds import best_arrangement
from games_py.tonk.instructions import HELP
from games_py.tonk.match import Session, run_hand
from games_py.tonk.options import Options
from games_py.tonk.players import ComputerPlayer, Observation, is_call_window
from games_py.tonk.pot import BetError, Pot, load_pot, parse_bet, save_pot
from games_py.tonk.rules import (DEADLOCK_RETURNS_EACH, autosort, is_ten_card_hand, swap_cards,
                                 why_illegal)
from games_py.tonk.state import Action, Kind, Phase, Reason, TonkState

YOU, ME = 0, 1            # the human sits in seat 0, the computer in seat 1
RED = "\x1b[31m"
RESET = "\x1b[0m"
BORDER_COLORS = [("BLUE", "\x1b[34m"), ("GREEN", "\x1b[32m"), ("CYAN", "\x1b[36m"),
                 ("MAGENTA", "\x1b[35m"), ("YELLOW", "\x1b[33m"), ("WHITE", "\x1b[37m")]
FKEYS = {"F1", "F2", "F3", "F5", "F7", "F10"}
# What a real function key sends in a line-mode terminal (xterm and the Linux
# console), so pressing F5 works as well as typing "F5".
FKEY_SEQUENCES = {
    "\x1bOP": "F1", "\x1b[11~": "F1", "\x1b[[A": "F1",
    "\x1bOQ": "F2", "\x1b[12~": "F2", "\x1b[[B": "F2",
    "\x1bOR": "F3", "\x1b[13~": "F3", "\x1b[[C": "F3",
    "\x1b[15~": "F5", "\x1b[[E": "F5",
    "\x1b[18~": "F7",
    "\x1b[21~": "F10",
}


class QuitGame(Exception):
    """F7, end of input or Ctrl-C: leave the program (the pot is saved)."""


def who(seat: int) -> str:
    return "YOU" if seat == YOU else "I"


class TerminalGame:
    def __init__(self, inp: TextIO, out: TextIO, options: Options, seed: int, *,
                 pot_path: str | None = None, demo: bool = False, demo_bet: int = 10,
                 hands: int | None = None, color: bool = False, delay: float = 0.0,
                 sleep: Callable[[float], None] = time.sleep, session: Session | None = None):
        self.inp, self.out = inp, out
        self.options = options
        self.sound = options.sound
        self.color = color
        self.border = 0
        self.autosort = False
        self.demo = demo                   # F2: the computer plays your hand too
        self.demo_only = demo              # started as `demo`: no prompts at all
        self.demo_bet = demo_bet
        self.hands_limit = hands
        self.delay, self.sleep = delay, sleep
        self.seed = seed
        self.session = session or Session(random.Random(f"tonk-deal-{seed}"), options.no_passing)
        self.computer = ComputerPlayer(random.Random(f"tonk-computer-{seed}"))
        self.stand_in = ComputerPlayer(random.Random(f"tonk-stand-in-{seed}"))
        self.pot_path = pot_path
        self.may_save = pot_path is not None
        self.pot = Pot()
        self.state: TonkState | None = None
        self.hands_played = 0
        self.bet = self.stake = 0

    # ------------------------------------------------------------ output helpers
    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def beep(self) -> None:
        if self.sound:
            self.out.write("\a")

    def card_text(self, c: Card) -> str:
        if self.color and c.suit in "HD":
            return f"{RED}{c}{RESET}"
        return str(c)

    def cards_text(self, cs) -> str:
        return " ".join(self.card_text(c) for c in cs)

    def legend(self) -> str:
        """'THE LEGEND FOR A TOGGLE SWITCH INDICATES THE MODE THAT WILL BE ENTERED'."""
        return (f"F1 SOUND {'OFF' if self.sound else 'ON'}  F2 DEMO {'OFF' if self.demo else 'ON'}  "
                f"F3 AUTOSORT {'OFF' if self.autosort else 'ON'}  F5 HELP  F7 QUIT  F10 BORDER")

    def rule_line(self) -> str:
        line = "=" * 64
        if self.color:
            return f"{BORDER_COLORS[self.border][1]}{line}{RESET}"
        return line

    # ------------------------------------------------------------ input
    def ask(self, prompt: str, instant: str = "") -> str:
        """One line from the player.  ``instant``: keys that are a whole answer (the
        full-screen game takes them without Enter; a line is always ended by Enter)."""
        self.out.write(prompt + " ")
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise QuitGame
        line = line.strip()
        return FKEY_SEQUENCES.get(line, line)

    def hot_key(self, key: str) -> bool:
        """Handle a function key; True if ``key`` was one."""
        key = key.upper()
        if key not in FKEYS:
            return False
        if key == "F1":
            self.sound = not self.sound
            self.say(f"SOUND {'ON' if self.sound else 'OFF'}.")
        elif key == "F2":
            self.demo = not self.demo
            self.say("DEMO MODE: I PLAY YOUR HAND TOO (F2 AT A PROMPT TO TAKE IT BACK)."
                     if self.demo else "DEMO MODE OFF: YOUR HAND IS YOURS AGAIN.")
        elif key == "F3":
            self.autosort = not self.autosort
            self.say(f"AUTOSORT {'ON' if self.autosort else 'OFF'}.")
            if self.autosort and self.state is not None:
                self.sort_hand()
        elif key == "F5":
            self.say(HELP)
        elif key == "F7":
            raise QuitGame
        elif key == "F10":
            if not self.color:
                self.say("F10 CHANGES THE BORDER COLOR ON COLOR DISPLAYS ONLY (START WITH C).")
            else:
                self.border = (self.border + 1) % len(BORDER_COLORS)
                self.say(f"BORDER: {BORDER_COLORS[self.border][0]}.")
        return True

    def sort_hand(self) -> None:
        assert self.state is not None
        hand = self.state.hands[YOU]
        hand[:] = autosort(hand)

    # ------------------------------------------------------------ rendering
    def render(self, obs: Observation) -> None:
        self.say(self.rule_line())
        self.say(f"ME:  {'## ' * obs.opponent_hand_size}({obs.opponent_hand_size} in hand)"
                 f"{'   DEALER' if obs.dealer == ME else ''}")
        self.say(f"     MY MELDS: {self.melds_text(obs.tables[ME])}")
        up = self.card_text(obs.pile[-1]) if obs.pile else "--"
        brk = ""
        if obs.stock_size == 2 and obs.breaker is None:
            brk = "   AT THE BREAK"
        elif obs.breaker is not None:
            brk = f"   AFTER THE BREAK (BREAKER: {'YOU' if obs.breaker == YOU else 'ME'})"
        self.say(f"UPCARD: {up} ({len(obs.pile)} in pile)   DECK: {obs.stock_size}{brk}")
        if obs.plucked is not None:
            self.say(f"PLUCKED: {self.card_text(obs.plucked)}")
        self.say(f"     YOUR MELDS: {self.melds_text(obs.tables[YOU])}")
        hand = "  ".join(f"{i}:{self.card_text(c)}" for i, c in enumerate(obs.hand, 1))
        pv = best_arrangement(list(obs.hand)).points
        self.say(f"YOU: {hand}   PV: {pv}{'   DEALER' if obs.dealer == YOU else ''}")
        self.say(f"BET ${self.bet}  STAKE ${self.stake}  POT ${self.pot.balance}")
        self.say(self.legend())

    def melds_text(self, table) -> str:
        if not table:
            return "(none)"
        return "  ".join(f"[{i}] {self.cards_text(m)}" for i, m in enumerate(table, 1))

    def narrate(self, state: TonkState, action: Action) -> None:
        p, k = action.player, action.kind
        name = who(p)
        show = p == YOU                      # your own cards are never secret to you
        if k is Kind.TONK:
            self.beep()
            extra = ""
            if p == ME and state.plays == 0 and is_ten_card_hand(state.hands[ME]) and not self.demo_only:
                extra = " (I TIED MY SHOELACES FIRST, BUT YOU DIDN'T CALL.)"
            self.say(f"{name} CALL TONK!{extra}")
        elif k is Kind.END:
            self.say("THE DECK IS EXHAUSTED: HANDS DOWN.")
        elif k is Kind.PLUCK:
            self.say(f"{name} PLUCK THE UPCARD {self.card_text(state.plucked)}.")
        elif k is Kind.MELD:
            self.say(f"{name} MELD {self.cards_text(state.tables[p][-1])}.")
        elif k is Kind.RETURN:
            left = DEADLOCK_RETURNS_EACH * state.num_players - state.returns_in_row
            note = f" ({state.returns_in_row} PASSES IN A ROW)" if state.returns_in_row > 1 and left > 0 else ""
            self.say(f"{name} RETURN THE UPCARD {self.card_text(action.cards[0])}.{note}")
        elif k is Kind.DRAW:
            drawn = state.hands[p][-1]
            self.say(f"{name} DRAW{' ' + self.card_text(drawn) if show else ''}."
                     f"{'  (BREAKER)' if state.breaker == p and len(state.stock) == 1 else ''}")
        elif k is Kind.DISCARD:
            self.say(f"{name} DISCARD {self.card_text(action.cards[0])}.")
        elif k is Kind.HIT:
            self.say(f"{name} HIT MELD {action.meld + 1} WITH {self.card_text(action.cards[0])}.")
        if self.delay and (self.demo or p == ME):
            self.sleep(self.delay)

    # ------------------------------------------------------------ the human seat
    def choose(self, obs: Observation, legal: Sequence[Action]) -> Action:
        """The human seat's ``choose``: show the table, read a command until it is legal.
        A call window (legal TONK and WAIT) is the start of the computer's turn: 'IF IT
        IS THE COMPUTER'S TURN, JUST HIT "T" BEFORE THE COMPUTER MAKES A PLAY'."""
        legal = list(legal)
        window = is_call_window(legal)
        while True:
            if self.demo:
                return self.stand_in.choose(Observation.of(self.state, YOU), legal)
            if self.autosort:
                self.sort_hand()
            obs = Observation.of(self.state, YOU)
            self.render(obs)
            if window:
                line = self.ask("MY TURN. <ENTER> LETS ME PLAY, T CALLS TONK:", instant="T")
            else:
                line = self.ask(self.prompt(obs, legal), instant=self.instant_keys(obs, legal))
            if self.hot_key(line):
                continue
            if window:
                if line.upper() in ("T", ""):
                    return Action(Kind.TONK if line else Kind.WAIT, YOU)
                self.say("?? <ENTER> OR T")
                continue
            try:
                action = self.parse_command(obs, line)
            except ValueError as e:
                self.say(f"?? {e}")
                continue
            if action is None:
                continue
            if action not in legal:
                self.say(f"?? {why_illegal(self.state, action)}")
                continue
            return action

    @staticmethod
    def instant_keys(obs: Observation, legal: Sequence[Action]) -> str:
        """Keys that are a whole command here (a full-screen terminal acts on them at once)."""
        if obs.phase is Phase.TURN:
            return "TPUDE"
        if obs.phase is Phase.PLUCKED:
            return "R"
        return "12345678"[:len(obs.hand)] if len(obs.hand) <= 9 else ""

    def prompt(self, obs: Observation, legal: Sequence[Action]) -> str:
        kinds = {a.kind for a in legal}
        if obs.phase is Phase.TURN:
            if Kind.END in kinds:
                return ("THE DECK IS EXHAUSTED. " + ("T(ONK) OR " if Kind.TONK in kinds else "")
                        + "<ENTER> TO SHOW THE HANDS:")
            parts = []
            if Kind.TONK in kinds:
                parts.append("T(ONK)")
            if Kind.PLUCK in kinds:
                parts.append(f"P(LUCK) {obs.pile[-1]}")
            parts.append("D(RAW)")
            return "YOU'RE UP: " + ", ".join(parts) + " OR S i j (SWITCH)?"
        if obs.phase is Phase.PLUCKED:
            melds = [a.cards for a in legal if a.kind is Kind.MELD]
            hint = ("  CAN MELD WITH: " + " | ".join(" ".join(map(str, m)) for m in melds)) if melds \
                else f"  {obs.plucked} MAKES NO NEW MELD WITH YOUR HAND."
            ret = ", OR R(ETURN) IT" if Kind.RETURN in kinds else ""
            return f"{hint}\nMELD {obs.plucked} WITH CARDS: M i j ...{ret}?"
        return "DISCARD WHICH CARD (NUMBER OR NAME), OR H card meld# TO HIT YOUR MELD?"

    def card_arg(self, obs: Observation, token: str) -> Card:
        if token.isdigit():
            i = int(token)
            if not 1 <= i <= len(obs.hand):
                raise ValueError(f"card number must be 1..{len(obs.hand)}, not {i}")
            return obs.hand[i - 1]
        try:
            c = Card.parse(token)
        except ValueError:
            raise ValueError(f"{token!r} is neither a card number nor a card like QH or 10S") from None
        if c not in obs.hand:
            raise ValueError(f"{c} is not in your hand")
        return c

    def parse_command(self, obs: Observation, line: str) -> Action | None:
        words = line.upper().replace(",", " ").split()
        if not words:
            if obs.phase is Phase.TURN and not self.state.stock:
                return Action(Kind.END, YOU)
            raise ValueError("type a command (F5 shows them all)")
        cmd, args = words[0], words[1:]
        if cmd == "S":
            if len(args) != 2 or not all(a.isdigit() for a in args):
                raise ValueError("switch takes two card numbers, e.g. S 1 5")
            swap_cards(self.state, YOU, int(args[0]) - 1, int(args[1]) - 1)
            return None
        if obs.phase is Phase.TURN:
            table = {"T": Kind.TONK, "P": Kind.PLUCK, "U": Kind.PLUCK, "D": Kind.DRAW, "E": Kind.END}
            if cmd in table and not args:
                return Action(table[cmd], YOU)
            raise ValueError("T, P, D or S i j")
        if obs.phase is Phase.PLUCKED:
            if cmd == "R" and not args:
                return Action(Kind.RETURN, YOU, (obs.plucked,))
            if cmd == "M":
                if not args:
                    raise ValueError("say which cards go with the upcard, e.g. M 2 3")
                cards = tuple(sorted({self.card_arg(obs, a) for a in args}))
                return Action(Kind.MELD, YOU, cards)
            raise ValueError("M i j ... or R")
        if cmd == "H":
            if len(args) != 2 or not args[1].isdigit():
                raise ValueError("hit takes a card and a meld number, e.g. H 4 1")
            return Action(Kind.HIT, YOU, (self.card_arg(obs, args[0]),), int(args[1]) - 1)
        if len(words) == 1:
            return Action(Kind.DISCARD, YOU, (self.card_arg(obs, cmd),))
        raise ValueError("a card to discard, or H card meld#")

    # ------------------------------------------------------------ betting
    def ask_bet(self) -> int:
        if self.demo_only:
            return self.demo_bet
        carry = f" (PLUS ${self.pot.carry} CARRIED OVER)" if self.pot.carry else ""
        last = f", <ENTER> = ${self.pot.last_bet}" if self.pot.last_bet else ""
        while True:
            line = self.ask(f"YOUR POT: ${self.pot.balance}. YOUR BET ($1-$999{last}){carry}?")
            if self.hot_key(line):
                continue
            try:
                return parse_bet(line, self.pot.last_bet)
            except BetError as e:
                self.say(f"?? {e}")

    def ask_replay(self) -> bool:
        if self.demo_only or not self.session.can_replay:
            return False
        while True:
            line = self.ask("REPLAY THE LAST HAND (Y/N, <ENTER> = N)?", instant="YN").upper()
            if self.hot_key(line):
                continue
            if line in ("", "N", "NO"):
                return False
            if line in ("Y", "YES"):
                return True
            self.say("?? Y OR N")

    # ------------------------------------------------------------ hands
    def play_hand(self) -> None:
        self.bet = self.ask_bet()
        self.stake = self.pot.stake(self.bet)
        replay = self.ask_replay()
        self.state = self.session.new_hand(replay)
        self.say(self.rule_line())
        self.say(f"HAND {self.hands_played + 1}{' (REPLAY)' if replay else ''}: "
                 f"{'YOU DEAL' if self.state.dealer == YOU else 'I DEAL'}, "
                 f"{'I' if self.state.dealer == YOU else 'YOU'} LEAD.  PLAYING FOR ${self.stake}.")
        if self.autosort:
            self.sort_hand()
        players = [self, self.computer]
        run_hand(self.state, players, patient=[True, False], on_action=self.narrate)
        self.show_result()
        self.hands_played += 1

    def show_result(self) -> None:
        st = self.state
        o = st.outcome
        assert o is not None
        self.say(self.rule_line())
        for seat, label in ((YOU, "YOUR"), (ME, "MY")):
            arr = best_arrangement(st.hands[seat])
            melds = " ".join(f"[{self.cards_text(sorted(m))}]" for m in arr.melds)
            dead = self.cards_text(sorted(arr.deadwood, key=lambda c: (c.rank, c.suit)))
            self.say(f"{label} HAND: {melds} {dead}   UNMATCHED: {o.points[seat]}".replace("  ", " "))
        if o.reason is Reason.DEAD:
            self.say("DEADLOCK: 3 PLUCK-AND-RETURNS EACH IN A ROW. THE HAND IS DEAD.")
        elif o.reason is Reason.TEN_CARD_TONK:
            self.say(f"{who(o.winner)} WIN: ALL TEN-POINT CARDS BEFORE THE FIRST PLAY.")
        elif o.reason is Reason.TONK:
            self.say(f"{who(o.tonker)} TONKED WITH {o.points[o.tonker]} AGAINST "
                     f"{o.points[1 - o.tonker]}: {who(o.winner)} WIN.")
        elif o.reason is Reason.UNDERCUT:
            self.say(f"{who(o.tonker)} TONKED WITH {o.points[o.tonker]} BUT {who(o.winner)} "
                     f"UNDERCUT WITH {o.points[o.winner]}: {who(o.tonker)} PAY DOUBLE.")
        elif o.reason is Reason.ZERO_TONK:
            self.say(f"{who(o.winner)} TONKED WITH ZERO AFTER THE BREAK: {who(o.winner)} WIN.")
        elif o.reason is Reason.EXHAUSTED:
            tie = " (A TIE: THE BREAKER WINS)" if o.points[0] == o.points[1] else ""
            self.say(f"DECK EXHAUSTED: LOWEST COUNT WINS{tie}: {who(o.winner)} WIN.")
        change = self.pot.settle(o, self.bet, YOU)
        if o.reason is Reason.DEAD:
            self.say(f"THE ${self.pot.carry} STAKE IS CARRIED OVER TO THE NEXT HAND.")
        else:
            self.beep()
            self.say(f"YOU {'WIN' if change > 0 else 'LOSE'} ${abs(change)}. YOUR POT: ${self.pot.balance}.")
        self.save()

    def save(self) -> None:
        if self.may_save and self.pot_path is not None:
            err = save_pot(self.pot_path, self.pot)
            if err:
                self.say(err)

    def run(self) -> int:
        self.say("TOMMY'S TONK -- A REBUILD FROM TONK.DOC.  F5 FOR HELP.")
        self.say(f"SEED {self.seed}{'  NO PASSING (P)' if self.options.no_passing else ''}")
        if self.pot_path is not None:
            loaded = load_pot(self.pot_path)
            self.pot, self.may_save = loaded.pot, loaded.may_save
            if loaded.message:
                self.say(loaded.message)
        try:
            while self.hands_limit is None or self.hands_played < self.hands_limit:
                self.play_hand()
        except (QuitGame, KeyboardInterrupt):
            pass
        self.save()
        self.say(f"HANDS PLAYED: {self.hands_played}.  YOUR POT: ${self.pot.balance}."
                 + (f"  SAVED IN {self.pot_path}." if self.may_save and self.pot_path else ""))
        return 0
