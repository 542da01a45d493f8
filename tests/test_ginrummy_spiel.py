"""Tommy's Gin Rummy on the one game interface (games_py/ginrummy/spiel.py): one hand a
state, the original's engine and RND inside it.  About 4 s."""
from __future__ import annotations

import pytest

from games_py.cards import Card
from games_py.ginrummy import game, human, spiel
from games_py.ginrummy.player import COMPUTER, YOU, Player
from games_py.interface import TERMINAL, Game, RandomPlayer, State, load_game, play

GAMES = 150


def _checked_game(seed: int) -> tuple[spiel.GinRummyHand, list]:
    """A hand played by a random player, checked after every action; and its actions."""
    state, player, actions = spiel.GAME.new_initial_state(seed), RandomPlayer(seed), []
    while not state.is_terminal():
        assert state.current_player() == YOU.seat            # the computer decides inside
        seen = state.observation(YOU.seat)
        assert not state.hidden_from(YOU.seat) & {*seen.cards, *seen.pile, *(seen.opponent or ())}
        actions.append(player.choose(seen, state.legal_actions()))
        state.apply_action(actions[-1])
        assert state.invariant_violations() == [], (seed, state.invariant_violations())
        assert len(actions) < 1000
    return state, actions


def test_the_game_is_registered_and_has_the_interface():
    assert load_game("ginrummy") is spiel.GAME
    assert isinstance(spiel.GAME, Game) and spiel.GAME.num_players == 2
    assert isinstance(spiel.GAME.new_initial_state(1), State)


def test_random_hands_keep_the_cards_and_the_scores_and_replay_the_same():
    ends = set()
    for seed in range(0, GAMES * 57_593, 57_593):
        state, actions = _checked_game(seed)
        assert state.current_player() == TERMINAL and state.legal_actions() == []
        returns = state.returns()
        assert returns[0] == -returns[1]
        ends.add("dead" if state.hand.outcome is None else state.hand.outcome[0].result)
        if seed % 10 == 0:
            again = spiel.GAME.new_initial_state(seed)
            for action in actions:
                again.apply_action(action)
            assert again.returns() == returns and again.hand.events == state.hand.events
    assert {"knock", "dead"} <= ends                    # both kinds of end were reached


def test_the_state_is_the_first_hand_the_original_deals_at_the_seed():
    seed = 4_320_000                                    # 12:00:00.00
    state = spiel.GAME.new_initial_state(seed)
    deal = game.python_trace(game.Settings(time=game.time_of_seed(seed)), hands=0)[1]
    you = state.observation(YOU.seat)
    assert sorted(map(str, you.cards)) == sorted(deal["hands"]["you"])
    assert str(you.upcard) == deal["upcard"] and you.stock == deal["stock"]


def test_a_policy_through_the_interface_plays_the_hand_the_traced_game_plays():
    """The interface's engine is the game's: ``simple`` answering through apply_action
    writes the events ``trace --human simple`` writes for the first hand."""
    for seed in (4_320_000, 1_234_567, 8_000_001):
        settings = game.Settings(time=game.time_of_seed(seed), demo=False, human="simple")
        traced = game.python_trace(settings, hands=1)
        state = spiel.GAME.new_initial_state(seed)
        policy = human.SimplePolicy()
        while not state.is_terminal():
            view = state.observation(YOU.seat)
            kind = state._question.kind
            if kind == "knock":
                action = spiel.KNOCK_ACTION if policy.knock(view) else spiel.NO_KNOCK
            elif kind == "draw":
                action = spiel.UPCARD if policy.draw(view) == human.UPCARD else spiel.DECK
            else:
                action = view.places[policy.discard(view) - 1]
            state.apply_action(action)
        hand_events = [e for e in traced[2:] if e["event"] not in ("hand_end", "game_end")]
        assert state.hand.events == hand_events
        ends = [e for e in traced if e["event"] == "hand_end"]
        if ends:
            winner = Player.from_word(ends[0]["winner"])
            assert state.returns()[winner.seat] == ends[0]["points"]
        else:
            assert state.returns() == [0.0, 0.0]


def test_an_illegal_action_is_refused_and_changes_nothing():
    state = spiel.GAME.new_initial_state(99)
    before = state.observation(YOU.seat)
    for bad in ("no such move", Card(1, "S") if Card(1, "S") not in before.cards else Card(2, "S")):
        with pytest.raises(ValueError):
            state.apply_action(bad)
    assert state.observation(YOU.seat) == before


def test_the_invariants_catch_a_lost_card_and_a_wrong_return():
    state, _actions = _checked_game(5)
    assert state.invariant_violations() == []
    t = state.hand.t
    t.hands[YOU][1], saved = t.hands[COMPUTER][1], t.hands[YOU][1]     # a card twice, one lost
    assert any("52" in v for v in state.invariant_violations())
    t.hands[YOU][1] = saved
    state.returns_ = [state.returns_[0] + 1, state.returns_[1]]
    assert any("cancel" in v for v in state.invariant_violations())


def test_asking_both_seats_lets_two_players_play():
    both = spiel.GinRummyGame(asked=(YOU, COMPUTER))
    seats = set()
    for seed in range(10):
        state = both.new_initial_state(seed)
        play(state, [RandomPlayer(seed), RandomPlayer(seed + 1)], seed,
             check=lambda s: seats.add(s.current_player()) or s.invariant_violations() == [] or 1 / 0)
    assert {0, 1} <= seats
