"""Drive a game between two players, reporting every move to an optional listener."""
from __future__ import annotations

from typing import Callable, Sequence

from games_py.teach_gin import rules
from games_py.teach_gin.observation import observe
from games_py.teach_gin.players import Player
from games_py.teach_gin.state import GameState, HandResult, Move

MAX_MOVES_PER_HAND = 5000   # a safety net: the rules allow endless pile swapping between humans

Listener = Callable[[GameState, int, Move], None]


def play_hand(game: GameState, players: Sequence[Player],
              on_move: Listener | None = None) -> HandResult:
    """Play the current hand to its end and settle it; return its result."""
    start = len(game.history)
    for _ in range(MAX_MOVES_PER_HAND):
        hand = game.hand
        p = hand.to_move
        legal = rules.legal_moves(hand)
        move = players[p].choose(observe(hand, p), legal)
        if on_move is not None:
            on_move(game, p, move)
        rules.play_move(game, move)
        if len(game.history) > start:
            return game.history[-1]
    raise RuntimeError(f"hand {game.hand_number} did not end in {MAX_MOVES_PER_HAND} moves")


def play_game(game: GameState, players: Sequence[Player],
              on_move: Listener | None = None) -> GameState:
    while not game.over:
        play_hand(game, players, on_move)
    return game
