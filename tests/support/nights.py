"""A club night played a little (real SQLite, through the store), for the tests of its
record, its sheet and its import."""

from __future__ import annotations

from scorekeeper import create_app, store
from support.data import load_example
from support.database import fresh_database

HANDS = load_example("parlett-evening.json")["hands"]  # the first seat deals: 20, 2, −22; two hands 52, 3, −55
#: Ten players, a Greek and a Chinese name among them: a sheet prints every script.
TEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ζωή", "王芳"]


def a_played_night(db, circle_id: str | None = None, players=TEN) -> store.Night:
    """Two rounds of three drawn (stake 1d a counter, ranked by counters): round 1's
    table 1 plays two hands (52, 3, −55), its table 2 one hand (20, 2, −22), its table 3
    none; the player with round 1's bye leaves after it; round 2's table 1 plays one
    hand (20, 2, −22) and ends at 21:30 UTC."""
    night = store.create_night(
        db,
        "Friday club",
        players,
        rulebook="parlett",
        options={},
        stake={"per_counter": "1", "currency": "d"},
        rounds=3,
        rank_by="counters",
        played_on="2026-12-04",
        circle_id=circle_id,
    )
    night = store.draw_round(db, night.id, 1)
    for table, hands in zip(night.rounds[0].tables, (HANDS[:2], HANDS[:1])):
        for version, hand in enumerate(hands, 1):
            store.add_hand(db, table.session_id, hand, version)
    store.drop_player(db, night.id, night.rounds[0].byes[0])
    night = store.draw_round(db, night.id, 2)
    store.add_hand(db, night.rounds[1].tables[0].session_id, HANDS[0], 1)
    store.set_round_end(db, night.id, 2, "2026-12-04T21:30:00+00:00")
    return store.get_night(db, night.id)


def night_app(tmp_path, migrated_database):
    """An app on a fresh migrated database whose limits let a test make and print nights freely."""
    return create_app(
        {
            "DATABASE": fresh_database(migrated_database, tmp_path),
            "SECRET_KEY": "x",
            "TESTING": True,
            "BACKUP_DIR": str(tmp_path / "backups"),
            "SESSIONS_PER_MINUTE": 10_000,
            "PDF_RENDERS_PER_MINUTE": 1_000,
        }
    )
