"""A database made by an earlier release opens in this one, its sessions intact.

The old databases are made the honest way: a session is played in this release,
then its database is taken back to an earlier release's shape (the later
tables and columns dropped, the migrations table as that release left it).
"""

import sqlite3

import pytest

from support.data import load_example
from support.web import expected_balances, export, hand_fields, new_session, post_change, shown_balances


def played_database(tmp_path):
    """A database with one session of two Parlett hands, and its export."""
    from scorekeeper import create_app

    app = create_app(
        {
            "DATABASE": str(tmp_path / "old.db"),
            "SECRET_KEY": "test",
            "TESTING": True,
            "BACKUP_DIR": str(tmp_path / "backups"),
        }
    )
    client = app.test_client()
    url = new_session(client)
    for hand in load_example("parlett-evening.json")["hands"][:2]:
        assert post_change(client, url, "/hands", hand_fields(hand)).status_code == 303
    record = export(client, url)
    app.extensions["scorekeeper.keeper"].close()
    return tmp_path / "old.db", url, record


def before_circles(con):
    """The shape before circles (m010): each session's players in a JSON column, no seats."""
    con.execute("ALTER TABLE sessions ADD COLUMN players TEXT")
    con.execute(
        "UPDATE sessions SET players = (SELECT json_group_array(name) FROM "
        "(SELECT name FROM seats WHERE session_id = sessions.id ORDER BY seat))"
    )
    for table in (
        "evening_figures",
        "payments",
        "circle_pin_failures",
        "circle_sessions",
        "seats",
        "members",
        "circles",
    ):
        con.execute(f"DROP TABLE {table}")
    con.execute("DELETE FROM _sqlite_migrations WHERE name LIKE 'm01%'")


def take_back(path, release):
    """The database as ``release`` left it ("main": all but circles; "stop 6": two
    migrations; "stop 7": the hand in progress was then the third migration, under
    another name)."""
    con = sqlite3.connect(path)
    with con:
        before_circles(con)
    if release != "main":
        earlier_release(con, release)
    names = [row[0] for row in con.execute("SELECT name FROM _sqlite_migrations ORDER BY rowid")]
    con.close()
    return names


def earlier_release(con, release):
    with con:
        for table in ("creations", "seat_links", "verdicts"):
            con.execute(f"DROP TABLE {table}")
        con.execute("DROP INDEX idx_pin_failures_session_id_address_at")
        con.execute("ALTER TABLE pin_failures DROP COLUMN address")
        con.execute("ALTER TABLE sessions DROP COLUMN confirm")
        con.execute("ALTER TABLE sessions DROP COLUMN scorer")
        con.execute("DROP INDEX idx_sessions_creator")
        con.execute("DROP INDEX idx_sessions_updated_at")
        con.execute("ALTER TABLE sessions DROP COLUMN creator")
        con.execute("DELETE FROM _sqlite_migrations WHERE name = 'm020_session_creator'")
        con.execute(
            "DELETE FROM _sqlite_migrations WHERE name IN "
            "('m003_session_creations', 'm005_players_agree', 'm006_scorer_seat', "
            "'m007_pin_tries_by_client', 'm008_draft_field_versions')"
        )
        if release == "stop 6":
            con.execute("DROP TABLE drafts")
            con.execute("ALTER TABLE history DROP COLUMN draft")
            con.execute("DELETE FROM _sqlite_migrations WHERE name = 'm004_hands_in_progress'")
        else:
            con.execute("ALTER TABLE drafts DROP COLUMN field_versions")
            con.execute(
                "UPDATE _sqlite_migrations SET name = 'm003_hands_in_progress' WHERE name = 'm004_hands_in_progress'"
            )


@pytest.mark.parametrize(
    "release, applied",
    [
        ("main", None),  # every migration but the circles' (whatever else main has since added)
        ("stop 6", ["m001_sessions_hands_history", "m002_table_pin"]),
        ("stop 7", ["m001_sessions_hands_history", "m002_table_pin", "m003_hands_in_progress"]),
    ],
)
def test_an_earlier_releases_database_opens_with_its_sessions(tmp_path, release, applied):
    from scorekeeper import create_app

    path, url, record = played_database(tmp_path)
    names = take_back(path, release)
    assert (
        names == applied
        if applied is not None
        else ("m008_draft_field_versions" in names and not any(n.startswith("m01") for n in names))
    )

    app = create_app(
        {"DATABASE": str(path), "SECRET_KEY": "test", "TESTING": True, "BACKUP_DIR": str(tmp_path / "backups")}
    )
    client = app.test_client()
    assert export(client, url) == record
    assert shown_balances(client, url) == expected_balances(record) == ["+52", "+3", "−55"]
    # and everything this release added works on it: a hand in progress, a third hand
    third = load_example("parlett-evening.json")["hands"][2]
    assert client.get(url + "/hands/new").status_code == 200
    assert post_change(client, url, "/hands", hand_fields(third)).status_code == 303
    assert export(client, url)["hands"][2] == third
    con = sqlite3.connect(path)
    assert {row[0] for row in con.execute("SELECT name FROM _sqlite_migrations")} >= {
        "m003_session_creations",
        "m004_hands_in_progress",
        "m005_players_agree",
        "m006_scorer_seat",
        "m007_pin_tries_by_client",
        "m008_draft_field_versions",
    }
    assert {"confirm", "scorer"} <= {row[1] for row in con.execute("PRAGMA table_info(sessions)")}
    # the players moved from the JSON column into seats of their own, the column gone
    assert "players" not in {row[1] for row in con.execute("PRAGMA table_info(sessions)")}
    assert con.execute("SELECT seat, name, member_id FROM seats ORDER BY seat").fetchall() == [
        (0, "Ann", None),
        (1, "Ben", None),
        (2, "Cat", None),
    ]
    con.close()
