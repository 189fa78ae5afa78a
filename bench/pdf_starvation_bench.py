"""Benchmark: do simultaneous PDF sheets starve other requests?

Starts the real server as `make run` does (``python -m scorekeeper.server.serve --host
127.0.0.1 --port N``, a temp instance folder), imports ``--pdfs`` different
1,000-hand sessions, then measures a trivial request (GET /manifest.webmanifest,
no database) every 100 ms: first with nothing else going on, then while
``--pdfs`` clients ask for those sessions' PDF sheets at the same moment.
Reported: the trivial request's p50/p95/max in both phases (and the ratio), and
what each PDF request got (status, seconds).

``--hostile tz|own`` (hostile clients) measures instead the scorer's own sheet while four
hostile clients (each from its own loopback address) ask for sheets, ``--pause`` s
apart (0.4 s: about the attack's 10 requests a second from the four):
``tz``, the attack itself, watchers of the scorer's table sending a new ``tz``
cookie with every request; ``own``, clients printing sheets of sessions of their own
(8 each, a new render each time they are not cached). The scorer (another address)
asks for his sheet every 3 s for ``--seconds`` s (in ``own`` every 15 s, after
recording a change each time, so each of his sheets must be rendered). Reported: how many of his asks got
the sheet, and how long each took; what the hostile clients got. Target: the scorer
gets his sheet within 10 s every time.

``--hostile season``: two circle managers, each from an address of
his own, rename a member (a new version of the circle) and print the circle's
season sheet (``--evenings``, 2,000: 11 s a render), again and again; the scorer
records a change and asks for his sheet every 5 s. Target: his sheet within 2 s
(median), 5 s at worst.

``--root DIR`` runs the server from another copy of the project (for a before/after:
``git archive <commit> | tar -x -C DIR``), whose instance/ folder is then used.
Loopback only; every request has a timeout and the run stops by itself.

    .venv/bin/python bench/pdf_starvation_bench.py [--pdfs 9] [--hostile tz|own|season] [--evenings 2000]
        [--root DIR] [--no-write]
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import re
import signal
import socket
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
from support.sessions import circle_of_evenings, long_session  # noqa: E402
from support.web import http_request  # noqa: E402
from scorekeeper.store.schema import connect, initialise  # noqa: E402

HEADING = "## PDF sheets beside other requests"
SECTION_INTRO = """\
`.venv/bin/python bench/pdf_starvation_bench.py [--pdfs 9] [--root DIR]`: the real
server as `make run` starts it, on loopback with a temp instance; `--pdfs`
different 1,000-hand sessions imported; a trivial request (`GET
/manifest.webmanifest`) every 100 ms, first alone, then while that many clients ask
for the sessions' PDF sheets at the same moment. Target: the trivial request's p95
during the PDFs within a few times its p95 alone (it was 19 s before). `--root`
runs an older copy of the project (before/after). Each run is appended below.
"""


HOSTILE_HEADING = "## The scorer's sheet beside hostile clients"
HOSTILE_INTRO = """\
`.venv/bin/python bench/pdf_starvation_bench.py --hostile tz|own [--root DIR]`: the real
server as `make run` starts it, on loopback with a temp instance; the scorer's table
has `--hands` hands; four hostile clients, each from its own loopback address, ask for
PDF sheets, each with `--pause` s between its requests (0.4 s: about the attack's 10
requests a second from the four; 0: as fast as they can): `tz`, watchers of the scorer's table with a new `tz` cookie
every request (the attack itself); `own`, clients printing sheets of 8 sessions
of their own each. The scorer (his own address) asks for his sheet every 3 s (in
`own` every 15 s, after recording a change, so each of his sheets is a new render). Target: he
gets it within 10 s every time. `--root` serves main's code before these limits.
"""
SEASON_HEADING = "## The scorer's sheet beside circle managers' season sheets (round four)"
SEASON_INTRO = """\
`.venv/bin/python bench/pdf_starvation_bench.py --hostile season [--evenings 2000] [--root DIR]`:
the real server as `make run` starts it, on loopback with a temp instance; a circle of
`--evenings` evenings (8 hands each) written before it starts; two managers, each from
his own loopback address, rename a member (a new version of the circle) and print its
season sheet (11 s a render at 2,000 evenings), with `--pause` s between; the scorer
(his own address, a `--hands`-hand table) records a change and asks for his sheet every
5 s (16 new renders a minute allowed a device). Target: he gets it every time, within 2 s
median and 5 s at worst. `--root` serves
main's code (one renderer for both) in the same sitting.
"""
TZ_NAMES = (
    "Europe/London",
    "Asia/Tokyo",
    "America/Sao_Paulo",
    "Pacific/Auckland",
    "Africa/Lagos",
    "Australia/Adelaide",
    "America/New_York",
    "Asia/Kolkata",
    "Europe/Lisbon",
    "Etc/GMT+5",
)


def fetch(
    port: int,
    method: str,
    path: str,
    source: str,
    cookie: str | None = None,
    body: bytes | None = None,
    content_type: str | None = None,
    timeout: float = 120.0,
) -> tuple:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        headers = {"Cookie": cookie} if cookie else {}
        if content_type:
            headers["Content-Type"] = content_type
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def hostile_run(args) -> dict:
    """The scorer's sheet while four hostile clients ask for theirs (see the module)."""
    root = Path(args.root).resolve() if args.root else ROOT
    with tempfile.TemporaryDirectory(prefix="gleek-pdf-") as folder:
        server = Server(root, Path(folder))
        circle = None
        if args.hostile == "season":
            circle = season_circle(server.instance, args.evenings)
            # a new sheet every 5 s is more than a device's 6 renders a minute: not what is measured here
            (server.instance / "config.py").write_text("SESSIONS_PER_MINUTE = 10_000\nPDF_RENDERS_PER_MINUTE = 16\n")
        server.start()
        scorer_at = "127.0.0.2"
        try:
            record = dict(long_session(args.hands), title="The scorer's table")
            status, headers, _ = fetch(
                server.port,
                "POST",
                "/import",
                scorer_at,
                body=json.dumps(record).encode(),
                content_type="application/json",
            )
            assert status == 303, status
            sid = headers["Location"].rsplit("/", 1)[1]
            page = fetch(server.port, "GET", f"/s/{sid}", scorer_at)[2].decode()

            watch = re.search(r"/w/([A-Za-z0-9_-]{24})", page).group(1)
            for _ in range(8):  # each server process starts its renderer (seconds, once): not measured
                assert fetch(server.port, "GET", f"/s/{sid}/sheet.pdf", scorer_at)[0] == 200
                time.sleep(0.2)
            stop, lock = threading.Event(), threading.Lock()
            hostile: dict = {}
            alone, version, hands = [], 1, args.hands
            if args.hostile == "season":  # his sheet alone first (each a new render), for the baseline
                for _ in range(3):
                    code = fetch(
                        server.port,
                        "POST",
                        f"/s/{sid}/hands/{hands}/delete",
                        scorer_at,
                        body=urlencode({"version": version}).encode(),
                        content_type="application/x-www-form-urlencoded",
                    )[0]
                    if code == 303:
                        version, hands = version + 1, hands - 1
                    started = time.monotonic()
                    assert fetch(server.port, "GET", f"/s/{sid}/sheet.pdf", scorer_at)[0] == 200
                    alone.append(time.monotonic() - started)

            def client(n: int) -> None:
                at = f"127.0.0.{10 + n}"
                if args.hostile == "own":
                    mine = []
                    for i in range(8):
                        theirs = dict(long_session(args.hands), title=f"Theirs {n}.{i}")
                        code, found, _ = fetch(
                            server.port,
                            "POST",
                            "/import",
                            at,
                            body=json.dumps(theirs).encode(),
                            content_type="application/json",
                        )
                        if code == 303:
                            mine.append("/s/" + found["Location"].rsplit("/", 1)[1])
                for k in itertools.count():
                    if stop.is_set():
                        return
                    try:
                        if args.hostile == "season":  # a manager: a rename (a new version), then the season sheet
                            member = circle.members[3 + n]
                            fetch(
                                server.port,
                                "POST",
                                f"/c/{circle.id}/members/{member.id}/rename",
                                at,
                                body=urlencode({"name": f"{member.name} {k}"}).encode(),
                                content_type="application/x-www-form-urlencoded",
                            )
                            code = fetch(server.port, "GET", f"/c/{circle.id}/season.pdf", at)[0]
                        elif args.hostile == "tz":
                            code = fetch(
                                server.port,
                                "GET",
                                f"/w/{watch}/sheet.pdf",
                                at,
                                cookie=f"tz={TZ_NAMES[(n * 3 + k) % len(TZ_NAMES)]}",
                            )[0]
                        else:
                            code = fetch(server.port, "GET", mine[k % len(mine)] + "/sheet.pdf", at)[0]
                    except OSError as error:
                        code = type(error).__name__
                    with lock:
                        hostile[code] = hostile.get(code, 0) + 1
                    time.sleep(args.pause)

            threads = [
                threading.Thread(target=client, args=(n,), daemon=True)
                for n in range(2 if args.hostile == "season" else 4)
            ]
            for thread in threads:
                thread.start()
            time.sleep(10.0 if args.hostile in ("own", "season") else 3.0)  # they are at it (own: after their imports)
            asks = []
            end = time.monotonic() + args.seconds
            while time.monotonic() < end:
                began = time.monotonic()
                if args.hostile in ("own", "season"):  # a change: each of his sheets is a new render
                    code = fetch(
                        server.port,
                        "POST",
                        f"/s/{sid}/hands/{hands}/delete",
                        scorer_at,
                        body=urlencode({"version": version}).encode(),
                        content_type="application/x-www-form-urlencoded",
                    )[0]
                    if code == 303:
                        version, hands = version + 1, hands - 1
                started = time.monotonic()
                try:
                    code, _, body = fetch(server.port, "GET", f"/s/{sid}/sheet.pdf", scorer_at)
                    ok = code == 200 and body[:4] == b"%PDF"
                except OSError as error:
                    code, ok = type(error).__name__, False
                asks.append((code, ok, time.monotonic() - started))
                period = {"tz": 3.0, "own": 15.0, "season": 5.0}[args.hostile]
                time.sleep(max(0.0, period - (time.monotonic() - began)))
            stop.set()
            for thread in threads:
                thread.join(timeout=150)
        finally:
            server.stop()
    return {"asks": asks, "hostile": hostile, "root": str(root), "alone": alone}


def season_circle(instance: Path, evenings: int):
    """A circle of ``evenings`` evenings (8 hands each) in the instance's database,
    made before the server starts."""
    initialise(instance / "scorekeeper.db")
    db = connect(instance / "scorekeeper.db")
    try:
        return circle_of_evenings(db, evenings, 8)[0]
    finally:
        db.conn.close()


def hostile_report(result: dict, info: dict, args) -> str:
    asks = result["asks"]
    got = [a for a in asks if a[1]]
    waits = sorted(a[2] for a in got)
    codes = {}
    for code, _, _ in asks:
        codes[code] = codes.get(code, 0) + 1
    label = "this branch" if result["root"] == str(ROOT) else f"`--root` {args.root_label or result['root']}"
    within = sum(1 for a in got if a[2] <= 10)
    beside = (
        f"two circle managers printing a {args.evenings}-evening season sheet after a rename"
        if args.hostile == "season"
        else f"four hostile clients, `{args.hostile}`"
    )
    lines = [
        f"### {info['date']}: the scorer's sheet ({args.hands} hands) beside {beside}, "
        f"a request each every {args.pause:g} s ({label})",
        "",
        f"Machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end (the machine is shared).",
        "",
        "| the scorer's asks | got his sheet | within 10 s | answers | his wait p50 / max s |",
        "| ---: | ---: | ---: | --- | ---: |",
        f"| {len(asks)} | {len(got)} | {within} | {', '.join(f'{n} × {c}' for c, n in sorted(codes.items(), key=str))} | "
        + (f"{percentile(waits, 50):.1f} / {max(waits):.1f} |" if waits else "– |"),
        "",
        (
            f"His sheet alone (a new render each): {', '.join(f'{w:.1f}' for w in result['alone'])} s. "
            if result.get("alone")
            else ""
        )
        + "Hostile clients' answers: "
        + ", ".join(f"{n} × {c}" for c, n in sorted(result["hostile"].items(), key=str))
        + (
            f". Result: {'met' if asks and len(got) == len(asks) and percentile(waits, 50) <= 2 and max(waits) <= 5 else 'NOT met'} "
            "(target: every ask answered with his sheet, within 2 s median, 5 s at worst)."
            if args.hostile == "season"
            else f". Result: {'met' if asks and within == len(asks) else 'NOT met'} (target: every ask answered with "
            "his sheet within 10 s)."
        ),
    ]
    return "\n".join(lines) + "\n"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))] if ordered else float("nan")


class Server:
    def __init__(self, root: Path, folder: Path):
        self.root, self.folder, self.port = root, folder, free_port()
        self.instance = folder / "instance"
        self.instance.mkdir()
        (self.instance / "config.py").write_text("SESSIONS_PER_MINUTE = 10_000\n")
        self.proc = None

    def start(self) -> None:
        env = dict(os.environ, SCOREKEEPER_INSTANCE=str(self.instance), PYTHONPATH=str(self.root))
        self.log = open(self.folder / "server.log", "ab")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scorekeeper.server.serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=self.root,
            env=env,
            stdout=self.log,
            stderr=self.log,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if self.get("/manifest.webmanifest", 1)[0] == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start: " + (self.folder / "server.log").read_text()[-2000:])

    def get(self, path, timeout=60.0):
        return http_request("127.0.0.1", self.port, "GET", path, None, timeout)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.log.close()


def import_session(server: Server, n: int) -> str:
    record = long_session(1000)
    record["title"] = f"PDF bench {n}"
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        conn.request("POST", "/import", body=json.dumps(record), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        response.read()
        assert response.status == 303, response.status
        return response.getheader("Location").rsplit("/", 1)[1]
    finally:
        conn.close()


def trivial_requests(server: Server, stop: threading.Event, out: list, limit_s: float) -> None:
    """One trivial request every 100 ms, each on its own thread (open loop: a stalled
    server shows in every request that arrives while it stalls, not just in one)."""
    lock, threads = threading.Lock(), []

    def one():
        started = time.monotonic()
        try:
            status = server.get("/manifest.webmanifest", timeout=90)[0]
        except OSError as error:
            status = repr(error)
        with lock:
            out.append((time.monotonic() - started, status))

    end = time.monotonic() + limit_s
    at = time.monotonic()
    while not stop.is_set() and time.monotonic() < end:
        thread = threading.Thread(target=one, daemon=True)
        thread.start()
        threads.append(thread)
        at += 0.1
        time.sleep(max(0.0, at - time.monotonic()))
    for thread in threads:
        thread.join(timeout=95)


def run(args) -> dict:
    root = Path(args.root).resolve() if args.root else ROOT
    with tempfile.TemporaryDirectory(prefix="gleek-pdf-") as folder:
        server = Server(root, Path(folder))
        server.start()
        try:
            ids = [import_session(server, n) for n in range(args.pdfs)]
            alone, stop = [], threading.Event()
            trivial_requests(server, stop, alone, 3.0)
            during, pdfs, lock = [], [], threading.Lock()
            barrier = threading.Barrier(args.pdfs + 1)

            def pdf(sid):
                barrier.wait()
                started = time.monotonic()
                try:
                    status, headers, body = server.get(f"/s/{sid}/sheet.pdf", timeout=120)
                    ok = body[:4] == b"%PDF"
                except OSError as error:
                    status, ok, headers = repr(error), False, {}
                with lock:
                    pdfs.append((status, ok, time.monotonic() - started, headers.get("Retry-After")))

            threads = [threading.Thread(target=pdf, args=(sid,), daemon=True) for sid in ids]
            for t in threads:
                t.start()
            watcher = threading.Thread(target=trivial_requests, args=(server, stop, during, 150.0), daemon=True)
            barrier.wait()
            watcher.start()
            for t in threads:
                t.join(timeout=150)
            time.sleep(0.3)
            stop.set()
            watcher.join(timeout=200)
        finally:
            server.stop()
    return {"alone": alone, "during": during, "pdfs": pdfs, "root": str(root)}


def summary(samples) -> dict:
    ms = [s[0] * 1000 for s in samples]
    return {
        "n": len(ms),
        "p50": percentile(ms, 50),
        "p95": percentile(ms, 95),
        "max": max(ms) if ms else float("nan"),
        "errors": sum(1 for s in samples if s[1] != 200),
    }


def report(result: dict, info: dict, args) -> str:
    alone, during = summary(result["alone"]), summary(result["during"])
    statuses = {}
    for status, ok, _, _ in result["pdfs"]:
        key = f"{status}{'' if ok or status != 200 else ' (not a PDF)'}"
        statuses[key] = statuses.get(key, 0) + 1
    rendered = [p[2] for p in result["pdfs"] if p[1]]
    label = "this branch" if result["root"] == str(ROOT) else f"`--root` {args.root_label or result['root']}"
    lines = [
        f"### {info['date']}: {args.pdfs} simultaneous PDFs of 1,000-hand sessions ({label})",
        "",
        f"Machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end.",
        "",
        "| trivial request (GET /manifest.webmanifest) | count | p50 ms | p95 ms | max ms | errors |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        f"| alone | {alone['n']} | {alone['p50']:.1f} | {alone['p95']:.1f} | {alone['max']:.1f} | {alone['errors']} |",
        f"| during the PDFs | {during['n']} | {during['p50']:.1f} | {during['p95']:.1f} | {during['max']:.1f} | "
        f"{during['errors']} |",
        "",
        f"Trivial p95 during / alone: **{during['p95'] / alone['p95']:.1f}×**. PDF requests: "
        + ", ".join(f"{n} × {k}" for k, n in sorted(statuses.items()))
        + (f"; rendered ones took {min(rendered):.1f}–{max(rendered):.1f} s" if rendered else "")
        + ".",
    ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdfs", type=int, default=9)
    parser.add_argument("--root", default=None, help="serve another copy of the project (before/after)")
    parser.add_argument("--root-label", default=None, help="how the report names that copy")
    parser.add_argument(
        "--hostile",
        choices=("tz", "own", "season"),
        default=None,
        help="the scorer's sheet beside four hostile clients, or two circle managers printing season sheets, instead",
    )
    parser.add_argument("--evenings", type=int, default=2000, help="evenings of the circle (--hostile season)")
    parser.add_argument("--hands", type=int, default=200, help="hands of each session (--hostile)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long the scorer asks (--hostile)")
    parser.add_argument(
        "--pause",
        type=float,
        default=0.4,
        help="s between a hostile client's requests (0.4: the attack's ~10 a second from four)",
    )
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/history.md alone")
    args = parser.parse_args(argv)
    if (
        not 1 <= args.pdfs <= 32
        or not 10 <= args.hands <= 1000
        or not 10 <= args.seconds <= 300
        or not 10 <= args.evenings <= 3000
    ):
        parser.error("keep it bounded: 1-32 PDFs, 10-1000 hands, 10-300 s, 10-3,000 evenings")
    if args.hostile:
        entry = hostile_report(hostile_run(args), machine(), args)
        print(entry)
        if not args.no_write:
            append_to_section(
                *((SEASON_HEADING, SEASON_INTRO) if args.hostile == "season" else (HOSTILE_HEADING, HOSTILE_INTRO)),
                entry,
            )
        return 0
    result = run(args)
    entry = report(result, machine(), args)
    print(entry)
    if not args.no_write:
        append_to_section(HEADING, SECTION_INTRO, entry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
