"""A circle of 1,000 evenings × 30 hands (years of regulars): the ledger, the owed and the
statistics pages, server time in the app (Flask's test client: no socket), cold
and cached; then a new hand in one session, and how many evenings were computed again.

"Cold" is a server process just started on a database in use: every cache of this
process is emptied first (the decoded hands, the settlements, each evening's figures,
the season, the pages, the amounts' and fractions' memos) but not the database's own
``evening_figures`` table (migration m012), which is what a restart finds — it is kept
across restarts by design, a new hand replaces only its session's row, and only a
deploy changing ``rules/`` (or the cache's format) empties it. Its state before any
figure was ever kept (each of 1,000 evenings settled and reduced, once per deploy) is
the first cold run, printed apart as "first ever". Each time is wall-clock (p50 of
``--rounds``) and, beside it, the process's CPU time for the same request: on a shared
machine the wall time grows with the load, the CPU time much less.

    .venv/bin/python bench/circle_bench.py [--evenings 1000] [--hands 30] [--rounds 5] [--write]

Baseline: the trivial route (/healthz) in the same process. ``--write`` records
the figures in bench/history.md and bench/results.json."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]
from benchmarks_md import append_to_section, cpu_model, record_result  # noqa: E402
from support.sessions import circle_of_evenings, long_session, rotate_hand  # noqa: E402


def build(db, store, evenings: int, hands: int):
    """The circle, its evenings written straight through the store (each checked as any session)."""
    return circle_of_evenings(db, evenings, hands)


def empty_caches():
    """Every cache of this process (not the database's evening_figures: see the docstring).
    Written for older trees too (a baseline run from a ``git archive`` copy): a cache or
    memo that a tree does not have is skipped."""
    from scorekeeper import store  # kept here: the spawned PDF renderer re-imports this script
    from scorekeeper.web import cache, circle_figures  # kept here: the spawned PDF renderer re-imports this script
    from scorekeeper.words import wording  # kept here: the spawned PDF renderer re-imports this script

    store._HANDS.lists.clear()
    cache.LATEST_SETTLEMENT.clear()
    for kept in (
        cache.SETTLEMENTS,
        circle_figures.FIGURES,
        circle_figures.SEASONS,
        circle_figures.PAGES,
        getattr(circle_figures, "MONEY", None),
    ):
        if kept is not None:
            kept._values.clear()
    kept_figures = getattr(store, "kept_figures", circle_figures)
    for module, memo in (
        (kept_figures, "_shared_fraction"),
        (wording, "amount_text"),
        (wording, "signed_amount"),
        (wording, "_day_text"),
    ):
        if hasattr(getattr(module, memo, None), "cache_clear"):
            getattr(module, memo).cache_clear()


def empty_kept_figures(db) -> None:
    """The database's evening_figures too: a circle's first page after a deploy of new rules."""
    with db.conn:
        db.conn.execute("delete from evening_figures")


CPU: list = []  # the CPU time (ms) of each timed request, beside its wall time


def timed(client, path) -> float:
    start, cpu = time.perf_counter(), time.process_time()
    response = client.get(path)
    took = time.perf_counter() - start
    CPU.append((time.process_time() - cpu) * 1000)
    assert response.status_code == 200, (path, response.status_code)
    return took * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--evenings", type=int, default=1000)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--pdf", action="store_true", help="also the season sheet's PDF, once")
    args = parser.parse_args()

    from scorekeeper import create_app, store  # kept here: the spawned PDF renderer re-imports this script
    from scorekeeper.web import circle_figures  # kept here: the spawned PDF renderer re-imports this script

    folder = Path(tempfile.mkdtemp(prefix="circle-bench-"))
    app = create_app({"DATABASE": str(folder / "c.db"), "SECRET_KEY": "x", "BACKUP_DIR": str(folder / "b")})
    db = store.connect(app.config["DATABASE"])
    start = time.perf_counter()
    circle, sessions = build(db, store, args.evenings, args.hands)
    print(f"built {args.evenings} evenings × {args.hands} hands in {time.perf_counter() - start:.1f} s")
    client = app.test_client()
    pages = {
        name: f"/c/{circle.id}{suffix}"
        for name, suffix in (("ledger", "/ledger"), ("owed", "/owed"), ("stats", "/stats"))
    }
    trivial = [timed(client, "/healthz") for _ in range(200)]
    baseline = statistics.median(trivial)
    empty_caches()
    empty_kept_figures(db)
    first_ever = timed(client, pages["ledger"])
    cold = {name: [] for name in pages}
    warm = {name: [] for name in pages}
    cold_cpu = {name: [] for name in pages}
    warm_cpu = {name: [] for name in pages}
    for _ in range(args.rounds):
        for name, path in pages.items():
            empty_caches()
            cold[name].append(timed(client, path))
            cold_cpu[name].append(CPU[-1])
            warm[name] += [timed(client, path) for _ in range(20)]
            warm_cpu[name] += CPU[-20:]
    # a new hand in one session: how many evenings are computed again

    session = store.get_session(db, sessions[len(sessions) // 2])
    timed(client, pages["ledger"])
    computed = []
    real = circle_figures._figures_of
    circle_figures._figures_of = lambda *a, **k: computed.append(a[1]) or real(*a, **k)
    extra = long_session(args.hands + 1)["hands"][args.hands]
    extra = dict(extra, dealer=session.next_dealer())

    extra = rotate_hand(
        long_session(args.hands + 1)["hands"][args.hands],
        (session.next_dealer() - long_session(args.hands + 1)["hands"][args.hands]["dealer"]) % 3,
    )
    store.add_hand(db, session.id, extra, session.version)
    after = timed(client, pages["ledger"])
    circle_figures._figures_of = real
    pdf = None
    if args.pdf:
        start = time.perf_counter()
        response = client.get(pages["ledger"].replace("/ledger", "/season.pdf"))
        assert response.status_code == 200 and response.data.startswith(b"%PDF")
        pdf = time.perf_counter() - start
        # the first one started the renderer process (pdf.py: spawn, WeasyPrint, the fonts); a second sheet
        # (Letter: not cached) is what a running server takes
        start = time.perf_counter()
        response = client.get(pages["ledger"].replace("/ledger", "/season.pdf") + "?paper=letter")
        assert response.status_code == 200 and response.data.startswith(b"%PDF")
        pdf_again = time.perf_counter() - start
    load = os.getloadavg()
    lines = [
        f"{name}: cold p50 {statistics.median(cold[name]):.0f} ms (max {max(cold[name]):.0f}; "
        f"CPU {statistics.median(cold_cpu[name]):.0f} ms), cached p50 {statistics.median(warm[name]):.1f} ms "
        f"(CPU {statistics.median(warm_cpu[name]):.1f} ms)"
        for name in pages
    ]
    lines.append(
        f"first ever (evening_figures empty too: {args.evenings:,} evenings settled and kept): ledger "
        f"{first_ever:.0f} ms"
    )
    lines.append(f"after a new hand in one session: ledger {after:.0f} ms, evenings computed again: {len(computed)}")
    if pdf is not None:
        lines.append(
            f"season sheet PDF (A4, the archive attached): {pdf:.1f} s, the renderer's start included; "
            f"then Letter: {pdf_again:.1f} s"
        )
    lines.append(f"baseline /healthz p50 {baseline:.3f} ms; load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("\n".join(lines))
    if args.write:
        machine = cpu_model()
        append_to_section(
            "## A circle's season",
            "A circle of 1,000 evenings × 30 hands: the ledger, owed and statistics pages, server time in "
            "the app (bench/circle_bench.py), cold (every cache of the process emptied, the database's "
            "evening_figures kept: a restarted server) and cached.\n",
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {machine}, load {load[0]:.2f}:\n\n"
            + "\n".join(f"- {line}" for line in lines)
            + "\n",
        )
        worst_cold = max(statistics.median(v) for v in cold.values())
        worst_warm = max(statistics.median(v) for v in warm.values())
        record_result(
            "circle of 1,000 evenings × 30 hands: ledger, owed, stats cold",
            "≤ 200 ms p50",
            f"worst p50 {worst_cold:.0f} ms",
            f"/healthz {baseline:.2f} ms",
            worst_cold <= 200,
            "bench/circle_bench.py",
        )
        record_result(
            "the same pages cached",
            "≤ 20 ms p50",
            f"worst p50 {worst_warm:.1f} ms",
            f"/healthz {baseline:.2f} ms",
            worst_warm <= 20,
            "bench/circle_bench.py",
        )
        if pdf is not None:
            record_result(
                "season sheet PDF of 1,000 evenings from the circle's page",
                "≤ 2 s",
                f"{pdf:.1f} s",
                f"/healthz {baseline:.2f} ms",
                pdf <= 2,
                "bench/circle_bench.py --pdf",
            )
        record_result(
            "a new hand in one of 1,000 evenings",
            "only that evening recomputed",
            f"{len(computed)} evening recomputed; ledger {after:.0f} ms",
            "—",
            len(computed) == 1,
            "bench/circle_bench.py",
        )


if __name__ == "__main__":
    main()
