"""The one game interface (games_py.interface), the same properties for every game.

Each registered game is played 1,000 times from seeds 0..999 by ``RandomPlayer``s through
``interface.play``.  After every action: the action was one of the legal actions, the
player to act is a seat, CHANCE or TERMINAL, each seat's observation holds none of the
cards ``hidden_from`` that seat, and the game's own ``invariant_violations`` (cards
conserved, scores consistent...) are empty.  At the end: the state is terminal with no
legal actions and returns for each seat; replaying a game's actions from the same seed
gives the same observations and returns.
"""
from __future__ import annotations

import dataclasses
import math
import random

import pytest

from games_py.interface import CHANCE, GAMES, TERMINAL, Game, RandomPlayer, State, load_game

GAMES_PLAYED = 1000
REPLAYED_EVERY = 50          # every 50th game is replayed from its seed and compared


_ATOMS = (str, bytes, int, float, bool, type(None))


def cards_in(value, kinds: tuple[type, ...]) -> list:
    """Every object of the card types ``kinds`` inside an observation: dataclass fields,
    mappings, sequences and plain objects' attributes are opened, other things skipped."""
    found, stack, seen = [], [value], set()
    while stack:
        v = stack.pop()
        if isinstance(v, kinds):
            found.append(v)
        elif isinstance(v, _ATOMS) or id(v) in seen:
            continue
        elif isinstance(v, (list, tuple, set, frozenset)):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            seen.add(id(v))
            stack.extend(getattr(v, f.name) for f in dataclasses.fields(v))
        elif hasattr(v, "__dict__") and not isinstance(v, type):
            seen.add(id(v))
            stack.append(vars(v))
    return found


def leaked(state: State, seat: int) -> set:
    """Cards hidden from ``seat`` that its observation nevertheless holds."""
    hidden = state.hidden_from(seat)
    if not hidden:
        return set()
    kinds = tuple({type(h) for h in hidden})
    return hidden.intersection(cards_in(state.observation(seat), kinds))


def check_after_action(game: Game, state: State, action, legal) -> None:
    assert action in legal, f"{game.name}: {action!r} was not legal"
    seat = state.current_player()
    assert seat in (CHANCE, TERMINAL) or 0 <= seat < game.num_players, f"{game.name}: player {seat}"
    assert state.is_terminal() == (seat == TERMINAL)
    for p in range(game.num_players):
        leak = leaked(state, p)
        assert not leak, f"{game.name}: seat {p} sees hidden {sorted(map(str, leak))}"
    broken = state.invariant_violations()
    assert not broken, f"{game.name}: " + "; ".join(broken)


def play_checked(game: Game, seed: int) -> tuple[State, list]:
    """One game by random players, checked after every action; returns it and its actions."""
    state = game.new_initial_state(seed)
    players = [RandomPlayer(seed * 10 + p) for p in range(game.num_players)]
    chance = random.Random(seed)
    actions = []
    for _ in range(100_000):
        if state.is_terminal():
            break
        seat = state.current_player()
        if seat == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            assert math.isclose(sum(weights), 1.0), f"{game.name}: chance weights {sum(weights)}"
            legal = list(outcomes)
            action = chance.choices(outcomes, weights)[0]
        else:
            legal = list(state.legal_actions())
            assert legal, f"{game.name}: seat {seat} has no legal action in a live game"
            action = players[seat].choose(state.observation(seat), legal)
            assert isinstance(state.action_to_string(action), str)
        state.apply_action(action)
        actions.append(action)
        check_after_action(game, state, action, legal)
    assert state.is_terminal(), f"{game.name}: seed {seed} did not end"
    assert list(state.legal_actions()) == []
    returns = list(state.returns())
    assert len(returns) == game.num_players and all(math.isfinite(r) for r in returns)
    return state, actions


@pytest.mark.parametrize("name", sorted(GAMES))
def test_random_play_keeps_every_rule_of_the_interface(name):
    game = load_game(name)
    assert game.name == name and game.num_players >= 2
    for seed in range(GAMES_PLAYED):
        state, actions = play_checked(game, seed)
        if seed % REPLAYED_EVERY == 0:
            again = game.new_initial_state(seed)
            for action in actions:
                again.apply_action(action)
            assert list(again.returns()) == list(state.returns())
            for p in range(game.num_players):
                assert again.observation(p) == state.observation(p)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_an_illegal_action_is_refused(name):
    """apply_action raises ValueError for an action that is not legal (here: one of
    another seat, or a string no game uses) and leaves the state as it was."""
    game = load_game(name)
    state = game.new_initial_state(7)
    while state.current_player() == CHANCE:
        state.apply_action(state.chance_outcomes()[0][0])
    seat = state.current_player()
    before = state.observation(seat)
    with pytest.raises(ValueError):
        state.apply_action("no such move")
    assert state.observation(seat) == before


def test_the_leak_check_finds_a_hidden_card():
    """The hidden-card check is not vacuous: an observation that carried the other
    seat's hand would be caught."""
    game = load_game("tonk")
    state = game.new_initial_state(3)
    other = state.hand.hands[1]
    assert not leaked(state, 0)
    assert set(other) <= state.hidden_from(0)
    spy = dataclasses.replace(state.observation(0), hand=tuple(other))
    kinds = tuple({type(h) for h in state.hidden_from(0)})
    assert set(cards_in(spy, kinds)) & state.hidden_from(0) == set(other)


def test_the_invariants_of_tonk_and_teach_gin_catch_a_lost_card_and_wrong_returns():
    """invariant_violations is not vacuous: a card gone from the deck, or a hand whose
    returns disagree with its scores, is reported."""
    tonk = load_game("tonk").new_initial_state(1)
    assert tonk.invariant_violations() == []
    tonk.hand.stock.pop()
    assert any("52" in v for v in tonk.invariant_violations())
    teach = load_game("teach_gin").new_initial_state(1)
    assert teach.invariant_violations() == []
    teach.game.hand.stock.pop()
    assert any("52" in v for v in teach.invariant_violations())
    teach = load_game("teach_gin").new_initial_state(1)
    while not teach.is_terminal():
        teach.apply_action(teach.legal_actions()[0])
    assert teach.invariant_violations() == []
    teach.game.scores[0] += 1
    assert any("scores" in v for v in teach.invariant_violations())
