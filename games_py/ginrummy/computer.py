"""The computer player of GINRUMMY.EXE, and a hand played by it on both sides.

A transcription of the original's BASIC (docs/ginrummy-internals.md, sections
11 and 12), working on the program's own tables with its own indices, so that a
position read from the running original (``Table``) gives the same decision and
spends the same RND calls:

* draw (lines 3690-3910): take the upcard or draw from the deck;
* discard (lines 4160-4720): which place K of the hand H(P, 1..11) to discard;
* knock (lines 5080-5240), after the knock value is brought up to date
  (lines 11100-11180);
* the arrangement (lines 6810-10000): straights, flats, the cards they share
  settled by the most cards matched and a coin toss, the layout of H(P, .), and
  the RND it spends (8410, 8420, 8660, 9660).

``DemoHand`` plays lines 2230-2990 with these for both players (demo mode:
``FNCOMP``, line 350, is true for player 2, and for player 1 in demo mode);
``Tunes`` is the tune after each hand.  RND comparisons use the runtime's
arithmetic (``OriginalRandom.below``, ``mbf``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from games_py.cards import Card
from games_py.ginrummy import rules, trace
from games_py.qbasic import mbf
from games_py.ginrummy.deal import OriginalRandom, card_of, number_of
from games_py.qbasic.mbf import MBF

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
    """A card's points: face cards 10 (lines 4850, 9960)."""
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
    melds: dict = field(default_factory=dict)   # the melds of each player's last arrangement
    places: int = 10               # [10FC]: the places the last arrangement closed up
    arrays: "MeldArrays" = field(default_factory=lambda: MeldArrays())   # S(), SL(): whole program
    # None: a CONF overflow raises SharedCardsOverflow (the traces stop with ``fault``); else
    # called with (P, shared cards) and the hand is arranged by the document's rule instead
    # (``play``: the original crashes here, the player plays on)
    on_overflow: Callable[[int, int], None] | None = None
    # likewise for lay-offs that read memory past SL() that is not modelled
    # (UnmodelledMemory): None raises; else called with the reason, and the lay-offs follow
    # the document instead
    on_unmodelled: Callable[[str], None] | None = None

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


# -- the arrangement (lines 6810-10000) ---------------------------------------------------------
def _card(number: int) -> Card:
    return card_of(number)


SUIT_ORDER = (6, 3, 4, 5)      # SUITS(1..4), READ at line 750: spades, hearts, diamonds, clubs
HALF = MBF(bytes.fromhex("00000080"))              # .5, line 8660 (DGROUP:1460)
THINK_AGAIN = MBF(bytes.fromhex("fa7e2a80"))       # .666, line 8410 (DGROUP:174C)


def _rank_sorted(cards: Sequence[int]) -> list[int]:
    """E(., 1..3), lines 7500-7570 and the insertion sort at 13330: the cards collected
    suit by suit (SUITS(4) down to SUITS(1): clubs, diamonds, hearts, spades), then
    stably sorted by rank."""
    collected = [c for suit in reversed(SUIT_ORDER) for c in cards if fn_suit(c) == suit]
    return sorted(collected, key=fn_rank)


def _straights(g: Sequence[int]) -> list[list[int]]:
    """Lines 7640-7970: for each suit (SUITS order) its highest card at place 3 or
    later of G starts a scan downwards; runs of 3 or more, high card first."""
    runs: list[list[int]] = []
    for suit in SUIT_ORDER:
        for j in range(len(g), 2, -1):
            if fn_suit(g[j - 1]) != suit:
                continue
            rank, run = fn_rank(g[j - 1]), [g[j - 1]]
            for i in range(j - 1, 0, -1):
                card = g[i - 1]
                if fn_suit(card) != suit:
                    continue
                if fn_rank(card) == rank - 1:
                    run.append(card)
                    rank -= 1
                    continue
                if len(run) >= 3:
                    runs.append(run)
                rank, run = fn_rank(card), [card]
            if len(run) >= 3:
                runs.append(run)
            break
    return runs


def _flats(g: Sequence[int]) -> list[list[int]]:
    """Lines 8030-8210: every rank held 3 or 4 times, its cards in SUITS order."""
    return [[c for suit in SUIT_ORDER for c in g if fn_suit(c) == suit and fn_rank(c) == r]
            for r in range(1, 14) if sum(1 for c in g if fn_rank(c) == r) >= 3]


ROWS = 5                      # S(4, 52) and SL(4, 52): rows 0-4, stored column by column
ARRAY_WORDS = ROWS * 53
# What the far heap holds right after SL()'s 265 words, up to FL()'s data: padding, then
# the heap's header of the FL() block (its size 530 bytes, the back pointer to its
# descriptor DGROUP:1026).  Read in the machine; the same at every lay-off seen.
AFTER_SL = (0, 0, 0, 0, 0, 0, 0, 15, 34, 530, 0, 0, 16384, 4134, 0)


def cell(m: int, j: int) -> int:
    """The word of S(M, J) or SL(M, J) in the array (column-major, as QuickBASIC stores it)."""
    return j * ROWS + m


@dataclass
class MeldArrays:
    """The straights array S() (DGROUP:0FFE) word for word as the program leaves it,
    stale cells included, and row 0 of the lay-offs' copy SL() (DGROUP:101A), which no
    copy ever writes.  They live as long as the program: one per session, shared by
    every hand's Table (docs/ginrummy-internals.md, section 12, phantom straights)."""

    s: list[int] = field(default_factory=lambda: [0] * ARRAY_WORDS)
    sl: list[int] = field(default_factory=lambda: [0] * ARRAY_WORDS)

    def scan_straights(self, g: Sequence[int]) -> None:
        """The writes of lines 7650-7970 (the search `_straights` does): S(1..4, 0) = 0,
        then each run attempt counts itself in S(NS + 1, 0) and stores its cards in
        S(NS + 1, 1..); a run shorter than 3 only sets S(NS + 1, 0) = 0 again."""
        s = self.s
        for m in range(1, 5):
            s[cell(m, 0)] = 0
        found = 0

        def store(card: int) -> None:
            size = s[cell(found + 1, 0)] + 1
            s[cell(found + 1, 0)] = size
            s[cell(found + 1, size)] = card

        def close(count: int) -> int:
            if count >= 3:
                return found + 1
            s[cell(found + 1, 0)] = 0
            return found
        for suit in SUIT_ORDER:
            for j in range(len(g), 2, -1):
                if fn_suit(g[j - 1]) != suit:
                    continue
                rank, count = fn_rank(g[j - 1]), 1
                store(g[j - 1])
                for i in range(j - 1, 0, -1):
                    card = g[i - 1]
                    if fn_suit(card) != suit:
                        continue
                    if fn_rank(card) == rank - 1:
                        count += 1
                        rank -= 1
                        store(card)
                        continue
                    found = close(count)
                    rank, count = fn_rank(card), 1
                    store(card)
                found = close(count)
                break

    def store_straights(self, straights: Sequence[Sequence[int]]) -> None:
        """S(1..4, .) holding ``straights`` (after a CONF overflow, where the original has
        no arrangement to copy): the lay-offs read the knocker's straights from here."""
        s = self.s
        for m in range(1, 5):
            s[cell(m, 0)] = 0
        for m, run in enumerate(straights, 1):
            s[cell(m, 0)] = len(run)
            for j, card in enumerate(run, 1):
                s[cell(m, j)] = card

    def regroup(self, combination: int, conflicts, straights: int) -> None:
        """Lines 8890-8960 before the new search: line 9200 marks each shared card that
        leaves its straight -1, then each of the ``straights`` rows is reversed in place
        (its cards 1..S(I, 0), marks included)."""
        s, bit = self.s, 1
        for i, k, _m, _n in conflicts:
            if bit & combination:
                s[cell(i + 1, k + 1)] = -1
            bit *= 2
        for m in range(1, straights + 1):
            size = s[cell(m, 0)]
            row = [s[cell(m, j)] for j in range(1, size + 1)]
            for j, card in enumerate(reversed(row), 1):
                s[cell(m, j)] = card


class UnmodelledMemory(RuntimeError):
    """The original would read or write past the end of SL() here: what lies there (the
    far heap after the array) is not modelled, so the Python game cannot go on."""


@dataclass(frozen=True)
class ProgramLayOff:
    """One card laid off by lines 6030-6120: ``row`` of SL() (a straight) or FL() (a
    flat) that line 6260 found it fits; a straight row past the knocker's straights is
    a phantom (docs/ginrummy-internals.md, section 12)."""
    card: int
    flat: bool
    row: int


def straights_and_flats(melds: Sequence[Sequence[Card]]) -> tuple[list, list]:
    """An arrangement's melds as the rows of S() and F(): the straights, then the flats."""
    return ([m for m in melds if rules.is_straight(m)],
            [m for m in melds if not rules.is_straight(m)])


def program_lay_offs(t: Table, knocker: int, other: int) -> tuple[list[ProgramLayOff], int]:
    """Lines 5980-6530 as the program runs them, on its arrays: the cards ``other`` lays
    off and his PV after them.  Lines 6390 and 6440 keep a straight's new size in NSL,
    the very count line 6310 loops to, so a later scan reads rows of SL() past the
    knocker's straights; SL() is column-major with 5 rows, so row I >= 5 is row I - 5 one
    column on.  That is reproduced word for word."""
    a = t.arrays
    straights, flats = straights_and_flats(t.melds[knocker])
    sl = a.sl
    for m in range(1, 5):                                                # line 6210
        for j in range(53):
            sl[cell(m, j)] = a.s[cell(m, j)]
    fl = {m: [number_of(c) for c in cards] for m, cards in enumerate(flats, 1)}   # line 6220
    nsl, nfl = len(straights), len(flats)                                # line 6230

    def read(i: int, j: int) -> int:
        word = cell(i, j)
        if word < ARRAY_WORDS:
            return sl[word]
        if word < ARRAY_WORDS + len(AFTER_SL):
            return AFTER_SL[word - ARRAY_WORDS]
        raise UnmodelledMemory(f"the lay-offs read SL({i}, {j}), past the end of the array "
                               "and its heap header, in FL()'s data")

    def write(i: int, j: int, value: int) -> None:
        word = cell(i, j)
        if word >= ARRAY_WORDS:
            raise UnmodelledMemory(f"the lay-offs write SL({i}, {j}), past the end of the array")
        sl[word] = value

    def fits(x: int) -> ProgramLayOff | None:                            # lines 6260-6530
        nonlocal nsl, nfl
        rank, suit = fn_rank(x), fn_suit(x)
        for i in range(1, nsl + 1):
            size = read(i, 0)
            if size < 3:
                continue
            step = fn_rank(read(i, 2)) - fn_rank(read(i, 1))
            step = (step > 0) - (step < 0)                               # SGN (line 6330)
            top = read(i, 1)
            if fn_suit(top) == suit and fn_rank(top) - step == rank:     # line 6370
                for j in range(size, 0, -1):
                    write(i, j + 1, read(i, j))
                write(i, 1, x)
                nsl = size + 1
                write(i, 0, nsl)
                return ProgramLayOff(x, False, i)
            last = read(i, read(i, 0))
            if fn_suit(last) == suit and step + fn_rank(last) == rank:   # line 6420
                nsl = size + 1
                write(i, 0, nsl)
                write(i, nsl, x)
                return ProgramLayOff(x, False, i)
        for i in range(1, nfl + 1):                                      # lines 6490-6530
            cards = fl.get(i, [])
            if len(cards) < 3 or fn_rank(cards[0]) != rank:
                continue
            cards.append(x)
            nfl = len(cards)
            return ProgramLayOff(x, True, i)
        return None

    hand = t.hands[other][:t.hands[other][0] + 1]                       # T(), line 6010
    pv, unmatched = t.pv[other], t.unmatched[other]
    laid: list[ProgramLayOff] = []
    if pv < 1 or unmatched < 1:                                          # line 5980
        return laid, pv
    while True:                                                          # line 6030
        for k in range(hand[0] - unmatched + 1, hand[0] + 1):
            x = hand[k]
            if x == 0:
                continue
            found = fits(x)
            if found is None:
                continue
            hand[k] = 0                                                  # line 6090
            pv -= value(fn_rank(x))
            unmatched -= 1
            laid.append(found)
            break                                                        # line 6120: GOTO 6030
        else:
            return laid, pv


def document_lay_offs(t: Table, knocker: int, other: int) -> tuple[list[ProgramLayOff], int]:
    """The lay-offs by GINRUMMY.DOC ("ANY OF HIS UNMATCHED CARDS THAT FIT", ``rules.lay_off``)
    in the shape ``program_lay_offs`` gives them, where the program's own scan cannot be
    followed (``UnmodelledMemory``)."""
    melds = t.melds[knocker]
    hand = t.hands[other][1:t.hands[other][0] + 1]
    unmatched = [_card(c) for c in hand[len(hand) - t.unmatched[other]:] if c > 0]
    if t.pv[other] < 1 or not unmatched:                                # line 5980
        return [], t.pv[other]
    result = rules.lay_off(unmatched, melds)
    straight_rows = [i for i, m in enumerate(melds) if rules.is_straight(m)]
    flat_rows = [i for i, m in enumerate(melds) if not rules.is_straight(m)]
    laid = []
    for item in result.lay_offs:
        flat = item.meld in flat_rows
        row = (flat_rows if flat else straight_rows).index(item.meld) + 1
        laid.append(ProgramLayOff(number_of(item.card), flat, row))
    return laid, result.pv


def _apply(combination: int, conflicts, straights, flats):
    """Line 9200: each shared card leaves the straight when its bit is set, else the
    flat (-1 marks it); the sum of the ranks taken out ([11EA])."""
    s = [list(m) for m in straights]
    f = [list(m) for m in flats]
    taken, bit = 0, 1
    for i, k, m, n in conflicts:
        if bit & combination:
            taken += fn_rank(s[i][k])
            s[i][k] = -1
        else:
            taken += fn_rank(f[m][n])
            f[m][n] = -1
        bit *= 2
    return s, f, taken


def _count_straights(straights) -> int:
    """Lines 9310-9510: cards in runs of 3 or more that survive the removals."""
    total = 0
    for run in straights:
        length, count = len(run), 1
        start = next((k for k in range(length - 2) if run[k] > 0), None)
        if start is None:
            continue
        current = run[start]
        for card in run[start + 1:]:
            if card <= 0:
                continue
            if card == current - 1:
                count += 1
                current -= 1
                continue
            if count >= 3:
                total += count
            current, count = card, 1
        if count >= 3:
            total += count
    return total if total >= 3 else 0


def _count_flats(flats) -> int:
    """Lines 9530-9610."""
    total = 0
    for flat in flats:
        n = sum(1 for c in flat if c > 0)
        if n >= 3:
            total += n
    return total if total >= 3 else 0


# Line 8310 stores shared card C at CONF(C + 5), CONF(C + 10), CONF(C + 15) and CONF(C + 20);
# CONF (DGROUP:1032) has 26 words, so the 6th shared card writes past it, over the
# descriptor of the next array (DGROUP:1066), and the original later crashes
# (docs/ginrummy-internals.md, section 12).  Both traces stop there with a ``fault``.
MAX_SHARED = 5
SHARED_LINE = 8310


def shared_cards_fault(player: str) -> dict:
    """The ``fault`` event of an arrangement that finds more than MAX_SHARED shared cards."""
    shared = MAX_SHARED + 1
    return trace.fault_event(
        player=player, line=SHARED_LINE, shared=shared,
        reason=f"CONF overflow: shared card {shared} of a straight and a flat, CONF holds "
               f"{MAX_SHARED}; the original overwrites the next array's descriptor and later crashes")


class SharedCardsOverflow(RuntimeError):
    """The arrangement of player ``p``'s hand found more shared cards than the original's
    CONF array holds: the original goes wrong here, so the game cannot follow it."""

    def __init__(self, p: int, shared: int) -> None:
        super().__init__(f"player {p}'s hand has {shared} cards shared by a straight and a flat; "
                         f"the original's CONF holds {MAX_SHARED} (line {SHARED_LINE})")
        self.player, self.shared = p, shared

    def event(self) -> dict:
        return shared_cards_fault(trace.YOU if self.player == 1 else trace.COMPUTER)


def _document_melds(cards: Sequence[int]) -> tuple[list[list[int]], list[list[int]]]:
    """GINRUMMY.DOC's rule where the original cannot arrange a hand (more shared cards than
    CONF holds): "THE MOST MATCHED CARDS, AND, AMONG EQUAL ALTERNATIVES, THOSE WITH THE
    LOWEST PV" (``rules.arrange``); straights high card first as line 7640 keeps them,
    flats in SUITS order."""
    hand = rules.arrange([_card(c) for c in cards])
    straights, flats = [], []
    for meld in hand.melds:
        numbers = [number_of(c) for c in meld]
        if rules.is_straight(meld):
            straights.append(sorted(numbers, key=fn_rank, reverse=True))
        else:
            flats.append(sorted(numbers, key=lambda c: SUIT_ORDER.index(fn_suit(c))))
    return straights, flats


def _hidden(t: Table, p: int) -> bool:
    """``FN`` at line 340: the computer's hand is hidden unless OPEN HANDS (or the
    debugging switch at line 13200, never on here)."""
    return not (p == 1 or (p == 2 and t.open_hands))


def arrange(t: Table, p: int, places: int, random: OriginalRandom, *, moving: bool = True,
            final: bool = False) -> None:
    """Lines 6810-10000: close the gaps in H(P, 1..places), count the ranks (RC), find
    the straights and flats, settle the cards they share, and lay the hand out again:
    straights, flats, then the unmatched cards from the highest.  ``moving``: FNCOMP
    (line 350) for the player whose turn it is; ``final``: [10F2], set around the
    arrangement that ends a hand (line 2540)."""
    hand = t.hands[p]
    cards = [c for c in hand[1:places + 1] if c > 0]                     # 7060-7130
    for k in range(1, places + 1):
        hand[k] = cards[k - 1] if k <= len(cards) else 0
    for r in range(14):                                                 # 7170-7200
        t.rank_count[r][p] = 0
    for c in cards:
        t.rank_count[fn_rank(c)][p] += 1
    e = _rank_sorted(cards)                                             # 7500
    straights, flats = _straights(e), _flats(e)                         # 7600, 7990
    t.arrays.scan_straights(e)
    conflicts = [(i, k, m, n) for i, run in enumerate(straights) for k, c in enumerate(run)
                 for m, flat in enumerate(flats) for n, d in enumerate(flat) if c == d]
    if len(conflicts) > MAX_SHARED:                                     # 8240-8320
        if t.on_overflow is None:
            raise SharedCardsOverflow(p, len(conflicts))
        t.on_overflow(p, len(conflicts))                                # the original crashes:
        straights, flats = _document_melds(cards)                       # play on by the document
        t.arrays.store_straights(straights)
    elif not conflicts:                                                 # 8370-8420
        if moving and not t.open_hands and not final:
            first = random.generator.rnd()
            if mbf.compare(mbf.mul(random.generator.rnd(), first), THINK_AGAIN) >= 0:
                random.generator.rnd()                                  # the "THINKING..." pause:
                random.generator.rnd()                                  # RND * RND * RND + .1
                random.generator.rnd()
    else:                                                               # 8450-8760
        best_total, best_taken, best = 0, 0, -1
        for combination in range(2 ** len(conflicts)):
            s, f, taken = _apply(combination, conflicts, straights, flats)
            total = _count_straights(s) + _count_flats(f)
            if total < 3 or best_total > total:
                continue
            if best_total == total:
                keep = random.below(HALF)                               # RND always drawn
                if best_taken < taken or (best_taken == taken and keep):
                    continue
            best_total, best_taken, best = total, taken, combination
        s, f, _taken = _apply(best, conflicts, straights, flats)       # 8890-9170
        t.arrays.regroup(best, conflicts, len(straights))
        regrouped = [c for run in s for c in reversed(run) if c > 0]
        straights = _straights(regrouped)
        t.arrays.scan_straights(regrouped)
        flats = _flats([c for flat in f for c in reversed(flat) if c > 0])
    order = list(e)                                                     # 9650
    if _hidden(t, p):                                                   # 9660
        n = len(cards)
        for _ in range(4):
            a = random.fnr(n)
            b = random.fnr(n)
            order[a - 1], order[b - 1] = order[b - 1], order[a - 1]
    laid = [c for m in straights for c in m] + [c for m in flats for c in m]
    unmatched = [c for c in reversed(order) if c not in laid]           # 9820-9890
    for k, c in enumerate(laid + unmatched, 1):
        hand[k] = c
    t.places = len(cards)                                               # 7150
    t.unmatched[p] = len(unmatched)                                     # 9910
    t.pv[p] = sum(value(fn_rank(c)) for c in unmatched)                 # 9940-10000
    t.melds[p] = [[_card(c) for c in m] for m in straights + flats]


# -- a whole hand in demo mode ----------------------------------------------------------------
class UnshownMeld(RuntimeError):
    """A lay-off onto none of the knocker's melds as the trace last showed them (the
    ``knock``/``gin`` event, or ``rearranged`` when line 2540 arranged them otherwise):
    a contradiction in the player, never expected.  The tracer of the original checks
    the same."""



DEAD_TOP = 50          # line 2460: IF TOP >= 50 the hand is dead
NOBODY_KNOCKED = 0


@dataclass
class DemoHand:
    """One hand played by the computer on both sides (demo mode), lines 2230-2960,
    writing the events the tracer of the original writes."""

    t: Table
    random: OriginalRandom
    dealer: int
    variant: str
    doubling_suit: int = 5                  # CLUBS (line 180), compared at line 2870
    events: list = field(default_factory=list)
    knocker: int = NOBODY_KNOCKED
    player: int = 0
    outcome: tuple | None = None
    laid_off: bool = False
    _knock_shown: tuple | None = None
    _discarded: dict = field(default_factory=dict)

    @classmethod
    def dealt(cls, deck: Sequence[int], dealer: int, variant: str, random: OriginalRandom,
              open_hands: bool = False, arrays: MeldArrays | None = None) -> "DemoHand":
        """The table after lines 2020-2220: H(non-dealer) = D(1), D(3), ..., H(dealer) =
        D(2), D(4), ..., the upcard D(21) on the pile, TOP = 21."""
        d = [0, *deck]
        hands = [[0] * 53 for _ in range(4)]
        for j in range(10):
            hands[3 - dealer][j + 1] = d[2 * j + 1]
            hands[dealer][j + 1] = d[2 * j + 2]
        hands[1][0] = hands[2][0] = 10
        hands[PILE][0], hands[PILE][1] = 1, d[21]
        t = Table(hands, [0] * 4, [0] * 4, [[0] * 4 for _ in range(14)], d, 21, turn=0,
                  knock_value=10, knock_set=False, open_hands=open_hands,
                  oklahoma=variant != rules.STANDARD, cowboy=variant == rules.COWBOY,
                  arrays=arrays if arrays is not None else MeldArrays())
        update_knock_value(t)          # the value the deal shows (the upcard's, but for standard)
        hand = cls(t, random, dealer, variant)
        hand._note_knock_value()
        return hand

    # -- messages (GOSUB 12640): each spends FNR(4) for its colour -------------------------------
    def _message(self) -> None:
        self._note_knock_value()
        self.random.message_colour()

    def _note_knock_value(self) -> None:
        """The tracer reports a new knock value at the first message after it changed."""
        t = self.t
        now = (t.knock_value, t.oklahoma and t.knock_suit == self.doubling_suit)
        if self._knock_shown is None:
            self._knock_shown = now
        elif now != self._knock_shown:
            self._knock_shown = now
            self.events.append(trace.knock_value_event(*now))

    def _name(self, p: int) -> str:
        return trace.YOU if p == 1 else trace.COMPUTER

    # -- the hand -----------------------------------------------------------------------------
    def play(self) -> list[dict]:
        t = self.t
        self._note_knock_value()
        for p in (1, 2):                                    # lines 2240-2250: FOR PLAYER = 1 TO 2
            arrange(t, p, 10, self.random, moving=self._plays_itself(p))
        self.player = 3 - self.dealer                      # line 2280
        while True:
            if self.dealer != self.player:                  # line 2360
                t.turn += 1
            if self._turn():                                # line 2440
                self.knocker = self.player
                break
            if t.top >= DEAD_TOP:                           # line 2460
                break
            self.player = 3 - self.player
        if self.knocker == NOBODY_KNOCKED:
            arrange(t, self.player, t.places, self.random, final=True)     # line 2540
            self._message()                                 # "DEAD HAND" (line 2590)
            self.events.append(trace.dead_hand_event(next_dealer=self._name(self.player)))
            self.outcome = None
        else:
            self._settle()
        return self.events

    def finish(self, sound: bool, tunes: "Tunes") -> None:
        """Lines 2630-2990 after the scoring, as far as they spend RND: the messages
        (gin, lay-offs, undercut, the winner) and the winner's tune."""
        if self.outcome is None:
            return
        score, knocker, _knocker_pv, _other_pv = self.outcome
        if score.result == rules.GIN:
            self.random.message_colour()                    # "I GO GIN!" (line 2650)
        elif self.laid_off:
            self.random.message_colour()                    # "I AM LAYING OFF CARD ..." (6170)
        winner = knocker if score.knocker_wins else 3 - knocker
        if winner != knocker:
            self.random.message_colour()                    # "TA TA, AN UNDERCUT!" (line 2830)
        self.random.message_colour()                        # "... WON THE HAND! (...)" (2990)
        if sound:
            tunes.play(self.random, winner)

    # -- who decides: the computer (FNCOMP, line 350) for both players in demo mode ---------------
    def _plays_itself(self, p: int) -> bool:
        """FNCOMP for PLAYER = p: the arrangement's thinking pause (line 8410) is the computer's."""
        return True

    def _knocks(self, p: int) -> bool:
        return knock_decision(self.t, p, self.random)                  # lines 5080-5240

    def _takes_upcard(self, p: int) -> bool:
        return draw_decision(self.t, p, self.random)                   # lines 3690-3910

    def _discard_place(self, p: int) -> int:
        return discard_decision(self.t, p, self.random)                # lines 4160-4720

    def _turn(self) -> bool:
        """Lines 3510-3570: knock?, draw, discard, knock?  True when the player knocked."""
        t, p = self.t, self.player
        if self._knock_check():                             # line 3520
            return True
        self._draw()                                        # line 3530
        arrange(t, p, SLOTS, self.random, moving=self._plays_itself(p))   # line 3540
        if t.unmatched[p] > 0:                              # line 3550
            self._discard()
        return self._knock_check()                          # line 3560

    def _knock_check(self) -> bool:
        """Lines 5030-5300."""
        t, p = self.t, self.player
        update_knock_value(t)
        if not self._knocks(p):
            return False
        melds = self._knocker_melds(p)
        self._message()                                     # "PLAYER n KNOCKS"
        self.events.append(self._arrangement_event(trace.knock_event, p, melds))
        return True

    def _arrangement_event(self, make, p: int, melds: list[list[Card]], places: int | None = None,
                           **extra) -> dict:
        """``knock``/``gin`` or ``rearranged``: player p's melds, the rest of his hand (of
        its first ``places`` places, all by default) as deadwood, and his PV."""
        t = self.t
        last = t.hands[p][0] if places is None else places
        hand = [_card(c) for c in t.hands[p][1:last + 1] if c > 0]
        matched = {c for m in melds for c in m}
        deadwood = [c for c in hand if c not in matched]
        return make(self._name(p), melds, deadwood, t.pv[p], **extra)

    def _knocker_melds(self, p: int) -> list[list[Card]]:
        """The melds of the knocker's last arrangement; a discarded card drops out."""
        gone = self._discarded.get(p)
        return [m for m in self.t.melds[p] if gone is None or gone not in m]

    def _draw(self) -> None:
        """Lines 3690-4090."""
        t, p = self.t, self.player
        take = self._takes_upcard(p)
        top = t.pile_top()
        if take and top is not None:                        # line 3920
            t.last_taken = top
        self._message()                                     # "I'M DRAWING ..." (3950)
        hand = t.hands[p]
        if take:
            card = top
            t.hands[PILE][t.hands[PILE][0]] = 0
            t.hands[PILE][0] -= 1
            update_knock_value(t)                           # line 10180: the pile redrawn (10980)
            source = trace.FROM_UPCARD
        else:
            t.top += 1
            card = t.deck[t.top]
            source = trace.FROM_DECK
        self.events.append(trace.draw_event(self._name(p), source, _card(card)))
        place = next((i for i in range(1, SLOTS + 1) if hand[i] == 0), SLOTS)
        hand[place] = card
        hand[0] = SLOTS
        self._message()                                     # the message line cleared (4080)

    def _discard(self) -> None:
        """Lines 4160-5010."""
        t, p = self.t, self.player
        k = self._discard_place(p)
        self._message()                                     # "I'M DISCARDING CARD k" (4750)
        from_meld = 12 - t.unmatched[p] > k                 # line 4800
        hand = t.hands[p]
        card = hand[k]
        hand[k] = 0
        v = value(fn_rank(card))                            # lines 4850-4860 (RC(V) even for
        t.pv[p] -= v                                        # face cards: the original's slip)
        t.rank_count[v][p] -= 1
        t.unmatched[p] -= 1
        pile = t.hands[PILE]
        pile[0] += 1
        pile[pile[0]] = card
        update_knock_value(t)                               # line 4930: the pile redrawn (10980)
        self._discarded[p] = _card(card)
        self.events.append(trace.discard_event(self._name(p), _card(card)))
        self._message()                                     # cleared (4970)
        if from_meld:
            arrange(t, p, SLOTS, self.random, moving=self._plays_itself(p))   # line 5000
            self._discarded.pop(p, None)

    def _settle(self) -> None:
        """Lines 2540-2890: the knocker's hand is arranged once more (with [10F2] set, so
        without the thinking pause, but shared cards are settled by RND again: its melds
        and PV can change after the knock), then lay-offs (unless gin) and the score."""
        t, k = self.t, self.knocker
        other = 3 - k
        shown = rules.canonical_melds(self._knocker_melds(k))
        arrange(t, k, t.places, self.random, final=True)                # line 2540
        melds = t.melds[k]
        # PLACES is shared by both hands: after a gap left by the knocker's last discard,
        # cards beyond it are not arranged, nor counted in PV (docs/ginrummy-internals.md §12)
        left_out = [_card(c) for c in t.hands[k][t.places + 1:t.hands[k][0] + 1] if c > 0]
        if rules.canonical_melds(melds) != shown or left_out:   # or the coin toss of 8660 fell otherwise
            shown = rules.canonical_melds(melds)
            self.events.append(self._arrangement_event(trace.rearranged_event, k, melds, t.places,
                                                       left_out=left_out))
        knocker_pv, other_pv = t.pv[k], t.pv[other]
        if knocker_pv > 0:                                              # line 2630
            try:
                laid, other_pv = program_lay_offs(t, k, other)
            except UnmodelledMemory as exc:
                if t.on_unmodelled is None:
                    raise
                t.on_unmodelled(str(exc))                   # play on: the document's lay-offs
                laid, other_pv = document_lay_offs(t, k, other)
            straights, flats = straights_and_flats(melds)
            rows = {False: straights, True: flats}
            for item in laid:
                card = _card(item.card)
                if not item.flat and item.row > len(straights):
                    self.events.append(trace.phantom_layoff_event(self._name(other), card, item.row))
                    continue
                meld = set(rows[item.flat][item.row - 1])
                target = next((i for i, m in enumerate(shown) if set(m) == meld), None)
                if target is None:
                    raise UnshownMeld(f"{card} was laid off, but on none of the knocker's melds")
                self.events.append(trace.layoff_event(self._name(other), card, target))
            # line 5980: no scan when the opponent has nothing unmatched
            self.laid_off = bool(laid) and t.pv[other] >= 1 and t.unmatched[other] >= 1
        doubled = t.oklahoma and t.knock_suit == self.doubling_suit
        score = rules.score_hand(knocker_pv, other_pv, doubled)
        self.outcome = (score, k, knocker_pv, other_pv)


SEVEN = mbf.from_int(7)
ONE = mbf.from_int(1)


@dataclass
class Tunes:
    """The tune after each hand (lines 14260-14640): a tune different from the last one
    of its kind, chosen by ``INT(RND * RND * 7 + 1)`` (line 14290) or ``INT(RND * 7 + 1)``
    (line 14520).  Line 240 swaps the two kinds when the month of DATE$ is odd, as on the
    tracer's machine, which starts on 1 January 1988."""

    odd_month: bool = True
    last_double: int = 0            # [12C6]
    last_single: int = 0            # [12D6]

    def play(self, random: OriginalRandom, winner: int) -> None:
        double = (winner == 1) != self.odd_month          # GOSUB 14260 for player 1, 14490 for 2
        g = random.generator
        while True:
            if double:
                first = g.rnd()
                value = mbf.mul(g.rnd(), first)
            else:
                value = g.rnd()
            value = mbf.cint(mbf.int_(mbf.add(mbf.mul(value, SEVEN), ONE)))
            if value != (self.last_double if double else self.last_single):
                break
        if double:
            self.last_double = value
        else:
            self.last_single = value
