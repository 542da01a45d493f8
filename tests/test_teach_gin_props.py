"""Property tests over random hands and >= 1,000 random games of Teach's GinRummy.

Every game checks after every move: all 52 cards present exactly once (line 167:
one deck), hand sizes 10 (11 while discarding), scores never negative, every
computer move among the legal moves, and that the game ends as lines 127 and 192 say.
"""
from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pytest

from games_py.cards import full_deck
from games_py.melds import best_arrangement, is_meld
from games_py.teach_gin import files, options as opt, rules
from games_py.teach_gin.deadwood import arrange, deadwood
from games_py.teach_gin.match import play_game
from games_py.teach_gin.options import Options
from games_py.teach_gin.players import ComputerPlayer, HintPlayer, RandomPlayer
from games_py.teach_gin.records import ScoreEntry, ScoreTable, StatsBook
from games_py.teach_gin.scoring import lay_off
from games_py.teach_gin.state import Phase

DECK = full_deck()
hands = st.lists(st.sampled_from(DECK), min_size=0, max_size=11, unique=True)


# ---- the evaluator against the shared toolkit -----------------------------------------

@settings(max_examples=400, deadline=None)
@given(hands)
def test_fast_deadwood_equals_the_full_enumeration(hand):
    """[001_669d1958badefd0b.txt lines 83, 170]"""
    assert deadwood(hand) == best_arrangement(hand).points


@settings(max_examples=300, deadline=None)
@given(hands)
def test_arrangement_is_a_partition_into_real_melds(hand):
    """[001_669d1958badefd0b.txt lines 83, 170]"""
    a = arrange(hand)
    used = [c for m in a.melds for c in m] + list(a.deadwood)
    assert sorted(used) == sorted(hand)
    assert all(is_meld(m) for m in a.melds)
    assert a.points == deadwood(hand)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=20, max_size=20, unique=True))
def test_layoffs_come_from_the_deadwood_and_make_melds_grow(cards20):
    """[001_669d1958badefd0b.txt line 186]"""
    knocker, defender = cards20[:10], cards20[10:]
    melds = arrange(knocker).melds
    dead = arrange(defender).deadwood
    laid = lay_off(dead, melds)
    assert set(laid) <= set(dead) and len(set(laid)) == len(laid)
    # every laid-off card really joins a meld of the knocker (possibly after other lay-offs)
    grown = [list(m) for m in melds]
    pending = list(laid)
    while pending:
        for c in list(pending):
            for m in grown:
                if is_meld(m + [c]):
                    m.append(c)
                    pending.remove(c)
                    break
            else:
                continue
            break
        else:
            pytest.fail(f"{pending} cannot be laid on {melds}")


# ---- 1,000 random games ---------------------------------------------------------------------

SEATS = {
    "computer": lambda seed: ComputerPlayer(),
    "easy": lambda seed: ComputerPlayer(easy=True),
    "hint": lambda seed: HintPlayer(),
    "random": lambda seed: RandomPlayer(random.Random(seed)),
}
COMPUTERS = ("computer", "easy", "hint")


def check_game(seed: int, o: Options, seats: tuple[str, str]) -> None:
    game = rules.new_game(o, random.Random(seed))
    players = [SEATS[k](seed + i) for i, k in enumerate(seats)]
    start_scores = [0, 0]

    def on_move(g, p, move):
        h = g.hand
        assert move in rules.legal_moves(h), f"{seats[p]} played illegal {move}"
        assert h.to_move == p

    def check_state(g):
        h = g.hand
        everything = h.all_cards()
        assert len(everything) == 52 and set(everything) == set(DECK)
        sizes = sorted(len(x) for x in h.hands)
        assert sizes in ([10, 10], [10, 11])
        if h.phase is Phase.DISCARD:
            assert len(h.hands[h.to_move]) == 11
        assert min(g.scores) >= 0
        assert g.scores[0] >= start_scores[0] and g.scores[1] >= start_scores[1]
        start_scores[:] = g.scores
        assert len(h.stock) >= 2

    def listener(g, p, move):
        on_move(g, p, move)
        check_state(g)
    play_game(game, players, listener)
    check_state(game)
    assert game.over
    if o.score_limit == 0:
        assert game.hands_played == 1
    else:
        assert max(game.scores) >= o.score_limit
        assert game.winner == game.scores.index(max(game.scores))
        # the limit was not reached before the last hand
        before = [game.scores[0], game.scores[1]]
        last = game.history[-1]
        before[last.winner] -= last.points
        assert max(before) < o.score_limit
    assert sum(r.points for r in game.history if r.winner == 0) == game.scores[0]
    assert sum(r.points for r in game.history if r.winner == 1) == game.scores[1]
    for r in game.history:
        assert r.points >= 0
        if r.kind == "draw":
            assert r.points == 0 and r.winner is None
        if r.kind == "gin":
            assert r.deadwood_points[r.ender] == 0
        factor = 2 if r.doubled else 1
        if r.kind == "knock":
            assert r.points == factor * (r.deadwood_points[1 - r.ender] - r.deadwood_points[r.ender]) > 0
        if r.kind == "undercut":
            assert r.points == factor * (o.undercut_bonus + r.deadwood_points[r.ender]
                                         - r.deadwood_points[1 - r.ender])


games = st.tuples(
    st.integers(0, 2 ** 32 - 1),
    st.builds(Options,
              gin_bonus=st.sampled_from(opt.BONUS_CHOICES),
              undercut_bonus=st.sampled_from(opt.BONUS_CHOICES),
              # short games keep 1,000 of them inside the time budget; the slow test
              # below covers the whole 0-500 range
              score_limit=st.sampled_from((0, 50, 100)),
              oklahoma=st.booleans(), knocking=st.booleans(), easy=st.booleans()),
    st.sampled_from([(a, b) for a in SEATS for b in SEATS if a in COMPUTERS or b in COMPUTERS]),
)


@settings(max_examples=1000, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(games)
def test_one_thousand_random_games_keep_every_invariant(game):
    """[001_669d1958badefd0b.txt lines 166-192]"""
    check_game(*game)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2 ** 32 - 1), st.integers(0, 10).map(lambda k: 50 * k),
       st.booleans(), st.booleans())
def test_long_games_over_the_whole_limit_range(seed, limit, okla, knocking):
    """[001_669d1958badefd0b.txt lines 47, 166-192]"""
    check_game(seed, Options(score_limit=limit, oklahoma=okla, knocking=knocking),
               ("computer", "easy"))


# ---- the files round-trip -------------------------------------------------------------------

names = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF,
                                       blacklist_characters="\t"), min_size=1, max_size=8
                ).filter(lambda s: s.isprintable())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(names, st.integers(0, 999), st.integers(0, 99),
                          st.sampled_from(["won", "lost", "drawn"])), max_size=40))
def test_stats_survive_the_file_and_never_exceed_twenty(games_played):
    """[001_669d1958badefd0b.txt line 69]"""
    book = StatsBook()
    for name, pts, hands_, outcome in games_played:
        book.record(name, pts, hands_, outcome)
        assert len(book.entries) <= 20
    assert files.parse_stats(files.format_stats(book)).entries == book.entries


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(names, st.integers(0, 999), st.integers(1, 40), st.booleans(),
                          st.dates().map(lambda d: d.isoformat())), max_size=40))
def test_score_table_stays_sorted_and_survives_the_file(entries):
    """[001_669d1958badefd0b.txt line 103]"""
    t = ScoreTable()
    for name, score, hands_, okla, day in entries:
        t.add(ScoreEntry(name, score, 100, hands_, okla, day))
        assert len(t.entries) <= 20
        assert all(a.score * b.hands >= b.score * a.hands for a, b in zip(t.entries, t.entries[1:]))
        assert all(e.score > 0 for e in t.entries)
    assert files.parse_scores(files.format_scores(t)).entries == t.entries


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_any_text_in_a_file_is_either_read_or_refused_cleanly(text):
    """[001_669d1958badefd0b.txt lines 63, 69, 103]"""
    for parse in (files.parse_config, files.parse_stats, files.parse_scores):
        try:
            parse(text)
        except files.CorruptFile:
            pass
