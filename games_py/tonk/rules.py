"""The rules of Tommy's Tonk as TONK.DOC states them: deal, legal moves, scoring.

Quotes in the comments are from TONK.DOC.  Interpretations where the document
is silent are listed in docs/games/tonk.md and marked "design:" here.
"""
from __future__ import annotations

from typing import Iterable, Sequence

from games_py.cards import Card, full_deck
from games_py.melds import best_arrangement, candidate_melds, is_meld

from games_py.tonk.state import (HAND_SIZE, NUM_PLAYERS, Action, Kind, Outcome,
                                 Phase, Reason, TonkState)

# "THE GAME IS CONSIDERED TO BE DEADLOCKED IF BOTH PLAYERS DO THIS 3 TIMES IN A ROW"
DEADLOCK_RETURNS_EACH = 3


class IllegalMove(ValueError):
    """A move the rules do not allow in this state; the message says why."""


# ----------------------------------------------------------------- scoring

def unmatched_points(hand: Sequence[Card]) -> int:
    """'CARDS THAT ARE LEFT IN THE HAND ARE VALUED AS IN RUMMY, THE MELDS COUNTING 0
    AND THE SO-CALLED UNMATCHED CARDS TOTALLED'; the best arrangement is used."""
    return best_arrangement(list(hand)).points


def is_ten_card_hand(hand: Sequence[Card]) -> bool:
    """'HOLDS NOTHING BUT TEN-POINT CARDS' (tens and face cards)."""
    return len(hand) > 0 and all(c.pip_value == 10 for c in hand)


def autosort(hand: Sequence[Card]) -> list[Card]:
    """F3 autosort: the best arrangement's melds first, then the unmatched cards."""
    arr = best_arrangement(list(hand))
    out: list[Card] = []
    for meld in arr.melds:
        out += sorted(meld)
    return out + sorted(arr.deadwood, key=lambda c: (c.rank, c.suit))


# ----------------------------------------------------------------- the deal

def deal(deck: Sequence[Card], dealer: int, no_passing: bool = False) -> TonkState:
    """'STARTING WITH DEALER'S OPPONENT, CARDS ARE DEALT ONE AT A TIME CLOCKWISE UNTIL
    ALL PLAYERS HAVE 7 CARDS.  THE NEXT CARD IS THEN AUTOMATICALLY DEALT FACE UP'."""
    deck = list(deck)
    if sorted(deck) != sorted(full_deck()):
        raise ValueError("a Tonk deck must be the 52 standard cards, each once")
    if dealer not in range(NUM_PLAYERS):
        raise ValueError(f"dealer must be 0..{NUM_PLAYERS - 1}, not {dealer!r}")
    hands: list[list[Card]] = [[] for _ in range(NUM_PLAYERS)]
    for i in range(HAND_SIZE * NUM_PLAYERS):
        hands[(dealer + 1 + i) % NUM_PLAYERS].append(deck[i])
    pos = HAND_SIZE * NUM_PLAYERS
    return TonkState(dealer=dealer, stock=deck[pos + 1:], pile=[deck[pos]], hands=hands,
                     tables=[[] for _ in range(NUM_PLAYERS)],
                     current=(dealer + 1) % NUM_PLAYERS,   # "THE FIRST PLAYER (LEADER) IS THE OPPONENT OF THE DEALER"
                     no_passing=no_passing)


# ----------------------------------------------------------------- legal moves

def meld_options(hand: Sequence[Card], upcard: Card) -> list[tuple[Card, ...]]:
    """Hand-card groups that form a new meld with the upcard.  design: the meld must
    leave at least one card in hand, because 'THE PLAYER MUST THEN DISCARD ONE CARD'."""
    options = []
    for meld in candidate_melds(list(hand) + [upcard]):
        if upcard in meld and len(meld) - 1 < len(hand):
            options.append(tuple(sorted(c for c in meld if c != upcard)))
    return sorted(set(options))


def hit_options(hand: Sequence[Card], table: Sequence[Sequence[Card]]) -> list[tuple[Card, int]]:
    """(card, meld index) pairs: 'ONTO ONE OF HIS OWN MELDS ON THE TABLE (... HITTING)'."""
    return [(c, i) for c in hand for i, meld in enumerate(table) if is_meld(list(meld) + [c])]


def may_tonk(state: TonkState, player: int) -> bool:
    """Tonk is called at the start of a turn, by either player ('EITHER PLAYER MAY CALL
    TONK'); 'NO PLAYER CAN TONK AFTER THE BREAK UNLESS HE HAS ZERO UNMATCHED POINTS'."""
    if state.phase is not Phase.TURN or player not in range(state.num_players):
        return False
    if state.after_break:
        return unmatched_points(state.hands[player]) == 0
    return True


def may_pluck(state: TonkState) -> bool:
    """There must be an upcard; with the P switch (no passing) the upcard can only be
    plucked if it can be melded, since returning it is what passing means."""
    if state.upcard is None or not state.stock:
        return False  # design: once the deck is exhausted the hand is shown (END)
    if state.no_passing:
        return bool(meld_options(state.hands[state.current], state.upcard))
    return True


def legal_actions(state: TonkState, player: int) -> list[Action]:
    if state.phase is Phase.OVER:
        return []
    actions: list[Action] = []
    if state.phase is Phase.TURN:
        if may_tonk(state, player):
            actions.append(Action(Kind.TONK, player))
        if player == state.current:
            if not state.stock:
                # "IF THE DECK IS EXHAUSTED AND NO PLAYER GOES TONK": the hands are shown
                actions.append(Action(Kind.END, player))
            else:
                if may_pluck(state):
                    actions.append(Action(Kind.PLUCK, player))
                actions.append(Action(Kind.DRAW, player))
        return actions
    if player != state.current:
        return []
    hand = state.hands[player]
    if state.phase is Phase.PLUCKED:
        assert state.plucked is not None
        for cards in meld_options(hand, state.plucked):
            actions.append(Action(Kind.MELD, player, cards))
        if not state.no_passing:
            actions.append(Action(Kind.RETURN, player, (state.plucked,)))
        return actions
    # Phase.DISCARD: "EITHER TO THE UPCARD PILE OR ONTO ONE OF HIS OWN MELDS"
    for c in hand:
        actions.append(Action(Kind.DISCARD, player, (c,)))
    for c, i in hit_options(hand, state.tables[player]):
        actions.append(Action(Kind.HIT, player, (c,), i))
    return actions


# ----------------------------------------------------------------- applying moves

def apply_action(state: TonkState, action: Action) -> None:
    """Play ``action`` on ``state`` (in place).  Raises IllegalMove with the reason."""
    if action.kind is Kind.MELD:   # the meld's cards may be given in any order
        action = Action(Kind.MELD, action.player, tuple(sorted(action.cards)))
    if action not in legal_actions(state, action.player):
        raise IllegalMove(why_illegal(state, action))
    state.history.append(action)
    p, kind = action.player, action.kind
    hand = state.hands[p]
    if kind is Kind.TONK:
        _finish(state, _tonk_outcome(state, p))
    elif kind is Kind.END:
        _finish(state, _exhausted_outcome(state))
    elif kind is Kind.PLUCK:
        state.plucked = state.pile.pop()
        state.plays += 1
        state.phase = Phase.PLUCKED
    elif kind is Kind.DRAW:
        if state.at_break:
            # "THE PLAYER WHOSE TURN IT IS TO PICK UP THE TOP CARD OF THE DECK IS CALLED THE BREAKER"
            state.breaker = p
        hand.append(state.stock.pop(0))
        state.plays += 1
        state.returns_in_row = 0
        state.phase = Phase.DISCARD
    elif kind is Kind.MELD:
        assert state.plucked is not None
        for c in action.cards:
            hand.remove(c)
        state.tables[p].append(sorted(list(action.cards) + [state.plucked]))
        state.plucked = None
        state.returns_in_row = 0
        state.phase = Phase.DISCARD
    elif kind is Kind.RETURN:
        # "HE CAN NEVER PLUCK AN UPCARD AND MERGE IT IN HIS HAND": it goes back face up,
        # and the turn is over (the player still holds 7 cards).
        assert state.plucked is not None
        state.pile.append(state.plucked)
        state.plucked = None
        state.returns_in_row += 1
        if state.returns_in_row >= DEADLOCK_RETURNS_EACH * state.num_players:
            _finish(state, Outcome(Reason.DEAD, None, None, _points(state), 0))
        else:
            _next_turn(state)
    elif kind is Kind.DISCARD:
        hand.remove(action.cards[0])
        state.pile.append(action.cards[0])
        _next_turn(state)
    elif kind is Kind.HIT:
        hand.remove(action.cards[0])
        meld = state.tables[p][action.meld]
        meld.append(action.cards[0])
        meld.sort()
        _next_turn(state)


def apply_all(state: TonkState, actions: Iterable[Action]) -> TonkState:
    for a in actions:
        apply_action(state, a)
    return state


def swap_cards(state: TonkState, player: int, i: int, j: int) -> None:
    """The S(WITCH) command: reorder two cards of one's own hand (not a play)."""
    hand = state.hands[player]
    if not (0 <= i < len(hand) and 0 <= j < len(hand)):
        raise IllegalMove(f"card positions must be 1..{len(hand)}")
    hand[i], hand[j] = hand[j], hand[i]


def _next_turn(state: TonkState) -> None:
    state.current = (state.current + 1) % state.num_players   # "AFTER THAT, PLAY ALTERNATES"
    state.phase = Phase.TURN


def _finish(state: TonkState, outcome: Outcome) -> None:
    state.outcome = outcome
    state.phase = Phase.OVER


def _points(state: TonkState) -> tuple[int, ...]:
    return tuple(unmatched_points(h) for h in state.hands)


def _tonk_outcome(state: TonkState, p: int) -> Outcome:
    pts = _points(state)
    if state.plays == 0 and is_ten_card_hand(state.hands[p]):
        # "BEFORE THE FIRST PLAY IS MADE ... HE WINS AUTOMATICALLY"
        return Outcome(Reason.TEN_CARD_TONK, p, p, pts, 1)
    if state.after_break:
        # only legal with zero points: "(HE THEN WINS)"
        return Outcome(Reason.ZERO_TONK, p, p, pts, 1)
    opp = (p + 1) % state.num_players
    if pts[p] <= pts[opp]:
        # "THE TONKER WINS IF HE HAS THE SAME OR LESS UNMATCHED POINTS THAN THE OPPONENT"
        return Outcome(Reason.TONK, p, p, pts, 1)
    # "THE TONKER LOSES AND MUST PAY THE OPPONENT *DOUBLE* THE AMOUNT BET"
    return Outcome(Reason.UNDERCUT, opp, p, pts, 2)


def _exhausted_outcome(state: TonkState) -> Outcome:
    """'THE PLAYER WITH THE LOWEST TOTAL UNMATCHED POINTS WINS; IN CASE OF A TIE,
    THE BREAKER WINS.'"""
    pts = _points(state)
    low = min(pts)
    tied = [p for p, v in enumerate(pts) if v == low]
    winner = state.breaker if len(tied) > 1 and state.breaker in tied else tied[0]
    return Outcome(Reason.EXHAUSTED, winner, None, pts, 1)


def why_illegal(state: TonkState, action: Action) -> str:
    if state.phase is Phase.OVER:
        return "the hand is over"
    if action.kind is Kind.TONK:
        if state.phase is not Phase.TURN:
            return "tonk can only be called at the start of a turn, before the pluck or draw"
        return "after the break you can only tonk with zero unmatched points"
    if action.player != state.current:
        return "it is not your turn"
    phase_moves = {Phase.TURN: "call tonk, pluck the upcard or draw",
                   Phase.PLUCKED: "meld the upcard or return it",
                   Phase.DISCARD: "discard a card or hit one of your own melds"}
    if action.kind is Kind.PLUCK and state.no_passing and state.upcard is not None:
        return f"no passing (P): the upcard {state.upcard} cannot be melded with your hand, so draw"
    if action.kind is Kind.RETURN and state.no_passing:
        return "no passing (P): the plucked upcard must be melded"
    if action.kind is Kind.MELD:
        return "those cards do not make a new meld with the upcard (and one card must stay in hand to discard)"
    if action.kind is Kind.HIT and state.phase is Phase.DISCARD:
        own = state.tables[action.player]
        if not own:
            return "you have no melds of your own on the table to hit (you may hit only your own melds)"
        if not 0 <= action.meld < len(own):
            return f"you have no meld {action.meld + 1}: your melds are 1..{len(own)}"
        return "that card does not extend that meld (you may hit only your own melds)"
    if action.kind is Kind.DRAW and not state.stock:
        return "the deck is exhausted"
    return f"now you must {phase_moves.get(state.phase, 'wait')}"
