"""``demo``: the computer plays both seats and every hand is printed."""
from __future__ import annotations

import random
from typing import TextIO

from games_py.cards import format_cards
from games_py.teach_gin import rules
from games_py.teach_gin.human import result_lines
from games_py.teach_gin.match import play_hand
from games_py.teach_gin.options import Options
from games_py.teach_gin.players import ComputerPlayer
from games_py.teach_gin.render import Style
from games_py.teach_gin.state import Discard, DrawDeck, DrawPile, GameState, Knock

NAMES = ("South", "North")


def run_demo(options: Options, seed: int, out: TextIO, easy: tuple[bool, bool] = (False, False)) -> GameState:
    style = Style(colour=False)
    game = rules.new_game(options, random.Random(seed))
    players = [ComputerPlayer(easy=easy[0]), ComputerPlayer(easy=easy[1])]
    out.write(f"Demo game, seed {seed}: {NAMES[0]} (goes first) v {NAMES[1]}, playing to "
              f"{options.score_limit}; Oklahoma {'on' if options.oklahoma else 'off'}, "
              f"knocking {'on' if options.knocking else 'off'}\n")

    def on_move(g: GameState, p: int, move) -> None:
        h = g.hand
        if isinstance(move, DrawDeck):
            text = ("draws from the deck with two left: draw" if len(h.stock) <= 2
                    else f"draws {h.stock[-1]} from the deck")
        elif isinstance(move, DrawPile):
            text = f"takes {h.pile[-1]} from the pile"
        elif isinstance(move, Discard):
            text = f"discards {move.card}"
        elif isinstance(move, Knock):
            text = "knocks"
        else:
            text = str(move)
        out.write(f"  {NAMES[p]:5} {text}\n")

    while not game.over:
        h = game.hand
        out.write(f"\nHand {game.hand_number}: upcard {h.upcard}, knock value {h.knock_limit}"
                  f"{', points doubled' if h.doubled else ''}\n")
        for p in (0, 1):
            out.write(f"  {NAMES[p]:5} {format_cards(sorted(h.hands[p], key=lambda c: (c.suit, c.rank)))}\n")
        result = play_hand(game, players, on_move)
        for line in result_lines(result, NAMES, style, options.sort):
            out.write(line + "\n")
        out.write(f"Score: {NAMES[0]} {game.scores[0]}, {NAMES[1]} {game.scores[1]}\n")
    winner = "nobody (a draw)" if game.winner is None else NAMES[game.winner]
    out.write(f"\nGame over after {game.hands_played} hands: {winner} wins.\n")
    return game
