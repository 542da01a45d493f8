"""Cribbage and Rummi on the one game interface, beyond the shared random-play test:
the invariants are not vacuous, Rummi's legal turns are the rules' (listed or not), the
games' own players play through ``interface.play``, and a seed is one game."""
from __future__ import annotations

import random

import pytest

from games_py.cribbage import players as crib_players
from games_py.interface import TERMINAL, RandomPlayer, load_game, play
from games_py.rummi import players as rummi_players
from games_py.rummi.rules import EndTurn, Offer
from games_py.rummi.tiles import tile


def test_cribbage_invariants_catch_a_lost_card_and_a_wrong_peg():
    state = load_game("cribbage").new_initial_state(1)
    assert state.invariant_violations() == []
    state.game.deck.pop()
    assert any("52" in v for v in state.invariant_violations())
    state = load_game("cribbage").new_initial_state(1)
    state.game.scores[0] += 2
    assert any("pegged" in v for v in state.invariant_violations())


def test_cribbage_the_computer_plays_through_the_interface():
    state = load_game("cribbage").new_initial_state(11)
    play(state, [crib_players.ComputerPlayer(), RandomPlayer(3)],
         check=lambda s: not s.invariant_violations() or pytest.fail(s.invariant_violations()))
    assert state.current_player() == TERMINAL and sorted(state.returns()) in ([-1, 1], [-2, 2])


def test_cribbage_same_seed_same_game_as_the_match_loop():
    """The interface state and match.play_game deal the same cards from the same seed."""
    from games_py.cribbage import match, rules
    one = load_game("cribbage").new_initial_state(5)
    play(one, [crib_players.ComputerPlayer(), crib_players.ComputerPlayer()])
    game = rules.new_game()
    result = match.play_game(game, [crib_players.ComputerPlayer(), crib_players.ComputerPlayer()],
                             random.Random(5))
    assert result.scores == tuple(one.game.scores)


def test_rummi_invariants_catch_a_lost_piece_and_an_invalid_series():
    state = load_game("rummi").new_initial_state(2)
    assert state.invariant_violations() == []
    state.game = state.game.with_(pile=state.game.pile[1:])
    assert any("104" in v for v in state.invariant_violations())
    state = load_game("rummi").new_initial_state(2)
    g = state.game
    piece = g.pile[-1]
    state.game = g.with_(pile=g.pile[:-1], table=((piece,),))
    assert any("invalid series" in v for v in state.invariant_violations())


def test_rummi_a_rearrangement_not_listed_is_legal_and_a_made_up_piece_is_not():
    state = load_game("rummi").new_initial_state(4)
    g = state.game
    me = g.current
    tray = g.trays[me]
    legal = state.legal_actions()
    assert EndTurn(g.table) in list(legal)                  # take a piece is listed
    invalid = EndTurn(((tray[0],),))                       # legal: it takes the penalty
    assert invalid not in list(legal) and invalid in legal
    stranger = next(t for t in g.pile)
    assert EndTurn(((stranger,),)) not in legal             # not on the tray
    assert "no such move" not in legal
    with pytest.raises(ValueError):
        state.apply_action(EndTurn(((stranger,),)))
    state.apply_action(invalid)
    assert state.game.last_turn_end == "penalty"


def test_rummi_a_swap_is_an_offer_answered_by_the_other_seat():
    state = load_game("rummi").new_initial_state(0)
    g = state.game
    me, other = g.current, 1 - g.current
    mine = (tile("R5"), tile("R5", 1))
    theirs = (tile("K9"), tile("K9", 1))
    rest = [t for t in g.pile if t not in mine + theirs]
    trays = list(g.trays)
    pool = [t for t in trays[0] + trays[1] if t not in mine + theirs] + rest
    trays[me] = tuple(sorted(mine + tuple(pool[:12])))
    trays[other] = tuple(sorted(theirs + tuple(pool[12:24])))
    state.game = g.with_(trays=tuple(trays), pile=tuple(pool[24:]))
    assert state.invariant_violations() == []
    offer = next(a for a in state.legal_actions() if isinstance(a, Offer) and a.give.kind == (3, 5))
    state.apply_action(offer)
    assert state.current_player() == other
    assert state.observation(other).offered == offer.give
    answer = rummi_players.BeginnerPlayer().choose(state.observation(other), state.legal_actions())
    state.apply_action(answer)
    assert state.current_player() == me
    assert offer.give in state.game.trays[other] and answer.tile in state.game.trays[me]
    assert state.invariant_violations() == []


def test_rummi_beginners_play_through_the_interface_and_a_seed_is_one_game():
    def one(seed):
        state = load_game("rummi").new_initial_state(seed)
        play(state, [rummi_players.BeginnerPlayer(), rummi_players.BeginnerPlayer()],
             check=lambda s: not s.invariant_violations() or pytest.fail(s.invariant_violations()))
        return state
    a, b = one(8), one(8)
    assert a.is_terminal() and a.game == b.game and a.returns() == b.returns()
