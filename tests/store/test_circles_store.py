"""Circles in the store: members (renamed, merged, added), each session's seats,
sessions attached, backup → restore → backup giving the same files, expiry."""

from __future__ import annotations

import datetime
import json
import sqlite3

import pytest

from scorekeeper import create_app, store
from support.data import load_example


def app_in(folder):
    return create_app(
        {
            "DATABASE": str(folder / "gleek.db"),
            "SECRET_KEY": "x",
            "TESTING": True,
            "BACKUP_DIR": str(folder / "snapshots"),
        }
    )


@pytest.fixture
def db(app):
    return store.connect(app.config["DATABASE"])


def evening(players, played_on=None, hands=2):
    record = load_example("parlett-evening.json")
    record = dict(record, players=list(players), hands=record["hands"][:hands])
    if played_on:
        record["played_on"] = played_on
    return record


def test_a_circle_keeps_its_members_and_each_seat_its_member(db):
    circle = store.create_circle(db, " Thursday Gleek ", ["Ann", " Ben", "Cat ", "Dan"])
    assert circle.name == "Thursday Gleek" and [m.name for m in circle.members] == ["Ann", "Ben", "Cat", "Dan"]
    ann, ben, cat, dan = (m.id for m in circle.members)
    session = store.create_session(
        db, evening(["Ann", "Ben", "Cat"], "2026-11-14"), circle=(circle.id, [ann, ben, cat])
    )
    assert store.seats_of(db, session.id) == [
        store.Seat(0, "Ann", ann),
        store.Seat(1, "Ben", ben),
        store.Seat(2, "Cat", cat),
    ]
    assert store.get_session(db, session.id).players == ["Ann", "Ben", "Cat"]
    assert store.circle_of_session(db, session.id) == circle.id
    assert store.get_circle(db, circle.id).version == 2  # holding a session is a change of the circle


def test_a_new_circle_refuses_names_that_will_not_do_and_saves_nothing(db):
    for name, members, line in (
        ("", ["Ann", "Ben", "Cat"], "Give the circle a name, such as “Thursday Gleek”."),
        ("T", ["Ann", "Ben"], "A circle needs three members at least: Gleek is a game for three."),
        ("T", ["Ann", "Ben", "ann"], "ann is named twice: each member once."),
        # as a new session's players: composed and decomposed accents are one name
        (
            "T",
            ["Zo\u00eb", "Ben", "Zoe\u0308"],
            "Zo\u00eb is named twice: each member once.",
        ),  # named as kept: composed
        ("T", ["Ann", "Ben", "C" * 41], "A member's name is at most 40 characters (CCCCCCCCCCCCCCCCCCCC… has 41)."),
    ):
        with pytest.raises(store.Refused) as refused:
            store.create_circle(db, name, members)
        assert line in refused.value.lines()
    assert db.execute("select count(*) from circles").fetchone() == (0,)
    assert db.execute("select count(*) from members").fetchone() == (0,)


def test_rename_changes_no_seat_and_merge_moves_the_seats(db):
    circle = store.create_circle(db, "T", ["Ann", "Ben", "Cat", "Anne"])
    ann, ben, cat, anne = (m.id for m in circle.members)
    first = store.create_session(db, evening(["Ann", "Ben", "Cat"]), circle=(circle.id, [ann, ben, cat]))
    second = store.create_session(db, evening(["Anne", "Ben", "Cat"]))
    store.attach_session(db, circle.id, second.id, [anne, ben, cat])
    with pytest.raises(store.Refused) as refused:
        store.attach_session(db, circle.id, second.id, [anne, ben, cat])
    assert refused.value.lines() == ["This session is already one of the circle's evenings."]
    with pytest.raises(store.Refused) as refused:
        store.rename_member(db, circle.id, ben, " cat")
    assert refused.value.lines() == ["Cat is already a member: if they are one person, merge the two names instead."]
    assert store.rename_member(db, circle.id, ann, "Annie") == ("Ann", "Annie")
    assert store.seats_of(db, first.id)[0] == store.Seat(0, "Ann", ann)  # the name as played stays
    with pytest.raises(store.Refused) as refused:  # both sat at the first evening: two people
        store.merge_members(db, circle.id, ann, ben)
    assert refused.value.lines() == [
        "Annie and Ben both played on one evening: they are two people, not two names of one."
    ]
    assert store.merge_members(db, circle.id, ann, anne) == ("Annie", "Anne")
    assert [m.name for m in store.get_circle(db, circle.id).members] == ["Annie", "Ben", "Cat"]
    assert store.seats_of(db, second.id)[0] == store.Seat(0, "Anne", ann)
    assert [e.members for e in store.evenings(db, circle.id)] == [(ann, ben, cat)] * 2


def test_attaching_needs_three_different_members_of_the_circle(db):
    circle = store.create_circle(db, "T", ["Ann", "Ben", "Cat"])
    other = store.create_circle(db, "U", ["Ann", "Ben", "Cat"])
    ann, ben, cat = (m.id for m in circle.members)
    session = store.create_session(db, evening(["A", "B", "C"]))
    with pytest.raises(store.Refused) as refused:
        store.attach_session(db, circle.id, session.id, [ann, ann, cat])
    assert refused.value.lines() == ["Three different members, one per seat: Ann cannot sit twice."]
    with pytest.raises(store.Refused):
        store.attach_session(db, circle.id, session.id, [ann, ben, other.members[0].id])
    store.attach_session(db, circle.id, session.id, [cat, ann, ben])
    with pytest.raises(store.Refused) as refused:
        store.attach_session(db, other.id, session.id, [m.id for m in other.members])
    assert refused.value.lines() == ["This session is already an evening of another circle."]


def circle_with_payment(db):
    circle = store.create_circle(db, "Thursday Gleek", ["Ann", "Ben", "Cat", "Dan"], owner="127.0.0.1")
    ann, ben, cat, dan = (m.id for m in circle.members)
    one = store.create_session(db, evening(["Ann", "Ben", "Cat"], "2026-11-14"), circle=(circle.id, [ann, ben, cat]))
    two = store.create_session(db, evening(["Dan", "Ben", "Cat"], "2026-11-21"))
    store.attach_session(db, circle.id, two.id, [dan, ben, cat])
    from fractions import Fraction

    store.record_payment(db, circle.id, cat, ann, Fraction(41, 4), "counters", [one.id], "Ann", "2026-11-15")
    store.close_evenings(db, circle.id, [one.id])
    return circle, one, two


def test_backup_restore_backup_of_a_circle_gives_the_same_files(app, db, tmp_path):
    circle, one, two = circle_with_payment(db)
    store.rename_member(db, circle.id, circle.members[0].id, "Annie")
    first = tmp_path / "first"
    result = app.test_cli_runner().invoke(args=["backup", "--out", str(first)])
    assert result.exit_code == 0 and "Backed up 2 session(s) and 1 circle(s)" in result.output
    saved = json.loads((first / f"circle-{circle.id}.json").read_text())
    assert saved["members"] == ["Annie", "Ben", "Cat", "Dan"]
    assert [e["members"] for e in saved["evenings"]] == [[0, 1, 2], [3, 1, 2]]
    assert saved["payments"][0] | {"at": "x"} == {
        "payer": 2,
        "payee": 0,
        "amount": "41/4",
        "unit": "counters",
        "evenings": [one.id],
        "paid_by": "Ann",
        "paid_on": "2026-11-15",
        "at": "x",
    }
    fresh = app_in(tmp_path / "fresh")
    result = fresh.test_cli_runner().invoke(args=["restore", str(first)])
    assert result.exit_code == 0 and "Restored 2 session(s) and 1 circle(s)" in result.output, result.output
    second = tmp_path / "second"
    assert fresh.test_cli_runner().invoke(args=["backup", "--out", str(second)]).exit_code == 0
    assert {p.name: p.read_bytes() for p in second.glob("*.json")} == {
        p.name: p.read_bytes() for p in first.glob("*.json")
    }
    restored = store.connect(fresh.config["DATABASE"])
    assert store.closed_evenings(restored, circle.id).keys() == {one.id}
    # and restored over itself: the same again, one line saying so
    result = fresh.test_cli_runner().invoke(args=["restore", str(first)])
    assert result.exit_code == 0 and f"restored over the existing circle {circle.id}" in result.output


def test_a_circle_backup_without_its_sessions_is_refused_whole(app, db, tmp_path):
    circle, one, two = circle_with_payment(db)
    out = tmp_path / "full"
    assert app.test_cli_runner().invoke(args=["backup", "--out", str(out)]).exit_code == 0
    (out / f"{two.id}.json").unlink()
    broken = json.loads((out / f"circle-{circle.id}.json").read_text())
    broken["evenings"][0]["members"] = [0, 0, 1]
    (tmp_path / "bad.json").write_text(json.dumps(broken))
    fresh = app_in(tmp_path / "fresh")
    result = fresh.test_cli_runner().invoke(args=["restore", str(out)])
    assert result.exit_code == 1 and f"session {two.id} is neither here nor restored with the circle" in result.output
    result = fresh.test_cli_runner().invoke(args=["restore", str(tmp_path / "bad.json")])
    assert result.exit_code == 1 and "evenings[0]: members must be three different members" in result.output
    assert "Nothing was restored." in result.output
    conn = sqlite3.connect(fresh.config["DATABASE"])
    assert conn.execute("select count(*) from sessions").fetchone() == (0,)
    assert conn.execute("select count(*) from circles").fetchone() == (0,)


def test_expiry_never_removes_a_session_a_circle_holds(db, tmp_path):
    circle, one, two = circle_with_payment(db)
    alone = store.create_session(db, evening(["X", "Y", "Z"]))
    later = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=400)
    assert store.expire(db, 365, tmp_path, at=later) == [alone.id]
    assert len(store.evenings(db, circle.id)) == 2


def test_a_circles_archive_imports_as_the_same_circle_with_new_links(app, db):
    circle, one, two = circle_with_payment(db)
    data = store.archive_data(db, store.get_circle(db, circle.id))
    assert data["format"] == "gleek-circle/1" and data["members"] == ["Ann", "Ben", "Cat", "Dan"]
    assert [e["members"] for e in data["evenings"]] == [[0, 1, 2], [3, 1, 2]]
    assert data["evenings"][0]["settled"] is True and "settled" not in data["evenings"][1]
    assert data["evenings"][0]["record"] == store.get_session(db, one.id).record(with_agreement=True)
    assert data["payments"] == [
        {
            "payer": 2,
            "payee": 0,
            "amount": "41/4",
            "unit": "counters",
            "evenings": [0],
            "paid_by": "Ann",
            "paid_on": "2026-11-15",
        }
    ]
    copy = store.import_archive(db, json.loads(json.dumps(data)))
    assert copy.id != circle.id and copy.watch_id != circle.watch_id
    again = store.archive_data(db, copy)
    assert again == data  # the same circle, evening by evening
    assert not {e.session_id for e in store.evenings(db, copy.id)} & {one.id, two.id}  # new sessions


def test_an_archive_with_problems_is_refused_whole(db):
    circle, one, two = circle_with_payment(db)
    data = store.archive_data(db, store.get_circle(db, circle.id))
    data["evenings"][1]["members"] = [3, 3, 1]
    data["evenings"][0]["record"]["hands"][0]["dealer"] = 7
    data["payments"][0]["evenings"] = [5]
    with pytest.raises(store.Refused) as refused:
        store.import_archive(db, data)
    lines = refused.value.lines()
    assert (
        "evenings[1]: members must be three different members (their places in members) or null, one per seat" in lines
    )
    assert any(line.startswith("evenings[0]: record: hand 1: ") for line in lines)
    assert any(line.startswith("payments[0]: ") for line in lines)
    assert db.execute("select count(*) from circles").fetchone() == (1,)


def test_renaming_or_merging_members_changes_no_figure(app, db):
    """The season's figures name members by id: a rename or a merge of two names
    of one person leaves every amount as it was."""
    from scorekeeper.web.circle_figures import member_of, season_of

    circle = store.create_circle(db, "T", ["Ann", "Ben", "Cat", "Anne"])
    ann, ben, cat, anne = (m.id for m in circle.members)
    store.create_session(db, evening(["Ann", "Ben", "Cat"], "2026-11-14", hands=3), circle=(circle.id, [ann, ben, cat]))
    store.create_session(
        db, evening(["Anne", "Cat", "Ben"], "2026-11-21", hands=2), circle=(circle.id, [anne, cat, ben])
    )

    def figures():
        with app.test_request_context():
            season, _ = season_of(db, store.get_circle(db, circle.id))
        return {member_of(p): b for p, b in season.balances.items()}, season.hands

    before, hands = figures()
    assert hands == 5 and sum(before.values()) == 0
    store.rename_member(db, circle.id, ben, "Benjamin")
    assert figures() == (before, hands)
    store.merge_members(db, circle.id, ann, anne)
    merged, _ = figures()
    assert merged == {ann: before[ann] + before[anne], ben: before[ben], cat: before[cat]}


def test_the_archive_text_is_the_archive(app, db):
    """Written from the hands as stored where nothing is added to them, with the
    OKs where a session asks for them: the same document as ``archive_data``."""
    circle, one, two = circle_with_payment(db)
    confirmed = dict(evening(["Ann", "Ben", "Dan"], "2026-11-28"), confirm=True, title="With OKs")
    ids = [m.id for m in circle.members]
    three = store.create_session(db, confirmed, circle=(circle.id, [ids[0], ids[1], ids[3]]))
    store.give_verdict(db, three.id, 1, 1, store.fingerprint(three.hands[0]), "ok", "")
    circle = store.get_circle(db, circle.id)
    assert json.loads(store.archive(db, circle)) == store.archive_data(db, circle)
    assert store.archive_data(db, circle)["evenings"][2]["record"]["hands"][0]["agreed"] == [1]
