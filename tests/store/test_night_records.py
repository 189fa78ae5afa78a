"""A club night's record (``gleek-night/1``, real SQLite): the whole night written
out and imported again as a new night with new links (its tables new sessions with
the same hands, the same seats, byes, leavers and end times), and hostile records
refused with a line naming what is wrong, nothing saved."""

from __future__ import annotations

import copy
import json

import pytest

from scorekeeper import store
from support.database import delete_session
from support.nights import a_played_night


@pytest.fixture
def db(app):
    return store.connect(app.config["DATABASE"])


def counts(db) -> tuple:
    return tuple(
        db.execute(f"select count(*) from {t}").fetchone()[0]
        for t in ("nights", "night_players", "night_rounds", "night_tables", "night_byes", "sessions", "hands")
    )


def test_a_night_written_out_and_imported_is_the_same_night_with_new_links(db):
    night = a_played_night(db)
    data = store.night_data(db, night)
    assert data["format"] == "gleek-night/1" and data["rank_by"] == "counters" and data["seed"] == night.seed
    assert [r["ends_at"] for r in data["rounds"]] == [None, "2026-12-04T21:30:00+00:00"]
    assert sum(p["left_after"] == 1 for p in data["players"]) == 1
    text = store.night_text(db, night)
    assert "Ζωή" in text and "王芳" in text
    links = (
        {night.id, night.watch_id}
        | {t.session_id for r in night.rounds for t in r.tables}
        | {store.get_session(db, t.session_id).watch_id for r in night.rounds for t in r.tables}
    )
    assert not any(link in text for link in links)  # the record gives no link away

    copied = store.import_night(db, json.loads(text), owner="10.0.0.9")
    assert copied.id != night.id and copied.watch_id != night.watch_id and copied.circle_id is None
    assert store.night_data(db, copied) == data
    old = [t.session_id for r in night.rounds for t in r.tables]
    new = [t.session_id for r in copied.rounds for t in r.tables]
    assert len(new) == len(old) and not set(new) & set(old)
    for before, after in zip(old, new):
        assert store.get_session(db, after).hands == store.get_session(db, before).hands
    assert [(p.name, p.left_after) for p in copied.players] == [(p.name, p.left_after) for p in night.players]


def test_a_table_whose_session_was_deleted_comes_back_deleted(db):
    night = a_played_night(db)
    gone = night.rounds[1].tables[1]
    delete_session(db, gone.session_id)  # as expiry removes an untouched session
    data = store.night_data(db, store.get_night(db, night.id))
    assert data["rounds"][1]["tables"][1]["record"] is None
    copied = store.import_night(db, data)
    assert copied.rounds[1].tables[1].session_gone
    assert not copied.rounds[1].tables[0].session_gone


def test_the_tables_count_against_the_sessions_an_address_may_keep(db):
    data = store.night_data(db, a_played_night(db))
    tables = sum(len(r["tables"]) for r in data["rounds"])
    before = counts(db)
    with pytest.raises(store.StorageFull) as full:
        store.import_night(db, data, owner="10.0.0.9", keep_limit=tables - 1)
    assert str(full.value) == (
        f"This club night has {tables} tables, each a session here; this address keeps 0 "
        f"sessions and may keep {tables - 1}, so there is room for {tables - 1} more. "
        "Nothing was imported."
    )
    assert counts(db) == before
    store.import_night(db, data, owner="10.0.0.9", keep_limit=tables)


def hostile(data: dict, change) -> dict:
    data = copy.deepcopy(data)
    change(data)
    return data


def seat(data, round_, table, seats):
    data["rounds"][round_]["tables"][table]["seats"] = seats


@pytest.mark.parametrize(
    "change, line",
    [
        (
            lambda d: seat(d, 0, 0, [0, 1, 99]),
            "round 1, table 1: seats must be three different players of the night (their places in players), "
            "not [0, 1, 99]",
        ),
        (
            lambda d: d["rounds"][0]["tables"][1].update(
                seats=d["rounds"][0]["tables"][0]["seats"], record=d["rounds"][0]["tables"][0]["record"]
            ),
            "round 1: {a} is seated at table 1 and at table 2: each player once a round",
        ),
        (
            lambda d: d["rounds"][0]["tables"][0]["record"].update(rulebook="bridge"),
            "round 1, table 1: its session's record: rulebook must be one of parlett, wits1671, modern, cotton1674, "
            'not "bridge"',
        ),
        (
            lambda d: d["rounds"][0]["tables"][0]["record"].update(players=["Xavier", "Ben", "Cat"]),
            "round 1, table 1: its session's players are Xavier, Ben, Cat, not the players seated there ({seated})",
        ),
        (
            lambda d: d["rounds"][0].update(byes=[d["rounds"][0]["tables"][0]["seats"][0]]),
            "round 1: {a} is seated at table 1 and sits out too: each player once a round",
        ),
        (lambda d: d.update(format="gleek-circle/1"), 'format must be "gleek-night/1", not "gleek-circle/1"'),
        (
            lambda d: d["players"].append({"name": "ann", "left_after": None}),
            "players: Ann and ann are one name: each player once",
        ),
        (lambda d: d.update(rounds_planned=1), "rounds must be a list of at most 1 rounds (rounds_planned)"),
    ],
)
def test_a_hostile_night_record_is_refused_naming_what_is_wrong_and_nothing_saved(db, change, line):
    data = store.night_data(db, a_played_night(db))
    first = data["rounds"][0]["tables"][0]["seats"]
    names = [p["name"] for p in data["players"]]
    line = line.format(a=names[first[0]], seated=", ".join(names[s] for s in first))
    before = counts(db)
    with pytest.raises(store.Refused) as refused:
        store.import_night(db, hostile(data, change))
    assert line in refused.value.lines(), refused.value.lines()
    assert counts(db) == before
