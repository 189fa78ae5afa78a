"""A circle's data stays whole whatever is asked of it: a merge never makes a
member pay himself (and a database an older release left with one still backs
up, restores and exports); every text of a circle's archive is checked as a
name is, and names are compared and kept composed (NFC); an archive's evenings
count against an address's sessions, and a circle nobody uses expires."""

from __future__ import annotations

import datetime
import html
import io
import json
import re
import sqlite3
from fractions import Fraction

import pytest

from scorekeeper import create_app, store
from support.data import load_example
from support.web import hand_fields


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
    return [
        html.unescape(re.sub(r"<[^>]+>", "", p)) for p in re.findall(r'class="problem" role="alert">(.*?)</p>', page)
    ]


def dan_paid_ben(db):
    """Dan played the first evening, Ben the second (never together); Dan paid Ben 2s 11d."""
    circle = store.create_circle(db, "Thursday Gleek", ["Ann", "Ben", "Cat", "Dan"])
    ann, ben, cat, dan = (m.id for m in circle.members)
    penny = {"per_counter": "1", "currency": "d"}
    one = store.create_session(
        db, evening(["Ann", "Cat", "Dan"], "2026-11-14", stake=penny), circle=(circle.id, [ann, cat, dan])
    )
    two = store.create_session(
        db, evening(["Ann", "Ben", "Cat"], "2026-11-21", stake=penny), circle=(circle.id, [ann, ben, cat])
    )
    store.record_payment(db, circle.id, dan, ben, Fraction(35), "d", [one.id, two.id], "Ann", "2026-11-28")
    return store.get_circle(db, circle.id), one, two


def table_counts(db) -> tuple:
    return tuple(db.execute(f"select count(*) from {t}").fetchone()[0] for t in ("members", "payments")) + (
        db.execute("select group_concat(coalesce(member_id, '-'), ',') from seats").fetchone()[0],
    )


def test_merging_two_members_one_of_whom_paid_the_other_is_refused_naming_the_payment(app, client, db):
    circle, one, two = dan_paid_ben(db)
    ann, ben, cat, dan = (m.id for m in circle.members)
    before = table_counts(db)
    response = client.post(f"/c/{circle.id}/merge", data={"keep": ben, "merged": dan})
    assert response.status_code == 422
    assert problems(response.get_data(as_text=True)) == [
        "Dan paid Ben 2s 11d on 2026-11-28, marked by Ann: they are two people, not two names of one "
        "(if that payment was marked by mistake, take it back first)."
    ]
    assert table_counts(db) == before  # nothing changed
    with pytest.raises(store.Refused):  # either way round
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
    fresh = create_app(
        {
            "DATABASE": str(tmp_path / "fresh.db"),
            "SECRET_KEY": "x",
            "TESTING": True,
            "BACKUP_DIR": str(tmp_path / "snapshots"),
        }
    )
    result = fresh.test_cli_runner().invoke(args=["restore", str(first)])
    assert result.exit_code == 0 and "Restored 2 session(s) and 1 circle(s)" in result.output, result.output
    second = tmp_path / "second"
    assert fresh.test_cli_runner().invoke(args=["backup", "--out", str(second)]).exit_code == 0
    assert {p.name: p.read_bytes() for p in second.glob("*.json")} == {
        p.name: p.read_bytes() for p in first.glob("*.json")
    }
    # the circle's export imports again, payment and all
    exported = json.loads(store.archive(db, store.get_circle(db, circle.id)))
    copy = store.import_archive(db, exported)
    assert store.archive_data(db, copy) == exported


def archive_of(db, circle) -> dict:
    return json.loads(store.archive(db, store.get_circle(db, circle.id)))


def import_file(client, text: bytes):
    return client.post("/circles/import", data={"file": (io.BytesIO(text), "circle.json")})


@pytest.mark.parametrize(
    "paid_by, line",
    [
        ("\ud800", "payments[0]: paid_by (who marked it paid) must be plain text."),
        ("A\x00<b>x</b>\n", "payments[0]: paid_by (who marked it paid) must be plain text."),
        ("  ", "payments[0]: paid_by (who marked it paid) cannot be empty."),
        (
            "A" * 41,
            "payments[0]: paid_by (who marked it paid) is at most 40 characters (AAAAAAAAAAAAAAAAAAAA… has 41).",
        ),
    ],
)
def test_who_marked_a_payment_in_an_archive_is_checked_as_a_name_and_nothing_is_saved(client, db, paid_by, line):
    circle, one, two = dan_paid_ben(db)
    data = archive_of(db, circle)
    data["payments"][0]["paid_by"] = paid_by
    before = db.execute("select count(*) from circles").fetchone()
    response = import_file(client, json.dumps(data).encode())  # a lone surrogate as JSON writes it: \ud800
    assert response.status_code == 422
    assert line in response.get_data(as_text=True).replace("&lt;", "<").replace("&gt;", ">")
    assert db.execute("select count(*) from circles").fetchone() == before


def test_an_archive_payment_on_a_day_that_never_was_is_refused(db):
    circle, one, two = dan_paid_ben(db)
    data = archive_of(db, circle)
    data["payments"][0]["paid_on"] = "2026-02-30"
    with pytest.raises(store.Refused) as refused:
        store.import_archive(db, data)
    assert [line for line in refused.value.lines() if line.startswith("payments[0]")]


COMPOSED, DECOMPOSED = "Jos\u00e9", "Jose\u0301"  # "José" as one letter é, and as e + a combining accent


def test_names_that_differ_only_in_how_an_accent_is_typed_are_one_member(client, db):
    assert COMPOSED != DECOMPOSED
    with pytest.raises(store.Refused) as refused:
        store.create_circle(db, "T", ["Ann", COMPOSED, "Cat", DECOMPOSED])
    assert refused.value.lines() == [f"{COMPOSED} is named twice: each member once."]
    circle = store.create_circle(db, "T", ["Ann", DECOMPOSED, "Cat", "Zoe\u0308 "])
    assert [m.name for m in circle.members] == ["Ann", COMPOSED, "Cat", "Zo\u00eb"]  # kept composed
    ann, jose, cat, zoe = (m.id for m in circle.members)
    for change in (
        lambda: store.add_member(db, circle.id, COMPOSED.upper()),
        lambda: store.rename_member(db, circle.id, ann, DECOMPOSED),
    ):
        with pytest.raises(store.Refused) as refused:
            change()
        assert refused.value.lines() == [
            f"{COMPOSED} is already a member: if they are one person, merge the two names instead."
        ]
    assert store.add_member(db, circle.id, "Ren\u0303e").name == "Re\u00f1e"
    # an evening whose players were typed either way is matched to the members
    played = store.create_session(db, evening([DECOMPOSED, "Cat", "Zo\u00eb"]))
    assert store.likely_members(store.get_circle(db, circle.id), played.players) == [jose, cat, zoe]
    page = client.get(f"/c/{circle.id}/attach/{played.id}").get_data(as_text=True)
    assert re.findall(r'<option value="([^"]+)" selected', page) == [str(jose), str(cat), str(zoe)]
    # an archive naming one member both ways is refused whole
    data = archive_of(db, circle)
    data["members"].append(DECOMPOSED)
    response = import_file(client, json.dumps(data).encode())
    assert response.status_code == 422 and f"members: {COMPOSED} is named twice" in response.get_data(as_text=True)


def test_an_earlier_releases_members_are_kept_composed_and_two_that_look_the_same_told_apart(tmp_path):
    """m013: the names an earlier release stored as typed are composed; where that
    makes two members of a circle one name, the later is "José (2)" (nothing lost)."""
    path = tmp_path / "old.db"
    app = create_app(
        {"DATABASE": str(path), "SECRET_KEY": "x", "TESTING": True, "BACKUP_DIR": str(tmp_path / "snapshots")}
    )
    db = store.connect(path)
    circle = store.create_circle(db, "T", ["Ann", "Ben", "Cat"])
    db.close()
    app.extensions["scorekeeper.keeper"].close()
    con = sqlite3.connect(path)
    con.executemany(
        "insert into members (circle_id, name, created_at) values (?, ?, 'x')",
        [(circle.id, COMPOSED), (circle.id, DECOMPOSED), (circle.id, "Zoe\u0308")],
    )
    con.execute("delete from _sqlite_migrations where name = 'm013_member_names_composed'")
    con.commit()
    con.close()
    store.initialise(path)
    db = store.connect(path)
    assert [m.name for m in store.get_circle(db, circle.id).members] == [
        "Ann",
        "Ben",
        "Cat",
        COMPOSED,
        f"{COMPOSED} (2)",
        "Zo\u00eb",
    ]
    db.close()
    result = app.test_cli_runner().invoke(args=["backup", "--out", str(tmp_path / "full")])
    assert result.exit_code == 0, result.output


FRONT = {"REMOTE_ADDR": "127.0.0.1"}  # the HTTPS front, telling the app who asked


def hosted_app(tmp_path, **config):
    return create_app(
        {
            "DATABASE": str(tmp_path / "hosted.db"),
            "SECRET_KEY": "x",
            "TESTING": True,
            "BACKUP_DIR": str(tmp_path / "snapshots"),
            "PROXY_COUNT": 1,
            "PUBLIC_URL": "https://scores.example.org",
            "SESSIONS_PER_MINUTE": 1_000,
            **config,
        }
    )


def ask(client, path, address, data=None):
    """A request through the front from a phone at ``address`` (GET, or POST with ``data``)."""
    headers = {
        "Host": "localhost",
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "scores.example.org",
        "X-Forwarded-For": address,
    }
    if data is None:
        return client.get(path, environ_base=FRONT, headers=headers)
    return client.post(path, data=data, environ_base=FRONT, headers=headers)


def archive_with(db, evenings: int) -> bytes:
    circle = store.create_circle(db, "Thursday Gleek", ["Ann", "Ben", "Cat"])
    seats = [m.id for m in circle.members]
    for day in range(evenings):
        store.create_session(
            db, evening(["Ann", "Ben", "Cat"], f"2026-11-{day + 1:02d}", hands=1), circle=(circle.id, seats)
        )
    return store.archive(db, store.get_circle(db, circle.id)).encode()


def test_an_archives_evenings_count_against_the_sessions_an_address_may_keep(tmp_path):
    app = hosted_app(tmp_path, SESSIONS_PER_ADDRESS=5)
    client, db = app.test_client(), store.connect(app.config["DATABASE"])
    phone = "198.51.100.1"
    new = {
        "player_0": "Ann",
        "player_1": "Ben",
        "player_2": "Cat",
        "rulebook": "parlett",
        "first_dealer": "0",
        "stake": "",
    }
    assert [ask(client, "/sessions", phone, new).status_code for _ in range(2)] == [303, 303]
    four, three = archive_with(db, 4), archive_with(db, 3)
    before = [db.execute(f"select count(*) from {t}").fetchone()[0] for t in ("circles", "sessions", "members")]
    refused = ask(client, "/circles/import", phone, {"file": (io.BytesIO(four), "circle.json")})
    assert refused.status_code == 507
    assert (
        "This archive holds 4 evenings, each a session here; this address keeps 2 sessions and may keep 5, "
        "so there is room for 3 more. Nothing was imported."
    ) in refused.get_data(as_text=True)
    assert [db.execute(f"select count(*) from {t}").fetchone()[0] for t in ("circles", "sessions", "members")] == before
    assert ask(client, "/circles/import", phone, {"file": (io.BytesIO(three), "circle.json")}).status_code == 303
    assert db.execute("select count(*) from sessions where creator = ?", [phone]).fetchone() == (5,)
    assert ask(client, "/sessions", phone, new).status_code == 507  # and that is the address's all


def aged(path, days: int, circle_id: str) -> None:
    """The circle and every evening of it last changed ``days`` ago."""
    stamp = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=days)).isoformat(timespec="seconds")
    con = sqlite3.connect(path)
    with con:
        con.execute("update circles set updated_at = ? where id = ?", [stamp, circle_id])
        con.execute(
            "update sessions set updated_at = ? where id in "
            "(select session_id from circle_sessions where circle_id = ?)",
            [stamp, circle_id],
        )
        con.execute(
            "update drafts set updated_at = ? where session_id in "
            "(select session_id from circle_sessions where circle_id = ?)",
            [stamp, circle_id],
        )
    con.close()


def test_a_circle_nobody_has_used_for_the_expiry_goes_with_its_evenings(tmp_path):
    app = hosted_app(tmp_path)
    client, path = app.test_client(), app.config["DATABASE"]
    phone = "198.51.100.1"

    def circle_with_evenings():
        made = ask(client, "/circles", phone, {"circle_name": "Thursday Gleek", "circle_members": "Ann\nBen\nCat\nDan"})
        circle = made.headers["Location"]
        ids = re.findall(r'<option value="(\d+)"', ask(client, circle, phone).get_data(as_text=True))[:4]
        evenings = []
        for seats, day in (((0, 1, 2), "2026-11-14"), ((3, 1, 2), "2026-11-21")):
            started = ask(
                client,
                circle + "/sessions",
                phone,
                {
                    "seat_0": ids[seats[0]],
                    "seat_1": ids[seats[1]],
                    "seat_2": ids[seats[2]],
                    "rulebook": "parlett",
                    "first_dealer": "0",
                    "stake": "1d",
                    "played_on": day,
                },
            )
            assert started.status_code == 303, started.data
            evenings.append(started.headers["Location"])
            for version, hand in enumerate(load_example("parlett-evening.json")["hands"][:2], 1):
                assert ask(client, evenings[-1] + "/hands", phone, hand_fields(hand, version)).status_code == 303
        owed = ask(client, circle + "/owed", phone).get_data(as_text=True)
        form = re.search(r'<form method="post" action="[^"]+/owed/pay".*?</form>', owed, re.S).group(0)
        fields = dict(re.findall(r'name="(payer|payee|currency|evenings|amount|based_on)" value="([^"]*)"', form))
        assert (
            ask(client, circle + "/owed/pay", phone, dict(fields, paid_by=ids[0], paid_on="2026-11-28")).status_code
            == 303
        )
        return circle, evenings

    unused, unused_evenings = circle_with_evenings()
    played, played_evenings = circle_with_evenings()
    kept, kept_evenings = circle_with_evenings()
    aged(path, 400, unused.rsplit("/", 1)[1])
    aged(path, 400, played.rsplit("/", 1)[1])
    con = sqlite3.connect(path)
    with con:  # one of its evenings was changed a day ago: the circle is in use
        con.execute(
            "update sessions set updated_at = datetime('now', '-1 day') where id = ?",
            [played_evenings[1].rsplit("/", 1)[1]],
        )
    con.close()
    snapshots = tmp_path / "snapshots"
    gone = [e.rsplit("/", 1)[1] for e in unused_evenings]
    assert all((snapshots / i).is_dir() for i in gone)
    app.extensions["scorekeeper.expiry"].last = -1e9  # due now
    ask(client, "/", phone).close()  # the check runs once the response has gone
    assert ask(client, unused, phone).status_code == 404
    assert [ask(client, e, phone).status_code for e in unused_evenings] == [404, 404]
    assert not any((snapshots / i).exists() for i in gone)
    for page in (played, kept, *played_evenings, *kept_evenings):
        assert ask(client, page, phone).status_code == 200, page
    con = sqlite3.connect(path)
    circle_id = unused.rsplit("/", 1)[1]
    left = {
        t: con.execute(f"select count(*) from {t} where circle_id = ?", [circle_id]).fetchone()[0]
        for t in ("members", "payments", "circle_sessions", "circle_pin_failures")
    }
    left["seats"] = con.execute(
        f"select count(*) from seats where session_id in ({','.join('?' * len(gone))})", gone
    ).fetchone()[0]
    assert left == {"members": 0, "payments": 0, "circle_sessions": 0, "circle_pin_failures": 0, "seats": 0}
    assert con.execute("select count(*) from circles").fetchone() == (2,)
    con.close()
