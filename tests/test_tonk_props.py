"""Properties over many seeded random games: cards are conserved, every move made is
legal, every outcome agrees with the rules, the money adds up, and the computer
decides only on what it can see."""
import random

import pytest
from hypothesis import given, settings, strategies as st

from games_py.interface import play
from games_py.tonk.match import Session, run_hand
from games_py.tonk.spiel import TonkHand
from games_py.tonk.players import ComputerPlayer, Observation, RandomPlayer
from games_py.tonk.pot import MAX_BET, MIN_BET, Pot
from games_py.tonk.rules import DEADLOCK_RETURNS_EACH, apply_action, legal_actions, unmatched_points
from games_py.tonk.state import Kind, Phase, Reason



class Checked:
    """Wraps a player and checks each move it makes is among the legal ones."""

    def __init__(self, inner, seat, log):
        self.inner, self.seat, self.log = inner, seat, log

    def choose(self, obs, legal):
        action = self.inner.choose(obs, legal)
        assert obs.player == self.seat and action.player == self.seat
        assert action in legal, f"illegal move {action}"
        self.log.append(action)
        return action


def check_outcome(state):
    o = state.outcome
    assert o is not None and state.phase is Phase.OVER
    pts = tuple(unmatched_points(h) for h in state.hands)
    assert o.points == pts
    last = state.history[-1]
    if o.reason is Reason.TEN_CARD_TONK:
        assert state.plays == 0 and all(c.pip_value == 10 for c in state.hands[o.winner])
    elif o.reason is Reason.TONK:
        assert pts[o.tonker] <= pts[1 - o.tonker] and o.winner == o.tonker and o.multiplier == 1
    elif o.reason is Reason.UNDERCUT:
        assert pts[o.winner] < pts[o.tonker] and o.winner != o.tonker and o.multiplier == 2
    elif o.reason is Reason.ZERO_TONK:
        assert pts[o.winner] == 0 and state.breaker is not None
    elif o.reason is Reason.EXHAUSTED:
        assert not state.stock and pts[o.winner] == min(pts)
        if pts[0] == pts[1]:
            assert o.winner == state.breaker
    elif o.reason is Reason.DEAD:
        tail = state.history[-2 * DEADLOCK_RETURNS_EACH * state.num_players:]
        assert [a.kind for a in tail] == [Kind.PLUCK, Kind.RETURN] * (DEADLOCK_RETURNS_EACH * state.num_players)
        assert o.winner is None and o.multiplier == 0
    assert last.kind in (Kind.TONK, Kind.END, Kind.RETURN)


def play_game(seed, make_players, no_passing=False):
    rng = random.Random(seed)
    state = Session(rng, no_passing).new_hand()
    log = []
    players = [Checked(p, seat, log) for seat, p in enumerate(make_players(seed))]

    def invariants(hand):
        """All 52 cards once, 7 cards plus hits between turns, the deadlock count, the
        breaker only past the break, returns = the stakes (TonkHand.invariant_violations)."""
        assert hand.invariant_violations() == []
    play(TonkHand(state, (True, False)), players, check=invariants)
    check_outcome(state)
    return state


def random_players(seed):
    return [RandomPlayer(random.Random(seed * 2 + 1)), RandomPlayer(random.Random(seed * 2 + 2))]


def mixed_players(seed):
    """A third of the games random against random, a third the computer against
    random, a third computer against computer, so computer moves are checked too."""
    kind = seed % 3
    if kind == 0:
        return random_players(seed)
    first = ComputerPlayer(random.Random(seed * 2 + 1))
    second = RandomPlayer(random.Random(seed * 2 + 2)) if kind == 1 else \
        ComputerPlayer(random.Random(seed * 2 + 2))
    return [first, second] if seed % 2 else [second, first]


def test_thousand_random_games_conserve_cards_and_follow_the_rules():
    """Every move of every player is legal (Checked), all 52 cards exist once after
    every action, each player has his 7 cards in hand or on the table (the game's
    invariant_violations, through the one interface), and every ending agrees with
    the rules.
    [002_b5a441868e5ee1bb.txt lines 54, 107-108]"""
    reasons = set()
    for seed in range(1000):
        state = play_game(seed, mixed_players, no_passing=seed % 4 == 0)
        reasons.add(state.outcome.reason)
        if state.no_passing:
            assert not any(a.kind is Kind.RETURN for a in state.history)
    # random play reaches these endings; the rare ten-card and zero-point tonks have unit tests
    assert reasons >= {Reason.TONK, Reason.UNDERCUT, Reason.EXHAUSTED, Reason.DEAD}


def test_computer_moves_are_always_legal():
    """[002_b5a441868e5ee1bb.txt lines 93-108]"""
    for seed in range(150):
        play_game(seed, lambda s: [ComputerPlayer(random.Random(s)), RandomPlayer(random.Random(s + 7))])
        play_game(seed, lambda s: [ComputerPlayer(random.Random(s)), ComputerPlayer(random.Random(s + 1))],
                  no_passing=seed % 2 == 1)


def test_computer_beats_a_random_player():
    """The opponent has to play, not just move: against random moves it wins most
    money over many hands."""
    pot = Pot()
    for seed in range(200):
        st = play_game(seed, lambda s: [RandomPlayer(random.Random(s), tonk_chance=0.05),
                                        ComputerPlayer(random.Random(s))])
        pot.settle(st.outcome, 10, 0)
    assert pot.balance < -1000          # -4000 would be every hand lost double


def test_money_is_zero_sum_and_bets_stay_in_range():
    """The banker's loss is exactly the player's gain; every bet is $1-$999; the stake is
    never below the bet and the carried amount is never negative.
    [002_b5a441868e5ee1bb.txt lines 63-66, 109-112]"""
    rng = random.Random(99)
    you, banker = Pot(), Pot()
    sess = Session(random.Random(5))
    for hand in range(300):
        bet = rng.randint(MIN_BET, MAX_BET)
        state = sess.new_hand()
        run_hand(state, random_players(hand))
        stake = you.stake(bet)
        assert stake >= bet and you.carry >= 0
        a = you.settle(state.outcome, bet, 0)
        b = banker.settle(state.outcome, bet, 1)
        assert a == -b
        assert abs(a) in (0, stake, 2 * stake)
        assert you.carry == banker.carry >= 0
    assert you.balance == -banker.balance


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10 ** 6), moves=st.integers(0, 60))
def test_computer_decides_only_on_what_it_can_see(seed, moves):
    """Shuffling the cards the computer cannot see (the opponent's hand and the deck)
    never changes its choice."""
    rng = random.Random(seed)
    state = Session(rng).new_hand()
    mover = RandomPlayer(random.Random(seed + 1), tonk_chance=0.0)
    for _ in range(moves):
        if state.over:
            break
        apply_action(state, mover.choose(Observation.of(state, state.current),
                                         legal_actions(state, state.current)))
    if state.over:
        return
    me = state.current
    opp = 1 - me
    legal = legal_actions(state, me)
    choice = ComputerPlayer(random.Random(0)).choose(Observation.of(state, me), legal)
    hidden = state.hands[opp] + state.stock
    random.Random(seed + 2).shuffle(hidden)
    other = state.clone()
    other.hands[opp] = hidden[:len(state.hands[opp])]
    other.stock = hidden[len(state.hands[opp]):]
    assert ComputerPlayer(random.Random(0)).choose(Observation.of(other, me), legal) == choice


def test_observation_hides_the_opponents_cards():
    state = Session(random.Random(3)).new_hand()
    obs = Observation.of(state, 0)
    assert set(obs.hand) == set(state.hands[0])
    assert set(obs.unseen()) == set(state.hands[1]) | set(state.stock)
    assert obs.opponent_hand_size == 7 and obs.stock_size == 37


@pytest.mark.slow
def test_many_more_random_games():
    for seed in range(1000, 11000):
        play_game(seed, random_players, no_passing=seed % 3 == 0)
