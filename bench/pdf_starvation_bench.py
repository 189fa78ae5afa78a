"""Issue 8 benchmark: do simultaneous PDF sheets starve other requests?

Starts the real server as `make run` does (``python -m scorekeeper.serve --host
127.0.0.1 --port N``, a temp instance folder), imports ``--pdfs`` different
1,000-hand sessions, then measures a trivial request (GET /manifest.webmanifest,
no database) every 100 ms: first with nothing else going on, then while
``--pdfs`` clients ask for those sessions' PDF sheets at the same moment.
Reported: the trivial request's p50/p95/max in both phases (and the ratio), and
what each PDF request got (status, seconds).

``--root DIR`` runs the server from another copy of the project (for a before/after:
``git archive <commit> | tar -x -C DIR``), whose instance/ folder is then used.
Loopback only; every request has a timeout and the run stops by itself.

    .venv/bin/python bench/pdf_starvation_bench.py [--pdfs 9] [--root DIR] [--no-write]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from benchmarks_md import append_to_section, machine  # noqa: E402
from support.sessions import long_session  # noqa: E402
from support.web import http_request  # noqa: E402

HEADING = "## PDF sheets beside other requests (issue 8)"
SECTION_INTRO = """\
`.venv/bin/python bench/pdf_starvation_bench.py [--pdfs 9] [--root DIR]`: the real
server as `make run` starts it, on loopback with a temp instance; `--pdfs`
different 1,000-hand sessions imported; a trivial request (`GET
/manifest.webmanifest`) every 100 ms, first alone, then while that many clients ask
for the sessions' PDF sheets at the same moment. Target: the trivial request's p95
during the PDFs within a few times its p95 alone (it was 19 s before). `--root`
runs an older copy of the project (before/after). Each run is appended below.
"""


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
            [sys.executable, "-m", "scorekeeper.serve", "--host", "127.0.0.1", "--port", str(self.port)],
            cwd=self.root, env=env, stdout=self.log, stderr=self.log, start_new_session=True)
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
    import http.client

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
    return {"n": len(ms), "p50": percentile(ms, 50), "p95": percentile(ms, 95), "max": max(ms) if ms else float("nan"),
            "errors": sum(1 for s in samples if s[1] != 200)}


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
        + (f"; rendered ones took {min(rendered):.1f}–{max(rendered):.1f} s" if rendered else "") + ".",
    ]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pdfs", type=int, default=9)
    parser.add_argument("--root", default=None, help="serve another copy of the project (before/after)")
    parser.add_argument("--root-label", default=None, help="how the report names that copy")
    parser.add_argument("--no-write", action="store_true", help="print only; leave BENCHMARKS.md alone")
    args = parser.parse_args(argv)
    if not 1 <= args.pdfs <= 32:
        parser.error("keep it bounded: 1-32 PDFs")
    result = run(args)
    entry = report(result, machine(), args)
    print(entry)
    if not args.no_write:
        append_to_section(HEADING, SECTION_INTRO, entry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
