"""Load benchmark: the real server (waitress, as `make run` starts it:
``scorekeeper.server.serve``'s settings) under a club night's worth of phones, against a
trivial route measured in the same run.

Load shape (all on loopback, bounded in clients and time; each client from its own
loopback address, 127.0.1.x, as each phone is its own device):

- ``--tables`` tables (default 50), each saving a hand every ``--save-interval``
  seconds (POST /s/<id>/hands with the version it last saw, as the hand form does);
  with ``--hands N`` each table's session starts with N hands (imported), as a
  long evening's does late at night;
- ``--viewers`` watchers (default 100, two per table), each polling
  /w/<watch id>/live?v=<version> every ``--poll-interval`` seconds, as htmx does:
  204 when nothing changed, the live fragment when it did;
- ``--players N`` more phones per table (the other players', to agree
  each hand), polling the same way, on the table's watch link (as a hosted club
  night's load does). Each player's own link (``/p/<token>``, where hands need OKs) has a part
  of its own to make at each change: on those links the server makes up to four
  parts a change where this bench has it make one.

Each phase runs ``--duration`` seconds. The baseline phase replays the same
clients on the same schedule against GET /manifest.webmanifest (a tiny route
that touches no database). Reported: throughput, p50/p95/p99/max latency per
kind of request, errors (any exception or unexpected status). Targets: zero
errors, p95 < 100 ms on 2 cores.

    .venv/bin/python bench/load_bench.py [--duration 40] [--save-interval 3] [--hands 500] [--players 3]
                                         [--root DIR --root-label TEXT] [--no-write] [--front | --keep-alive]

``--front`` (hosted) puts Caddy in front (the Caddyfile `make run-https` uses, tls
internal, on loopback) and each client keeps one HTTPS connection, as a phone's
browser does; ``--keep-alive`` keeps one plain connection per client, straight to
waitress (the same clients without the front).

``--wrk`` (with ``--front`` or alone) sends the watchers' and players' polls from
wrk instead (Debian's ``wrk``, C: ``make bench-deps``), one kept connection per phone
(bench/load_phones.lua): a Python client of 1,200 connections took as much CPU as the
server it measured. Each connection's requests are the phones' turns in order (wrk
names no connection), each phone asking with the version it knew at its previous
turn; a connection waits ``--poll-interval`` after each answer (its first: a random
part of it), so an overloaded server is offered less (the count says so). The saves
stay in Python (asyncio, 67 a second at 200 tables: they need each session's
version) and are checked as before against what is stored. wrk keeps no single
requests: its row's percentiles are its own (``latency:percentile``), its "in app"
the X-App-Time of every response, and "app, all" the larger of the saves' and the
polls'. Every phase also says the CPU its client, wrk, waitress and Caddy took
(from /proc), and the server's CPU milliseconds a request.

    .venv/bin/python bench/load_bench.py --front --wrk --tables 200 --viewers 400 --players 3 --hands 100
    (`make bench-front`)

``--ramp S`` (with ``--front``, ``--keep-alive`` or ``--wrk``) has every client connect
in the S seconds before the measured window, as phones that have had the table open
have: their first polls and the tables' first saves come in the window, not the
handshakes. Without it the window starts with 1,200 phones and 200 tables opening
their TLS connections in the same second (a restart, or the Wi-Fi back for everyone).
``make bench-front`` runs both.

Where the time goes: the server adds X-Queue-Time (the time a request waited in
waitress for a thread, from its last byte) and X-App-CPU (its thread's CPU in the
app) to X-App-Time; ``--samples FILE`` keeps each save's figures and ``--trace FILE``
has the server write every request, renewal and follower pass;
``bench/load_trace.py SAMPLES TRACE`` prints them half a second at a time.

``--warm-up N`` asks for each table's live part N times before the phases (untimed),
so that both server processes start the phase with the sessions decoded and settled.

``--root DIR`` serves another copy of the project (a before/after in one sitting).

Not part of ``make test``. Each run is appended to bench/history.md, section
``HEADING``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import platform
import random
import re
import resource
import shutil
import signal
import socket
import sqlite3
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from scorekeeper.server.serve import THREADS, WORKERS, worker_ports  # noqa: E402
from support.front import free_ports  # noqa: E402
from support.web import hand_fields, http_request  # noqa: E402

from benchmarks_md import HISTORY, append_to_section, machine as common_machine  # noqa: E402
from scorekeeper.server import front  # noqa: E402
from support.sessions import long_session  # noqa: E402
from scorekeeper.server.front_polls import default_folder, remove_memory_folder  # noqa: E402

HEADING = "## Load"
P95_TARGET_MS = 100.0

EVENING = __import__("json").loads((ROOT / "tests/data/parlett-evening.json").read_text())["hands"]
SEED = __import__("json").loads((ROOT / "tests/data/parlett-seed-example.json").read_text())["hands"][0]
# each has a ruff contest, so every hand's opening stake is 2 and any order is valid
HANDS = [EVENING[1], EVENING[2], dict(SEED, ruff={"winner": 2, "paid": [2, 4, 0]})]


# ---------------------------------------------------------------- the server

# The app as `make run` serves it (waitress, serve.waitress_options), plus a header
# saying how long the app itself took (from the request reaching Flask to its
# response being ready): the rest of the latency is the network, waitress's queue
# and waiting for a CPU.
SERVER = """\
import os
import sys
import time

from waitress import parser as waitress_parser, task as waitress_task

from scorekeeper import create_app
from scorekeeper.server.serve import run

# When waitress had the whole request (X-Queue-Time: from then to the app being called,
# the time it waited for one of the process's threads): the bench's measure, not the app's
_received = waitress_parser.HTTPRequestParser.received


def received(self, data):
    used = _received(self, data)
    if self.completed and not hasattr(self, "bench_completed_at"):
        self.bench_completed_at = time.perf_counter()
    return used


waitress_parser.HTTPRequestParser.received = received
_environment = waitress_task.WSGITask.get_environment


def get_environment(self):
    environ = _environment(self)
    environ["bench.completed_at"] = getattr(self.request, "bench_completed_at", None)
    return environ


waitress_task.WSGITask.get_environment = get_environment

# --trace: every request, renewal and follower pass, one line each (bench/load_trace.py)
if os.environ.get("GLEEK_TRACE"):
    from scorekeeper.server import front_polls
    from scorekeeper.server import warm
    _trace = open(os.environ["GLEEK_TRACE"] + f".{{os.getpid()}}", "a", buffering=1)

    def trace(name, started, cpu, detail=""):   # what, when it began, its wall and CPU ms so far, what of
        _trace.write(f"{{name}} {{started:.4f}} {{(time.perf_counter() - started) * 1000:.2f}} "
                     f"{{(time.thread_time() - cpu) * 1000:.2f}} {{detail}}\\n")

    def traced(cls, name, detail=lambda a: ""):
        inner = getattr(cls, name)

        def wrapper(*a, **k):
            t, c = time.perf_counter(), time.thread_time()
            try:
                return inner(*a, **k)
            finally:
                trace(name, t, c, detail(a))
        setattr(cls, name, wrapper)

    traced(front_polls.Renewer, "renew", lambda a: ",".join(a[1]))
    traced(warm.Follower, "warm")
    traced(front_polls.PollFiles, "forget", lambda a: ",".join(a[1]))
    traced(front_polls.PollFiles, "keep", lambda a: f"{{a[1]}}:{{a[2]}}:{{a[3] is not None}}")


def make_app():
    flask_app = create_app({{"DATABASE": {database!r}, "SECRET_KEY": "load", "BACKUP_DIR": {backups!r},
                             "SESSIONS_PER_MINUTE": 100_000, "PROXY_COUNT": {proxies}, **{extra!r}}})
    if flask_app.config.get("FRONT_POLLS"):   # as serve --front does (server/front_polls.py)
        from scorekeeper.server import front_polls

        front_polls.enable(flask_app)

    def app(environ, start_response):
        started, cpu = time.perf_counter(), time.thread_time()
        queued = environ.get("bench.completed_at")

        def timed_start_response(status, headers, exc_info=None):
            headers.append(("X-App-Time", f"{{(time.perf_counter() - started) * 1000:.3f}}"))
            headers.append(("X-App-CPU", f"{{(time.thread_time() - cpu) * 1000:.3f}}"))
            if queued is not None:
                headers.append(("X-Queue-Time", f"{{(started - queued) * 1000:.3f}}"))
            if os.environ.get("GLEEK_TRACE"):
                trace(f"{{environ['REQUEST_METHOD']}}:{{environ['PATH_INFO'].split('/')[-1]}}", started, cpu,
                      f"{{environ['PATH_INFO']}}?{{environ.get('QUERY_STRING', '')}}:{{status.split()[0]}}")
            return start_response(status, headers, exc_info)

        return flask_app(environ, timed_start_response)

    return app, flask_app


if __name__ == "__main__":
    own_ports = sys.argv[4:] == ["own-ports"]   # behind the front, as serve --front: a port a process
    run(make_app, "127.0.0.1", int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]),
        **({{"own_ports": True}} if own_ports else {{}}))
else:   # gunicorn, for comparison
    app = make_app()[0]
"""


def warm_up(ports: list[int], tables: list, times: int) -> None:
    """Each table's live part asked for ``times`` times on fresh connections before
    the phases (not timed): each server process then has the sessions decoded and
    settled, as a server that has watched the evening grow hand by hand has;
    otherwise the first seconds of a short phase are 200 tables × 2 processes
    settling 100 hands from nothing."""
    with ThreadPoolExecutor(4) as pool:
        list(
            pool.map(
                lambda job: request(job[0], "GET", f"/w/{job[1].wid}/live?v=0", source="127.0.0.1"),
                [(port, t) for port in ports for t in tables for _ in range(times)],
            )
        )


def polls_folder(args, folder: str) -> Path:
    """Where the app leaves the front's answers: where it would (in memory, where there
    is a memory file system: server/front_polls.py's ``default_folder``), or on the disk
    beside the database (``--polls-on-disk``, the A/B of that)."""
    return Path(folder) / "polls" if args.polls_on_disk else default_folder(folder)


def server_config(args, polls: Path | None) -> dict | None:
    """The app's settings this run asks for, beyond the bench's own (Server);
    ``polls``: the folder of the front's answers (``polls_folder``), if any."""
    extra = {}
    if args.wrk and not args.front:
        extra["CONNECTIONS_PER_ADDRESS"] = 100_000
    if polls is not None:
        extra["FRONT_POLLS"] = str(polls)
    if args.no_warm:
        extra["WARM_FOLLOW_SECONDS"] = 0  # each process sees only its own requests (server/warm.py)
    return extra or None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(
        self,
        folder: Path,
        threads: int,
        workers: int,
        root: Path = ROOT,
        proxies: int = 0,
        extra: dict | None = None,
        own_ports: bool = False,
    ):
        self.folder, self.threads, self.workers, self.root = folder, threads, workers, root
        self.own_ports = own_ports and workers > 1
        self.database = folder / "load.db"
        (folder / "load_server.py").write_text(
            SERVER.format(
                database=str(self.database), backups=str(folder / "backups"), proxies=proxies, extra=extra or {}
            )
        )
        self.port = free_ports(workers) if self.own_ports else free_port()
        self.proc = None

    def ports(self) -> list[int]:
        """The ports of its processes (one shared port, or one each: ``own_ports``)."""
        return worker_ports(self.port, self.workers) if self.own_ports else [self.port]

    def start(self, gunicorn: bool = False) -> None:
        env = dict(os.environ, PYTHONPATH=f"{self.folder}{os.pathsep}{self.root}")
        self.log = open(self.folder / "server.log", "ab")
        if gunicorn:  # for comparison only: the server `make run` used before waitress
            command = [
                sys.executable,
                "-m",
                "gunicorn",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "2",
                "--threads",
                "4",
                "--worker-class",
                "gthread",
                "load_server:app",
            ]
        else:
            command = [
                sys.executable,
                str(self.folder / "load_server.py"),
                str(self.port),
                str(self.threads),
                str(self.workers),
            ] + (["own-ports"] if self.own_ports else [])
        self.proc = subprocess.Popen(
            command, cwd=self.root, env=env, stdout=self.log, stderr=self.log, start_new_session=True
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if request(self.port, "GET", "/manifest.webmanifest")[0] == 200:
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start")

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def import_session(port: int, n: int, hands: int) -> tuple[int, str]:
    """A session that already has ``hands`` hands (tests/support/sessions.py's long session)."""
    record = dict(long_session(hands), title=f"Table {n}", players=[f"Ann {n}", "Ben", "Cat"])
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        conn.request("POST", "/import", body=json.dumps(record), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        return response.status, response.getheader("Location", "")
    finally:
        conn.close()


def request(port, method, path, fields=None, timeout=10.0, timed=False, source=None):
    status, headers, body = http_request("127.0.0.1", port, method, path, fields, timeout, source)
    if timed:
        return status, headers.get("Location", ""), body, float(headers.get("X-App-Time", "nan"))
    return status, headers.get("Location", ""), body


# ---------------------------------------------------------------- the clients


@dataclass
class Table:
    sid: str
    wid: str
    version: int = 1
    saved: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Sample:
    kind: str
    latency: float
    status: int
    error: str = ""
    app_ms: float = float("nan")
    queue_ms: float = float("nan")  # waiting in waitress for a thread (X-Queue-Time)
    connect_ms: float = float("nan")  # opening its connection (and TLS), when this request did
    cpu_ms: float = float("nan")  # the CPU its thread took in the app (X-App-CPU)
    at: float = field(default_factory=time.perf_counter)  # when it was answered


class Front:
    """Caddy in front of the bench's server, as `make run-https` runs it (hosted)."""

    def __init__(self, folder: Path, upstream: list[int], polls: Path | None = None):
        self.port, self.storage = free_port(), folder / "caddy"
        config = folder / "Caddyfile"
        config.write_text(
            front.caddyfile(
                [f"https://localhost:{self.port}"],
                False,
                [f"127.0.0.1:{port}" for port in upstream],
                self.storage,
                polls,
            )
        )
        self.log = open(folder / "caddy.log", "ab")
        self.proc = subprocess.Popen(
            ["timeout", "-s", "KILL", "900"] + front.caddy_command(config),
            cwd=folder,
            env=dict(os.environ, HOME=str(folder)),
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )
        self.root = front.root_certificate(self.storage)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.root.exists():
                try:
                    conn = self.connection()
                    conn.request("GET", "/manifest.webmanifest")
                    if conn.getresponse().status == 200:
                        conn.close()
                        return
                except (OSError, http.client.HTTPException):
                    pass
            time.sleep(0.1)
        raise RuntimeError("Caddy did not start")

    def connection(self):
        context = ssl.create_default_context(cafile=str(self.root))
        return http.client.HTTPSConnection("localhost", self.port, context=context, timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        self.log.close()


class Phase:
    """One timed run of all clients; every request's latency and outcome kept."""

    def __init__(self, name: str, port: int, tables: list[Table], args, baseline: bool, front: Front | None = None):
        self.name, self.port, self.tables, self.args, self.baseline = name, port, tables, args, baseline
        self.front = front
        self.kept = threading.local()  # a client's own connection (--front, --keep-alive)
        self.samples: list[Sample] = []
        self.lock = threading.Lock()

    def source(self) -> str:
        """This client's own loopback address (127.0.1.x): each phone is its own
        device, as at the table, so the server's per-address connection cap
        (against trickling) applies to each, not to all 150 together."""
        source = getattr(self.kept, "source", None)
        if source is None:
            with self.lock:
                n = self.sources = getattr(self, "sources", 0) + 1
            source = self.kept.source = f"127.0.{1 + n // 250}.{1 + n % 250}"
        return source

    def send(self, method, path, fields=None):
        """(status, location, body, app ms): on a fresh connection, or on the client's own one."""
        if self.front is None and not self.args.keep_alive:
            return request(self.port, method, path, fields, timed=True, source=self.source())

        conn = getattr(self.kept, "conn", None)
        if conn is None:
            conn = self.kept.conn = (
                self.front.connection()
                if self.front
                else http.client.HTTPConnection("127.0.0.1", self.port, timeout=10, source_address=(self.source(), 0))
            )
        body = urlencode(fields) if fields is not None else None
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if fields is not None else {}
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            self.kept.conn = None
            raise
        return (
            response.status,
            response.getheader("Location", ""),
            data,
            float(response.getheader("X-App-Time", "nan")),
        )

    def record(self, sample: Sample) -> None:
        with self.lock:
            self.samples.append(sample)

    def timed(self, kind, method, path, fields=None, ok=(200,)):
        started = time.perf_counter()
        try:
            status, location, body, app_ms = self.send(method, path, fields)
        except (OSError, http.client.HTTPException) as error:
            self.record(Sample(kind, time.perf_counter() - started, 0, repr(error)))
            return None
        latency = time.perf_counter() - started
        self.record(Sample(kind, latency, status, "" if status in ok else f"status {status}", app_ms))
        return status, location, body

    def table_client(self, table: Table, rng: random.Random, start: float, end: float) -> None:
        interval = self.args.save_interval
        at = start + rng.uniform(0, interval)
        while at < end:
            time.sleep(max(0.0, at - time.monotonic()))
            if self.baseline:
                self.timed("save", "GET", "/manifest.webmanifest")
            else:
                with table.lock:
                    version = table.version
                hand = dict(rng.choice(HANDS), note=f"load {table.saved}")
                fields = list(hand_fields(hand, version).items(multi=True))
                result = self.timed("save", "POST", f"/s/{table.sid}/hands", fields, ok=(303,))
                if result and result[0] == 303:
                    with table.lock:
                        table.version, table.saved = version + 1, table.saved + 1
            at += interval

    def viewer_client(self, table: Table, rng: random.Random, start: float, end: float, kind: str = "poll") -> None:
        interval = self.args.poll_interval
        at = start + rng.uniform(0, interval)
        known = table.version
        while at < end:
            time.sleep(max(0.0, at - time.monotonic()))
            if self.baseline:
                self.timed(kind, "GET", "/manifest.webmanifest")
            else:
                result = self.timed(kind, "GET", f"/w/{table.wid}/live?v={known}", ok=(200, 204))
                if result and result[0] == 200:
                    found = re.search(rb"/live\?v=([0-9a-z-]+)", result[2])
                    if found:
                        known = found.group(1).decode()
            at += interval

    def run(self) -> float:
        rng = random.Random(5)
        start = time.monotonic() + 0.5
        end = start + self.args.duration
        threads = []
        for table in self.tables:
            threads.append(
                threading.Thread(target=self.table_client, args=(table, random.Random(rng.random()), start, end))
            )
        for i in range(self.args.viewers):
            table = self.tables[i % len(self.tables)]
            threads.append(
                threading.Thread(target=self.viewer_client, args=(table, random.Random(rng.random()), start, end))
            )
        for table in self.tables:
            for _ in range(self.args.players):
                threads.append(
                    threading.Thread(
                        target=self.viewer_client, args=(table, random.Random(rng.random()), start, end, "player")
                    )
                )
        for t in threads:
            t.daemon = True
            t.start()
        for t in threads:
            t.join(timeout=self.args.duration + 60)
        return time.monotonic() - start


class AsyncPhase(Phase):
    """The same clients and schedule as Phase, as asyncio tasks over one kept
    connection each (``--front``, ``--keep-alive``): 1,200 client threads in one
    Python process spend the machine's cores on the client itself (measured:
    the client at 115 % CPU, each server process at 6 %), so what they measure is
    their own queue; tasks cost the client a few per cent."""

    def run(self) -> float:
        return asyncio.run(self._run())

    async def _run(self) -> float:
        loop = asyncio.get_running_loop()
        rng = random.Random(5)
        ramp = self.args.ramp
        start = loop.time() + 0.5 + ramp  # the measured window: its clients connected during the ramp
        end = start + self.args.duration
        tasks = [self.table_task(t, random.Random(rng.random()), start, end) for t in self.tables]
        if self.args.wrk:
            tasks.append(self.wrk_phones(start - ramp))
        else:
            tasks += [
                self.viewer_task(self.tables[i % len(self.tables)], random.Random(rng.random()), start, end)
                for i in range(self.args.viewers)
            ]
            tasks += [
                self.viewer_task(t, random.Random(rng.random()), start, end, "player")
                for t in self.tables
                for _ in range(self.args.players)
            ]
        begun = time.monotonic()
        await asyncio.gather(*tasks)
        return time.monotonic() - begun - 0.5 - ramp

    async def wrk_phones(self, start: float) -> None:
        """``--wrk``: every watcher's and player's phone from one wrk process
        (bench/load_phones.lua), started with the tables and run as long; its
        figures are kept in ``self.wrk``."""
        folder = Path(self.args.folder)
        phones = [self.tables[i % len(self.tables)].wid for i in range(self.args.viewers)]
        phones += [t.wid for t in self.tables for _ in range(self.args.players)]
        (folder / "phones.txt").write_text("\n".join(phones) + "\n")
        out = folder / f"wrk-{self.name}.json"
        url = f"https://localhost:{self.front.port}/" if self.front is not None else f"http://127.0.0.1:{self.port}/"
        env = dict(
            os.environ,
            GLEEK_PHONES=str(folder / "phones.txt"),
            GLEEK_OUT=str(out),
            GLEEK_INTERVAL_MS=str(round(self.args.poll_interval * 1000)),
            GLEEK_CONNECTIONS=str(len(phones)),
            GLEEK_BASELINE="1" if self.baseline else "0",
            GLEEK_RAMP_MS=str(round(self.args.ramp * 1000)),
        )
        await asyncio.sleep(max(0.0, start - asyncio.get_running_loop().time()))
        process = await asyncio.create_subprocess_exec(
            "wrk",
            "--threads",
            "1",
            "--connections",
            str(len(phones)),
            "--duration",
            f"{round(self.args.ramp + self.args.duration)}s",
            "--timeout",
            "30s",
            "--script",
            str(ROOT / "bench/load_phones.lua"),
            url,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        printed = (await process.communicate())[0].decode()
        if process.returncode != 0 or not out.exists():
            raise RuntimeError(f"wrk failed ({process.returncode}): {printed}")
        self.wrk = json.loads(out.read_text())

    async def exchange(self, conn: dict, method: str, path: str, fields=None, headers: dict | None = None):
        if conn.get("writer") is None:
            opening = time.perf_counter()
            if self.front is not None:
                context = ssl.create_default_context(cafile=str(self.front.root))
                conn["reader"], conn["writer"] = await asyncio.open_connection(
                    "127.0.0.1", self.front.port, ssl=context, server_hostname="localhost"
                )
            else:
                conn["reader"], conn["writer"] = await asyncio.open_connection("127.0.0.1", self.port)
            conn["connect_ms"] = (time.perf_counter() - opening) * 1000
        body = urlencode(fields).encode() if fields is not None else b""
        host = f"localhost:{self.front.port}" if self.front is not None else f"127.0.0.1:{self.port}"
        head = f"{method} {path} HTTP/1.1\r\nHost: {host}\r\nContent-Length: {len(body)}\r\n"
        if fields is not None:
            head += "Content-Type: application/x-www-form-urlencoded\r\n"
        head += "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())  # HX-Request, as htmx
        conn["writer"].write((head + "\r\n").encode() + body)
        reader = conn["reader"]
        status = int((await reader.readline()).split()[1])
        headers = {}
        while True:
            line = await reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            headers[name.strip().lower()] = value.strip()
        if headers.get("transfer-encoding") == "chunked":
            data = b""
            while True:
                size = int((await reader.readline()).strip(), 16)
                data += await reader.readexactly(size + 2)
                if size == 0:
                    break
        else:
            data = await reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection") == "close":
            conn["writer"].close()
            conn["writer"] = None
        return (
            status,
            headers.get("location", ""),
            data,
            tuple(float(headers.get(name, "nan")) for name in ("x-app-time", "x-queue-time", "x-app-cpu")),
        )

    async def atimed(self, conn, kind, method, path, fields=None, ok=(200,), headers: dict | None = None):
        started = time.perf_counter()
        try:
            status, location, body, (app_ms, queue_ms, cpu_ms) = await self.exchange(
                conn, method, path, fields, headers
            )
        except (OSError, ValueError, IndexError, EOFError, Exception) as error:  # noqa: BLE001 - counted
            if conn.get("writer") is not None:
                conn["writer"].close()
            conn["writer"] = None
            self.record(Sample(kind, time.perf_counter() - started, 0, repr(error)))
            return None
        self.record(
            Sample(
                kind,
                time.perf_counter() - started,
                status,
                "" if status in ok else f"status {status}",
                app_ms,
                queue_ms,
                conn.pop("connect_ms", float("nan")),
                cpu_ms,
            )
        )
        return status, location, body

    async def table_task(self, table, rng, start, end):
        loop, conn, interval = asyncio.get_running_loop(), {}, self.args.save_interval
        await self.connect_first(conn, rng, start)
        at = start + rng.uniform(0, interval)
        while at < end:
            await asyncio.sleep(max(0.0, at - loop.time()))
            if self.baseline:
                await self.atimed(conn, "save", "GET", "/manifest.webmanifest")
            else:
                version = table.version
                hand = dict(rng.choice(HANDS), note=f"load {table.saved}")
                fields = list(hand_fields(hand, version).items(multi=True))
                result = await self.atimed(conn, "save", "POST", f"/s/{table.sid}/hands", fields, ok=(303,))
                if result and result[0] == 303:
                    table.version, table.saved = version + 1, table.saved + 1
            at += interval
        if conn.get("writer") is not None:
            conn["writer"].close()

    async def connect_first(self, conn, rng, start) -> None:
        """``--ramp``: this phone has had the table open, so its connection is made
        before the window (at a random moment of the ramp's first half)."""
        if not self.args.ramp:
            return
        loop = asyncio.get_running_loop()
        await asyncio.sleep(max(0.0, start - self.args.ramp + rng.uniform(0, self.args.ramp / 2) - loop.time()))
        try:
            await self.exchange(conn, "GET", "/healthz")
            conn.pop("connect_ms", None)
        except (OSError, ValueError, IndexError, EOFError):
            conn["writer"] = None  # its first request connects, and says so

    async def viewer_task(self, table, rng, start, end, kind="poll"):
        loop, conn, interval = asyncio.get_running_loop(), {}, self.args.poll_interval
        await self.connect_first(conn, rng, start)
        at = start + rng.uniform(0, interval)
        known = table.version
        while at < end:
            await asyncio.sleep(max(0.0, at - loop.time()))
            if self.baseline:
                await self.atimed(conn, kind, "GET", "/manifest.webmanifest")
            else:
                result = await self.atimed(conn, kind, "GET", f"/w/{table.wid}/live?v={known}", ok=(200, 204))
                if result and result[0] == 200:
                    found = re.search(rb"/live\?v=([0-9a-z-]+)", result[2])
                    if found:
                        known = found.group(1).decode()
            at += interval
        if conn.get("writer") is not None:
            conn["writer"].close()


# ---------------------------------------------------------------- figures


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def summarise(samples: list[Sample], duration: float) -> dict:
    ms = [s.latency * 1000 for s in samples]
    app_ms = [s.app_ms for s in samples if s.app_ms == s.app_ms]
    return {
        "app_p50": percentile(app_ms, 50),
        "app_p95": percentile(app_ms, 95),
        "requests": len(samples),
        "per_second": len(samples) / duration if duration else 0.0,
        "errors": sum(1 for s in samples if s.error),
        "p50": percentile(ms, 50),
        "p95": percentile(ms, 95),
        "p99": percentile(ms, 99),
        "max": max(ms) if ms else float("nan"),
        "mean": statistics.fmean(ms) if ms else float("nan"),
        "statuses": {code: sum(1 for s in samples if s.status == code) for code in sorted({s.status for s in samples})},
    }


def saves_over_time(samples: list[Sample], window: float = 5.0) -> str:
    """The saves' p95 in each ``window`` seconds of the phase ("0–5 s: 900 ms, ..."):
    whether the tail is the phase's first seconds (each process decoding and
    settling every session it had not seen) or all of it."""
    saves = [s for s in samples if s.kind == "save" and not s.error]
    if not saves:
        return ""
    first = min(s.at - s.latency for s in saves)
    windows: dict[int, list[float]] = {}
    for s in saves:
        windows.setdefault(int((s.at - s.latency - first) // window), []).append(s.latency * 1000)
    return ", ".join(
        f"{int(k * window)}–{int((k + 1) * window)} s: {percentile(v, 95):.0f} ms" for k, v in sorted(windows.items())
    )


def summarise_wrk(figures: dict, ramp: float = 0.0) -> dict:
    """wrk's figures (bench/load_phones.lua) in summarise()'s shape; its errors are
    connections it could not open, read or write, statuses ≥ 400 and time-outs.
    Its first ``ramp`` seconds only connect (``--ramp``): no request is in them."""
    duration = figures["duration_us"] / 1e6 - ramp
    app_ms = figures["app_ms"]
    return {
        "app_p50": percentile(app_ms, 50),
        "app_p95": percentile(app_ms, 95),
        "by_app": len(app_ms),
        "requests": figures["requests"],
        "per_second": figures["requests"] / duration if duration else 0.0,
        "errors": sum(figures["errors"].values()),
        "error_kinds": figures["errors"],
        "p50": figures["p50_us"] / 1000,
        "p95": figures["p95_us"] / 1000,
        "p99": figures["p99_us"] / 1000,
        "max": figures["max_us"] / 1000,
        "mean": figures["mean_us"] / 1000,
        "statuses": {int(code): count for code, count in sorted(figures["statuses"].items())},
    }


def with_polls(samples: list[Sample], phones: dict, duration: float) -> dict:
    """The phase's figures by kind, with ``phones`` (wrk's, summarised) as the polls:
    "all" pools the saves' samples with wrk's percentiles weighted by count (wrk keeps
    no single requests), so its percentiles are the larger of the two kinds'."""
    saves = summarise(samples, duration)
    total = saves["requests"] + phones["requests"]
    pooled = (
        {
            key: max(saves[key], phones[key])
            for key in ("p50", "p95", "p99", "max", "app_p50", "app_p95")
            if saves[key] == saves[key]
        }
        if saves["requests"]
        else dict(phones)
    )
    pooled.update(
        requests=total,
        per_second=saves["per_second"] + phones["per_second"],
        errors=saves["errors"] + phones["errors"],
        mean=float("nan"),
        statuses={
            code: saves["statuses"].get(code, 0) + phones["statuses"].get(code, 0)
            for code in sorted(set(saves["statuses"]) | set(phones["statuses"]))
        },
    )
    return {"save": saves, "poll": phones, "player": summarise([], duration), "all": pooled}


def family_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds so far of process ``pid`` and its living descendants (/proc)."""
    tick, parents, cpu = os.sysconf("SC_CLK_TCK"), {}, {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            parents[int(entry.name)], cpu[int(entry.name)] = int(fields[1]), (int(fields[11]) + int(fields[12])) / tick
    family, grown = {pid}, True
    while grown:
        before = len(family)
        family |= {child for child, parent in parents.items() if parent in family}
        grown = len(family) > before
    return sum(cpu.get(p, 0.0) for p in family)


class CpuUse:
    """Where the machine's CPU went during a phase, in per cent of one core: this
    Python client, its wrk child (if any), the waitress processes and Caddy; and
    the machine's own idle time and the time its hypervisor gave to other guests
    ("stolen", /proc/stat: the same work then takes longer, as on a busy host)."""

    def __init__(self, server, front):
        self.server, self.front = server, front

    def now(self) -> dict:
        me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        figures = {
            "client": me.ru_utime + me.ru_stime,
            "wrk": children.ru_utime + children.ru_stime,
            "waitress": family_cpu_seconds(self.server.proc.pid),
        }
        if self.front is not None:
            figures["Caddy"] = family_cpu_seconds(self.front.proc.pid)
        ticks = Path("/proc/stat").read_text().split("\n", 1)[0].split()  # cpu user nice system idle ... steal
        figures["idle"], figures["stolen"] = (
            int(ticks[4]) / os.sysconf("SC_CLK_TCK"),
            int(ticks[8]) / os.sysconf("SC_CLK_TCK"),
        )
        return {"at": time.monotonic(), **figures}

    @staticmethod
    def per_cent(before: dict, after: dict) -> dict:
        seconds = after["at"] - before["at"]
        return {name: 100 * (after[name] - before[name]) / seconds for name in after if name != "at"}


def cpu_line(name: str, use: dict, per_second: float | None = None) -> str:
    """Each one's share of a core; with ``per_second`` (requests answered), the
    server's CPU milliseconds a request too (waitress's, Caddy's)."""
    line = f"{name}: " + ", ".join(f"{who} {share:.0f} %" for who, share in use.items() if who != "wrk" or share)
    if per_second:
        line += (
            " (a request: "
            + ", ".join(f"{who} {10 * use[who] / per_second:.2f} ms" for who in ("waitress", "Caddy") if who in use)
            + " of CPU)"
        )
    return line


def machine() -> dict:
    return common_machine(waitress=version("waitress"), sqlite=sqlite3.sqlite_version, os=platform.platform())


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


# ---------------------------------------------------------------- report

SECTION_INTRO = """\
`.venv/bin/python bench/load_bench.py`: the real server (waitress with the settings
`python -m scorekeeper.server.serve` uses; gunicorn 2 × 4 gthread before waitress) on loopback with a
temp SQLite database. 50 tables each save a hand (POST, 303) every *save interval*;
100 watchers (two per table) poll `/w/<id>/live?v=<version>` every 3 s (204 when
nothing changed, the live fragment when it did). Then the same clients on the same
schedule request `GET /manifest.webmanifest` (no database) as the baseline, in the
same run. Client and server share the machine's cores. Latency is one request over
a fresh TCP connection, as seen by the client; "in app" is the time inside Flask
(an `X-App-Time` header added by the bench's WSGI wrapper), so the difference is
the server's queue, the network and waiting for a CPU. Targets: zero errors, p95 < 100 ms.
Each run is appended below.
"""


def row(name: str, s: dict) -> str:
    return (
        f"| {name} | {s['requests']} | {s['per_second']:.1f} | {s['p50']:.1f} | {s['p95']:.1f} | "
        f"{s['p99']:.1f} | {s['max']:.1f} | {s['app_p50']:.1f} / {s['app_p95']:.1f} | {s['errors']} |"
    )


def report(results: dict, info: dict, args) -> str:
    app, base = results["app"], results["baseline"]
    polls = app["poll"]
    no_change = polls["statuses"].get(204, 0)
    players = (
        f" and {args.players * args.tables} player phones ({args.players} a table, on the watch link)"
        if args.players
        else ""
    )
    served = (
        "(gunicorn 2 × 4 gthread, for comparison)"
        if args.gunicorn
        else (
            f"(waitress, {args.workers} processes × {args.threads} threads"
            + ("; the phones from wrk" if args.wrk else "")
            + (
                "; through Caddy over HTTPS, a kept connection per client"
                if args.front
                else "; a kept connection per client"
                if args.keep_alive
                else ""
            )
            + (
                f"; every client connected in the {args.ramp:g} s before the window (`--ramp`)"
                if args.ramp
                else "; every client connecting in the window's first second"
                if args.front
                else ""
            )
            + (f"; warmed up ({args.warm_up} polls a table)" if args.warm_up else "")
            + ("; `--no-warm`: the processes not following each other" if args.no_warm else "")
            + (f"; `--root` {args.root_label or args.root}" if args.root else "; this branch")
            + ")"
        )
    )
    lines = [
        f"### {info['date']}: {args.tables} tables saving every {args.save_interval:g} s"
        + (f" into {args.hands}-hand sessions" if args.hands else "")
        + f", {args.viewers} watchers{players} polling every {args.poll_interval:g} s, {args.duration:g} s per phase "
        + served,
        "",
        f"Machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}, waitress "
        f"{info['waitress']}, SQLite {info['sqlite']}, {info['os']}. Load average before/after: "
        f"{results['load_before']} / {results['load_after']} (the machine is shared).",
        "",
        "| requests | count | per s | p50 ms | p95 ms | p99 ms | max ms | in app p50 / p95 ms | errors |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        row("save a hand (POST → 303)", app["save"]),
        row(
            f"{'watch and player polls, wrk' if args.wrk else 'watch poll'} ({no_change} × 204, "
            f"{polls['statuses'].get(200, 0)} × 200"
            + (f"; {polls['by_app']} answered by the app" if "by_app" in polls else "")
            + ")",
            polls,
        ),
        *(
            [
                row(
                    f"player poll ({app['player']['statuses'].get(204, 0)} × 204, "
                    f"{app['player']['statuses'].get(200, 0)} × 200)",
                    app["player"],
                )
            ]
            if args.players and not args.wrk
            else []
        ),
        row("**app, all**", app["all"]),
        row("baseline: manifest, all", base["all"]),
        "",
        "CPU (per cent of one core, of 200): "
        + "; ".join(
            cpu_line(name, results["cpu"][name], results[name]["all"]["per_second"]) for name in ("app", "baseline")
        )
        + ".",
        "",
    ]
    if args.wrk:
        lines[2:2] = [
            "The phones from wrk (`--wrk`, bench/load_phones.lua): one kept connection each, a request "
            'every poll interval after the last answer; "app, all" takes the larger percentile of '
            "the saves' and the polls'.",
            "",
        ]
    met_errors = app["all"]["errors"] == 0 and base["all"]["errors"] == 0
    met_p95 = app["all"]["p95"] < P95_TARGET_MS
    ratio = app["all"]["p95"] / base["all"]["p95"] if base["all"]["p95"] else float("nan")
    lines.append(
        f"Result: errors {'0 — met' if met_errors else 'NOT zero — target missed'}; app p95 "
        f"{app['all']['p95']:.1f} ms {'<' if met_p95 else '≥'} {P95_TARGET_MS:.0f} ms — "
        f"{'met' if met_p95 else 'NOT met'} ({ratio:.1f}× the baseline's p95 of {base['all']['p95']:.1f} ms). "
        f"{results['hands_saved']} hands saved; every table's stored hands matched its acknowledged saves: "
        f"{'yes' if results['consistent'] else 'NO'}."
    )
    if results.get("save_windows", {}).get("app"):
        lines += [
            "",
            f"The saves' p95 by 5 s of the app phase: {results['save_windows']['app']}; of the baseline "
            f"phase: {results['save_windows']['baseline']}.",
        ]
    return "\n".join(lines) + "\n"


TRUST_HEADING = "## Trust: load with long sessions and the players' phones"
TRUST_INTRO = SECTION_INTRO.replace(
    "Each run is appended below.",
    """\
This is the load with 500-hand sessions (`--hands 500`: each table's
session imported with 500 hands before the run) and 3 more phones a
table (`--players 3`), the players agreeing each hand, polling as the watchers do.
A link per player does not exist yet: they poll the table's watch link (the
player's link is to show the same live table). `--root` serves another copy of
the project, for a before/after in one sitting. Each run is appended below.""",
)


def append_to_benchmarks(entry: str, trust: bool = False) -> None:
    if trust:
        append_to_section(TRUST_HEADING, TRUST_INTRO, entry)
    else:
        append_to_section(HEADING, SECTION_INTRO, entry)


# ---------------------------------------------------------------- main


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--save-interval", type=float, default=3.0)
    parser.add_argument("--poll-interval", type=float, default=3.0)
    parser.add_argument("--duration", type=float, default=40.0)
    parser.add_argument("--threads", type=int, default=None, help="waitress threads (default: serve's)")
    parser.add_argument("--workers", type=int, default=None, help="waitress processes (default: serve's)")
    parser.add_argument("--hands", type=int, default=0, help="hands each session starts with (imported)")
    parser.add_argument("--players", type=int, default=0, help="player phones per table polling the watch link (OKs)")
    parser.add_argument("--root", default=None, help="serve another copy of the project (before/after)")
    parser.add_argument("--root-label", default=None)
    parser.add_argument(
        "--gunicorn",
        action="store_true",
        help="compare: serve with gunicorn 2 workers x 4 gthread threads (needs gunicorn installed)",
    )
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/history.md alone")
    parser.add_argument(
        "--front", action="store_true", help="through Caddy over HTTPS (hosted), one kept connection per client"
    )
    parser.add_argument(
        "--shared-socket",
        action="store_true",
        help="with --front: the server's processes on one shared port (the front balancing nothing), "
        "as before each had its own",
    )
    parser.add_argument(
        "--no-warm",
        action="store_true",
        help="the processes do not follow each other's changes (server/warm.py): the A/B of that",
    )
    parser.add_argument(
        "--no-front-polls",
        action="store_true",
        help="with --front: every poll to the app (before server/front_polls.py)",
    )
    parser.add_argument(
        "--polls-on-disk",
        action="store_true",
        help="with --front: the front's answers kept beside the database, not in memory",
    )
    parser.add_argument("--keep-alive", action="store_true", help="one kept connection per client, no front")
    parser.add_argument(
        "--wrk",
        action="store_true",
        help="the watchers' and players' phones from wrk (C; `apt-get install wrk`), the saves "
        "from Python: the client's own CPU out of the way",
    )
    parser.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        metavar="S",
        help="with --front/--keep-alive/--wrk: every client connects in the S seconds before the "
        "measured window (its phones' first polls and the tables' first saves come after)",
    )
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help="the server writes every request, renewal and follower pass (start, wall and CPU ms) "
        "to FILE.<pid>; with --samples, bench/load_trace.py reads both second by second",
    )
    parser.add_argument(
        "--samples",
        metavar="FILE",
        help="also write the app phase's saves to FILE, as JSON: [start, latency, in the app, "
        "in waitress's queue, connecting, the app's CPU] (ms, the start in seconds)",
    )
    parser.add_argument(
        "--warm-up",
        type=int,
        default=0,
        metavar="N",
        help="ask for each table's live part N times before the phases (untimed; e.g. 4)",
    )
    parser.add_argument(
        "--trust", action="store_true", help="append to the trust section (long sessions, players' phones)"
    )
    args = parser.parse_args(argv)
    if not (
        1 <= args.tables <= 200
        and 0 <= args.viewers <= 400
        and 5 <= args.duration <= 300
        and 0 <= args.hands <= 900
        and 0 <= args.players <= 6
    ):
        parser.error(
            "keep the load bounded: tables 1-200, viewers 0-400, players 0-6 a table, duration 5-300 s, hands 0-900"
        )
    if args.ramp and not (args.front or args.keep_alive or args.wrk):
        parser.error("--ramp needs kept connections: --front, --keep-alive or --wrk")
    if not 0 <= args.ramp <= 30:
        parser.error("keep the ramp 0-30 s")
    if args.wrk and shutil.which("wrk") is None:
        parser.error("--wrk needs wrk (Debian: apt-get install wrk; `make bench-deps`)")

    args.threads = args.threads or THREADS
    args.workers = args.workers or WORKERS

    if args.trace:
        os.environ["GLEEK_TRACE"] = str(Path(args.trace).resolve())  # read by the server (SERVER)
    info = machine()
    results = {"load_before": loadavg()}
    with tempfile.TemporaryDirectory(prefix="gleek-load-") as folder:
        args.folder = folder
        polls = polls_folder(args, folder) if args.front and not args.no_front_polls else None
        # wrk's phones all come from 127.0.0.1: straight to waitress, its per-address cap would refuse them
        server = Server(
            Path(folder),
            args.threads,
            args.workers,
            Path(args.root).resolve() if args.root else ROOT,
            proxies=1 if args.front else 0,
            extra=server_config(args, polls),
            own_ports=args.front and not args.shared_socket,
        )
        server.start(gunicorn=args.gunicorn)
        front = Front(Path(folder), server.ports(), polls) if args.front else None
        try:
            tables = []
            for n in range(args.tables):
                if args.hands:
                    status, location = import_session(server.port, n, args.hands)
                else:
                    status, location, _ = request(
                        server.port,
                        "POST",
                        "/sessions",
                        [
                            ("player_0", f"Ann {n}"),
                            ("player_1", "Ben"),
                            ("player_2", "Cat"),
                            ("rulebook", "parlett"),
                            ("first_dealer", "0"),
                            ("stake", ""),
                            ("title", f"Table {n}"),
                        ],
                    )
                assert status == 303, status
                tables.append(Table(sid=location.rsplit("/", 1)[1], wid=""))
            with sqlite3.connect(server.database) as conn:
                for table in tables:
                    table.wid = conn.execute("select watch_id from sessions where id = ?", [table.sid]).fetchone()[0]

            if args.warm_up:
                warm_up(server.ports(), tables, args.warm_up)
            cpu = CpuUse(server, front)
            results["cpu"] = {}
            for name, baseline in (("app", False), ("baseline", True)):
                kind = AsyncPhase if (args.front or args.keep_alive or args.wrk) else Phase
                phase = kind(name, server.port, tables, args, baseline, front)
                print(f"{name}: {args.tables} tables + {args.viewers} watchers for {args.duration:g} s …", flush=True)
                before = cpu.now()
                duration = phase.run()
                results["cpu"][name] = CpuUse.per_cent(before, cpu.now())
                if args.wrk:
                    by_kind = with_polls(phase.samples, summarise_wrk(phase.wrk, args.ramp), duration)
                else:
                    by_kind = {
                        kind: summarise([s for s in phase.samples if s.kind == kind], duration)
                        for kind in ("save", "poll", "player")
                    }
                    by_kind["all"] = summarise(phase.samples, duration)
                results[name] = by_kind
                results.setdefault("save_windows", {})[name] = saves_over_time(phase.samples)
                print("  saves' p95 by 5 s:", results["save_windows"][name], flush=True)
                if not baseline:
                    if args.samples:
                        Path(args.samples).write_text(
                            json.dumps(
                                [
                                    [s.at - s.latency, s.latency * 1000, s.app_ms, s.queue_ms, s.connect_ms, s.cpu_ms]
                                    for s in phase.samples
                                    if s.kind == "save" and not s.error
                                ]
                            )
                        )
                print(
                    "  " + cpu_line("CPU, % of one core", results["cpu"][name], by_kind["all"]["per_second"]),
                    flush=True,
                )
                if args.wrk and by_kind["poll"]["errors"]:
                    print("  wrk's errors:", by_kind["poll"]["error_kinds"])
                errors = [s.error for s in phase.samples if s.error][:5]
                if errors:
                    print("  first errors:", errors)

            with sqlite3.connect(server.database) as conn:
                results["hands_saved"] = (
                    conn.execute("select count(*) from hands").fetchone()[0] - args.hands * args.tables
                )
                results["consistent"] = all(
                    conn.execute("select count(*) from hands where session_id = ?", [t.sid]).fetchone()[0]
                    == args.hands + t.saved
                    and conn.execute("select version from sessions where id = ?", [t.sid]).fetchone()[0] == t.version
                    for t in tables
                )
        finally:
            if front is not None:
                front.stop()
            server.stop()

            remove_memory_folder(polls)
    results["load_after"] = loadavg()

    for name in ("app", "baseline"):
        for kind in ("save", "poll", "player", "all"):
            s = results[name][kind]
            print(
                f"{name:>8} {kind:>4}: {s['requests']:5d} req, {s['per_second']:6.1f}/s, p50 {s['p50']:6.1f} ms, "
                f"p95 {s['p95']:6.1f} ms, p99 {s['p99']:6.1f} ms, max {s['max']:7.1f} ms, "
                f"errors {s['errors']}, statuses {s['statuses']}; in the app p50 {s['app_p50']:.1f} ms, "
                f"p95 {s['app_p95']:.1f} ms" + (f" ({s['by_app']} answered by the app)" if "by_app" in s else "")
            )
    entry = report(results, info, args)
    print()
    print(entry)
    if not args.no_write:
        append_to_benchmarks(entry, trust=args.trust)
        print(f"appended to {HISTORY.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
