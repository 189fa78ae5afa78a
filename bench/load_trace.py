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


def percentile(values, q):
    values = sorted(v for v in values if v == v)
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


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
        connects = [s[4] for s in rows if s[4] == s[4]]
        done = " ".join(f"{kind} {len(cpu)}/{sum(cpu):.0f}" for kind, cpu in sorted(work[half].items()))
        print(f"{half / 2:5.1f} | {len(rows):5d} {percentile([s[1] for s in rows], .5):4.0f} "
              f"{percentile([s[1] for s in rows], .95):4.0f} | {percentile([s[3] for s in rows], .5):9.0f} "
              f"{percentile([s[3] for s in rows], .95):4.0f} | {len(connects):9d} {percentile(connects, .5):4.0f} | {done}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
