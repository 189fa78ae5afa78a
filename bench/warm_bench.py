"""The first save at the process that did not see a session (server/warm.py).

The real server (waitress, two processes, a port each as behind the front) with
``--sessions`` sessions of ``--hands`` hands, imported through the first process.
Then, one request at a time (no load: the figure is the work, not a queue):

1. one save of each session through the *second* process: its first sight of it;
2. one more save of each, through the second process again: warm (the baseline,
   in the same run).

Each is timed inside the app (X-App-Time, as bench/load_bench.py's server adds
it). Run twice, in the same run: with the processes following each other's
changes (the default) and without (``WARM_FOLLOW_SECONDS = 0``).

    .venv/bin/python bench/warm_bench.py [--sessions 50] [--hands 100]

Not part of `make test`. Prints a Markdown entry for bench/history.md.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from load_bench import (  # noqa: E402
    HANDS,
    Server,
    family_cpu_seconds,
    hand_fields,
    import_session,
    loadavg,
    request,
)

from benchmarks_md import machine  # noqa: E402


def saves(server, port: int, tables: list, versions: dict) -> tuple[list[float], float]:
    """One save of each table through ``port``: the app's own milliseconds each, and
    the CPU milliseconds a save of both processes together (the follower's work, and
    the new part left for the front after each answer, included)."""
    taken, cpu = [], family_cpu_seconds(server.proc.pid)
    for sid in tables:
        fields = list(hand_fields(HANDS[0], versions[sid]).items(multi=True))
        status, _, _, app_ms = request(port, "POST", f"/s/{sid}/hands", fields, timed=True)
        assert status == 303, status
        versions[sid] += 1
        taken.append(app_ms)
    time.sleep(2)  # the other process follows these changes meanwhile: counted
    return taken, 1000 * (family_cpu_seconds(server.proc.pid) - cpu) / len(tables)


def one_run(folder: Path, sessions: int, hands: int, follow: bool) -> dict:
    extra = {"FRONT_POLLS": str(folder / "polls")}  # as behind the front: each change's part left for it
    if not follow:
        extra["WARM_FOLLOW_SECONDS"] = 0
    server = Server(folder, 4, 2, ROOT, extra=extra, own_ports=True)
    server.start()
    try:
        first, second = server.ports()
        tables = []
        for n in range(sessions):
            status, location = import_session(first, n, hands)
            assert status == 303, status
            tables.append(location.rsplit("/", 1)[1])
        time.sleep(3)  # the follower looks every second
        with sqlite3.connect(server.database) as conn:
            versions = {
                sid: conn.execute("select version from sessions where id = ?", [sid]).fetchone()[0] for sid in tables
            }
        cold, cold_cpu = saves(server, second, tables, versions)
        warm, warm_cpu = saves(server, second, tables, versions)
        return {
            "first": statistics.median(cold),
            "first_p95": sorted(cold)[int(len(cold) * 0.95)],
            "warm": statistics.median(warm),
            "warm_p95": sorted(warm)[int(len(warm) * 0.95)],
            "first_cpu": cold_cpu,
            "warm_cpu": warm_cpu,
        }
    finally:
        server.stop()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--hands", type=int, default=100)
    args = parser.parse_args(argv)
    results = {}
    for follow in (True, False):
        with tempfile.TemporaryDirectory(prefix="gleek-warm-") as folder:
            results[follow] = one_run(Path(folder), args.sessions, args.hands, follow)
    info = machine()
    print(
        f"### {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}: the first save of a session at the process "
        f"that did not see it ({args.sessions} sessions of {args.hands} hands, imported through the other)\n"
    )
    print(f"Machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}; load average {loadavg()}.\n")
    print(
        "| the processes | first save there, in the app: median / p95 ms | a warm save: median / p95 ms "
        "| first ÷ warm (medians) | CPU a save, both processes: first / warm ms |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for follow, label in (
        (True, "follow each other's changes (server/warm.py)"),
        (False, "do not (`WARM_FOLLOW_SECONDS = 0`)"),
    ):
        r = results[follow]
        print(
            f"| {label} | {r['first']:.1f} / {r['first_p95']:.1f} | {r['warm']:.1f} / {r['warm_p95']:.1f} "
            f"| {r['first'] / r['warm']:.2f}× | {r['first_cpu']:.1f} / {r['warm_cpu']:.1f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
