"""Issue 8 benchmark: normal requests while slow clients hold connections open.

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

``--trickle N`` (issue 18) measures instead with 0 and N connections from
another loopback address (127.0.0.2: another device) that each send one byte of a
request every 4 s, as the attack did, and open a new connection whenever the server
closes one; the phase lasts ``TRICKLE_PHASE`` s, past the server's 10 s header
deadline, so its steady state is measured.

``--root DIR`` serves another copy of the project (a before/after:
``git archive <commit> | tar -x -C DIR``). Loopback only, bounded, stops by itself.

    .venv/bin/python bench/slow_client_bench.py [--requests 150] [--trickle 2100] [--root DIR] [--no-write]
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from benchmarks_md import append_to_section, machine  # noqa: E402
from pdf_starvation_bench import Server, percentile  # noqa: E402
from support.sessions import long_session  # noqa: E402
from support.web import hand_fields, http_request  # noqa: E402

HEADING = "## Slow clients (issue 8)"
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
PHASE_BUDGET = 7.0     # seconds of requests per phase: less than the server's 10 s idle timeout
TRICKLE_HEADING = "## Trickling connections (issue 18)"
TRICKLE_INTRO = """\
`.venv/bin/python bench/slow_client_bench.py --trickle 2100 [--root DIR]`: the real
server as `make run` starts it, on loopback with a temp instance; normal requests one
after another from 127.0.0.1 (the table page of a 12-hand session, the home page,
saving a hand; a fresh connection each, 5 s timeout) with 0, then N connections from
127.0.0.2 (another device) each sending one byte of a request every 4 s and opening a
new connection whenever one is closed, for 25 s (past the 10 s header deadline), the
phases interleaved. Target: p95 within 2× of the 0-connection p95 measured in the
same run, nothing failed. `--root` serves main's code before issue 18 (same sitting).
"""
TRICKLE_PHASE = 25.0   # seconds: past the 10 s header deadline
TRICKLE_EVERY = 4.0    # seconds between a trickling connection's bytes
HOSTILE = "127.0.0.2"


class Trickler:
    """``n`` connections from HOSTILE, each sending a request one byte every
    TRICKLE_EVERY s, reopened whenever the server closes one (in its own thread)."""

    REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Trickle: " + b"x" * 4000

    def __init__(self, port: int, n: int):
        import threading

        self.port, self.n = port, n
        self.stop = threading.Event()
        self.opened = self.closed_by_server = 0
        self.held: list = []
        self.thread = threading.Thread(target=self.run, daemon=True)

    def connect(self):
        import errno

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
        import select

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
                        c[0].send(self.REQUEST[c[1]:c[1] + 1])
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


def half_open(port: int, n: int) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    if n % 2:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
    else:
        s.sendall(b"POST /sessions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4000\r\n\r\nplayer_0=A")
    return s


def phase(server: Server, url: str, version: int, held: int, requests: int,
          trickle: int = 0) -> tuple[list, int, int, int]:
    import contextlib

    sockets, refused = [], 0
    for n in range(held):
        try:
            sockets.append(half_open(server.port, n))
        except OSError:
            refused += 1
    trickler = Trickler(server.port, trickle) if trickle else contextlib.nullcontext()
    with trickler:
        time.sleep(1.0 if trickle else 0.5)
        result = requests_phase(server, url, version, requests, sockets, TRICKLE_PHASE if trickle else PHASE_BUDGET,
                                TRICKLE_PHASE / requests if trickle else 0.0)   # spread over the whole phase
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
                    status, _, _ = http_request("127.0.0.1", server.port, "POST", url + "/hands",
                                                list(hand_fields(hand, version).items(multi=True)), timeout=5)
                    ok = status == 303
                    if ok:   # and take it back (untimed), so every save is the 13th hand
                        http_request("127.0.0.1", server.port, "POST", url + "/hands/13/delete",
                                     {"version": str(version + 1)}, timeout=5)
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
    import http.client
    import json
    import tempfile

    root = Path(args.root).resolve() if args.root else ROOT
    with tempfile.TemporaryDirectory(prefix="gleek-slow-") as folder:
        server = Server(root, Path(folder))
        server.start()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
            conn.request("POST", "/import", body=json.dumps(long_session(12)),
                         headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            response.read()
            assert response.status == 303, response.status
            url = "/s/" + response.getheader("Location").rsplit("/", 1)[1]
            conn.close()
            phases = (0, args.trickle) if args.trickle else PHASES
            results = {held: {"latencies": [], "errors": 0, "refused": 0} for held in phases}
            version = 1
            for _ in range(args.rounds):   # interleaved, so the machine's other load falls on every phase
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
    kind = "trickling" if args.trickle else "half-open"
    lines = [
        f"### {info['date']}: normal requests with {' / '.join(str(k) for k in results)} {kind} connections ({label})",
        "",
        f"Machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end (the machine is shared).",
        "",
        f"| {kind} connections | requests | p50 ms | p95 ms | max ms | failed or timed out (5 s) | p95 vs 0 |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for held, r in results.items():
        ms = [x * 1000 for x in r["latencies"]]
        p95 = percentile(ms, 95)
        if args.trickle:
            note = f" ({r['refused']} trickling connections closed by the server)" if held else ""
        else:
            note = f" (+{r['refused']} not even connected)" if r["refused"] else ""
        lines.append(f"| {held} | {len(ms)} | {percentile(ms, 50):.1f} | {p95:.1f} | {max(ms):.1f} | "
                     f"{r['errors']}{note} | {p95 / base:.1f}× |")
    worst = max(percentile([x * 1000 for x in r["latencies"]], 95) / base for r in results.values())
    failed = sum(r["errors"] for r in results.values())
    lines += ["", f"Result: worst p95 {worst:.1f}× the 0-connection p95 "
                  f"({'met' if worst <= 2 and not failed else 'NOT met'}; target: ≤ 2× and no request failed)."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--requests", type=int, default=150, help="normal requests per phase (at most)")
    parser.add_argument("--rounds", type=int, default=3, help="times each phase is run, interleaved")
    parser.add_argument("--root", default=None, help="serve another copy of the project (before/after)")
    parser.add_argument("--root-label", default=None)
    parser.add_argument("--trickle", type=int, default=0, help="trickling connections (issue 18) instead")
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = parser.parse_args(argv)
    if not (10 <= args.requests <= 1000 and 1 <= args.rounds <= 5 and 0 <= args.trickle <= 3000):
        parser.error("keep it bounded: 10-1000 requests a phase, 1-5 rounds, at most 3,000 trickling")
    if args.trickle:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.trickle + 500)), hard))
    entry = report(run(args), machine(), args)
    print(entry)
    if not args.no_write:
        append_to_section(TRICKLE_HEADING if args.trickle else HEADING,
                          TRICKLE_INTRO if args.trickle else SECTION_INTRO, entry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
