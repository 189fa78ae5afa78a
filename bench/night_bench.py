"""A club night of 60 players (20 tables) after two rounds of 30 hands a table: what
the standings' poll costs the server, beside a table's watch poll and /healthz in the
same process (Flask's test client: no socket), p50 of ``--rounds`` requests each.

- unchanged: the big screen's poll while nothing was saved (204 after one query),
  beside a table's watch poll of an unchanged table (204), answered by Flask and
  by ``kept_polls`` (which does not know the night's polls yet);
- after a save: the first poll after one more hand at one table (200: that table
  settled from its last settlement, the standings computed again, the part rendered);
- cold: the standings page with every cache of this process emptied (each of the 40
  tables settled again).

    .venv/bin/python bench/night_bench.py [--players 60] [--hands 30] [--rounds 200]

Ratios to /healthz are what compares across machines; nothing is written."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
from scorekeeper.web import cache, nights  # noqa: E402
from support.sessions import long_session  # noqa: E402
from scorekeeper import create_app, store  # noqa: E402


def build(app, players: int, hands: int):
    db = store.connect(app.config["DATABASE"])
    night = store.create_night(db, "Bench club", [f"Player {n}" for n in range(players)], "parlett", {},
                               {"per_counter": "1", "currency": "d"}, 4)
    played = long_session(hands + 20)["hands"]
    for number in (1, 2):
        night = store.draw_round(db, night.id, number)
        for table in night.round(number).tables:
            with store.writing(db):   # the hands written as a restore would: the bench is about the reads
                store.insert_hands(db, table.session_id, played[:hands], store.now())
                db.execute("update sessions set version = version + 1 where id = ?", [table.session_id])
    return db, store.get_night(db, night.id), played[hands:]


def p50(client, path: str, rounds: int, status: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == status, (path, response.status_code)
    return statistics.median(times)


def empty_caches() -> None:
    store._HANDS.lists.clear()
    cache.LATEST_SETTLEMENT.clear()
    for kept in (cache.SETTLEMENTS, nights.STANDINGS):
        kept._values.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=60)
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=200)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="night-bench-")
    app = create_app({"DATABASE": f"{folder}/bench.db", "SECRET_KEY": "bench", "TESTING": True,
                      "BACKUP_DIR": f"{folder}/backups"})
    db, night, next_hands = build(app, args.players, args.hands)
    client = app.test_client()
    table = night.round(2).tables[0]
    watch = f"/w/{table.watch_id}/live?v={store.live_version(db, table.session_id)}"
    screen = f"/n/{night.watch_id}/screen"
    client.get(screen)
    unchanged = f"{screen}/live?v={store.night_live_key(db, night.watch_id)}"

    healthz = p50(client, "/healthz", args.rounds, 200)
    plain = create_app({"DATABASE": f"{folder}/bench.db", "SECRET_KEY": "bench", "TESTING": True,
                        "BACKUP_DIR": f"{folder}/backups", "KEPT_POLLS": False}).test_client()
    rows = [("/healthz", healthz),
            ("a table's watch poll, unchanged (204, kept_polls)", p50(client, watch, args.rounds, 204)),
            ("a table's watch poll, unchanged (204, by Flask)", p50(plain, watch, args.rounds, 204)),
            ("the big screen's poll, unchanged (204)", p50(client, unchanged, args.rounds, 204))]
    saves = []
    for hand in next_hands:   # the long session's next hands: each dealt by the next seat
        session = store.get_session(db, table.session_id)
        key = store.night_live_key(db, night.watch_id)
        store.add_hand(db, table.session_id, hand, session.version)
        started = time.perf_counter()
        assert client.get(f"{screen}/live?v={key}").status_code == 200
        saves.append((time.perf_counter() - started) * 1000)
    if saves:
        rows.append((f"the big screen's poll after a save at one table (200; p50 of {len(saves)})",
                     statistics.median(saves)))
    colds = []
    for _ in range(5):
        empty_caches()
        started = time.perf_counter()
        assert client.get(f"/n/{night.watch_id}").status_code == 200
        colds.append((time.perf_counter() - started) * 1000)
    rows.append((f"the standings page, cold ({len(night.round(1).tables) * 2} tables settled; p50 of 5)",
                 statistics.median(colds)))

    print(f"{args.players} players, 2 rounds of {args.hands} hands a table, p50 of {args.rounds} requests")
    print("| request | ms | × /healthz |")
    print("| --- | --- | --- |")
    for name, ms in rows:
        print(f"| {name} | {ms:.2f} | {ms / healthz:.1f} |")


if __name__ == "__main__":
    main()
