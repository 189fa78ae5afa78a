"""Lighthouse (mobile: a mid-range phone, throttled) on the pages a table sees:
home, the table, the hand form (a hand in progress, its deal and stock answered),
settle up, a circle, its ledger and its statistics. Each score is Lighthouse's own
(Performance, Accessibility, 0–100) with the cumulative layout shift it measured,
for this tree and, with ``--base``, a baseline revision served beside it in the
same run (its files from ``git archive``; no worktree is touched).

The sample is made over HTTP, as a browser would: a parlett session of three
players with two saved hands and a hand in progress, and a circle of five
members with two evenings.

Lighthouse 12.2.3 from npm (13.x wants Node 22), installed outside git:
``cd /tmp/lh && npm i -E lighthouse@12.2.3``; Debian's chromium.

    .venv/bin/python bench/lighthouse_bench.py [--base main] [--runs 1] [--lighthouse /tmp/lh/node_modules/.bin/lighthouse]

Not part of `make test`. Prints a Markdown entry for bench/history.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "bench")]

from benchmarks_md import machine  # noqa: E402
from browser_tap_bench import serve, tree_of  # noqa: E402
from support.data import load_example  # noqa: E402
from support.web import hand_fields, http_request  # noqa: E402

LIGHTHOUSE = "/tmp/lh/node_modules/.bin/lighthouse"
PAGES = ("home", "table", "hand form", "settle", "circle", "ledger", "statistics")


class Score(NamedTuple):
    performance: int
    accessibility: int
    layout_shift: float
    failing: tuple[str, ...]  # the audits that cost points, by id


def post(url: str, path: str, fields) -> str:
    """A form posted as a browser would; the page it sends the browser on to."""
    parts = urlsplit(url)
    status, headers, body = http_request(parts.hostname, parts.port, "POST", path, list(fields))
    assert status == 303, (path, status, body[:300])
    return headers["Location"]


def get(url: str, path: str) -> str:
    parts = urlsplit(url)
    status, _, body = http_request(parts.hostname, parts.port, "GET", path)
    assert status == 200, (path, status)
    return body.decode()


def sample(url: str) -> dict[str, str]:
    """The sample session and circle; each page's path by name."""
    hands = load_example("parlett-evening.json")["hands"][:2]
    table = post(
        url,
        "/sessions",
        {
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "1d",
            "title": "Club night",
        }.items(),
    )
    for version, hand in enumerate(hands, 1):
        post(url, table + "/hands", hand_fields(hand, version).items(multi=True))
    form = get(url, table + "/hands/new")
    draft = re.search(r'name="draft_version" value="(\d+)"', form).group(1)
    parts = urlsplit(url)
    http_request(
        parts.hostname,
        parts.port,
        "POST",
        table + "/hands/check",
        [
            ("version", "3"),
            ("draft_version", draft),
            ("trump", "hearts"),
            ("turned_up", "9"),
            ("tiddy", "nobody"),
            ("buyer", "1"),
            ("price", "12"),
        ],
    )
    circle = post(
        url, "/circles", {"circle_name": "Thursday Gleek", "circle_members": "Ann\nBen\nCat\nDan\nEve"}.items()
    )
    members = re.findall(r'<option value="(\d+)"', get(url, circle))[:5]
    for chosen, day in (((0, 1, 2), "2026-11-14"), ((3, 1, 4), "2026-11-21")):
        evening = post(
            url,
            circle + "/sessions",
            [
                *((f"seat_{i}", members[m]) for i, m in enumerate(chosen)),
                ("rulebook", "parlett"),
                ("first_dealer", "0"),
                ("stake", "1d"),
                ("played_on", day),
            ],
        )
        for version, hand in enumerate(hands, 1):
            post(url, evening + "/hands", hand_fields(hand, version).items(multi=True))
    return {
        "home": "/",
        "table": table,
        "hand form": table + "/hands/new",
        "settle": table + "/settle",
        "circle": circle,
        "ledger": circle + "/ledger",
        "statistics": circle + "/stats",
    }


def score(lighthouse: str, url: str) -> Score:
    """One Lighthouse run (mobile, its default throttling) on one page."""
    with tempfile.TemporaryDirectory() as profile:
        out = subprocess.run(
            [
                lighthouse,
                url,
                "--quiet",
                "--output=json",
                "--output-path=stdout",
                "--form-factor=mobile",
                "--only-categories=performance,accessibility",
                f"--chrome-flags=--headless=new --no-sandbox --disable-gpu --user-data-dir={profile}",
            ],
            env=dict(os.environ, CHROME_PATH="/usr/bin/chromium"),
            check=True,
            capture_output=True,
            text=True,
        ).stdout
    report = json.loads(out)
    categories, audits = report["categories"], report["audits"]
    failing = tuple(
        sorted(
            {
                ref["id"]
                for name in ("performance", "accessibility")
                for ref in categories[name]["auditRefs"]
                if ref["weight"] and audits[ref["id"]]["score"] is not None and audits[ref["id"]]["score"] < 1
            }
        )
    )
    return Score(
        round(categories["performance"]["score"] * 100),
        round(categories["accessibility"]["score"] * 100),
        audits["cumulative-layout-shift"]["numericValue"],
        failing,
    )


def median_score(scores: list[Score]) -> Score:
    return Score(
        round(statistics.median(s.performance for s in scores)),
        round(statistics.median(s.accessibility for s in scores)),
        statistics.median(s.layout_shift for s in scores),
        tuple(sorted({audit for s in scores for audit in s.failing})),
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", help="a baseline revision, scored in the same run")
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs a page (the median is shown)")
    parser.add_argument("--lighthouse", default=LIGHTHOUSE)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this tree": ROOT}
        if args.base:
            trees = {"base": tree_of(args.base, Path(tmp)), **trees}
        servers = {who: serve(code) for who, code in trees.items()}
        runs: dict[tuple[str, str], list[Score]] = {(who, name): [] for who in servers for name in PAGES}
        try:
            paths = {who: sample(url) for who, (_, url) in servers.items()}
            # page by page, the trees in turn: both see the same machine load
            for name in PAGES:
                for _ in range(args.runs):
                    for who, (_, url) in servers.items():
                        runs[(who, name)].append(score(args.lighthouse, url + paths[who][name]))
        finally:
            for process, _ in servers.values():
                process.terminate()

    results = {key: median_score(scores) for key, scores in runs.items()}
    facts = machine()
    print(f"\n### Lighthouse, mobile ({facts['date']})\n")
    print(
        f"`bench/lighthouse_bench.py{f' --base {args.base}' if args.base else ''} --runs {args.runs}` · "
        f"Lighthouse 12.2.3, Chromium (Debian) · {facts['nproc']} cores · {facts['cpu']} · "
        f"load {' '.join(f'{x:.1f}' for x in os.getloadavg())}\n"
    )
    print("| page | " + " | ".join(f"{who}: performance · accessibility · CLS" for who in servers) + " |")
    print("|---|" + "---|" * len(servers))
    for name in PAGES:
        cells = [
            f"{s.performance} · {s.accessibility} · {s.layout_shift:.3f}"
            for s in (results[(who, name)] for who in servers)
        ]
        print(f"| {name} | " + " | ".join(cells) + " |")
    for (who, name), s in results.items():
        if s.failing:
            print(f"\n{who}, {name}: audits below full marks: {', '.join(s.failing)}")


if __name__ == "__main__":
    main()
