"""store/kept_figures.py on a real SQLite file: what each evening's figures are kept by,
the kept rows read by evening or by circle, replaced, and written inside a caller's
transaction (a payment being marked) or in their own."""

from __future__ import annotations

import pytest

from scorekeeper import store
from support.sessions import circle_of_evenings


@pytest.fixture
def db(app):
    return store.connect(app.config["DATABASE"])


def test_each_evening_is_kept_by_its_version_and_members_and_its_row_replaced(db):
    circle, sessions = circle_of_evenings(db, 3, 7)
    evenings = store.evening_versions(db, circle.id)
    assert [e.session_id for e in evenings] == sessions
    members = {m.name: m.id for m in circle.members}
    assert evenings[0] == store.EveningVersion(sessions[0], 1, ",".join(str(members[n]) for n in ("Ann", "Ben", "Cat")))
    assert store.evenings_state(db, circle.id)[:2] == (3, 3)
    store.keep_rows(db, [store.KeptRow(*e, "code", b"first") for e in evenings])
    store.keep_rows(db, [store.KeptRow(*evenings[1], "code", b"again")])
    assert store.kept_rows_of(db, [sessions[1]]) == [store.KeptRow(*evenings[1], "code", b"again")]
    assert sorted(r.data for r in store.kept_rows_of_circle(db, circle.id)) == [b"again", b"first", b"first"]


def test_rows_kept_inside_a_write_transaction_go_with_it(db):
    circle, sessions = circle_of_evenings(db, 1, 7)
    (evening,) = store.evening_versions(db, circle.id)
    with pytest.raises(RuntimeError):
        with store.writing(db):
            store.keep_rows(db, [store.KeptRow(*evening, "code", b"x")])
            raise RuntimeError("the payment refused")
    assert store.kept_rows_of_circle(db, circle.id) == []
    with store.writing(db):
        store.keep_rows(db, [store.KeptRow(*evening, "code", b"x")])
    assert [r.data for r in store.kept_rows_of(db, sessions)] == [b"x"]
