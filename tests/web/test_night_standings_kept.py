"""A club night's table results kept in the database by their session's version
(web/night_results.py, migration m016), over HTTP with real SQLite: a server just
started on a night in use reads them instead of settling every table again; a
hand saved, edited or deleted at a table, a restored backup, a table whose session
was deleted all show what the tables hold now; the standings are the same with
and without the kept rows."""

from __future__ import annotations

import html
import re
import sqlite3

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import store
from scorekeeper.rules.record import settle
from support.database import delete_session
from support.nights import HANDS, a_played_night
from support.profiles import examples
from support.web import hand_fields


def as_if_restarted() -> None:
    """Every cache of this process emptied, as in a server process just started
    (the database, and what it keeps, as it was)."""
    from scorekeeper.club import ratings
    from scorekeeper.web import cache, night_results, nights

    store._HANDS.lists.clear()
    cache.LATEST_SETTLEMENT.clear()
    for kept in (cache.SETTLEMENTS, nights.STANDINGS, night_results.TABLE_RESULTS, nights.WATCHED, nights.PARTS):
        kept._values.clear()
    ratings.rate.cache_clear()


def kept_rows(app) -> dict:
    """session id -> (version, hands, balances) as the database keeps them."""
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return {
            sid: (version, hands, balances)
            for sid, version, hands, balances in conn.execute(
                "select session_id, version, hands, balances from table_results"
            )
        }


def tables_shown(client, night: store.Night) -> dict:
    """(round, table) -> "n hands: Name +x, Name +y, Name −z" as the standings page lists them."""
    response = client.get(f"/n/{night.watch_id}")
    assert response.status_code == 200
    shown, number = {}, None
    for heading, table, line in re.findall(
        r"<h3>Round (\d+)</h3>|<li><strong>Table (\d+)</strong> · (.*?)</li>", response.text, re.S
    ):
        if heading:
            number = int(heading)
        else:
            shown[number, int(table)] = " ".join(html.unescape(line).split())
    return shown


def version_of(db, session_id: str) -> int:
    return store.get_session(db, session_id).version


def test_a_fresh_server_shows_the_kept_results_without_settling_the_tables(app, client):
    db = store.connect(app.config["DATABASE"])
    night = a_played_night(db)
    one, two = night.round(1).tables[:2]
    first = night.round(2).tables[0]
    a, b, c = (night.name_of(p) for p in one.seats)
    assert kept_rows(app) == {}
    assert tables_shown(client, night)[1, 1] == f"2 hands: {a} +52, {b} +3, {c} −55"
    # each played table kept at its session's version, exact to the half counter; table 3 has no hand: no row
    assert kept_rows(app) == {
        one.session_id: (version_of(db, one.session_id), 2, "52 3 -55"),
        two.session_id: (version_of(db, two.session_id), 1, "20 2 -22"),
        first.session_id: (version_of(db, first.session_id), 1, "20 2 -22"),
    }
    # the row is what a server just started shows: one made to say ½ is read back, not settled again
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.execute("update table_results set balances = '21/2 -1/2 -10' where session_id = ?", [one.session_id])
    as_if_restarted()
    assert tables_shown(client, night)[1, 1] == f"2 hands: {a} +10½, {b} −½, {c} −10"
    assert kept_rows(app)[one.session_id][2] == "21/2 -1/2 -10"
    # a row settled by other rules (an older release's) is settled again and replaced, never shown
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        conn.execute("update table_results set code = 'an older release' where session_id = ?", [one.session_id])
    as_if_restarted()
    assert tables_shown(client, night)[1, 1] == f"2 hands: {a} +52, {b} +3, {c} −55"
    assert kept_rows(app)[one.session_id][2] == "52 3 -55"


def test_a_hand_saved_edited_or_deleted_at_a_table_replaces_its_kept_result(app, client):
    db = store.connect(app.config["DATABASE"])
    night = a_played_night(db)
    table = night.round(1).tables[1]  # one hand: 20, 2, −22
    a, b, c = (night.name_of(p) for p in table.seats)
    tables_shown(client, night)
    steps = [
        (
            "saved",
            lambda v: client.post(f"/s/{table.session_id}/hands", data=hand_fields(HANDS[1], v)),
            "2 hands",
            (52, 3, -55),
        ),
        (
            "edited",
            lambda v: store.replace_hand(db, table.session_id, 2, dict(HANDS[1], tricks=[2, 6, 4]), v),
            "2 hands",
            None,
        ),
        ("deleted", lambda v: store.delete_last_hand(db, table.session_id, v), "1 hand", (20, 2, -22)),
    ]
    for what, change, hands, totals in steps:
        before = kept_rows(app)[table.session_id]
        change(version_of(db, table.session_id))
        version = version_of(db, table.session_id)
        assert version > before[0], what
        as_if_restarted()  # the page's figures from the database alone: the kept row is older than the table
        settled = store.get_session(db, table.session_id)
        expected = tuple(settle(settled.record()).balances)
        if totals is not None:
            assert expected == totals, what
        line = tables_shown(client, night)[1, 2]
        signs = [f"+{x}" if x >= 0 else f"−{-x}" for x in expected]
        assert line == f"{hands}: {a} {signs[0]}, {b} {signs[1]}, {c} {signs[2]}", what
        assert kept_rows(app)[table.session_id] == (version, len(settled.hands), " ".join(map(str, expected))), what
        assert kept_rows(app)[table.session_id][2] != before[2], what


def test_a_table_whose_session_was_deleted_keeps_no_row_and_the_night_still_shows(app, client):
    db = store.connect(app.config["DATABASE"])
    night = a_played_night(db)
    one, two = night.round(1).tables[:2]
    tables_shown(client, night)
    assert one.session_id in kept_rows(app)
    delete_session(db, one.session_id)  # as expiry removes it: its kept row goes with it
    assert one.session_id not in kept_rows(app)
    as_if_restarted()
    shown = tables_shown(client, night)
    assert (1, 1) not in shown and shown[1, 2].startswith("1 hand: ")
    assert set(kept_rows(app)) == {two.session_id, night.round(2).tables[0].session_id}


def test_a_restored_backup_shows_the_restored_hands_not_the_kept_result(app, client):
    db = store.connect(app.config["DATABASE"])
    night = a_played_night(db)
    table = night.round(1).tables[1]
    a, b, c = (night.name_of(p) for p in table.seats)
    backup = store.full_snapshot(db, store.get_session(db, table.session_id))  # one hand: 20, 2, −22
    store.add_hand(db, table.session_id, HANDS[1], version_of(db, table.session_id))
    assert tables_shown(client, night)[1, 2] == f"2 hands: {a} +52, {b} +3, {c} −55"

    store.restore_all(db, [("backup", backup)])  # over the session: one more change
    as_if_restarted()
    assert tables_shown(client, night)[1, 2] == f"1 hand: {a} +20, {b} +2, {c} −22"
    assert kept_rows(app)[table.session_id] == (version_of(db, table.session_id), 1, "20 2 -22")

    # the session gone (its row with it), then its backup restored at the backup's own version
    tables_shown(client, night)
    store.add_hand(db, table.session_id, HANDS[1], version_of(db, table.session_id))
    tables_shown(client, night)
    delete_session(db, table.session_id)
    store.restore_all(db, [("backup", backup)])
    assert version_of(db, table.session_id) == backup["version"]
    as_if_restarted()
    assert tables_shown(client, night)[1, 2] == f"1 hand: {a} +20, {b} +2, {c} −22"
    assert kept_rows(app)[table.session_id] == (backup["version"], 1, "20 2 -22")


def figures_of(app, night_id: str):
    from scorekeeper.web import nights

    with app.test_request_context("/"):
        night = store.get_night(store.connect(app.config["DATABASE"]), night_id)
        as_if_restarted()
        return nights.night_standings(night)


NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


@settings(
    max_examples=examples(8),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(st.integers(0, 3), min_size=6, max_size=6), st.sampled_from(["placings", "counters"]))
def test_the_standings_are_the_same_with_and_without_the_kept_rows(app, played, rank_by):
    db = store.connect(app.config["DATABASE"])
    night = store.create_night(
        db, "Random club", NINE, "parlett", {}, {"per_counter": "1", "currency": "d"}, 2, rank_by=rank_by
    )
    for number in (1, 2):
        night = store.draw_round(db, night.id, number)
    tables = [t for r in night.rounds for t in r.tables]
    for table, hands in zip(tables, played):
        for version, hand in enumerate(HANDS[:hands], 1):
            store.add_hand(db, table.session_id, hand, version)
    settled = figures_of(app, night.id)  # nothing kept: every table settled, and kept
    assert len(kept_rows(app)) >= sum(1 for n in played if n)
    kept = figures_of(app, night.id)  # from the kept rows alone
    assert kept == settled
    assert [r.totals for rs in kept.rounds.values() for r in rs] == [
        r.totals for rs in settled.rounds.values() for r in rs
    ]
