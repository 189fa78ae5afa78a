"""Where the time of bench/load_bench.py's app phase went, half a second at a time.

    .venv/bin/python bench/load_bench.py --front --wrk ... --no-write --samples S.json --trace T
    .venv/bin/python bench/load_trace.py S.json T.*

For each half second from the phase's first save: the saves begun in it (count,
latency p50/p95, ms in waitress's queue p50/p95, ms connecting when a save opened
its connection), and what the server did that began in it, by kind: requests
(saves, polls the front passed on, others), renewals of the front's parts and the
follower's passes, as count/CPU ms. Not part of `make test`."""

from __future__ import annotations

import collections
import json
import sys

from load_bench import percentile


def known(values) -> list[float]:
    """The figures a save has (a NaN: not measured, e.g. no connect)."""
    return [v for v in values if v == v]


def kind_of(name: str) -> str | None:
    if name in ("forget", "keep"):
        return None
    if name in ("renew", "warm"):
        return name
    return "save" if name.startswith("POST") else "poll" if name == "GET:live" else "other"


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print(__doc__)
        return 2
    saves = json.loads(open(argv[0]).read())
    t0 = min(s[0] for s in saves)
    by_half = collections.defaultdict(list)
    for s in saves:
        by_half[int((s[0] - t0) * 2)].append(s)
    work = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in argv[1:]:
        for line in open(path):
            fields = line.split()
            kind = kind_of(fields[0])
            if kind is not None:
                work[int((float(fields[1]) - t0) * 2)][kind].append(float(fields[3]))
    last = max(by_half)
    print("s     | saves  p50  p95 | queue p50  p95 | connect n  p50 | server: kind count/CPU ms")
    for half in range(-4, last + 1):
        rows = by_half.get(half, [])
        latency, queue, connects = (known(s[i] for s in rows) for i in (1, 3, 4))
        done = " ".join(f"{kind} {len(cpu)}/{sum(cpu):.0f}" for kind, cpu in sorted(work[half].items()))
        print(
            f"{half / 2:5.1f} | {len(rows):5d} {percentile(latency, 50):4.0f} {percentile(latency, 95):4.0f} | "
            f"{percentile(queue, 50):9.0f} {percentile(queue, 95):4.0f} | {len(connects):9d} "
            f"{percentile(connects, 50):4.0f} | {done}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
