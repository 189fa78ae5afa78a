"""A hosted club night's figures over HTTPS: the real server (``serve --front``) behind the real
Caddy (tls internal, loopback), as `make run-https` runs them.

1. First and repeat visit of a table page in real Chromium (a persistent profile
   trusting Caddy's CA): bytes over the network, counted by Caddy itself (its
   access log: each response's body bytes as sent, compressed, plus its header
   bytes) and the time to the page's load event. The repeat visit is a new tab
   of the same profile: the service worker answers the static files from its
   cache, the page itself comes from the network first.
2. A tap (POST .../hands/check, as htmx sends it) through the front against
   straight to waitress, each over one kept connection, alternating, in the same
   run: median and p95, and their ratio (target ≤ 1.2×).

    .venv/bin/python bench/https_bench.py [--hands 100] [--taps 300]

Not part of `make test`. Prints a Markdown entry for bench/history.md.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import ssl
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from scorekeeper.server import front as front_module  # noqa: E402
from support.front import HttpsFront  # noqa: E402
from support.sessions import long_session  # noqa: E402

from benchmarks_md import machine  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


class LoggedFront(HttpsFront):
    """The test front, with Caddy's access log on (one JSON line per request)."""

    def start(self, timeout: float = 40.0):
        original = front_module.caddyfile
        self.access_log = self.folder / "access.log"

        def with_log(*args, **kwargs):
            text = original(*args, **kwargs)
            return text.replace(
                "\treverse_proxy",
                f"\tlog {{\n\t\toutput file {self.access_log}\n\t\tformat json\n\t}}\n\treverse_proxy",
            )

        front_module.caddyfile = with_log
        try:
            return super().start(timeout)
        finally:
            front_module.caddyfile = original

    def logged(self) -> list[dict]:
        if not self.access_log.exists():
            return []
        return [json.loads(line) for line in self.access_log.read_text().splitlines() if line.strip()]


def wire_bytes(entries: list[dict]) -> tuple[int, int]:
    """(requests, bytes sent: body as sent plus a count of the response headers)."""
    total = 0
    for e in entries:
        headers = e.get("resp_headers", {})
        total += int(e.get("size", 0)) + sum(len(k) + 2 + sum(len(v) for v in vs) + 2 for k, vs in headers.items())
    return len(entries), total


def visits(front: LoggedFront, table: str) -> dict:
    home = front.nss_home()
    out = {}
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(home / "bench-profile"),
            executable_path="/usr/bin/chromium",
            args=ARGS,
            env={"HOME": str(home)},
            viewport={"width": 390, "height": 844},
            is_mobile=True,
            has_touch=True,
        )
        try:
            for name in ("first", "repeat", "repeat again"):
                page = context.new_page()
                before = len(front.logged())
                page.goto(front.url + table, wait_until="load")
                timing = page.evaluate("performance.getEntriesByType('navigation')[0].toJSON()")
                if name == "first":
                    page.evaluate("navigator.serviceWorker.ready")
                    page.wait_for_function("navigator.serviceWorker.controller !== null")
                page.wait_for_timeout(1500)  # everything the visit asks for has been logged
                page.close()
                entries = front.logged()[before:]
                entries = [
                    e
                    for e in entries
                    if not e["request"]["uri"].endswith("/live") and "/live?" not in e["request"]["uri"]
                ]  # polls are not the visit
                count, sent = wire_bytes(entries)
                out[name] = {
                    "requests": count,
                    "bytes": sent,
                    "ms": timing["loadEventEnd"],
                    "uris": sorted(e["request"]["uri"].split("?")[0] for e in entries),
                    "detail": [
                        (
                            e["request"]["uri"][:40],
                            e["status"],
                            e["size"],
                            e["request"]["headers"].get("Cache-Control"),
                            e["request"]["headers"].get("Sec-Fetch-Dest"),
                        )
                        for e in entries
                    ],
                }
        finally:
            context.close()
    return out


def taps(front: HttpsFront, table: str, n: int) -> dict:
    """n taps each way, alternating, on one kept connection each way."""
    direct = http.client.HTTPConnection("127.0.0.1", front.app_port, timeout=10)
    secure = http.client.HTTPSConnection(
        "localhost", front.port, timeout=10, context=ssl.create_default_context(cafile=str(front.root_certificate))
    )
    page = fetch(direct, "GET", table + "/hands/new", host="localhost")[1].decode()

    draft = re.search(r'name="draft_version" value="(\d+)"', page).group(1)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    timings = {"direct": [], "front": []}
    choices = ["hearts", "spades", "clubs", "diamonds"]
    for i in range(n):
        for way, conn in (("direct", direct), ("front", secure)) if i % 2 else (("front", secure), ("direct", direct)):
            fields = {"version": version, "draft_version": draft, "trump": choices[i % 4], "changed": "trump"}
            started = time.perf_counter()
            status, body, headers = fetch(conn, "POST", table + "/hands/check", fields, host="localhost")
            timings[way].append((time.perf_counter() - started) * 1000)
            assert status == 200, (status, body[:200])
            found = re.search(rb'name="draft_version" value="(\d+)"', body)
            if found:
                draft = found.group(1).decode()
    direct.close()
    secure.close()
    out = {}
    for way, ms in timings.items():
        ms.sort()
        out[way] = {"median": statistics.median(ms), "p95": ms[int(0.95 * len(ms)) - 1]}
    return out


def fetch(conn, method, path, fields=None, host="localhost"):
    body = urlencode(fields) if fields else None
    headers = {"HX-Request": "true", "Host": host}
    if fields:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    conn.request(method, path, body=body, headers=headers)
    response = conn.getresponse()
    return response.status, response.read(), response.headers


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--taps", type=int, default=300)
    parser.add_argument("--detail", action="store_true", help="print each request of the visits")
    args = parser.parse_args(argv)
    assert 0 <= args.hands <= 1000 and 10 <= args.taps <= 2000
    with tempfile.TemporaryDirectory(prefix="gleek-https-") as folder:
        front = LoggedFront(Path(folder), "SESSIONS_PER_MINUTE = 100_000\n").start()
        try:
            record = dict(long_session(args.hands), title="Club night")
            status, headers, _ = front.request(
                "POST", "/import", json.dumps(record).encode(), {"Content-Type": "application/json"}
            )
            assert status == 303, status
            table = headers["Location"]
            seen = visits(front, table)
            tapped = taps(front, table, args.taps)
        finally:
            front.stop()
    info = machine()
    lines = [
        f"Machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}.",
        "",
        f"Table page of a {args.hands}-hand session over https (Caddy, tls internal, HTTP/2), real Chromium:",
        "",
        "| visit | requests over the network | bytes over the network | load event ms |",
        "| --- | ---: | ---: | ---: |",
    ]
    for name, v in seen.items():
        lines.append(f"| {name} | {v['requests']} ({', '.join(v['uris'])}) | {v['bytes']:,} | {v['ms']:.0f} |")
    d, f = tapped["direct"], tapped["front"]
    lines += [
        "",
        f"A tap (POST /hands/check, {args.taps} each way, alternating, kept connections): direct "
        f"median {d['median']:.1f} ms / p95 {d['p95']:.1f} ms; through the front median {f['median']:.1f} ms "
        f"/ p95 {f['p95']:.1f} ms: **{f['median'] / d['median']:.2f}×** the median "
        f"({f['p95'] / d['p95']:.2f}× the p95).",
    ]
    print("\n".join(lines))
    if "--detail" in sys.argv:
        for v in seen.values():
            for d in v["detail"]:
                print(d)
    return 0


if __name__ == "__main__":
    sys.exit(main())
