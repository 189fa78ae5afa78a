"""A tap's time to the page updated, in real Chromium at 390×844 (the new-user
trial measured 38 ms median), this tree against a baseline revision, in the same
run: two servers (the baseline's code from ``git archive``, and this tree), one
browser, the taps alternating between them so both see the same machine load.

Two kinds of tap on a new parlett hand: a chip (a count of tricks, changed each
tap) and a call pad's tap (Bid 12, then Undo last call: the pad is drawn again
each time, with its states for offline). The time is from the click to
htmx:afterSettle of its answer, measured in the page (performance.now()).

    .venv/bin/python bench/browser_tap_bench.py [--base 3779cef] [--taps 40]

Not part of `make test`. Prints a Markdown entry for bench/history.md.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from benchmarks_md import machine  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

SERVER = textwrap.dedent("""
    import logging, sys, tempfile
    from werkzeug.serving import make_server
    from scorekeeper import create_app
    d = tempfile.mkdtemp()
    app = create_app({"DATABASE": d + "/s.db", "SECRET_KEY": "bench", "BACKUP_DIR": d + "/b",
                      "SESSIONS_PER_MINUTE": 100000})
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    print(server.server_port, flush=True)
    server.serve_forever()
""")
TAP = """(selector) => new Promise((done) => {
  const t0 = performance.now();
  document.addEventListener("htmx:afterSettle", function settled() {
    document.removeEventListener("htmx:afterSettle", settled);
    done(performance.now() - t0);
  });
  document.querySelector(selector).click();
})"""


def tree_of(revision: str, into: Path) -> Path:
    """The baseline's files (``git archive``), without touching any worktree."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def serve(code: Path) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ, PYTHONPATH=str(code))
    process = subprocess.Popen([sys.executable, "-c", SERVER], cwd=code, env=env, stdout=subprocess.PIPE, text=True)
    port = process.stdout.readline().strip()
    return process, f"http://127.0.0.1:{port}"


def open_hand(browser, url):
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True).new_page()
    page.goto(url + "/")
    for seat, name in enumerate(("Ann", "Ben", "Cat")):
        page.fill(f'input[name="player_{seat}"]', name)
    page.check('input[name="rulebook"][value="parlett"]')
    page.click('label.chip:has(input[name="first_dealer"][value="0"])')
    page.get_by_role("button", name="Start the session").click()
    page.wait_for_url("**/s/*")
    page.get_by_role("link", name="Next hand").click()
    page.wait_for_selector("#hand-form")
    return page


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", default="3779cef", help="the baseline revision (main before the faster taps)")
    parser.add_argument("--taps", type=int, default=40)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        servers = {"base": serve(tree_of(args.base, Path(tmp))), "this tree": serve(ROOT)}
        times = {(who, kind): [] for who in servers for kind in ("chip", "pad")}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path="/usr/bin/chromium",
                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
                )
                pages = {who: open_hand(browser, url) for who, (_, url) in servers.items()}
                for i in range(args.taps):
                    for who, page in pages.items():
                        chip = f'#hand-form label.chip:has(input[name="tricks_0"][value="{i % 5}"])'
                        times[(who, "chip")].append(page.evaluate(TAP, chip))
                        pad = (
                            '#pad-auction button[name="bid"][value="[1, 12]"]'
                            if i % 2 == 0
                            else '#pad-auction button[name="bid"][value="undo"]'
                        )
                        times[(who, "pad")].append(page.evaluate(TAP, pad))
                        time.sleep(0.05)
                browser.close()
        finally:
            for process, _ in servers.values():
                process.terminate()
    load = os.getloadavg()
    facts = machine()
    print(f"\n### Browser tap to page updated ({facts['date']})\n")
    print(
        f"`bench/browser_tap_bench.py --base {args.base} --taps {args.taps}` · {facts['nproc']} cores · "
        f"{facts['cpu']} · Python {facts['python']} · load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}\n"
    )
    print("| tap | base median | this tree median | ratio | base p90 | this tree p90 |")
    print("|---|---|---|---|---|---|")
    for kind in ("chip", "pad"):
        base, head = times[("base", kind)], times[("this tree", kind)]
        b, h = statistics.median(base), statistics.median(head)
        q = lambda xs: statistics.quantiles(xs, n=10)[-1]  # noqa: E731
        print(f"| {kind} | {b:.1f} ms | {h:.1f} ms | {h / b:.2f}× | {q(base):.1f} ms | {q(head):.1f} ms |")


if __name__ == "__main__":
    main()
