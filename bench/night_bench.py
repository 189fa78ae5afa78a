"""A club night of 90 players (30 tables a round) after 5 rounds of 30 hands a table:
what the standings cost the server, beside a table's watch poll and /healthz in the
same process (Flask's test client: no socket), p50 of ``--rounds`` requests each.

- unchanged: the big screen's poll while nothing was saved (204 after one query),
  beside a table's watch poll of an unchanged table (204), answered by Flask and
  by ``kept_polls``;
- after a save: the first poll after one more hand at one table (200: that table
  settled from its last settlement, the standings computed again, the part rendered);
- cold: the standings page in a server process just started on a database in use
  (as bench/circle_bench.py means it): every cache of this process emptied (the
  decoded hands, the settlements, each table's result, the standings, the ratings'
  and the amounts' memos) but not what the database keeps by design (each table's
  kept result, migration m016); "first ever" is the same with those rows gone too
  (each of the 150 tables read and settled again, once per deploy of new rules);
  cached: the same page again, nothing changed (the standings kept by the night's
  live key, the page rendered);
- behind the front (server/front_polls.py, ``FRONT_POLLS`` in a temporary folder): a
  save at one table (POST → 303, until its answer is in hand) and what its thread
  does once the answer is sent (``call_on_close``: the table's watch part and the
  night's standings and big screen rendered, compressed and left for the front), beside
  the same save with no front. The phone has its answer before the renewal starts:
  the renewal costs the server's thread, not the save.

90 players are more than a night seats (``seating.MAX_PLAYERS``, 60): this bench
raises the limit in its own process for the set-up only (``seating.MAX_PLAYERS``
and ``store.nights.MAX_PLAYERS``), so the night is made and its 5 rounds drawn by
the store's own ``create_night`` and ``draw_round``, 30 tables of three a round;
the hands are written as a restore would (``store.insert_hands``): the bench is
about the reads. The server reads such a night as any other.

    .venv/bin/python bench/night_bench.py [--players 90] [--drawn 5] [--hands 30] [--rounds 200] [--write]
    .venv/bin/python bench/night_bench.py --profile    # cProfile of one cold standings page, then exits

Each time is wall-clock; the cold page's CPU time (``time.process_time``) is printed
beside it: on a shared machine the wall time grows with the load, the CPU time much
less. Ratios to /healthz are what compares across machines. ``--write`` appends the run to
bench/history.md ("## Club night") and keeps the cold and cached standings' figures in
bench/results.json (``benchmarks_md.record_result``)."""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "bench")]
from benchmarks_md import append_to_section, machine, record_result  # noqa: E402
from scorekeeper import create_app, store  # noqa: E402
from scorekeeper.club import ratings  # noqa: E402
from scorekeeper.club import seating  # noqa: E402
from scorekeeper.store import nights as stored_nights  # noqa: E402
from scorekeeper.web import cache, night_results, nights  # noqa: E402
from scorekeeper.server import front_polls  # noqa: E402
from scorekeeper.words import wording  # noqa: E402
from support.sessions import long_session  # noqa: E402
from support.web import hand_fields  # noqa: E402

COLD_TARGET_MS, CACHED_TARGET_MS = 50.0, 5.0
HEADING = "## Club night"
INTRO = "A club night's seating and standings.\n"


def build_night(database: str, players: int, drawn: int, hands: int, played: int | None = None):
    """A night of ``players`` with ``drawn`` rounds drawn, each table of the first
    ``played`` rounds (all, by default) given ``hands`` hands. Returns (connection,
    night, the hands that would come next at a played table)."""
    limit = max(players, seating.MAX_PLAYERS)  # the set-up only: the docstring says why
    seating.MAX_PLAYERS = stored_nights.MAX_PLAYERS = limit
    db = store.connect(database)
    night = store.create_night(
        db,
        "Bench club",
        [f"Player {n}" for n in range(players)],
        "parlett",
        {},
        {"per_counter": "1", "currency": "d"},
        max(drawn, 1),
    )
    written = long_session(hands + 60)["hands"]
    for number in range(1, drawn + 1):
        night = store.draw_round(db, night.id, number)
        if played is not None and number > played:
            continue
        for table in night.round(number).tables:
            with store.writing(db):  # the hands written as a restore would: the bench is about the reads
                store.insert_hands(db, table.session_id, written[:hands], store.now())
                db.execute("update sessions set version = version + 1 where id = ?", [table.session_id])
    return db, store.get_night(db, night.id), written[hands:]


def p50(client, path: str, rounds: int, status: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == status, (path, response.status_code)
    return statistics.median(times)


def empty_caches() -> None:
    """Every cache of this process (not what the database keeps: see the docstring)."""
    store._HANDS.lists.clear()
    cache.LATEST_SETTLEMENT.clear()
    for kept in (cache.SETTLEMENTS, nights.STANDINGS, night_results.TABLE_RESULTS, nights.WATCHED, nights.PARTS):
        kept._values.clear()
    ratings.rate.cache_clear()
    for memo in ("amount_text", "signed_amount", "_day_text"):
        getattr(wording, memo).cache_clear()


def forget_kept_results(db) -> None:
    """The database's kept table results too: a night's first page after a deploy of new rules."""
    store.forget_results(db)


def cold_page(client, path: str) -> tuple[float, float]:
    """(wall ms, CPU ms) of ``path`` with every cache of this process emptied first."""
    empty_caches()
    started, cpu = time.perf_counter(), time.process_time()
    response = client.get(path)
    took = (time.perf_counter() - started) * 1000
    assert response.status_code == 200, response.status_code
    return took, (time.process_time() - cpu) * 1000


def timed_saves(client, table, next_hands, version: int) -> tuple[list[float], list[float], int]:
    """Each of ``next_hands`` saved at ``table`` through the app: (ms until the 303
    was in hand, ms of what ran once it was sent, the session's version after)."""
    saves, after = [], []
    for hand in next_hands:
        started = time.perf_counter()
        response = client.post(f"/s/{table.session_id}/hands", data=hand_fields(hand, version))
        answered = time.perf_counter()
        assert response.status_code == 303, response.status_code
        response.close()  # the answer sent: call_on_close runs here (the front's files renewed)
        saves.append((answered - started) * 1000)
        after.append((time.perf_counter() - answered) * 1000)
        version += 1
    return saves, after, version


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=90)
    parser.add_argument("--drawn", type=int, default=5, help="rounds drawn, each table played")
    parser.add_argument("--hands", type=int, default=30, help="hands at each table")
    parser.add_argument("--rounds", type=int, default=200, help="requests per figure")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="print cProfile's view of one cold standings page (the 30 costliest calls) and stop",
    )
    parser.add_argument("--profile-sort", default="cumulative", help="pstats' order for --profile (tottime, ...)")
    parser.add_argument(
        "--write",
        action="store_true",
        help="append to bench/history.md and keep the targets' figures in bench/results.json",
    )
    args = parser.parse_args()
    if not (4 <= args.players <= 120 and 1 <= args.drawn <= 10 and 0 <= args.hands <= 200):
        parser.error("keep it bounded: players 4-120, rounds drawn 1-10, hands 0-200")

    folder = tempfile.mkdtemp(prefix="night-bench-")
    settings = {
        "DATABASE": f"{folder}/bench.db",
        "SECRET_KEY": "bench",
        "TESTING": True,
        "BACKUP_DIR": f"{folder}/backups",
        "SESSIONS_PER_MINUTE": 100_000,
    }
    app = create_app(settings)
    db, night, next_hands = build_night(app.config["DATABASE"], args.players, args.drawn, args.hands)
    client = app.test_client()
    if args.profile:
        client.get(f"/n/{night.watch_id}")  # the database's kept rows made, as a server in use has them
        empty_caches()
        profile = cProfile.Profile()
        profile.runcall(client.get, f"/n/{night.watch_id}")
        pstats.Stats(profile).sort_stats(args.profile_sort).print_stats(30)
        return
    latest = night.round(args.drawn)
    table = latest.tables[0]
    tables = sum(len(r.tables) for r in night.rounds)
    watch = f"/w/{table.watch_id}/live?v={store.live_version(db, table.session_id)}"
    screen = f"/n/{night.watch_id}/screen"
    client.get(screen)
    unchanged = f"{screen}/live?v={store.night_live_key(db, night.watch_id)}"

    healthz = p50(client, "/healthz", args.rounds, 200)
    plain = create_app(dict(settings, KEPT_POLLS=False)).test_client()
    rows = [
        ("/healthz", healthz),
        ("a table's watch poll, unchanged (204, kept_polls)", p50(client, watch, args.rounds, 204)),
        ("a table's watch poll, unchanged (204, by Flask)", p50(plain, watch, args.rounds, 204)),
        ("the big screen's poll, unchanged (204)", p50(client, unchanged, args.rounds, 204)),
    ]
    polls_after = []
    for hand in next_hands[:10]:  # the long session's next hands: each dealt by the next seat
        session = store.get_session(db, table.session_id)
        key = store.night_live_key(db, night.watch_id)
        store.add_hand(db, table.session_id, hand, session.version)
        started = time.perf_counter()
        assert client.get(f"{screen}/live?v={key}").status_code == 200
        polls_after.append((time.perf_counter() - started) * 1000)
    rows.append(
        (
            f"the big screen's poll after a save at one table (200; p50 of {len(polls_after)})",
            statistics.median(polls_after),
        )
    )
    forget_kept_results(db)
    first, first_cpu = cold_page(client, f"/n/{night.watch_id}")
    colds = [cold_page(client, f"/n/{night.watch_id}") for _ in range(5)]
    cold, cold_cpu = statistics.median(c[0] for c in colds), statistics.median(c[1] for c in colds)
    rows.append(
        (
            f"the standings page, first ever (nothing kept anywhere: {tables} tables settled; CPU {first_cpu:.1f} ms)",
            first,
        )
    )
    rows.append((f"the standings page, cold ({tables} tables; p50 of 5; CPU {cold_cpu:.1f} ms)", cold))
    cached = p50(client, f"/n/{night.watch_id}", args.rounds, 200)
    rows.append(("the standings page, cached (nothing changed)", cached))
    rows.append(("the big screen's page, cached", p50(client, screen, args.rounds, 200)))

    # a save at one table, with no front, then behind it (its renewal once the answer is sent)
    version = store.get_session(db, table.session_id).version
    saves_plain, _, version = timed_saves(plain, table, next_hands[10:30], version)
    fronted = create_app(dict(settings, FRONT_POLLS=f"{folder}/polls", PUBLIC_URL="https://localhost:8443"))
    front_polls.enable(fronted)
    saves_front, renewals, version = timed_saves(fronted.test_client(), table, next_hands[30:50], version)
    assert (Path(folder) / "polls" / "n" / night.watch_id / "screen.html").exists()
    rows += [
        (f"a save at one table, no front (POST → 303; p50 of {len(saves_plain)})", statistics.median(saves_plain)),
        (
            f"the same save behind the front, until its 303 is in hand (p50 of {len(saves_front)})",
            statistics.median(saves_front),
        ),
        (
            "then, once it is sent: the table's part and the night's two parts left for the front",
            statistics.median(renewals),
        ),
    ]

    lines = [
        f"{args.players} players, {args.drawn} rounds of {len(latest.tables)} tables, {args.hands} hands a "
        f"table, p50 of {args.rounds} requests",
        "",
        "| request | ms | × /healthz |",
        "| --- | --- | --- |",
    ]
    lines += [f"| {name} | {ms:.2f} | {ms / healthz:.1f} |" for name, ms in rows]
    met_cold, met_cached = cold <= COLD_TARGET_MS, cached <= CACHED_TARGET_MS
    lines += [
        "",
        f"Standings page cold {cold:.1f} ms, CPU {cold_cpu:.1f} ms (target ≤ {COLD_TARGET_MS:g} ms: "
        f"{'met' if met_cold else 'NOT met'}), cached {cached:.2f} ms (target ≤ {CACHED_TARGET_MS:g} ms: "
        f"{'met' if met_cached else 'NOT met'}).",
    ]
    print("\n".join(lines))
    if args.write:
        facts = machine()
        load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
        entry = (
            f"### {facts['date']}: `bench/night_bench.py --players {args.players} --drawn {args.drawn} "
            f"--hands {args.hands}`\n\nMachine: {facts['nproc']} cores ({facts['cpu']}), Python "
            f"{facts['python']}; load average {load} (the machine is shared).\n\n" + "\n".join(lines) + "\n"
        )
        append_to_section(HEADING, INTRO, entry)
        scale = f"{args.players} players, {len(latest.tables)} tables × {args.drawn} rounds, {args.hands} hands a table"
        record_result(
            f"club night standings page cold, {scale}",
            f"≤ {COLD_TARGET_MS:g} ms",
            f"{cold:.1f} ms",
            f"/healthz {healthz:.2f} ms",
            met_cold,
            "bench/night_bench.py",
        )
        record_result(
            f"club night standings page cached, {scale}",
            f"≤ {CACHED_TARGET_MS:g} ms",
            f"{cached:.2f} ms",
            f"/healthz {healthz:.2f} ms",
            met_cached,
            "bench/night_bench.py",
        )


if __name__ == "__main__":
    main()
