"""The computer player of GINRUMMY.EXE: its draw, discard and knock decisions.

A transcription of the original's BASIC (docs/ginrummy-internals.md, section
11), working on the program's own tables with its own indices, so that a
position read from the running original (``Table``) gives the same decision and
spends the same RND calls:

* draw (lines 3690-3910): take the upcard or draw from the deck;
* discard (lines 4160-4720): which place K of the hand H(P, 1..11) to discard;
* knock (lines 5080-5240), after the knock value is brought up to date
  (lines 11100-11180).

In demo mode both players are played this way (``FNCOMP``, line 350, is true
for player 2, and for player 1 in demo mode).  The arrangement that fills
UNMATCHED, PV and the rank counts (lines 6810-9640, with RND at 8410, 8420,
8660 and 9660) is not transcribed yet: these functions take its results as
input.  RND comparisons use the runtime's arithmetic (``OriginalRandom.below``).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from games_py.ginrummy.deal import OriginalRandom
from games_py.ginrummy.mbf import MBF

# constants of the program (MBF bytes as in its constant table)
SKIP_LOW_UPCARD = MBF(bytes.fromhex("6666667f"))  # .45, line 3770 (DGROUP:15BA)
CAREFUL_SKIP = MBF(bytes.fromhex("66666680"))     # .9, lines 4230 and 4570 (DGROUP:15FA)
SINGLES_ONLY = MBF(bytes.fromhex("cdcc4c7f"))     # .4, line 4610 (DGROUP:15FE)
BOLD_KNOCK = MBF(bytes.fromhex("cdcc4c7d"))       # .1, line 5190 (DGROUP:137E)
HOLD_BACK = MBF(bytes.fromhex("c3f56880"))        # .91, line 5220 (DGROUP:1616)

SLOTS = 11             # a hand holds 11 places while its owner has drawn
PILE = 3               # H(3, .) is the discard pile
DECK_END = 51          # line 4360-4380: the deck looked at up to D(51)


def fn_rank(card: int) -> int:
    """``FNRANK(C) = (C - 1) MOD 13 + 1`` (line 290); MOD keeps the dividend's sign,
    so an empty place (0) has rank 0."""
    r = abs(card - 1) % 13
    return (-r if card - 1 < 0 else r) + 1


def fn_suit(card: int) -> int:
    """``FNSUIT(C) = INT((C - 1) / 13) + 3`` (line 300): 3..6; an empty place gives 2."""
    return (card - 1) // 13 + 3


def value(rank: int) -> int:
    return min(rank, 10)


@dataclass
class Table:
    """The program's play state with its own indices: ``hands[p][k]`` = H(p, k)
    (p 1 = you, 2 = computer, 3 = pile; k 0 = number of places), ``unmatched[p]``,
    ``pv[p]``, ``rank_count[r][p]`` = the array at DGROUP:107A (cards of rank r in
    hand p, filled by the arrangement), ``deck[i]`` = D(i), ``top`` = TOP."""

    hands: list[list[int]]
    unmatched: list[int]
    pv: list[int]
    rank_count: list[list[int]]
    deck: list[int]
    top: int
    turn: int = 1                  # [10DE]: the turn counter shown as "TURN:"
    knock_value: int = 10          # [10E0]
    knock_set: bool = True         # [10E2]: the knock value has been set this hand
    knock_suit: int = 0            # [1114]
    last_taken: int = 0            # [10FA]: the last upcard a player took
    open_hands: bool = False       # [0F2E]
    oklahoma: bool = False         # [10BC]
    cowboy: bool = False           # [10BE]
    notes: dict = field(default_factory=dict)

    def pile_top(self) -> int | None:
        n = self.hands[PILE][0]
        return self.hands[PILE][n] if n >= 1 else None

    def first_unmatched(self, p: int) -> int:
        """The arranged hand keeps its unmatched cards in places 12 - UNMATCHED(P) .. 11."""
        return 12 - self.unmatched[p]


def useful(t: Table, p: int, card: int) -> bool:
    """Lines 6560-6790: whether ``card`` would make a straight (two cards of its suit
    next to it, when both neighbouring ranks are held) or a flat (two of its rank held)."""
    hand = t.hands[p]
    if hand[0] < 1:
        return False
    rank, suit = fn_rank(card), fn_suit(card)
    low, high, step = rank - 1, rank + 1, 2
    if rank <= 1:
        low, high, step = 2, 3, 1
    elif rank >= 13:
        low, high, step = 12, 11, -1
    i = low
    neighbours = True
    while (i <= high) if step > 0 else (i >= high):
        if t.rank_count[i][p] < 1:
            neighbours = False
            break
        i += step
    if neighbours:
        middle = step + rank if abs(step) == 1 else rank
        near = sum(1 for k in range(1, hand[0] + 1)
                   if fn_suit(hand[k]) == suit and abs(middle - fn_rank(hand[k])) < 2)
        if near == 2:
            return True
    return t.rank_count[rank][p] >= 2


def draw_decision(t: Table, p: int, random: OriginalRandom) -> bool:
    """Lines 3690-3910: True to take the upcard, False to draw from the deck."""
    take = False
    top = t.pile_top()
    if top is not None and useful(t, p, top):                           # 3700
        take = True
    if top is not None and t.last_taken == top:                         # 3730
        take = False
    if take:
        return True
    # 3770: IF H(3,0) < 1 OR UNMATCHED(P) < 10 OR RND < .45 THEN 3830 (RND always drawn)
    skip = top is None or t.unmatched[p] < 10
    skip = random.below(SKIP_LOW_UPCARD) or skip
    if not skip and fn_rank(top) <= 6:                                    # 3780
        for i in range(t.first_unmatched(p), SLOTS + 1):                  # 3790-3810
            r = fn_rank(t.hands[p][i])
            if r >= 10 and t.rank_count[r][p] == 1:
                return True
    if top is None:                                                       # 3840
        return False
    top_rank = fn_rank(top)                                               # 3850
    for i in range(t.first_unmatched(p), SLOTS + 1):                      # 3860-3890
        r = fn_rank(t.hands[p][i])
        if r > top_rank and t.pv[p] - r + top_rank <= t.knock_value:
            return True
    return False


def discard_decision(t: Table, p: int, random: OriginalRandom) -> int:
    """Lines 4160-4720: the place K (1..11) of H(P, .) to discard."""
    hand = t.hands[p]
    first = t.first_unmatched(p)
    for k in range(first, SLOTS + 1):                                     # 4170-4200
        if t.pv[p] - fn_rank(hand[k]) <= t.knock_value:
            return k
    # 4230: CAREFUL = NOT (RND < .9 OR OPEN.HANDS)
    careful = not (random.below(CAREFUL_SKIP) or t.open_hands)
    dead_pair = None
    for r in range(1, 14):                                                # 4240-4410
        if t.rank_count[r][p] != 2:
            continue
        pile = t.hands[PILE]
        if pile[0] >= 1 and sum(1 for i in range(1, pile[0] + 1) if fn_rank(pile[i]) == r) > 1:
            dead_pair = r                                                 # 4270-4290
            break
        if not careful:                                                   # 4310
            continue
        opponent = t.hands[3 - p]
        if any(fn_rank(opponent[i]) == r for i in range(t.first_unmatched(3 - p), SLOTS + 1)):
            continue                                                      # 4320-4340
        if t.top >= DECK_END:                                             # 4360
            continue
        if any(fn_rank(t.deck[i]) == r for i in range(t.top + 1, DECK_END + 1)):
            continue                                                      # 4370-4390
        dead_pair = r
        break
    if dead_pair is not None:                                             # 4440-4460
        for k in range(first, SLOTS + 1):
            if fn_rank(hand[k]) == dead_pair:
                return k
    singles = any(t.rank_count[r][p] == 1 for r in range(1, 14))          # 4490-4520
    pairs = any(t.rank_count[r][p] == 2 for r in range(1, 14))
    if not singles:                                                       # 4540
        limit = 2
    elif not pairs:                                                       # 4550
        limit = 1
    else:
        limit = None
        if not (random.below(CAREFUL_SKIP) or t.open_hands):              # 4570
            if t.pv[3 - p] < 21:                                          # 4580-4590
                limit = 2
        if limit is None:                                                 # 4610 (RND always drawn)
            early = t.turn < 5
            limit = 1 if random.below(SINGLES_ONLY) or early else 2
    best, best_rank = 0, 0                                                # 4640-4690
    for k in range(first, SLOTS + 1):
        r = fn_rank(hand[k])
        if t.rank_count[r][p] > limit:
            continue
        if best_rank < r:
            best_rank, best = r, k
    if best > 0:                                                          # 4710
        return best
    return 12 - random.fnr(t.unmatched[p])


def update_knock_value(t: Table) -> None:
    """Lines 11100-11180: standard knocks on 10; Oklahoma takes the first upcard's
    rank (ace: gin only, face cards 10), Space Cowboy the current upcard's."""
    if not t.oklahoma:
        t.knock_value, t.knock_set = 10, True
        return
    top = t.pile_top()
    if top is None or (not t.cowboy and t.knock_set):
        return
    t.knock_set = True
    t.knock_value, t.knock_suit = fn_rank(top), fn_suit(top)
    if t.knock_value < 2:
        t.knock_value = 0
    elif t.knock_value > 10:
        t.knock_value = 10


def knock_decision(t: Table, player: int, random: OriginalRandom) -> bool:
    """Lines 5080-5240, after ``update_knock_value``: whether ``player`` knocks now."""
    if not t.knock_set:                                                   # 5080
        return False
    own, other = t.pv[player], t.pv[3 - player]
    if t.oklahoma:                                                        # 5110-5120
        knocks = own < 1 or own <= t.knock_value
    else:                                                                 # 5170-5190
        knocks = (t.turn < 9 and own <= 10) or (t.turn >= 9 and own <= 5)
        lucky = random.below(BOLD_KNOCK)                                  # RND always drawn
        if own <= 10 and own < other and lucky:
            knocks = True
    if knocks and other <= own:                                           # 5210-5220
        if random.below(HOLD_BACK):
            knocks = False
    return knocks
