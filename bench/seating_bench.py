"""Seating for a club night: what the draw reaches against the lower bound, and how
long it takes.

    .venv/bin/python bench/seating_bench.py [--table] [--seeds 5]

``--table`` prints the Markdown table of docs/seating.md: for 4 to 30 players, the
repeated meetings (meetings beyond the first, summed over pairs) of 3 rounds, 5
rounds and (N-1)/2 rounds (every player meeting a new pair each round, were it
possible), the worst over ``--seeds`` seeds, beside the lower bound. Without it, the
time of the target: 30 tables of 3 (90 players would be past the club night's 60: the
draw itself is measured at 60 players, 20 tables, and at 90 through the same code) for
5 rounds, median of 5 draws.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.club import seating  # noqa: E402


def reached(players: int, rounds: int, seeds: int) -> int:
    names = [f"P{i}" for i in range(players)]
    return max(seating.draw(names, rounds, seed=seed).repeats for seed in range(seeds))


def table(seeds: int) -> str:
    lines = ["| players | 3 rounds | 5 rounds | (N-1)/2 rounds |", "| --- | --- | --- | --- |"]
    for n in range(4, 31):
        cells = []
        for rounds in (3, 5, max(1, (n - 1) // 2)):
            label = f"{rounds}: " if rounds not in (3, 5) or n < 8 else ""
            cells.append(f"{label}{reached(n, rounds, seeds)} (bound {seating.lower_bound(n, rounds)})")
        lines.append(f"| {n} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def timing(players: int, rounds: int) -> float:
    names = [f"P{i}" for i in range(players)]
    times = []
    for seed in range(5):
        start = time.perf_counter()
        seating.draw(names, rounds, seed=seed)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--table", action="store_true")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args()
    if args.table:
        print(table(args.seeds))
        return
    for players in (60, 90):
        if players > seating.MAX_PLAYERS:
            seating.MAX_PLAYERS = players  # the bench only: the draw past the night's limit
        print(f"{players} players, 5 rounds: median {timing(players, 5) * 1000:.0f} ms (target ≤ 1 s)")


if __name__ == "__main__":
    main()
