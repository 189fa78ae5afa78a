"""Hosted: what a restart behind the front costs. 200 tables of 100 hands are
imported into a real `serve --front` behind Caddy (tests/support/front.py), the
server is stopped and started again ``--runs`` times, and each time the server
processes' CPU in their first ``--seconds`` is read from /proc, with what their
logs say they did: the sessions each warmed, the live parts each left for the front.

    .venv/bin/python bench/restart_bench.py [--tables 200] [--hands 100] [--runs 3] [--seconds 8]

Not part of ``make test``; figures go into bench/history.md by hand (the load section,
the entry of 2026-12-04)."""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
from support.sessions import long_session  # noqa: E402
from support.front import HttpsFront, have_caddy  # noqa: E402
from load_bench import family_cpu_seconds  # noqa: E402


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0)
    args = parser.parse_args(argv)
    if not have_caddy():
        raise SystemExit("needs caddy and certutil (make https-deps)")
    with tempfile.TemporaryDirectory(prefix="gleek-restart-") as folder:
        front = HttpsFront(Path(folder), config="SESSIONS_PER_MINUTE = 100000\n").start()
        try:
            for n in range(args.tables):
                record = dict(long_session(args.hands), title=f"Table {n}", players=[f"Ann {n}", "Ben", "Cat"])
                status, _, _ = front.direct(
                    "POST", "/import", {"Content-Type": "application/json"}, body=json.dumps(record).encode()
                )
                assert status == 303, status
        finally:
            front.stop()
        log = Path(folder) / "serve.log"
        for run in range(args.runs):
            log.unlink(missing_ok=True)
            front.start()
            try:
                time.sleep(args.seconds)
                cpu = family_cpu_seconds(front.procs[0].pid)  # the server's processes, none else
                text = log.read_text()
            finally:
                front.stop()
            left = [int(n) for n in re.findall(r"left (\d+) live parts", text)]
            warmed = [int(n) for n in re.findall(r"warmed (\d+) sessions", text)]
            print(
                f"run {run + 1}: {cpu:.2f} s of the server's CPU in its first {args.seconds:g} s; "
                f"sessions warmed by each process {warmed}; live parts left for the front {left} "
                f"({sum(left)} for {args.tables} links)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
