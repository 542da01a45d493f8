"""The human seat in the terminal: shows the table, reads keys, returns moves.

Keys follow the document: D deck / P discard pile (line 76); 1-9, 0 discard a
card of the hand, D the drawn card, U undo a draw from the pile (line 77);
Y / N / P at the knock question (line 79); H hint (line 89); Q quit, after
confirmation (line 79).  ESC blanks the screen (line 97, see console).
"""
from __future__ import annotations

from typing import Sequence

from games_py.cards import Card
from games_py.teach_gin import strategy
from games_py.teach_gin.console import Console
from games_py.teach_gin.deadwood import deadwood
from games_py.teach_gin.observation import Observation
from games_py.teach_gin.render import KEY_LABELS, cards_block, deck_count, hand_layout, unmatched_order
from games_py.teach_gin.state import (
    Discard, DrawDeck, DrawPile, GameState, HandResult, Knock, Move, NoKnock, Phase,
    PlayToGin, Undo)

COMPUTER_NAME = "Computer"


class QuitGame(Exception):
    """The player confirmed Q: back to the title screen."""


class TerminalPlayer:
    def __init__(self, console: Console, game_ref: "GameRef", name: str, sort: str) -> None:
        self.console, self.game_ref, self.name, self.sort = console, game_ref, name, sort

    # -- the table -----------------------------------------------------------
    def show_table(self, obs: Observation, hint_card: Card | None = None) -> list[Card]:
        """Print the table; return the hand cards in the order of keys 1-9, 0."""
        con, style, game = self.console, self.console.style, self.game_ref.game
        con.new_page()
        con.say(f"Hand {game.hand_number}   {self.name} {game.scores[0]}   "
                f"{COMPUTER_NAME} {game.scores[1]}   (playing to {game.options.score_limit})")
        knock = f"Knock card: {obs.knock_limit}"
        if obs.doubled:     # "a RED box will be drawn around the knock card" (line 190)
            knock = style.paint(f"[{knock} - spade upcard: points doubled]", "red")
        pile = style.card(obs.top) if obs.pile else "(empty)"
        if game.hand.computer_took_pile:   # the RED bar over the pile (line 84)
            pile += " " + style.paint("*** computer took your discard", "*")
        con.say(f"Deck: {deck_count(obs.stock_count, style)}   Discard pile: {pile}   {knock}")
        con.say(f"{COMPUTER_NAME}: {obs.opponent_hand_size} cards")
        held = [c for c in obs.hand if c != obs.drawn]
        ordered, marks = hand_layout(held, self.sort)
        if hint_card is not None and hint_card in ordered:
            marks = ["^" if c == hint_card else m for c, m in zip(ordered, marks)]
        keys = KEY_LABELS[:len(ordered)] if obs.phase is Phase.DISCARD else None
        con.say(f"Your hand (deadwood {deadwood(held)}):")
        con.say(cards_block(ordered, marks, style, keys))
        if obs.drawn is not None:
            mark = style.paint(" ^^^ hint", "^") if hint_card == obs.drawn else ""
            con.say(f"Drawn card: {style.card(obs.drawn)} (from the {obs.drawn_from})  [D]{mark}")
        return ordered

    # -- choosing --------------------------------------------------------------
    def choose(self, obs: Observation, legal: Sequence[Move]) -> Move:
        hint_card = None
        ordered = self.show_table(obs)

        def redraw() -> None:                    # after the boss key or the idle blank
            self.show_table(obs, hint_card)
        while True:
            if obs.phase is Phase.DRAW:
                key = self.console.ask("D=deck  P=discard pile  H=hint  Q=quit > ", redraw).upper()
                if key == "D":
                    return DrawDeck()
                if key == "P":
                    return DrawPile()
            elif obs.phase is Phase.DISCARD:
                undo = "  U=undo" if obs.drawn_from == "pile" else ""
                # D only where the drawn card may go: not straight back onto the pile (line 77)
                drawn = "  D=drawn card" if obs.drawn is not None and Discard(obs.drawn) in legal else ""
                key = self.console.ask(f"Discard: 1-9,0=card{drawn}{undo}  H=hint  Q=quit > ",
                                       redraw).upper()
                if len(key) == 1 and key in KEY_LABELS[:len(ordered)]:
                    return Discard(ordered[KEY_LABELS.index(key)])
                if key == "D" and drawn:
                    return Discard(obs.drawn)
                if key == "D" and obs.drawn_from == "pile":
                    self.console.say("A card taken from the pile cannot go straight back: U undoes the draw.")
                    continue
                if key == "U" and obs.drawn_from == "pile":
                    return Undo()
            elif obs.phase is Phase.KNOCK:
                dw = deadwood(obs.hand)
                key = self.console.ask(f"Deadwood {dw}, knock card {obs.knock_limit}. Knock? "
                                       "Y=yes  N=no  P=play to gin  H=hint  Q=quit > ", redraw).upper()
                if key == "Y":
                    return Knock()
                if key == "N":
                    return NoKnock()
                if key == "P":
                    return PlayToGin()
            if key == "H":
                hint_card = self._hint(obs)
                if hint_card is not None:
                    ordered = self.show_table(obs, hint_card)
                continue
            if key == "Q":
                if self.console.ask("Quit this game? Y/N > ", redraw).upper() == "Y":
                    raise QuitGame
                continue
            self.console.say(f"{key!r} is not a choice here.")

    def _hint(self, obs: Observation) -> Card | None:
        """The computer's own formulas applied to the player's hand (line 109)."""
        move = strategy.hint(obs)
        if isinstance(move, DrawPile):
            self.console.say(f"Hint: take {self.console.style.card(obs.top)} from the discard pile (P).")
        elif isinstance(move, DrawDeck):
            self.console.say("Hint: draw from the deck (D).")
        elif isinstance(move, Knock):
            self.console.say("Hint: knock (Y).")
        elif isinstance(move, Discard):
            self.console.say(f"Hint: discard {self.console.style.card(move.card)} (marked ^^^).")
            return move.card
        return None


class GameRef:
    """Lets the player see the game's scores while the match driver runs it."""

    def __init__(self, game: GameState | None = None) -> None:
        self.game = game


# -- messages about moves and results ------------------------------------------

def describe_move(game: GameState, player: int, move: Move, name: str, style) -> str | None:
    """What the player is told about a move (the computer's in full)."""
    hand = game.hand
    who = name if player == 0 else COMPUTER_NAME
    if isinstance(move, DrawDeck):
        if len(hand.stock) <= 2:
            return f"{who} draws from the deck with two cards left: the hand is a draw."
        return f"{COMPUTER_NAME} draws from the deck." if player else None
    if isinstance(move, DrawPile):
        return f"{COMPUTER_NAME} takes {style.card(hand.pile[-1])} from the discard pile." if player else None
    if isinstance(move, Discard):
        return f"{who} discards {style.card(move.card)}."
    if isinstance(move, Knock):
        return f"{who} knocks!"
    if isinstance(move, PlayToGin):
        return f"{who} plays to gin this hand: no more knocking."
    if isinstance(move, Undo):
        return f"{who} puts {style.card(hand.drawn)} back on the pile."
    return None


def result_lines(result: HandResult, names: Sequence[str], style, sort: str) -> list[str]:
    lines = []
    for p in (0, 1):
        melds = result.melds[p]
        cards: list[Card] = []
        marks: list[str] = []
        for m in melds:
            is_set = len({c.rank for c in m}) == 1
            cards += list(m)
            marks += ["=" if is_set else "-"] * len(m)
        laid = list(result.laid_off) if p != result.ender else []
        cards += laid
        marks += ["*"] * len(laid)     # "a RED bar will be drawn over ... the laid off cards"
        rest = unmatched_order(result.deadwood[p], sort)
        cards += rest
        marks += [" "] * len(rest)
        extra = f", laid off {' '.join(style.card(c) for c in laid)}" if laid else ""
        lines.append(f"{names[p]} (deadwood {result.deadwood_points[p]}{extra}):")
        lines.append(cards_block(cards, marks, style))
    if result.kind == "draw":
        lines.append("The hand is a draw: no points.")
    else:
        ender, winner = names[result.ender], names[result.winner]
        what = {"gin": f"{ender} has GIN!", "knock": f"{ender} knocked.",
                "undercut": f"{ender} knocked and was UNDERCUT!"}[result.kind]
        doubled = " (doubled: spade upcard)" if result.doubled else ""
        lines.append(f"{what} {winner} scores {result.points} points{doubled}.")
    return lines
