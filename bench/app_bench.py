"""The table app in one process: saves, taps and pad taps against a trivial route.

    .venv/bin/python bench/app_bench.py [--part save,tap,pad,long,bytes] [--repeat 3]
                                        [--rounds 60] [--hands-entered 30] [--profile] [--write]
                                        [--root DIR --label TEXT]

Real app, real SQLite (a temp file per repetition), Flask's test client (no
network). Every figure is set against a trivial Flask route (``"ok"``) timed in
the same loop, interleaved with the requests measured. Two clocks: *in app* is
the WSGI call itself (from the request reaching Flask to its response being
ready, compression included: the server's time); *round trip* adds the test
client's own work (building the request, reading the answer).

Parts:

- ``save``: save a hand (POST …/hands with the session version, 303)
  and render the table page the redirect leads to, 12 and 200 parlett hands;
  the hand is deleted again, untimed, after each round (each round's hand has
  its own note, so every save settles one new hand).
- ``long``: the same save + table page on a 500-hand session against
  a 12-hand one. Target: 500 hands ≤ 1.5× 12 hands.
- ``tap``: a hand entered chip by chip on the new-hand form, as the
  browser does it (``bench/form_page.py``: the page's fields, the out-of-band
  answer swapped in, so each tap carries the ``draft_version`` and the
  ``sig_<section>`` values the page holds), ``HX-Request: true``, Accept-Encoding
  as a browser's; sessions of 12 and 200 hands; the hand in progress is
  cancelled (untimed) after each hand. Targets: ≤ 4× the trivial route, the
  same at 200 hands as at 12, ≤ 4 KB compressed per answer.
- ``pad``: the same with the call pad: the auction bid by bid
  (``bid`` = the JSON of a call the pad offers) and the ruff call by call
  (``ruff_call``), parlett. Same targets.
- ``bytes``: what a phone downloads for the table page and a live update.

``--profile`` runs the taps (200 hands) and the save (500 hands) under cProfile
and prints where their time goes. ``--write`` appends the tables to bench/history.md.
"""

from __future__ import annotations

import argparse
import cProfile
import gzip
import json
import pstats
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from importlib.metadata import version
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# ``--root DIR`` measures another copy of the project (a before/after in one
# sitting): its package is imported instead of this one's.
UNDER_TEST = Path(sys.argv[sys.argv.index("--root") + 1]).resolve() if "--root" in sys.argv[:-1] else ROOT
sys.path.insert(0, str(UNDER_TEST))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from scorekeeper import create_app  # noqa: E402
from support.web import hand_fields  # noqa: E402
from benchmarks_md import append_to_section, machine as common  # noqa: E402
from form_page import FormPage  # noqa: E402
import brotli  # noqa: E402
import scorekeeper  # noqa: E402

BROWSER_ENCODING = {"Accept-Encoding": "gzip, deflate, br, zstd"}
HTMX = {"HX-Request": "true", **BROWSER_ENCODING}
FORM = "application/x-www-form-urlencoded"
LIVE_VERSION = re.compile(r"/live\?v=([0-9]+)-([0-9]+)")

TAP_RATIO_TARGET = 4.0
TAP_KB_TARGET = 4.0
LONG_RATIO_TARGET = 1.5


def evening_hands(count: int) -> list[dict]:
    """``count`` valid parlett hands (dealer rotating, a ruff contest every hand)."""
    base = json.loads((ROOT / "tests/data/parlett-evening.json").read_text())["hands"]
    hands = []
    for i in range(count):
        hand = json.loads(json.dumps(base[i % 3]))
        hand["dealer"] = i % 3
        hands.append(hand)
    # every hand's ruff must be a contest at stake 2 (no doubling)
    for hand in hands:
        hand["ruff"] = {"winner": hand["dealer"], "paid": [0 if s == hand["dealer"] else 2 for s in range(3)]}
        eldest = (hand["dealer"] + 1) % 3
        hand["auction"] = {"buyer": eldest, "price": 12}
    return hands


def record(count: int) -> dict:
    return {
        "format": "gleek-session/1",
        "rulebook": "parlett",
        "options": {},
        "players": ["Ann", "Ben", "Cat"],
        "hands": evening_hands(count),
    }


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def decoded(response) -> bytes:
    body, encoding = response.get_data(), response.headers.get("Content-Encoding")
    if encoding == "br":
        return brotli.decompress(body)
    if encoding == "gzip":
        return gzip.decompress(body)
    assert encoding is None, encoding
    return body


class InApp:
    """Wraps the WSGI app: how long the last call took inside it; with a
    ``profiler`` set, the calls made while ``profiling`` run under it."""

    def __init__(self, wsgi_app):
        self.wsgi_app, self.last = wsgi_app, float("nan")
        self.profiler, self.profiling = None, False

    def __call__(self, environ, start_response):
        profiler = self.profiler if self.profiling else None
        if profiler is not None:
            profiler.enable()
        started = time.perf_counter()
        try:
            return self.wsgi_app(environ, start_response)
        finally:
            self.last = time.perf_counter() - started
            if profiler is not None:
                profiler.disable()


class Bench:
    """A fresh app on a temp database; timed requests and the trivial route."""

    def __init__(self):
        tmp = tempfile.mkdtemp(prefix="gleek-app-bench-")
        self.app = create_app(
            {
                "DATABASE": f"{tmp}/bench.db",
                "SECRET_KEY": "bench",
                "BACKUP_DIR": f"{tmp}/backups",
                "SESSIONS_PER_MINUTE": 10_000,
            }
        )
        self.app.add_url_rule("/_bench/trivial", "trivial", lambda: "ok")
        self.timer = InApp(self.app.wsgi_app)
        self.app.wsgi_app = self.timer
        self.client = self.app.test_client()
        self.trivial = Samples()

    def session(self, count: int) -> str:
        response = self.client.post("/import", data=json.dumps(record(count)), content_type="application/json")
        assert response.status_code == 303, response.status_code
        return response.headers["Location"]

    def timed(self, method: str, path: str, samples: "Samples | None" = None, **kwargs):
        self.timer.profiling = samples is None  # the requests measured (not the trivial ones)
        start = time.perf_counter()
        response = self.client.open(path, method=method, **kwargs)
        round_trip = time.perf_counter() - start
        self.timer.profiling = False
        if samples is not None:
            samples.add(round_trip, self.timer.last)
        return response, round_trip, self.timer.last

    def time_trivial(self, times: int = 1) -> None:
        for _ in range(times):
            response, _, _ = self.timed("GET", "/_bench/trivial", self.trivial)
            assert response.status_code == 200

    def versions(self, url: str) -> tuple[int, int]:
        found = LIVE_VERSION.search(self.client.get(url).get_data(as_text=True))
        return int(found.group(1)), int(found.group(2))


class Samples:
    def __init__(self):
        self.round_trip, self.in_app, self.served, self.plain = [], [], [], []

    def add(self, round_trip, in_app, served=None, plain=None):
        self.round_trip.append(round_trip)
        self.in_app.append(in_app)
        if served is not None:
            self.served.append(served)
            self.plain.append(plain)

    def extend(self, other: "Samples"):
        for name in ("round_trip", "in_app", "served", "plain"):
            getattr(self, name).extend(getattr(other, name))

    def ms(self, clock: str, p: float) -> float:
        values = getattr(self, clock)
        return (statistics.median(values) if p == 50 else percentile(values, p)) * 1000


# ---------------------------------------------------------------- saves, short and long sessions


def time_saves(bench: Bench, url: str, count: int, rounds: int) -> Samples:
    """Save hand ``count + 1`` and render the updated table; untimed, delete it again."""
    samples = Samples()
    hand = evening_hands(count + 1)[-1]
    version, _ = bench.versions(url)
    for i in range(rounds):
        fields = hand_fields(dict(hand, note=f"round {i}"), version)
        bench.timer.profiling = True
        start = time.perf_counter()
        response = bench.client.post(url + "/hands", data=fields)
        save_in_app = bench.timer.last
        assert response.status_code == 303, response.status_code
        page = bench.client.get(response.headers["Location"])
        samples.add(time.perf_counter() - start, save_in_app + bench.timer.last)
        bench.timer.profiling = False
        assert page.status_code == 200
        bench.time_trivial(2)
        deleted = bench.client.post(f"{url}/hands/{count + 1}/delete", data={"version": str(version + 1)})
        assert deleted.status_code == 303, deleted.status_code
        version += 2
    return samples


def run_saves(bench: Bench, counts, rounds: int) -> dict:
    results = {}
    for count in counts:
        url = bench.session(count)
        time_saves(bench, url, count, 5)  # warm up
        bench.trivial = Samples()
        results[count] = (time_saves(bench, url, count, rounds), bench.trivial)
    return results


# ---------------------------------------------------------------- taps, chips and the call pad

# A parlett hand as a scorer taps it in with the quick answers, chip by chip:
# (field, value); None = the first value the page offers then (a price, a stake).
CHIP_TAPS = [
    ("trump", "hearts"),
    ("turned_up", "9"),
    ("tiddy", "1"),
    ("buyer", "1"),
    ("price", None),
    ("ruff_winner", "0"),
    ("paid_1", None),
    ("paid_2", None),
    ("sets", "none"),
    ("tricks_0", "5"),
    ("tricks_1", "4"),
    ("honour_A", "2"),
    ("honour_K", "1"),
    ("honour_Q", "1"),
    ("honour_J", "0"),
]
# The same table following the auction and the ruff on the call pad: each tap is
# the call the pad offers whose label starts so ("Ann bids 12 · Ben bids 14 · …").
PAD_TAPS = [
    ("bid", "Bid"),
    ("bid", "Bid"),
    ("bid", "Pass"),
    ("bid", "Pass"),
    ("ruff_call", "Open"),
    ("ruff_call", "Raise"),
    ("ruff_call", "Fold"),
    ("ruff_call", "Match"),
]


def enter_hand(bench: Bench, url: str, taps, kind: str, samples: Samples) -> str:
    """One hand tapped in on a fresh form page; each tap timed, then one trivial
    request. Returns the summary's text after the last tap."""
    page = FormPage(bench.client.get(url + "/hands/new").get_data(as_text=True))
    for name, choice in taps:
        button = None
        if kind == "chip":
            value = choice if choice is not None else next(v for v in page.chips(name) if v.isdigit())
            page.choose(name, value)
            body = page.body(changed=name)
        else:
            calls = [(v, label) for v, label in page.buttons(name) if label.startswith(choice)]
            if not calls:
                raise AssertionError(f"the pad offers no {choice!r}: {page.buttons(name)}")
            button = (name, calls[0][0])
            body = page.body(button=button)
        response, round_trip, in_app = bench.timed(
            "POST", url + "/hands/check", headers=HTMX, data=body, content_type=FORM
        )
        assert response.status_code == 200, (response.status_code, response.get_data()[:300])
        plain = decoded(response)
        samples.add(round_trip, in_app, len(response.get_data()), len(plain))
        swapped = page.swap(plain.decode())
        assert "draft-state" in swapped and "hand-summary" in swapped, swapped
        bench.time_trivial()
    summary = page.text("hand-summary")
    discard = bench.client.post(url + "/hands/discard", data={"draft_version": page.value("draft_version")})
    assert discard.status_code == 303, discard.status_code
    return summary


def run_taps(bench: Bench, counts, hands_entered: int, kind: str) -> dict:
    taps = CHIP_TAPS if kind == "chip" else PAD_TAPS
    results = {}
    for count in counts:
        url = bench.session(count)
        warm = Samples()
        for _ in range(2):
            summary = enter_hand(bench, url, taps, kind, warm)
        if kind == "chip":
            assert summary.startswith("Ready to save"), summary  # the taps make a whole hand
        else:
            assert "Ann bids 12" not in summary  # the calls line is in the sections, not the summary
        samples, bench.trivial = Samples(), Samples()
        for _ in range(hands_entered):
            enter_hand(bench, url, taps, kind, samples)
        results[count] = (samples, bench.trivial)
    return results


# ---------------------------------------------------------------- bytes a phone downloads


def run_bytes(bench: Bench) -> list[str]:
    client = bench.client
    url = bench.session(12)
    html = client.get(url, headers=BROWSER_ENCODING)
    css = client.get("/static/app.css", headers=BROWSER_ENCODING)
    js = client.get("/static/vendor/htmx-2.0.11.min.js", headers=BROWSER_ENCODING)
    served = sum(len(r.get_data()) for r in (html, css, js))
    plain = [client.get(p).get_data() for p in (url, "/static/app.css", "/static/vendor/htmx-2.0.11.min.js")]
    gz = sum(len(gzip.compress(b, 6)) for b in plain)
    version, draft = bench.versions(url)
    client.post(url + "/hands", data=hand_fields(evening_hands(13)[-1], version))
    known = f"{version}-{draft}"
    update = client.get(f"{url}/live?v={known}", headers=HTMX)
    update_plain = client.get(f"{url}/live?v={known}", headers={"HX-Request": "true"}).get_data()
    now = "-".join(map(str, bench.versions(url)))
    unchanged = client.get(f"{url}/live?v={now}", headers=HTMX)
    assert unchanged.status_code == 204, unchanged.status_code
    return [
        f"first visit of a 12-hand table: {served / 1024:.1f} KB as served "
        f"({html.headers.get('Content-Encoding')}), {gz / 1024:.1f} KB gzip -6, "
        f"{sum(map(len, plain)) / 1024:.1f} KB uncompressed",
        f"one htmx update (live fragment after a save): {len(update.get_data()) / 1024:.2f} KB as served "
        f"({update.headers.get('Content-Encoding')}), {len(gzip.compress(update_plain, 6)) / 1024:.2f} KB gzip -6, "
        f"{len(update_plain) / 1024:.1f} KB uncompressed; an unchanged poll (v={now}): "
        f"{len(unchanged.get_data())} bytes (204)",
    ]


# ---------------------------------------------------------------- profile

CATEGORIES = (
    ("SQLite (connect, queries, commit)", ("sqlite3", "sqlite_utils", "scorekeeper/db.py")),
    ("templates (Jinja)", ("templates/", "jinja2", "markupsafe")),
    ("compression (brotli)", ("brotli", "flask_compress", "zstd", "gzip", "zlib")),
    ("rules (check_hand, calls, phases)", ("scorekeeper/rules/",)),
    ("store (Python side)", ("scorekeeper/store/",)),
    (
        "web layer (form reading, sigs, views)",
        (
            "scorekeeper/web/",
            "scorekeeper/words/money.py",
            "scorekeeper/words/wording.py",
            "scorekeeper/server/security.py",
            "segno",
        ),
    ),
    ("Flask, Werkzeug, cookie session", ("flask", "werkzeug", "itsdangerous", "htmx_flask")),
)


def category(filename: str, name: str) -> str:
    where = f"{filename} {name}"
    for label, marks in CATEGORIES:
        if any(mark in where for mark in marks):
            return label
    return "other (json, hashlib, stdlib)"


def profile(bench: Bench, calls: int, fn, focus) -> list[str]:
    """Run ``fn`` with the app's measured requests under cProfile (not the
    benchmark's own work): own time per category, and the cumulative time of the
    ``focus`` functions, each per measured tap or save."""
    bench.timer.profiler = cProfile.Profile()
    fn()
    stats = pstats.Stats(bench.timer.profiler).stats
    bench.timer.profiler = None
    by_category, total = {}, 0.0
    for (filename, _, name), (_, _, tottime, _, _) in stats.items():
        by_category[category(filename, name)] = by_category.get(category(filename, name), 0.0) + tottime
        total += tottime
    lines = [f"  total under the profiler: {total / calls * 1000:.2f} ms each"]
    for label, seconds in sorted(by_category.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {seconds / calls * 1000:6.3f} ms  {seconds / total * 100:4.1f} %  {label}")
    lines.append("  cumulative, each:")
    for (filename, _, name), (_, ncalls, _, cumtime, _) in sorted(stats.items(), key=lambda kv: -kv[1][3]):
        short = filename.replace(str(ROOT) + "/", "")
        if any(short.endswith(f) and name == n for f, n in focus):
            lines.append(f"  {cumtime / calls * 1000:6.3f} ms  {short}:{name} ({ncalls / calls:g}×)")
    others = sorted(((v[2], k) for k, v in stats.items()), reverse=True)[:12]
    lines.append("  own time, the largest:")
    for tottime, (filename, line, name) in others:
        short = filename.replace(str(ROOT) + "/", "").replace(".venv/lib/python3.11/site-packages/", "")
        lines.append(f"  {tottime / calls * 1000:6.3f} ms  {short}:{line}({name})")
    return lines


TAP_FOCUS = [
    ("scorekeeper/web/hands.py", "tap"),
    ("scorekeeper/web/hands.py", "target"),
    ("scorekeeper/web/target.py", "parse"),
    ("scorekeeper/web/target.py", "context"),
    ("scorekeeper/store/drafts.py", "keep_draft"),
    ("scorekeeper/form/hand_form.py", "changed"),
    ("scorekeeper/form/hand_form.py", "read_hand"),
    ("scorekeeper/form/hand_form.py", "check"),
    ("scorekeeper/web/context.py", "table_context"),
    ("flask/templating.py", "render_template"),
    ("scorekeeper/db.py", "get_db"),
    ("flask/app.py", "finalize_request"),
    ("flask/app.py", "full_dispatch_request"),
    ("flask/app.py", "wsgi_app"),
    ("flask_compress/flask_compress.py", "after_request"),
    ("flask/sessions.py", "save_session"),
    ("flask/sessions.py", "open_session"),
]
SAVE_FOCUS = [
    ("scorekeeper/web/hands.py", "save_hand"),
    ("scorekeeper/web/table.py", "table_page"),
    ("scorekeeper/store/changes.py", "add_hand"),
    ("scorekeeper/store/changes.py", "_check_hands_from"),
    ("scorekeeper/store/changes.py", "_write_change"),
    ("scorekeeper/store/reads.py", "get_session"),
    ("scorekeeper/web/changes.py", "keep_snapshot"),
    ("scorekeeper/web/context.py", "table_context"),
    ("scorekeeper/web/context.py", "settlement_of"),
    ("scorekeeper/words/wording.py", "session_money"),
    ("scorekeeper/web/progress.py", "in_progress"),
    ("scorekeeper/web/changes.py", "undo_offer"),
    ("flask/templating.py", "render_template"),
    ("scorekeeper/web/target.py", "parse"),
    ("flask/app.py", "wsgi_app"),
    ("scorekeeper/db.py", "get_db"),
    ("flask_compress/flask_compress.py", "after_request"),
]


def run_profile(hands_entered: int, rounds: int) -> list[str]:
    lines = []
    for kind, taps in (("chip", CHIP_TAPS), ("pad", PAD_TAPS)):
        bench = Bench()
        url = bench.session(200)
        enter_hand(bench, url, taps, kind, Samples())
        samples = Samples()

        def enter():
            for _ in range(hands_entered):
                enter_hand(bench, url, taps, kind, samples)

        calls = hands_entered * len(taps)
        lines.append(f"{kind} taps, 200-hand session, {calls} taps:")
        lines += profile(bench, calls, enter, TAP_FOCUS)
    for count in (500, 12):
        bench = Bench()
        url = bench.session(count)
        time_saves(bench, url, count, 3)
        lines.append(f"save + table page, {count}-hand session, {rounds} rounds:")
        lines += profile(bench, rounds, lambda: time_saves(bench, url, count, rounds), SAVE_FOCUS)
    return lines


# ---------------------------------------------------------------- report


def machine_line(info: dict, load_before: str, load_after: str) -> str:
    return (
        f"Machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}, SQLite {info['sqlite']}, "
        f"Flask {info['flask']}; load average before/after {load_before} / {load_after} (the machine is shared)."
    )


def spread(values: list[float], fmt: str = "{:.2f}") -> str:
    """The median of the runs' figures and their range."""
    med = statistics.median(values)
    if len(values) == 1:
        return fmt.format(med)
    return f"{fmt.format(med)} ({fmt.format(min(values))}–{fmt.format(max(values))})"


def tap_table(runs: list[dict], title: str) -> list[str]:
    """``runs``: [{hands: (samples, trivial)}] one per repetition."""
    lines = [
        f"| {title} | session | taps | in app p50 / p95 ms | trivial in app p50 / p95 ms | "
        "× trivial, p50 | × trivial, p95 | round trip p50 / p95 ms | × trivial (round trip) p50 | "
        "answer as served (br) median / max | uncompressed median / max |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for count in runs[0]:
        per = [run[count] for run in runs]
        pick = lambda f: [f(s, t) for s, t in per]  # noqa: E731
        all_taps = Samples()
        for s, _ in per:
            all_taps.extend(s)
        lines.append(
            f"| | {count} hands | {len(all_taps.in_app)} | "
            f"{spread(pick(lambda s, t: s.ms('in_app', 50)))} / {spread(pick(lambda s, t: s.ms('in_app', 95)))} | "
            f"{spread(pick(lambda s, t: t.ms('in_app', 50)), '{:.3f}')} / "
            f"{spread(pick(lambda s, t: t.ms('in_app', 95)), '{:.3f}')} | "
            f"**{spread(pick(lambda s, t: s.ms('in_app', 50) / t.ms('in_app', 50)), '{:.1f}×')}** | "
            f"{spread(pick(lambda s, t: s.ms('in_app', 95) / t.ms('in_app', 95)), '{:.1f}×')} | "
            f"{spread(pick(lambda s, t: s.ms('round_trip', 50)))} / "
            f"{spread(pick(lambda s, t: s.ms('round_trip', 95)))} | "
            f"{spread(pick(lambda s, t: s.ms('round_trip', 50) / t.ms('round_trip', 50)), '{:.1f}×')} | "
            f"{statistics.median(all_taps.served) / 1024:.2f} / {max(all_taps.served) / 1024:.2f} KB | "
            f"{statistics.median(all_taps.plain) / 1024:.1f} / {max(all_taps.plain) / 1024:.1f} KB |"
        )
    return lines


def tap_verdict(runs: list[dict], what: str) -> str:
    counts = list(runs[0])
    ratio = {
        c: statistics.median([s.ms("in_app", 50) / t.ms("in_app", 50) for s, t in (r[c] for r in runs)]) for c in counts
    }
    p50 = {c: statistics.median([s.ms("in_app", 50) for s, _ in (r[c] for r in runs)]) for c in counts}
    biggest = max(max(s.served) for r in runs for s, _ in r.values()) / 1024
    worst = max(ratio.values())
    flat = p50[counts[-1]] / p50[counts[0]]
    return (
        f"Result ({what}): in app p50 {worst:.1f}× the trivial route at worst — "
        f"{'met' if worst <= TAP_RATIO_TARGET else 'NOT met'} (≤ {TAP_RATIO_TARGET:g}×); "
        f"{counts[-1]} hands / {counts[0]} hands p50 {flat:.2f}× — "
        f"{'flat' if flat <= 1.15 else 'NOT flat'}; largest answer {biggest:.2f} KB as served — "
        f"{'met' if biggest <= TAP_KB_TARGET else 'NOT met'} (≤ {TAP_KB_TARGET:g} KB)."
    )


def save_table(runs: list[dict], title: str) -> list[str]:
    lines = [
        f"| {title} | rounds | in app p50 / p95 ms | round trip p50 / p95 ms | trivial in app p50 / p95 ms | "
        "× trivial (in app) p50 | × 12 hands (in app) p50 / p95 |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for count in runs[0]:
        per = [run[count] for run in runs]
        base = [run[min(run)] for run in runs]
        lines.append(
            f"| {count} hands | {sum(len(s.in_app) for s, _ in per)} | "
            f"{spread([s.ms('in_app', 50) for s, _ in per])} / {spread([s.ms('in_app', 95) for s, _ in per])} | "
            f"{spread([s.ms('round_trip', 50) for s, _ in per])} / "
            f"{spread([s.ms('round_trip', 95) for s, _ in per])} | "
            f"{spread([t.ms('in_app', 50) for _, t in per], '{:.3f}')} / "
            f"{spread([t.ms('in_app', 95) for _, t in per], '{:.3f}')} | "
            f"{spread([s.ms('in_app', 50) / t.ms('in_app', 50) for s, t in per], '{:.1f}×')} | "
            f"**{spread([s.ms('in_app', 50) / b.ms('in_app', 50) for (s, _), (b, _) in zip(per, base)], '{:.2f}×')}**"
            f" / {spread([s.ms('in_app', 95) / b.ms('in_app', 95) for (s, _), (b, _) in zip(per, base)], '{:.2f}×')} |"
        )
    return lines


def long_verdict(runs: list[dict]) -> str:
    small, big = min(runs[0]), max(runs[0])
    ratio50 = statistics.median([r[big][0].ms("in_app", 50) / r[small][0].ms("in_app", 50) for r in runs])
    ratio95 = statistics.median([r[big][0].ms("in_app", 95) / r[small][0].ms("in_app", 95) for r in runs])
    met = ratio50 <= LONG_RATIO_TARGET and ratio95 <= LONG_RATIO_TARGET
    return (
        f"Result: save + table page, {big} hands / {small} hands: p50 {ratio50:.2f}×, p95 {ratio95:.2f}× — "
        f"{'met' if met else 'NOT met'} (≤ {LONG_RATIO_TARGET:g}×)."
    )


def machine() -> dict:
    return common(sqlite=sqlite3.sqlite_version, flask=version("flask"))


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


TAP_HEADING = "## The hand on the table"
TAP_INTRO = """\
`.venv/bin/python bench/app_bench.py --part tap,long`: in one process, Flask's test
client on a real SQLite file. *A tap*: a parlett hand entered chip by chip on the
new-hand form as the browser does it (`bench/form_page.py` holds the page: each
tap posts the form's fields with the `draft_version` and `sig_<section>` values
the previous answer left in the page, `HX-Request: true`, Accept-Encoding as a
browser's; the answer's out-of-band pieces are swapped in), the hand in progress
cancelled after each hand (untimed); a trivial route (`"ok"`) timed after every
tap is the baseline. *In app* is the WSGI call (the server's time, compression
included); *round trip* adds the test client's work. *A save*: POST …/hands
with the version, then the table page the redirect leads to (GET /s/<id>),
the hand deleted again untimed. Targets: a tap ≤ 4× the trivial route, the same
at 200 hands as at 12, ≤ 4 KB compressed per answer; save + table page on a
500-hand session ≤ 1.5× the same on a 12-hand session. Figures are the median
of the repetitions, with their range in brackets.
"""
PAD_HEADING = "## Call by call: the pad's taps"
PAD_INTRO = """\
`.venv/bin/python bench/app_bench.py --part pad`: as "The hand on the table" above,
with the call pad: each tap posts a call the pad offers (`bid` = its JSON: the
auction "Bid 12 · Bid 14 · Pass · Pass"; `ruff_call`: "Open · Raise · Fold ·
Match"), parlett, sessions of 12 and 200 hands. Targets: those of a tap (≤ 4× the
trivial route, flat in session length, ≤ 4 KB compressed per answer).
"""


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", default="save,long,tap,pad,bytes")
    parser.add_argument("--rounds", type=int, default=60, help="saves per session size")
    parser.add_argument("--hands-entered", type=int, default=30, help="hands tapped in per session size")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions, each on a fresh app and database")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--write", action="store_true", help="append the tables to bench/history.md")
    parser.add_argument("--label", default="", help="a word on what was measured (e.g. 'before')")
    parser.add_argument("--root", default=None, help="measure another copy of the project (before/after)")
    args = parser.parse_args(argv)
    parts = set(args.part.split(","))

    assert Path(scorekeeper.__file__).resolve().is_relative_to(UNDER_TEST), scorekeeper.__file__
    info, load_before = machine(), loadavg()

    if args.profile:
        print("\n".join(run_profile(max(4, args.hands_entered // 3), max(10, args.rounds // 3))))
        return 0

    found = {"save": [], "long": [], "chip": [], "pad": []}
    byte_lines = []
    for repetition in range(args.repeat):
        for part, run in (
            ("save", lambda b: run_saves(b, (12, 200), args.rounds)),
            ("long", lambda b: run_saves(b, (12, 500), args.rounds)),
            ("chip", lambda b: run_taps(b, (12, 200), args.hands_entered, "chip")),
            ("pad", lambda b: run_taps(b, (12, 200), args.hands_entered, "pad")),
        ):
            if (part if part != "chip" else "tap") not in parts:
                continue
            found[part].append(run(Bench()))
            print(f"run {repetition + 1}: {part} done", file=sys.stderr, flush=True)
    if "bytes" in parts:
        byte_lines = run_bytes(Bench())
    load_after = loadavg()

    heading = f"### {info['date']}" + (f" ({args.label})" if args.label else "")
    machine_text = machine_line(info, load_before, load_after)
    entries = {}
    if found["chip"] or found["long"]:
        lines = [heading, "", machine_text, f"{args.repeat} repetitions.", ""]
        if found["chip"]:
            lines += tap_table(found["chip"], "a chip tap (POST …/hands/check)")
            lines += ["", tap_verdict(found["chip"], "chip taps"), ""]
        if found["long"]:
            lines += save_table(found["long"], "save + table page")
            lines += ["", long_verdict(found["long"]), ""]
        entries[TAP_HEADING] = "\n".join(lines)
    if found["pad"]:
        lines = [heading, "", machine_text, f"{args.repeat} repetitions.", ""]
        lines += tap_table(found["pad"], "a call-pad tap (`bid`, `ruff_call`)")
        lines += ["", tap_verdict(found["pad"], "pad taps"), ""]
        entries[PAD_HEADING] = "\n".join(lines)
    if found["save"] or byte_lines:
        lines = ["```", machine_text]
        if found["save"]:
            lines += save_table(found["save"], "save + table page")
        lines += byte_lines + ["```", ""]
        entries["## Table app"] = "\n".join(lines)
    for heading_, entry in entries.items():
        print(f"{heading_}\n\n{entry}")
    if args.write:
        for heading_, entry in entries.items():
            if heading_ == TAP_HEADING:
                append_to_section(heading_, TAP_INTRO, entry)
            elif heading_ == PAD_HEADING:
                append_to_section(heading_, PAD_INTRO, entry)
        print("appended to bench/history.md (the Table app section's save and bytes figures: by hand)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
