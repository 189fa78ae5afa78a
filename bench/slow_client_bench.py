"""Benchmark: normal requests while slow clients hold connections open.

Starts the real server as `make run` does (``python -m scorekeeper.server.serve --host
127.0.0.1 --port N``, a temp instance folder), then for 0, 64 and 256 half-open
connections (half of them sent half a request line, ``GET / HTTP/1.1\\r\\nHost:
x\\r\\n``, the other half a POST's headers and half its body) measures normal
requests one after another: the table page of a 12-hand session, the home page
and saving a hand (each on a fresh connection, 5 s timeout), the three phases
interleaved ``--rounds`` times. The half-open
connections are opened afresh for each phase, and the phase ends before the
server's idle timeout would drop them. Reported: p50/p95/max and the ratio of
each phase's p95 to the 0-connection phase's, measured in the same run.
Target: within 2× of 0 at 64 and 256.

``--trickle N`` (the attack) measures instead with 0 and N connections from
another loopback address (127.0.0.2: another device) that each send one byte of a
request every 4 s, as the attack did, and open a new connection whenever the server
closes one; the phase lasts ``TRICKLE_PHASE`` s, past the server's 10 s header
deadline, so its steady state is measured.

``--front`` measures through the HTTPS front instead (``serve --front``
behind Caddy with the Caddyfile ``scorekeeper.server.front`` writes, tests/support/front.py):
normal requests over https from 127.0.0.1 with 0 and then each of ``--uploads``
(2,100 and 5,000) slow uploads from 127.0.0.2, each a TLS connection posting a
2 MB import whose head is sent at once and whose body comes a byte every 4 s,
opened again whenever the front answers or closes it; each phase lasts ``--phase``
s once the uploads are open.

``--attacker-nice N`` (with ``--front``) runs the slow uploads' process at CPU
niceness N (the forked child in a session of its own, its autogroup at N too:
``lower_priority``; 0, the default, leaves it as it was).
On a small machine the attacker's own TLS handshakes (a new one each time the front
answers 429 or closes) compete for the same cores as Caddy and the app: on two
cores the attacker took 19-49 % of a core, more than Caddy (11-33 %) and the app
(4-8 %), and the normal requests waited behind the attacker rather than behind the
server. A real attacker's CPU is on another machine; at niceness 19 the scheduler
gives the cores to the server side (and to the normal requests) first, so the
figures show what the front and the app do under the attack. What it does not
show: niced, the attacker also reconnects more slowly whenever the cores are busy,
so it makes fewer handshakes than a machine of its own would (compare the count of
slow uploads answered or closed in the report); it is not a second machine's network
either (all of it is loopback). Both are the same run's figures, so measure with and
without it, interleaved, and report both.

``--root DIR`` serves another copy of the project (a before/after:
``git archive <commit> | tar -x -C DIR``). Loopback only, bounded, stops by itself.

    .venv/bin/python bench/slow_client_bench.py [--requests 150] [--trickle 2100] [--root DIR] [--no-write]
    .venv/bin/python bench/slow_client_bench.py --front [--uploads 2100,5000] [--phase 30] [--attacker-nice 19]
        [--root DIR] [--no-write]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import http.client
import json
import multiprocessing
import os
import resource
import select
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from benchmarks_md import append_to_section, machine  # noqa: E402
from pdf_starvation_bench import Server, percentile  # noqa: E402
from support.front import HttpsFront  # noqa: E402
from support.sessions import long_session  # noqa: E402
from support.web import hand_fields, http_request  # noqa: E402
from load_bench import family_cpu_seconds  # noqa: E402

HEADING = "## Slow clients"
SECTION_INTRO = """\
`.venv/bin/python bench/slow_client_bench.py`: the real server as `make run` starts
it, on loopback with a temp instance; normal requests one after another (the table
page of a 12-hand session, the home page, saving a hand; a fresh connection each,
5 s timeout) with 0, 64 and 256 half-open connections held open (half a request
line, or half a POST body), opened afresh each phase, the phases interleaved three
times (the machine is shared). Target: p95 within 2× of the
0-connection p95 measured in the same run. Each run is appended below.
"""
PHASES = (0, 64, 256)
PHASE_BUDGET = 7.0  # seconds of requests per phase: less than the server's 10 s idle timeout
TRICKLE_HEADING = "## Trickling connections"
TRICKLE_INTRO = """\
`.venv/bin/python bench/slow_client_bench.py --trickle 2100 [--root DIR]`: the real
server as `make run` starts it, on loopback with a temp instance; normal requests one
after another from 127.0.0.1 (the table page of a 12-hand session, the home page,
saving a hand; a fresh connection each, 5 s timeout) with 0, then N connections from
127.0.0.2 (another device) each sending one byte of a request every 4 s and opening a
new connection whenever one is closed, for 25 s (past the 10 s header deadline), the
phases interleaved. Target: p95 within 2× of the 0-connection p95 measured in the
same run, nothing failed. `--root` serves main's code before the caps (same sitting).
"""
FRONT_HEADING = "## Slow uploads through the HTTPS front (round four)"
FRONT_INTRO = """\
`.venv/bin/python bench/slow_client_bench.py --front [--root DIR]`: the real server
behind the real Caddy (`serve --front` and the Caddyfile `scorekeeper.server.front` writes),
on loopback with a temp instance; normal requests one after another over https from
127.0.0.1 (the table page of a 12-hand session, the home page, saving a hand; a fresh
connection each, 5 s timeout) with 0, then 2,100 and 5,000 slow uploads from
127.0.0.2: each a TLS connection posting a 2 MB import, its head at once and its body
a byte every 4 s, opened again whenever the front answers or closes it. A phase lasts
30 s once the uploads are open; the phases interleaved. Target: p95 within 2× of the
0-upload p95 measured in the same run, nothing failed. `--root` serves main's code
(and its Caddyfile) in the same sitting.
"""
UPLOAD_BYTES = 2 * 1024 * 1024
TRICKLE_PHASE = 25.0  # seconds: past the 10 s header deadline
TRICKLE_EVERY = 4.0  # seconds between a trickling connection's bytes
HOSTILE = "127.0.0.2"


class Trickler:
    """``n`` connections from HOSTILE, each sending a request one byte every
    TRICKLE_EVERY s, reopened whenever the server closes one (in its own thread)."""

    REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: " + b"x" * 4000

    def __init__(self, port: int, n: int):
        self.port, self.n = port, n
        self.stop = threading.Event()
        self.opened = self.closed_by_server = 0
        self.held: list = []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def connect(self):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.bind((HOSTILE, 0))
            if s.connect_ex(("127.0.0.1", self.port)) not in (0, errno.EINPROGRESS):
                s.close()
                return None
        except OSError:
            s.close()
            return None
        self.opened += 1
        return [s, 0]

    def run(self) -> None:
        conns = [c for c in (self.connect() for _ in range(self.n)) if c]
        tick = time.monotonic()
        while not self.stop.is_set():
            poller = select.poll()
            for c in conns:
                poller.register(c[0], select.POLLIN)
            readable = {fd for fd, _ in poller.poll(200)}
            keep = []
            for c in conns:
                if c[0].fileno() in readable:
                    try:
                        c[0].recv(65536)
                    except OSError:
                        pass
                    c[0].close()
                    self.closed_by_server += 1
                else:
                    keep.append(c)
            conns = keep
            if time.monotonic() >= tick:
                tick += TRICKLE_EVERY
                for c in conns:
                    try:
                        c[0].send(self.REQUEST[c[1] : c[1] + 1])
                        c[1] += 1
                    except (BlockingIOError, InterruptedError):
                        pass
                    except OSError:
                        pass
                conns += [c for c in (self.connect() for _ in range(self.n - len(conns))) if c]
            self.held = conns
        for c in conns:
            c[0].close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=30)


class SlowUploads:
    """``n`` slow uploads through the front from HOSTILE (see the module), each a
    TLS connection opened again whenever the front answers or closes it: asyncio
    (one thread for thousands of TLS connections) in a process of its own, forked,
    as the attacker is another device: in this process its work held the GIL the
    normal requests' timing needs."""

    CONNECTING = 64  # handshakes under way at once

    def __init__(self, front: HttpsFront, n: int, niceness: int = 0):
        context = multiprocessing.get_context("fork")
        self.front, self.n, self.niceness = front, n, niceness
        self.head = (
            f"POST /import HTTP/1.1\r\nHost: localhost:{front.port}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {UPLOAD_BYTES}\r\n\r\n{{"
        ).encode()
        self.counts = context.RawArray("q", 3)  # opened, answered (or closed), failed to connect
        self.stopping = context.Event()
        self.process = context.Process(target=self.run, daemon=True)

    @property
    def opened(self) -> int:
        return self.counts[0]

    @property
    def answered(self) -> int:
        return self.counts[1]

    def run(self) -> None:
        if self.niceness:
            lower_priority(self.niceness)
        asyncio.run(self.all())

    async def all(self) -> None:
        connecting = asyncio.Semaphore(self.CONNECTING)
        context = self.front.context()
        await asyncio.gather(self.until_orphaned(), *(self.one(i, connecting, context) for i in range(self.n)))

    async def until_orphaned(self) -> None:
        """Stop if the bench has gone without saying so: in a session of its own
        (``lower_priority``) no Ctrl-C reaches this process."""
        parent = os.getppid()
        while not self.stopping.is_set():
            if os.getppid() != parent:
                self.stopping.set()
            await asyncio.sleep(1.0)

    async def one(self, i: int, connecting, context) -> None:
        await asyncio.sleep(TRICKLE_EVERY * i / self.n)  # their bytes spread over the 4 s
        while not self.stopping.is_set():
            try:
                async with connecting:
                    reader, writer = await asyncio.wait_for(
                        asyncio.open_connection(
                            "127.0.0.1",
                            self.front.port,
                            ssl=context,
                            server_hostname="localhost",
                            local_addr=(HOSTILE, 0),
                        ),
                        10,
                    )
            except (OSError, ssl.SSLError, asyncio.TimeoutError):
                self.counts[2] += 1
                await asyncio.sleep(1.0)
                continue
            self.counts[0] += 1
            try:
                writer.write(self.head)
                while not self.stopping.is_set():
                    try:
                        await asyncio.wait_for(reader.read(65536), TRICKLE_EVERY)
                        break  # an answer, or the connection closed: open another
                    except asyncio.TimeoutError:
                        writer.write(b" ")  # a byte of the body
                        await writer.drain()
            except (OSError, ssl.SSLError):
                pass
            finally:
                self.counts[1] += 1
                writer.transport.abort()

    def __enter__(self):
        self.process.start()
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        self.process.join(timeout=30)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(timeout=10)


def lower_priority(niceness: int) -> None:
    """This process at CPU niceness ``niceness``, as the server side sees it: the
    attacker's CPU is another machine's, so the front and the app get the cores
    first. Where the kernel groups processes by session (autogroup, Linux's
    default on desktops and here), a process's nice only orders it against its own
    session, and the front and the app each run in a session of their own
    (tests/support/front.py), so the process takes a session of its own and gives
    that group the same niceness (/proc/self/autogroup; raising it needs no
    privilege)."""
    os.setsid()
    autogroup = Path("/proc/self/autogroup")
    if autogroup.exists():
        autogroup.write_text(str(niceness))
    os.nice(niceness)


def https_request(front: HttpsFront, context, method: str, path: str, fields=None) -> int:
    """One request through the front on a fresh connection (5 s timeout): its status."""
    conn = http.client.HTTPSConnection("localhost", front.port, context=context, timeout=5)
    try:
        headers = {"Origin": front.url}
        body = None
        if fields is not None:
            body, headers["Content-Type"] = urlencode(fields), "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status
    finally:
        conn.close()


def front_phase(
    front: HttpsFront, url: str, version: int, uploads: int, requests: int, phase_seconds: float, attacker_nice: int = 0
) -> tuple[list, int, int, int]:
    """Normal requests over https, spread over ``phase_seconds``, while ``uploads`` slow uploads are open."""
    context = front.context()
    hand = long_session(13)["hands"][12]
    latencies, errors = [], 0
    slow = SlowUploads(front, uploads, attacker_nice) if uploads else contextlib.nullcontext()
    with slow:
        ramp = time.monotonic() + 60
        while uploads and slow.opened < uploads and time.monotonic() < ramp:
            time.sleep(0.5)
        cpu_before = cpu_seconds(front, slow if uploads else None)
        pace, end = phase_seconds / requests, time.monotonic() + phase_seconds
        for i in range(requests):
            if time.monotonic() > end:
                break
            started = time.monotonic()
            try:
                if i % 3 == 2:
                    ok = (
                        https_request(
                            front, context, "POST", url + "/hands", list(hand_fields(hand, version).items(multi=True))
                        )
                        == 303
                    )
                    if ok:  # and take it back (untimed), so every save is the 13th hand
                        https_request(front, context, "POST", url + "/hands/13/delete", {"version": str(version + 1)})
                        version += 2
                else:
                    ok = https_request(front, context, "GET", url if i % 3 else "/") == 200
            except (OSError, ConnectionError):
                ok = False
            latencies.append(time.monotonic() - started)
            errors += not ok
            time.sleep(max(0.0, pace - (time.monotonic() - started)))
        answered = slow.answered if uploads else 0
        cpu_after = cpu_seconds(front, slow if uploads else None)
    cpu = {who: cpu_after[who] - cpu_before[who] for who in cpu_after}
    return latencies, errors, answered, version, cpu


def cpu_seconds(front: HttpsFront, slow: SlowUploads | None) -> dict:
    """CPU seconds so far of each party: the app (serve's processes), Caddy, the slow
    uploads' process, this process (the normal requests), and the time of its own
    phase (so that each can be said as a share of a core)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "at": time.monotonic(),
        "app": family_cpu_seconds(front.procs[0].pid),
        "Caddy": family_cpu_seconds(front.procs[1].pid),
        "slow uploads": family_cpu_seconds(slow.process.pid) if slow is not None else 0.0,
        "normal requests": me.ru_utime + me.ru_stime,
    }


def run_front(args) -> dict:
    root = Path(args.root).resolve() if args.root else ROOT
    phases = (0, *args.uploads)
    with tempfile.TemporaryDirectory(prefix="gleek-slow-front-") as folder:
        front = RootFront(Path(folder), "SESSIONS_PER_MINUTE = 10_000\n", root=root).start()
        try:
            status, headers, _ = front.request(
                "POST",
                "/import",
                body=json.dumps(long_session(12)),
                headers={"Content-Type": "application/json", "Origin": front.url},
            )
            assert status == 303, status
            url = "/s/" + headers["Location"].rsplit("/", 1)[1]
            results = {n: {"latencies": [], "errors": 0, "refused": 0, "cpu": {}} for n in phases}
            version = 1
            for _ in range(args.rounds):  # interleaved, so the machine's other load falls on every phase
                for n in phases:
                    latencies, errors, answered, version, cpu = front_phase(
                        front, url, version, n, args.requests, args.phase, args.attacker_nice
                    )
                    results[n]["latencies"] += latencies
                    results[n]["errors"] += errors
                    results[n]["refused"] += answered
                    for who, seconds in cpu.items():
                        results[n]["cpu"][who] = results[n]["cpu"].get(who, 0.0) + seconds
                    time.sleep(2.0)
        finally:
            front.stop()
    return results


class RootFront(HttpsFront):
    """The front for ``--root``: that copy's own Caddyfile (``scorekeeper.server.front.caddyfile``
    as that copy writes it), not this branch's."""

    def caddyfile(self) -> str:
        if self.root == ROOT:
            return super().caddyfile()
        script = (
            "import sys; from pathlib import Path; from scorekeeper import front; "
            "print(front.caddyfile([sys.argv[1]], False, sys.argv[2].split(','), Path(sys.argv[3]), "
            "Path(sys.argv[4])), end='')"
        )
        return subprocess.run(
            [sys.executable, "-c", script, self.url, ",".join(self.upstream()), str(self.storage), str(self.polls)],
            cwd=self.root,
            env=dict(os.environ, PYTHONPATH=str(self.root)),
            capture_output=True,
            text=True,
            check=True,
        ).stdout


def half_open(port: int, n: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    if n % 2:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    else:
        s.sendall(
            b"POST /sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\nplayer_0=A"
        )
    return s


def phase(
    server: Server, url: str, version: int, held: int, requests: int, trickle: int = 0
) -> tuple[list, int, int, int]:
    sockets, refused = [], 0
    for n in range(held):
        try:
            sockets.append(half_open(server.port, n))
        except OSError:
            refused += 1
    trickler = Trickler(server.port, trickle) if trickle else contextlib.nullcontext()
    with trickler:
        time.sleep(1.0 if trickle else 0.5)
        result = requests_phase(
            server,
            url,
            version,
            requests,
            sockets,
            TRICKLE_PHASE if trickle else PHASE_BUDGET,
            TRICKLE_PHASE / requests if trickle else 0.0,
        )  # spread over the whole phase
    if trickle:
        result = result[:2] + (trickler.closed_by_server,) + result[3:]
    else:
        result = result[:2] + (refused,) + result[3:]
    return result


def requests_phase(server, url, version, requests, sockets, budget, pace=0.0) -> tuple[list, int, int, int]:
    hand = long_session(13)["hands"][12]
    latencies, errors = [], 0
    try:
        end = time.monotonic() + budget
        for i in range(requests):
            if time.monotonic() > end:
                break
            started = time.monotonic()
            try:
                if i % 3 == 2:
                    status, _, _ = http_request(
                        "127.0.0.1",
                        server.port,
                        "POST",
                        url + "/hands",
                        list(hand_fields(hand, version).items(multi=True)),
                        timeout=5,
                    )
                    ok = status == 303
                    if ok:  # and take it back (untimed), so every save is the 13th hand
                        http_request(
                            "127.0.0.1",
                            server.port,
                            "POST",
                            url + "/hands/13/delete",
                            {"version": str(version + 1)},
                            timeout=5,
                        )
                        version += 2
                else:
                    status, _, _ = http_request("127.0.0.1", server.port, "GET", url if i % 3 else "/", timeout=5)
                    ok = status == 200
            except OSError:
                ok = False
            latencies.append(time.monotonic() - started)
            errors += not ok
            time.sleep(max(0.0, pace - (time.monotonic() - started)))
    finally:
        for s in sockets:
            s.close()
    return latencies, errors, 0, version


def run(args) -> dict:
    root = Path(args.root).resolve() if args.root else ROOT
    with tempfile.TemporaryDirectory(prefix="gleek-slow-") as folder:
        server = Server(root, Path(folder))
        server.start()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            conn.request(
                "POST", "/import", body=json.dumps(long_session(12)), headers={"Content-Type": "application/json"}
            )
            response = conn.getresponse()
            response.read()
            assert response.status == 303, response.status
            url = "/s/" + response.getheader("Location").rsplit("/", 1)[1]
            conn.close()
            phases = (0, args.trickle) if args.trickle else PHASES
            results = {held: {"latencies": [], "errors": 0, "refused": 0} for held in phases}
            version = 1
            for _ in range(args.rounds):  # interleaved, so the machine's other load falls on every phase
                for held in phases:
                    if args.trickle:
                        latencies, errors, refused, version = phase(server, url, version, 0, args.requests, held)
                    else:
                        latencies, errors, refused, version = phase(server, url, version, held, args.requests)
                    results[held]["latencies"] += latencies
                    results[held]["errors"] += errors
                    results[held]["refused"] += refused
                    time.sleep(1.0)
        finally:
            server.stop()
    return results


def report(results: dict, info: dict, args) -> str:
    base = percentile([x * 1000 for x in results[0]["latencies"]], 95)
    label = "this branch" if not args.root else f"`--root` {args.root_label or args.root}"
    if args.front and args.attacker_nice:
        label += f", the attacker at nice {args.attacker_nice}"
    kind = "trickling" if args.trickle else "half-open"
    if args.front:
        kind = "slow uploads through the front"
    lines = [
        f"### {info['date']}: normal requests with {' / '.join(str(k) for k in results)} {kind}"
        f"{'' if args.front else ' connections'} ({label})",
        "",
        f"Machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end (the machine is shared).",
        "",
        f"| {kind if args.front else kind + ' connections'} | requests | p50 ms | p95 ms | max ms "
        "| failed or timed out (5 s) | p95 vs 0 |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for held, r in results.items():
        ms = [x * 1000 for x in r["latencies"]]
        p95 = percentile(ms, 95)
        if args.front:
            note = f" (the front answered or closed {r['refused']} slow uploads)" if held else ""
        elif args.trickle:
            note = f" ({r['refused']} trickling connections closed by the server)" if held else ""
        else:
            note = f" (+{r['refused']} not even connected)" if r["refused"] else ""
        lines.append(
            f"| {held} | {len(ms)} | {percentile(ms, 50):.1f} | {p95:.1f} | {max(ms):.1f} | "
            f"{r['errors']}{note} | {p95 / base:.1f}× |"
        )
    if args.front:
        lines += [
            "",
            "CPU in each phase, in per cent of one core: "
            + "; ".join(
                f"{held}: "
                + ", ".join(
                    f"{who} {100 * seconds / r['cpu']['at']:.0f} %"
                    for who, seconds in r["cpu"].items()
                    if who != "at" and seconds
                )
                for held, r in results.items()
            )
            + ".",
        ]
    worst = max(percentile([x * 1000 for x in r["latencies"]], 95) / base for r in results.values())
    failed = sum(r["errors"] for r in results.values())
    lines += [
        "",
        f"Result: worst p95 {worst:.1f}× the 0-connection p95 "
        f"({'met' if worst <= 2 and not failed else 'NOT met'}; target: ≤ 2× and no request failed).",
    ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=150, help="normal requests per phase (at most)")
    parser.add_argument("--rounds", type=int, default=3, help="times each phase is run, interleaved")
    parser.add_argument("--root", default=None, help="serve another copy of the project (before/after)")
    parser.add_argument("--root-label", default=None)
    parser.add_argument(
        "--trickle", type=int, default=0, help="trickling connections (a byte every few seconds) instead"
    )
    parser.add_argument("--front", action="store_true", help="slow uploads through the HTTPS front instead")
    parser.add_argument("--uploads", default="2100,5000", help="--front: the slow uploads of each phase after 0")
    parser.add_argument("--phase", type=float, default=30.0, help="--front: seconds of each phase")
    parser.add_argument(
        "--attacker-nice",
        type=int,
        default=0,
        help="--front: run the slow uploads' process at this CPU niceness (0-19; see the module)",
    )
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/history.md alone")
    args = parser.parse_args(argv)
    args.uploads = [int(n) for n in args.uploads.split(",") if n.strip()]
    if not (
        10 <= args.requests <= 1000
        and 1 <= args.rounds <= 5
        and 0 <= args.trickle <= 3000
        and all(1 <= n <= 6000 for n in args.uploads)
        and 5 <= args.phase <= 120
    ):
        parser.error(
            "keep it bounded: 10-1000 requests a phase, 1-5 rounds, at most 3,000 trickling, "
            "6,000 slow uploads, phases of 5-120 s"
        )
    if not 0 <= args.attacker_nice <= 19:
        parser.error("--attacker-nice: a niceness from 0 (as it was) to 19 (the lowest priority)")
    if args.attacker_nice and not args.front:
        parser.error("--attacker-nice is for --front (the slow uploads' process)")
    if args.trickle or args.front:
        wanted = max(args.uploads) if args.front else args.trickle
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, wanted + 500)), hard))
    entry = report(run_front(args) if args.front else run(args), machine(), args)
    print(entry)
    if not args.no_write:
        heading, intro = (
            (FRONT_HEADING, FRONT_INTRO)
            if args.front
            else (TRICKLE_HEADING, TRICKLE_INTRO)
            if args.trickle
            else (HEADING, SECTION_INTRO)
        )
        append_to_section(heading, intro, entry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
