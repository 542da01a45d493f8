"""Rummi: the Expert's move time and its strength against the Beginner.

Not a test.  Plays N seeded games Expert vs Beginner (seats alternate, so
each level moves first equally often), and reports:
  * Expert move time per decision (median, 95th percentile, max),
  * pieces played per turn by each level,
  * Expert wins / losses / draws.

    .venv/bin/python benchmarks/rummi_players.py --games 200
"""
from __future__ import annotations

import argparse
from pathlib import Path
import statistics
import sys
import time

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games_py.rummi.game import play_game            # noqa: E402
from games_py.rummi.players import BeginnerPlayer, ExpertPlayer  # noqa: E402


class TimedExpert(ExpertPlayer):
    """The Expert, with the wall time of every decision recorded (the
    benchmark's clock; the game itself never reads one)."""

    def __init__(self, times: list[float]):
        self.times = times

    def act(self, view):
        start = time.perf_counter()
        action = super().act(view)
        self.times.append(time.perf_counter() - start)
        return action


def stress(count: int, seed: int) -> None:
    """Worst cases real games rarely reach: nearly every piece on the table,
    opening (30 needed) or not."""
    import random
    from games_py.rummi.solver import best_play
    from games_py.rummi.tiles import full_set

    rng = random.Random(seed)
    for minimum in (0, 30):
        times, sizes = [], []
        for _ in range(count):
            pieces = full_set()
            rng.shuffle(pieces)
            table = best_play([], pieces[:90]).table
            on_table = {t for s in table for t in s}
            tray = [t for t in pieces if t not in on_table]
            sizes.append((len(on_table), len(tray)))
            start = time.perf_counter()
            best_play(table, tray, minimum)
            times.append(time.perf_counter() - start)
        table_mean = statistics.mean(a for a, _ in sizes)
        tray_mean = statistics.mean(b for _, b in sizes)
        print(f"stress, minimum {minimum:2}: {count} positions, on average {table_mean:.0f} "
              f"pieces on the table and {tray_mean:.0f} on the tray; "
              f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--stress", type=int, default=0, metavar="N",
                        help="also time the solver on N crowded positions (as many "
                             "of 90 random pieces as fit on the table, the rest on the tray)")
    args = parser.parse_args(argv)
    if args.stress:
        stress(args.stress, args.first_seed)
    if args.games < 1:
        return 0

    times: list[float] = []
    pieces = {"Expert": [], "Beginner": []}
    results = {"win": 0, "loss": 0, "draw": 0}
    by_empty_pile = 0
    turns = []
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.first_seed + i
        expert_seat = i % 2
        players = [None, None]
        players[expert_seat] = TimedExpert(times)
        players[1 - expert_seat] = BeginnerPlayer()
        state, records = play_game(players, seed)
        turns.append(len(records))
        for r in records:
            pieces["Expert" if r.player == expert_seat else "Beginner"].append(r.played)
        if "pile is empty" in state.end_reason:
            by_empty_pile += 1
        if state.winner is None:
            results["draw"] += 1
        elif state.winner == expert_seat:
            results["win"] += 1
        else:
            results["loss"] += 1
    elapsed = time.perf_counter() - started

    times.sort()
    p95 = times[int(0.95 * (len(times) - 1))]
    print(f"games: {args.games} (seeds {args.first_seed}..{args.first_seed + args.games - 1}), "
          f"{elapsed:.1f} s in all")
    print(f"Expert decisions timed: {len(times)}; median {statistics.median(times) * 1000:.1f} ms, "
          f"95th percentile {p95 * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms")
    for level, counts in pieces.items():
        plays = [c for c in counts if c]
        print(f"{level:8}: {statistics.mean(counts):.2f} pieces per turn over {len(counts)} turns; "
              f"{len(plays) / len(counts):.0%} of turns play, {statistics.mean(plays):.2f} "
              f"pieces per playing turn")
    total = args.games
    print(f"Expert vs Beginner: {results['win']} wins, {results['loss']} losses, "
          f"{results['draw']} draws -> Expert win rate {results['win'] / total:.1%}")
    print(f"game length: median {statistics.median(turns)} turns; "
          f"{by_empty_pile} games ended with the pile empty")
    return 0


if __name__ == "__main__":
    sys.exit(main())
