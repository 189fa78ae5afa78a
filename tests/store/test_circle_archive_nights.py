"""A circle's archive (``gleek-circle/1``, real SQLite) carries its club nights: each
table names its evening, each player the member; imported, the new circle has the
same nights (new links), their tables its new evenings, the members at the seats.
An archive whose night names an evening twice, or a member not in the circle, is
refused with its line and nothing saved."""

from __future__ import annotations

import copy
import json

import pytest

from scorekeeper import store
from support.nights import a_played_night

MEMBERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]


@pytest.fixture
def db(app):
    return store.connect(app.config["DATABASE"])


def counts(db) -> tuple:
    return tuple(
        db.execute(f"select count(*) from {t}").fetchone()[0]
        for t in ("circles", "nights", "night_players", "night_tables", "sessions")
    )


def a_circle_with_a_night(db) -> tuple[store.Circle, store.Night]:
    circle = store.create_circle(db, "Thursday Gleek", MEMBERS)
    night = a_played_night(db, circle.id, players=[(m.name, m.id) for m in circle.members])
    return store.get_circle(db, circle.id), night


def test_the_archive_carries_the_circles_nights_and_its_import_restores_them(db):
    circle, night = a_circle_with_a_night(db)
    text = store.archive(db, circle)
    data = json.loads(text)
    assert data == json.loads(json.dumps(store.archive_data(db, circle)))  # the two writers agree
    (kept,) = data["nights"]
    assert kept["name"] == "Friday club" and [p["member"] for p in kept["players"]] == list(range(10))
    assert night.id not in text and night.watch_id not in text

    copied = store.import_archive(db, data)
    (new,) = store.nights_of_circle(db, copied.id)
    restored = store.get_night(db, new["id"])
    assert restored.id != night.id and restored.circle_id == copied.id
    assert store.night_data(db, restored) == store.night_data(db, night)
    evenings = {e.session_id for e in store.evenings(db, copied.id)}
    assert {t.session_id for r in restored.rounds for t in r.tables} == evenings
    names = {m.id: m.name for m in copied.members}
    assert [names[p.member_id] for p in restored.players] == MEMBERS


def change_evening(data):
    data["nights"][0]["rounds"][1]["tables"][0]["evening"] = data["nights"][0]["rounds"][0]["tables"][0]["evening"]


def change_member(data):
    data["nights"][0]["players"][0]["member"] = 10


@pytest.mark.parametrize(
    "change, line",
    [
        (change_evening, "nights[0]: evenings[{e}] is a table of nights[0] already: an evening is one table"),
        (change_member, "nights[0]: players[0]: member must be a member's place in members, or null"),
    ],
)
def test_an_archive_with_a_hostile_night_is_refused_and_nothing_saved(db, change, line):
    circle, _ = a_circle_with_a_night(db)
    data = copy.deepcopy(json.loads(store.archive(db, circle)))
    change(data)
    before = counts(db)
    with pytest.raises(store.Refused) as refused:
        store.import_archive(db, data)
    assert line.format(e=data["nights"][0]["rounds"][0]["tables"][0]["evening"]) in refused.value.lines()
    assert counts(db) == before
