"""Club nights in ``flask backup`` / ``flask restore`` (real SQLite, the commands
through Flask's CLI runner): each night is a ``night-<id>.json`` beside its tables'
sessions (and its circle's file); restored into an empty database it is the same
night at the same links (organizer's PIN, seats, byes, leavers, end times, its
circle's members), and backed up again the very same files; over itself it says so;
a hostile night file is refused with its line and nothing restored."""

from __future__ import annotations

import json
import sqlite3

from werkzeug.security import generate_password_hash

from scorekeeper import create_app, store
from support.nights import a_played_night

MEMBERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


def app_in(folder):
    folder.mkdir(exist_ok=True)
    app = create_app(
        {
            "DATABASE": str(folder / "gleek.db"),
            "SECRET_KEY": "x",
            "TESTING": True,
            "BACKUP_DIR": str(folder / "snapshots"),
        }
    )
    app.test_cli_runner().invoke(args=["init-db"])
    return app


def backup(app, out) -> dict[str, bytes]:
    result = app.test_cli_runner().invoke(args=["backup", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return {path.name: path.read_bytes() for path in sorted(out.glob("*.json"))}


def nights_in(app) -> int:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return conn.execute("select count(*) from nights").fetchone()[0]


def two_nights(db) -> tuple[store.Night, store.Night]:
    """A circle's night and a night of names with the organizer's PIN."""
    circle = store.create_circle(db, "Thursday Gleek", MEMBERS)
    of_circle = a_played_night(db, circle.id, players=[(m.name, m.id) for m in circle.members])
    plain = a_played_night(db)
    store.set_night_pin(db, plain.id, generate_password_hash("4821", method=store.PIN_METHOD))
    return of_circle, store.get_night(db, plain.id)


def test_a_night_survives_backup_and_restore_at_its_own_links(tmp_path):
    first = app_in(tmp_path / "first")
    db = store.connect(first.config["DATABASE"])
    of_circle, plain = two_nights(db)
    files = backup(first, tmp_path / "out")
    assert {f"night-{of_circle.id}.json", f"night-{plain.id}.json"} <= set(files)
    said = first.test_cli_runner().invoke(args=["backup", "--out", str(tmp_path / "again")]).output
    assert said.startswith("Backed up 12 session(s) and 1 circle(s) and 2 club night(s) to ")

    second = app_in(tmp_path / "second")
    result = second.test_cli_runner().invoke(args=["restore", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "Restored 12 session(s) and 1 circle(s) and 2 club night(s)" in result.output
    restored_db = store.connect(second.config["DATABASE"])
    for night in (of_circle, plain):
        back = store.get_night(restored_db, night.id)
        assert (back.watch_id, back.pin_hash, back.circle_id, back.seed, back.version, back.rank_by) == (
            night.watch_id,
            night.pin_hash,
            night.circle_id,
            night.seed,
            night.version,
            night.rank_by,
        )
        assert store.night_data(restored_db, back) == store.night_data(db, night)
        assert [t.session_id for r in back.rounds for t in r.tables] == [
            t.session_id for r in night.rounds for t in r.tables
        ]
    members = {m.id: m.name for m in store.get_circle(restored_db, of_circle.circle_id).members}
    assert [members[p.member_id] for p in store.get_night(restored_db, of_circle.id).players] == MEMBERS
    client = second.test_client()
    assert client.get(f"/n/{plain.watch_id}").status_code == 200
    assert client.get(f"/night/{plain.id}").headers["Location"] == f"/night/{plain.id}/unlock"
    assert backup(second, tmp_path / "out2") == files


def test_a_night_restored_over_itself_says_so_and_moves_on_a_version(tmp_path):
    app = app_in(tmp_path / "here")
    db = store.connect(app.config["DATABASE"])
    _, plain = two_nights(db)
    backup(app, tmp_path / "out")
    store.drop_player(db, plain.id, plain.round(2).tables[0].seats[0])
    result = app.test_cli_runner().invoke(args=["restore", str(tmp_path / "out" / f"night-{plain.id}.json")])
    assert result.exit_code == 0, result.output
    assert (
        f"night-{plain.id}.json: restored over the existing night {plain.id}: its players, rounds, tables and byes"
    ) in result.output
    back = store.get_night(db, plain.id)
    assert back.version == plain.version + 2 and back.present == plain.present
    assert store.night_data(db, back) == store.night_data(db, plain)


def test_a_hostile_night_backup_is_refused_and_nothing_restored(tmp_path):
    first = app_in(tmp_path / "first")
    _, plain = two_nights(store.connect(first.config["DATABASE"]))
    backup(first, tmp_path / "out")
    path = tmp_path / "out" / f"night-{plain.id}.json"
    data = json.loads(path.read_text())
    data["rounds"][0]["tables"][1]["seats"] = data["rounds"][0]["tables"][0]["seats"]
    path.write_text(json.dumps(data))
    second = app_in(tmp_path / "second")
    result = second.test_cli_runner().invoke(args=["restore", str(tmp_path / "out")])
    assert result.exit_code == 1
    name = data["players"][data["rounds"][0]["tables"][0]["seats"][0]]["name"]
    assert f"{path}: round 1: {name} is seated at table 1 and at table 2: each player once a round" in result.output
    assert "Nothing was restored." in result.output
    assert nights_in(second) == 0
