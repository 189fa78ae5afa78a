"""The replica's recovery point: how many seconds of acknowledged saves a lost
disk costs (scorekeeper/server/replica.py, Litestream).

Each run starts what `make run-https` starts (``python -m scorekeeper.server.front``:
the app's two processes, Caddy and litestream, with ``REPLICA`` a folder, "the
other disk") in a temp instance folder; ``--tables`` tables each save a hand
(POST /s/<id>/hands, straight to the app's processes, each table from its own
loopback address) then wait ``--interval`` seconds, as the load bench's tables
do (20 tables every 0.3 s: ~60 saves a second, a hosted club night has 67).
At a random moment ``--kill-after`` seconds into the saves everything is killed
(SIGKILL, litestream first: the machine is gone), the database, its WAL, -shm and
Litestream's state beside them are deleted, and ``scorekeeper restore-replica``
restores the replica. Each table's restored version is compared with the
versions its saves were acknowledged with: the acknowledged saves missing, and
the window they cover (from the first missing one's acknowledgement to the kill).

After each run, a run without ``REPLICA`` (the same saves for as long, nothing
killed) is the baseline for the saves' latency, measured in turn with it on this
shared machine: what replication costs a save (p50 and p95 ratios).
Saves that were not acknowledged (any status but 303, a refused or failed
connection) are counted as errors: there must be none.

    .venv/bin/python bench/replica_bench.py [--runs 5] [--tables 20] [--interval 0.3] [--sync 1]

Not part of ``make test``; the figures are printed (for bench/history.md, by hand).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from scorekeeper.server import replica  # noqa: E402
from scorekeeper import store  # noqa: E402
from scorekeeper.server.serve import worker_ports  # noqa: E402
from support.data import load_example  # noqa: E402
from support.front import RunHttps, have_caddy  # noqa: E402
from support.web import hand_fields, http_request  # noqa: E402

HANDS = load_example("parlett-evening.json")["hands"]


@dataclass
class Table:
    sid: str
    port: int
    source: str
    version: int = 1
    acknowledged: dict = field(default_factory=dict)  # version after the save -> when it was acknowledged
    latencies: list = field(default_factory=list)
    errors: list = field(default_factory=list)


@dataclass
class Run:
    saves: int
    missing: int
    window: float  # seconds of acknowledged saves lost (0 when none)
    errors: int
    latencies: list
    seconds: float  # how long the tables saved


def new_tables(server: RunHttps, count: int) -> list[Table]:
    ports = worker_ports(server.app_port)
    tables = []
    for n in range(count):
        source = f"127.0.1.{n + 1}"
        status, headers, _ = http_request(
            "127.0.0.1",
            ports[n % len(ports)],
            "POST",
            "/sessions",
            [
                ("player_0", f"Ann {n}"),
                ("player_1", "Ben"),
                ("player_2", "Cat"),
                ("rulebook", "parlett"),
                ("first_dealer", "0"),
                ("stake", ""),
            ],
            source=source,
        )
        assert status == 303, status
        tables.append(Table(headers["Location"].rsplit("/", 1)[1], ports[n % len(ports)], source))
    return tables


def save_until(
    table: Table, stop: threading.Event, killed: threading.Event, interval: float, rng: random.Random
) -> None:
    """Save, wait, save … until ``stop``; a save the kill cut short is not an error (nor acknowledged)."""
    time.sleep(rng.uniform(0, interval))
    while not stop.is_set():
        hand = dict(HANDS[(table.version - 1) % len(HANDS)], note=f"save {table.version}")  # the evening's stakes hold
        fields = list(hand_fields(hand, table.version).items(multi=True))
        started = time.monotonic()
        try:
            status, _, _ = http_request(
                "127.0.0.1", table.port, "POST", f"/s/{table.sid}/hands", fields, source=table.source
            )
        except OSError as error:
            if not killed.is_set():
                table.errors.append(repr(error))
            return
        answered = time.monotonic()
        if status != 303:
            if not killed.is_set():
                table.errors.append(f"status {status}")
            return
        table.version += 1
        table.acknowledged[table.version] = answered
        table.latencies.append(answered - started)
        stop.wait(interval)


def one_run(folder: Path, args, rng: random.Random, seconds: float, replicated: bool) -> Run:
    """``seconds`` of saves, then (``replicated``) the kill, the lost disk and the restore."""
    other_disk = folder / "other-disk"
    config = "SESSIONS_PER_MINUTE = 100000\n"
    if replicated:
        config += f"REPLICA = {str(other_disk)!r}\nREPLICA_SYNC_SECONDS = {args.sync}\n"
    server = RunHttps(folder, config).start()
    database = server.instance / "scorekeeper.db"
    stop, killing = threading.Event(), threading.Event()
    try:
        tables = new_tables(server, args.tables)
        savers = [
            threading.Thread(target=save_until, args=(table, stop, killing, args.interval, random.Random(rng.random())))
            for table in tables
        ]
        began = time.monotonic()
        for saver in savers:
            saver.start()
        time.sleep(seconds)
        killed = time.monotonic()
        if replicated:
            killing.set()
            killed = server.kill()  # litestream, the app and Caddy together: the machine is gone
        stop.set()
        for saver in savers:
            saver.join()
    finally:
        if replicated:
            server.kill()
        else:
            server.stop()
    errors = sum(len(table.errors) for table in tables)
    for problem in sorted({problem for table in tables for problem in table.errors}):
        print(f"  a save not acknowledged: {problem}", flush=True)
    latencies = [latency for table in tables for latency in table.latencies]
    saves = sum(len(table.acknowledged) for table in tables)
    if not replicated:
        return Run(saves, 0, 0.0, errors, latencies, killed - began)

    for side in ("", "-wal", "-shm"):
        Path(f"{database}{side}").unlink(missing_ok=True)
    shutil.rmtree(replica.Replica(database, "").local_state, ignore_errors=True)
    restored = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "restore-replica"],
        cwd=ROOT,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert restored.returncode == 0, restored.stderr
    db = store.connect(database)
    try:
        lost = [
            at
            for table in tables
            for version, at in table.acknowledged.items()
            if version > store.get_session(db, table.sid).version
        ]
    finally:
        db.close()
    return Run(saves, len(lost), max(0.0, killed - min(lost)) if lost else 0.0, errors, latencies, killed - began)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--interval", type=float, default=0.3, help="seconds each table waits between saves")
    parser.add_argument("--sync", type=float, default=replica.SYNC_SECONDS, help="REPLICA_SYNC_SECONDS")
    parser.add_argument(
        "--kill-after",
        type=float,
        nargs=2,
        default=(6.0, 14.0),
        metavar=("MIN", "MAX"),
        help="the kill comes at a random moment this many seconds into the saves",
    )
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    if not have_caddy():
        raise SystemExit("needs caddy and certutil (make https-deps)")
    rng = random.Random(args.seed)
    runs, baselines = [], []
    for n in range(args.runs):
        seconds = rng.uniform(*args.kill_after)
        with tempfile.TemporaryDirectory(prefix="gleek-replica-") as folder:
            run = one_run(Path(folder), args, rng, seconds, replicated=True)
        with tempfile.TemporaryDirectory(prefix="gleek-replica-") as folder:
            baseline = one_run(Path(folder), args, rng, seconds, replicated=False)
        runs.append(run)
        baselines.append(baseline)
        print(
            f"run {n + 1}: {run.saves} saves acknowledged, {run.missing} missing after the restore, "
            f"covering {run.window:.2f} s; {run.errors} errors (without the replica: {baseline.saves} saves, "
            f"{baseline.errors} errors)",
            flush=True,
        )

    windows = [run.window for run in runs]
    print(f"(load average now {' '.join(f'{n:.1f}' for n in os.getloadavg())}, {os.cpu_count()} cores)")
    latencies = [latency for run in runs for latency in run.latencies]
    print()
    print(
        f"Replica recovery point, {args.runs} runs, sync-interval {args.sync:g} s, {args.tables} tables "
        f"saving every {args.interval:g} s (~{sum(r.saves for r in runs) / sum(r.seconds for r in runs):.0f} "
        f"saves/s), killed at a random moment:"
    )
    print(
        f"- acknowledged saves lost: median {statistics.median(r.missing for r in runs):g}, "
        f"max {max(r.missing for r in runs)} (of {sum(r.saves for r in runs)} in all)"
    )
    print(f"- seconds of acknowledged saves lost: median {statistics.median(windows):.2f}, max {max(windows):.2f}")
    print(
        f"- errors (a save not acknowledged): {sum(r.errors for r in runs)} with the replica, "
        f"{sum(b.errors for b in baselines)} without"
    )
    p50, p95 = percentile(latencies, 0.5), percentile(latencies, 0.95)
    unreplicated = [latency for baseline in baselines for latency in baseline.latencies]
    b50, b95 = percentile(unreplicated, 0.5), percentile(unreplicated, 0.95)
    print(
        f"- a save's latency with litestream running: p50 {p50 * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms; "
        f"without: p50 {b50 * 1000:.1f} ms, p95 {b95 * 1000:.1f} ms (ratio p50 {p50 / b50:.2f}, p95 {p95 / b95:.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
