"""End of a hand: gin, knock, lay-offs, undercut, Oklahoma doubling (doc lines 184-190)."""
from __future__ import annotations

from typing import Sequence

from games_py.cards import Card
from games_py.teach_gin.deadwood import Arrangement, arrange
from games_py.teach_gin.options import Options
from games_py.teach_gin.state import HandResult


def lay_off(deadwood: Sequence[Card], knocker_melds: Sequence[Sequence[Card]]) -> list[Card]:
    """Deadwood cards the defender can play on the knocker's melds.

    The melds stay as the knocker laid them (the defender "CANNOT alter his or
    his opponent's matched sets"), but a run grows as cards are laid on it, so
    7H then 8H both go on 4-5-6H.  A set of three takes its fourth card.  Runs
    are extended first: a card placed on a run can let another follow it,
    while a card placed on a set never helps anything else.
    """
    run_cards = {c for m in knocker_melds if _is_run(m) for c in m}
    set_ranks = {m[0].rank for m in knocker_melds if not _is_run(m) and len(m) == 3}
    remaining = list(deadwood)
    laid: list[Card] = []
    grew = True
    while grew:
        grew = False
        for c in list(remaining):
            if any(r.suit == c.suit and abs(r.rank - c.rank) == 1 for r in run_cards):
                run_cards.add(c)
                remaining.remove(c)
                laid.append(c)
                grew = True
    for c in list(remaining):
        if c.rank in set_ranks:
            set_ranks.discard(c.rank)       # only one fourth card exists anyway
            remaining.remove(c)
            laid.append(c)
    return laid


def _is_run(meld: Sequence[Card]) -> bool:
    return len({c.suit for c in meld}) == 1


def settle(hands: Sequence[Sequence[Card]], ender: int, options: Options,
           doubled: bool) -> HandResult:
    """Score a hand that ``ender`` just finished with 10 cards by gin or knock."""
    other = 1 - ender
    mine: Arrangement = arrange(hands[ender])
    theirs: Arrangement = arrange(hands[other])
    factor = 2 if doubled else 1
    melds = [(), ()]
    melds[ender], melds[other] = mine.melds, theirs.melds
    if mine.points == 0:
        # Gin: "25 points, plus the value of his opponent's unmatched cards" - no lay-offs.
        dead = [(), ()]
        dead[ender], dead[other] = (), theirs.deadwood
        pts = (options.gin_bonus + theirs.points) * factor
        return HandResult("gin", ender, pts, ender, tuple(melds), tuple(dead), (),
                          _points(dead), doubled)
    laid = lay_off(theirs.deadwood, mine.melds)
    left = tuple(c for c in theirs.deadwood if c not in laid)
    dead = [(), ()]
    dead[ender], dead[other] = mine.deadwood, left
    k, d = mine.points, sum(c.pip_value for c in left)
    if k < d:
        kind, winner, base = "knock", ender, d - k
    else:   # "LESS or SAME points ... he has UNDERCUT him"
        kind, winner, base = "undercut", other, options.undercut_bonus + (k - d)
    return HandResult(kind, winner, base * factor, ender, tuple(melds), tuple(dead),
                      tuple(laid), _points(dead), doubled)


def _points(dead) -> tuple[int, int]:
    return (sum(c.pip_value for c in dead[0]), sum(c.pip_value for c in dead[1]))


def drawn_hand(hands: Sequence[Sequence[Card]], doubled: bool) -> HandResult:
    """"No points are scored for a draw hand" (doc line 180)."""
    arrs = [arrange(h) for h in hands]
    return HandResult("draw", None, 0, None, tuple(a.melds for a in arrs),
                      tuple(a.deadwood for a in arrs), (),
                      (arrs[0].points, arrs[1].points), doubled)
