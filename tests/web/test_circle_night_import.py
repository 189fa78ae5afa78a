"""A club night's sheet (or its ``gleek-night/1`` JSON) dropped where a circle attaches
an evening's file (the Flask test client, real SQLite): a night of this circle, its
players matched to the members by name (trimmed, composed, any case), its tables
evenings of the circle; the same sheet twice is one night ("already a night of" the circle);
players who are no members are asked about (a member, a new member or a guest), as an
attached session's names are; the circle's PIN honoured."""

from __future__ import annotations

import html
import io
import re
import sqlite3
import unicodedata

import pytest
from werkzeug.security import generate_password_hash

from scorekeeper import store
from support.nights import night_app, TEN, a_played_night


@pytest.fixture
def app(tmp_path, migrated_database):
    return night_app(tmp_path, migrated_database)


@pytest.fixture
def db(app):
    return store.connect(app.config["DATABASE"])


def counts(app) -> tuple:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return tuple(
            conn.execute(f"select count(*) from {t}").fetchone()[0]
            for t in ("nights", "night_players", "night_tables", "sessions", "hands", "members", "circle_sessions")
        )


def upload(client, circle_id: str, data: bytes, filename: str):
    return client.post(
        f"/c/{circle_id}/import", data={"file": (io.BytesIO(data), filename)}, content_type="multipart/form-data"
    )


def flashed(page: str) -> list[str]:
    return [html.unescape(p) for p in re.findall(r'<p class="flash" role="status">([^<]*)</p>', page)]


def problems(page: str) -> list[str]:
    return [html.unescape(p) for p in re.findall(r'class="problem" role="alert">([^<]*)</p>', page)]


def the_sheet(app, db, kind: str) -> tuple[bytes, str]:
    """A circle's night played elsewhere (``Thursday Gleek`` on another phone): its sheet PDF or its JSON."""
    played_at = store.create_circle(db, "Thursday Gleek", TEN)
    night = a_played_night(db, played_at.id, players=[(m.name, m.id) for m in played_at.members])
    if kind == "pdf":
        return app.test_client().get(f"/night/{night.id}/sheet.pdf").data, "night.pdf"
    return store.night_text(db, night).encode(), "night.json"


@pytest.mark.parametrize("kind", ["pdf", "json"])
def test_a_nights_sheet_dropped_on_a_circle_is_a_night_of_the_circle_its_tables_evenings(app, db, kind):
    data, filename = the_sheet(app, db, kind)
    # the members as this circle spells them: other cases, Zoe's name decomposed
    spelled = ["ANN", "ben", " Cat ", "dan", "EVE", "Fay", "gus", "hal", unicodedata.normalize("NFD", "ζωή"), "王芳"]
    circle = store.create_circle(db, "Friday regulars", spelled + ["Kit"])
    client = app.test_client()
    response = upload(client, circle.id, data, filename)
    assert response.status_code == 303, problems(response.text)
    night = store.get_night(db, response.headers["Location"].removeprefix("/night/"))
    assert night.circle_id == circle.id and night.name == "Friday club"
    member_of = {m.id: m.name for m in circle.members}
    assert [(p.name, member_of[p.member_id]) for p in night.players] == list(
        zip(TEN, [m.name for m in circle.members[:10]])
    )
    tables = [t for r in night.rounds for t in r.tables]
    assert len(tables) == 6
    evenings = {e.session_id: e for e in store.evenings(db, circle.id)}
    assert set(evenings) == {t.session_id for t in tables}  # every table an evening of the circle
    for table in tables:
        assert evenings[table.session_id].members == tuple(night.player(p).member_id for p in table.seats)
    page = client.get(response.headers["Location"]).text
    assert flashed(page) == [
        "Friday club is imported as a night of Friday regulars: 10 players, 2 rounds drawn, "
        "6 tables, each a new evening of the circle with a link of its own. Keep this page's "
        "link: it runs the night."
    ]
    assert "without the circle" not in page
    assert f'href="/night/{night.id}"' in client.get("/").text  # this browser keeps the night
    ledger = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(client.get(f"/c/{circle.id}/ledger").text)))
    assert "Over the season (3 evenings, 4 hands)" in ledger  # the tables played, in the circle's season

    # the same sheet again (a double tap, or dropped a second time): the same night, nothing more saved
    before = counts(app)
    again = upload(client, circle.id, data, filename)
    assert again.status_code == 303 and again.headers["Location"] == f"/night/{night.id}"
    assert counts(app) == before
    assert flashed(client.get(again.headers["Location"]).text) == [
        "Friday club is already a night of Friday regulars: opened it, no copy made."
    ]


def selects(page: str) -> dict:
    """Each asked player's name -> (field, the options' texts, the one selected)."""
    found = {}
    for name, field, options in re.findall(
        r'<label class="field">([^<]+?) is\s*<select name="([^"]+)"[^>]*>(.*?)</select>', page, re.S
    ):
        texts = [html.unescape(t) for t in re.findall(r"<option[^>]*>([^<]+)</option>", options)]
        chosen = [html.unescape(t) for t in re.findall(r"<option[^>]*selected>([^<]+)</option>", options)]
        found[html.unescape(name.strip())] = (field, texts, chosen)
    return found


def test_players_who_are_not_members_are_asked_about_as_an_attached_sessions_are(app, db):
    data, filename = the_sheet(app, db, "json")
    circle = store.create_circle(
        db, "Friday regulars", ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Ζωή", "Wang"]
    )
    ids = {m.name: m.id for m in circle.members}
    client = app.test_client()
    response = upload(client, circle.id, data, filename)
    assert response.status_code == 303
    asking = response.headers["Location"]
    night = store.get_night(db, asking.split("/nights/")[1].removesuffix("/attach"))
    assert asking == f"/c/{circle.id}/nights/{night.id}/attach" and night.circle_id is None  # not the circle's yet
    page = client.get(asking).text
    assert "8 of its players are members of Friday regulars by their names. Who are the others?" in page
    members = list(ids)
    asked = selects(page)
    assert list(asked) == ["Hal", "王芳"]
    assert asked["Hal"][1:] == (
        ["A new member: Hal", "A guest tonight (not a member)", *members],
        ["A new member: Hal"],
    )
    # the same sheet again while asking: the same night asked about, no copy made
    before = counts(app)
    assert upload(client, circle.id, data, filename).headers["Location"] == asking
    assert counts(app) == before
    hal, wang = asked["Hal"][0], asked["王芳"][0]
    response = client.post(asking, data={hal: "new", wang: str(ids["Ann"])})
    assert response.status_code == 422
    assert problems(response.text) == ["Ann is chosen for two players of the night: each member once."]
    assert selects(response.text)["王芳"][2] == ["Ann"]  # what was chosen, kept
    assert counts(app) == before and store.get_night(db, night.id).circle_id is None
    response = client.post(asking, data={hal: "guest", wang: str(ids["Wang"])})
    assert response.status_code == 303 and response.headers["Location"] == f"/night/{night.id}"
    assert flashed(client.get(response.headers["Location"]).text) == [
        "Friday club is now a night of Friday regulars: its 6 tables are evenings of the circle. Keep this page's "
        "link: it runs the night."
    ]
    night = store.get_night(db, night.id)
    assert night.circle_id == circle.id
    member_of = {p.name: p.member_id for p in night.players}
    assert member_of["Hal"] is None and member_of["王芳"] == ids["Wang"] and member_of["Ann"] == ids["Ann"]
    tables = [t for r in night.rounds for t in r.tables]
    evenings = {e.session_id: e for e in store.evenings(db, circle.id)}
    assert set(evenings) == {t.session_id for t in tables}
    for table in tables:
        assert evenings[table.session_id].members == tuple(member_of[night.name_of(p)] for p in table.seats)
    for page in ("", "/ledger", "/stats", "/owed"):  # a guest's seat is no error page
        assert client.get(f"/c/{circle.id}{page}").status_code == 200, page
    assert client.get(f"/n/{night.watch_id}").status_code == 200
    # a second tap of the button, and the sheet once more: one night, said so
    before = counts(app)
    response = client.post(asking, data={hal: "guest", wang: str(ids["Wang"])})
    assert response.status_code == 422
    assert problems(response.text) == ["This club night is already one of the circle's nights."]
    again = upload(client, circle.id, data, filename)
    assert again.headers["Location"] == f"/night/{night.id}"
    assert flashed(client.get(again.headers["Location"]).text) == [
        "Friday club is already a night of Friday regulars: opened it, no copy made."
    ]
    assert counts(app) == before


def test_a_broken_nights_record_gets_the_nights_problems_and_nothing_is_saved(app, db):
    data, _ = the_sheet(app, db, "json")
    circle = store.create_circle(db, "Friday regulars", TEN)
    broken = data.replace(b'"seats":[', b'"seats":[99,', 1)
    before = counts(app)
    response = upload(app.test_client(), circle.id, broken, "night.json")
    assert response.status_code == 422
    assert problems(response.text)[0].startswith(
        "round 1, table 1: seats must be three different players of the night (their places in players), not [99, "
    )
    assert counts(app) == before


def test_a_circles_pin_is_honoured(app, db):
    data, filename = the_sheet(app, db, "json")
    circle = store.create_circle(
        db, "Friday regulars", TEN, pin_hash=generate_password_hash("4821", method=store.PIN_METHOD)
    )
    stranger = app.test_client()
    before = counts(app)
    response = upload(stranger, circle.id, data, filename)
    assert response.status_code == 403 and "This circle has a PIN: unlock it to make changes." in response.text
    assert counts(app) == before
    stranger.post(f"/c/{circle.id}/unlock", data={"pin": "4821"})
    assert upload(stranger, circle.id, data, filename).status_code == 303
