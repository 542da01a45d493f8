"""The computer's fixed formulas, also used for the player's hints.

"The computer chooses its discard by a set of fixed formulas" and the hint
"uses about the same formulas" (doc lines 108-109).  The formulas see only an
Observation, never the deck or the other hand.

Draw: take the pile's top card only if it lowers the hand's best deadwood and
  either ends up in a meld or lets the computer knock or gin at once.  (A strict
  drop in deadwood also means two computers cannot swap pile cards forever.)
Discard: gin if any discard gins; else, if it may knock, the discard leaving the
  least deadwood; else the card minimising
      deadwood left - OUT_WEIGHT * outs + DANGER (if the card suits the opponent),
  where *outs* counts the unseen cards that would make a new meld with two of
  the deadwood cards kept.  Ties: the higher card goes.
EASY: "always pick the largest value unused card in its hand" (line 53).
Knock: whenever it may.
Cards are 52-bit masks here (see ``deadwood``) because these formulas run
on every turn of the thousands of games the tests play.
"""
from __future__ import annotations

from games_py.cards import Card
from games_py.teach_gin.deadwood import ALL_CARDS, VALUES, best_of_mask, bits, card_bit, to_mask
from games_py.teach_gin.observation import Observation
from games_py.teach_gin.state import Discard, DrawDeck, DrawPile, Knock, Move, Phase

OUT_WEIGHT = 1.5    # points of deadwood one live out is worth
DANGER = 4.0        # penalty for feeding a card next to one the opponent took
SUIT_ORDER = "CDHS"
FULL_DECK = (1 << 52) - 1


def _pair_outs() -> list[list[int]]:
    """PAIR_OUTS[a][b]: the cards that would make a meld with cards a and b."""
    table = [[0] * 52 for _ in range(52)]
    for a in range(52):
        for b in range(52):
            sa, ra, sb, rb = a // 13, a % 13, b // 13, b % 13
            m = 0
            if a != b and ra == rb:
                m = sum(1 << (s * 13 + ra) for s in range(4) if s not in (sa, sb))
            elif sa == sb and abs(ra - rb) in (1, 2):
                lo, hi = min(ra, rb), max(ra, rb)
                want = (lo - 1, hi + 1) if hi - lo == 1 else (lo + 1,)
                m = sum(1 << (sa * 13 + r) for r in want if 0 <= r < 13)
            table[a][b] = m
    return table


PAIR_OUTS = _pair_outs()


def _tiebreak(bit: int) -> tuple[int, int, int]:
    """Discard preference among equals: higher value, higher rank, bridge suit order."""
    c = ALL_CARDS[bit]
    return (-c.pip_value, -c.rank, -SUIT_ORDER.index(c.suit))


def may_knock(obs: Observation) -> bool:
    return obs.knock_limit > 0 and not obs.play_to_gin


def _after_each_discard(full: int, candidates: list[int]) -> list[tuple[int, int, int]]:
    """(bit, deadwood points, deadwood mask) of the hand ``full`` less each candidate.

    Dropping a deadwood card of the lowest arrangement leaves the rest lowest
    (see ``best_of_mask``), so only matched cards need a new search."""
    pts_all, dead_all = best_of_mask(full)
    out = []
    for b in candidates:
        bit = 1 << b
        if dead_all & bit:
            out.append((b, pts_all - VALUES[b], dead_all ^ bit))
        else:
            p, d = best_of_mask(full ^ bit)
            out.append((b, p, d))
    return out


def choose_draw(obs: Observation) -> Move:
    top = card_bit(obs.top)
    hand = to_mask(obs.hand)
    now = best_of_mask(hand)[0]
    options = _after_each_discard(hand | (1 << top), bits(hand))
    best = min(p for _, p, _ in options)
    top_melded = any(p == best and not d >> top & 1 for _, p, d in options)
    if best < now and (top_melded or best == 0
                       or (may_knock(obs) and best <= obs.knock_limit)):
        return DrawPile()
    return DrawDeck()


def _candidate_bits(obs: Observation) -> list[int]:
    return [card_bit(c) for c in obs.hand
            if not (obs.drawn_from == "pile" and c == obs.drawn)]


def easy_discard(obs: Observation) -> Card:
    """The largest-value card that is not in a meld of the best arrangement."""
    dead = best_of_mask(to_mask(obs.hand))[1]
    unused = [b for b in _candidate_bits(obs) if dead >> b & 1]
    if not unused:              # every card matched: keep the formulas' choice
        return choose_discard(obs)
    return ALL_CARDS[min(unused, key=_tiebreak)]


def unseen_mask(obs: Observation) -> int:
    return FULL_DECK & ~(to_mask(obs.hand) | to_mask(obs.pile) | to_mask(obs.opponent_holds))


def outs(dead: int, unseen: int) -> int:
    """How many unseen cards would form a meld with two of the ``dead`` cards."""
    found = 0
    dl = bits(dead)
    for i, a in enumerate(dl):
        row = PAIR_OUTS[a]
        for b in dl[i + 1:]:
            found |= row[b]
    return (found & unseen).bit_count()


def danger(bit: int, obs: Observation) -> float:
    card = ALL_CARDS[bit]
    for h in obs.opponent_holds:
        if h.rank == card.rank or (h.suit == card.suit and abs(h.rank - card.rank) <= 2):
            return DANGER
    return 0.0


def choose_discard(obs: Observation) -> Card:
    scored = _after_each_discard(to_mask(obs.hand), _candidate_bits(obs))
    gins = [s for s in scored if s[1] == 0]
    if gins:
        return ALL_CARDS[min(gins, key=lambda s: (danger(s[0], obs), _tiebreak(s[0])))[0]]
    if may_knock(obs):
        knocks = [s for s in scored if s[1] <= obs.knock_limit]
        if knocks:
            return ALL_CARDS[min(knocks, key=lambda s: (s[1], danger(s[0], obs),
                                                        _tiebreak(s[0])))[0]]
    unseen = unseen_mask(obs)

    def cost(s):
        b, pts, dead = s
        return (pts - OUT_WEIGHT * outs(dead, unseen) + danger(b, obs), _tiebreak(b))
    return ALL_CARDS[min(scored, key=cost)[0]]


def choose(obs: Observation, easy: bool = False) -> Move:
    """The computer's move for any phase."""
    if obs.phase is Phase.DRAW:
        return choose_draw(obs)
    if obs.phase is Phase.DISCARD:
        return Discard(easy_discard(obs) if easy else choose_discard(obs))
    if obs.phase is Phase.KNOCK:
        return Knock()
    raise ValueError("the hand is over: no move to choose")


def hint(obs: Observation) -> Move:
    """The move the computer would make in the player's place (never the EASY rule)."""
    return choose(obs, easy=False)
