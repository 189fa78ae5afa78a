"""A circle's data stays whole whatever is asked of it: a merge never makes a
member pay himself (and a database an older release left with one still backs
up, restores and exports); every text of a circle's archive is checked as a
name is, and names are compared and kept composed (NFC); an archive's evenings
count against an address's sessions, and a circle nobody uses expires."""

from __future__ import annotations

import json
import re
import sqlite3
from fractions import Fraction

import pytest

from scorekeeper import create_app, store
from support.data import load_example


@pytest.fixture
def db(app):
    return store.connect(app.config["DATABASE"])


def evening(players, played_on=None, hands=2, stake=None):
    record = load_example("parlett-evening.json")
    record = dict(record, players=list(players), hands=record["hands"][:hands])
    record.pop("played_on", None)
    if played_on:
        record["played_on"] = played_on
    if stake:
        record["stake"] = stake
    return record


def problems(page: str) -> list[str]:
    import html

    return [html.unescape(re.sub(r"<[^>]+>", "", p)) for p in re.findall(r'class="problem" role="alert">(.*?)</p>', page)]


def dan_paid_ben(db):
    """Dan played the first evening, Ben the second (never together); Dan paid Ben 2s 11d."""
    circle = store.create_circle(db, "Thursday Gleek", ["Ann", "Ben", "Cat", "Dan"])
    ann, ben, cat, dan = (m.id for m in circle.members)
    penny = {"per_counter": "1", "currency": "d"}
    one = store.create_session(db, evening(["Ann", "Cat", "Dan"], "2026-11-14", stake=penny),
                               circle=(circle.id, [ann, cat, dan]))
    two = store.create_session(db, evening(["Ann", "Ben", "Cat"], "2026-11-21", stake=penny),
                               circle=(circle.id, [ann, ben, cat]))
    store.record_payment(db, circle.id, dan, ben, Fraction(35), "d", [one.id, two.id], "Ann", "2026-11-28")
    return store.get_circle(db, circle.id), one, two


def table_counts(db) -> tuple:
    return tuple(db.execute(f"select count(*) from {t}").fetchone()[0] for t in ("members", "payments")) + (
        db.execute("select group_concat(coalesce(member_id, '-'), ',') from seats").fetchone()[0],)


def test_merging_two_members_one_of_whom_paid_the_other_is_refused_naming_the_payment(app, client, db):
    circle, one, two = dan_paid_ben(db)
    ann, ben, cat, dan = (m.id for m in circle.members)
    before = table_counts(db)
    response = client.post(f"/c/{circle.id}/merge", data={"keep": ben, "merged": dan})
    assert response.status_code == 422
    assert problems(response.get_data(as_text=True)) == [
        "Dan paid Ben 2s 11d on 2026-11-28, marked by Ann: they are two people, not two names of one "
        "(if that payment was marked by mistake, take it back first)."]
    assert table_counts(db) == before                                   # nothing changed
    with pytest.raises(store.Refused):                                  # either way round
        store.merge_members(db, circle.id, dan, ben)
    # taken back, the two names merge into one
    store.undo_payment(db, circle.id, store.payments(db, circle.id)[0].id)
    assert client.post(f"/c/{circle.id}/merge", data={"keep": ben, "merged": dan}).status_code == 303
    assert [m.name for m in store.get_circle(db, circle.id).members] == ["Ann", "Ben", "Cat"]


def merged_as_an_older_release_did(db, circle, keep: int, merged: int) -> None:
    """What merge_members did before it looked at payments: Dan's payment to Ben became Ben's to Ben."""
    with store.writing(db):
        db.execute("update seats set member_id = ? where member_id = ?", [keep, merged])
        db.execute("update payments set payer = ? where payer = ?", [keep, merged])
        db.execute("update payments set payee = ? where payee = ?", [keep, merged])
        db.execute("delete from members where id = ?", [merged])
        db.execute("update circles set version = version + 1 where id = ?", [circle.id])


def test_a_circle_holding_a_payment_from_a_member_to_himself_still_backs_up_restores_and_exports(app, db, tmp_path):
    circle, one, two = dan_paid_ben(db)
    ann, ben, cat, dan = (m.id for m in circle.members)
    merged_as_an_older_release_did(db, circle, ben, dan)
    first = tmp_path / "first"
    result = app.test_cli_runner().invoke(args=["backup", "--out", str(first)])
    assert result.exit_code == 0, result.output
    assert "Backed up 2 session(s) and 1 circle(s)" in result.output
    saved = json.loads((first / f"circle-{circle.id}.json").read_text())
    assert [(p["payer"], p["payee"], p["amount"]) for p in saved["payments"]] == [(1, 1, "35")]
    fresh = create_app({"DATABASE": str(tmp_path / "fresh.db"), "SECRET_KEY": "x", "TESTING": True,
                        "BACKUP_DIR": str(tmp_path / "snapshots")})
    result = fresh.test_cli_runner().invoke(args=["restore", str(first)])
    assert result.exit_code == 0 and "Restored 2 session(s) and 1 circle(s)" in result.output, result.output
    second = tmp_path / "second"
    assert fresh.test_cli_runner().invoke(args=["backup", "--out", str(second)]).exit_code == 0
    assert {p.name: p.read_bytes() for p in second.glob("*.json")} == {p.name: p.read_bytes() for p in first.glob("*.json")}
    # the circle's export imports again, payment and all
    exported = json.loads(store.archive(db, store.get_circle(db, circle.id)))
    copy = store.import_archive(db, exported)
    assert store.archive_data(db, copy) == exported
