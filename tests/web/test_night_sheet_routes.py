"""A club night's sheet over HTTP (the Flask test client, real SQLite): the PDF from
the organizer's link and from the public standings link (A4 and Letter, its
Content-Disposition), neither giving away the organizer's link nor any table's
links; importing it (or its JSON) on the home page restores the whole night as a new
night with new links and identical standings; a hostile night record, or one past
the sessions an address may keep, is refused with its line and nothing saved."""

from __future__ import annotations

import copy
import html
import io
import json
import re
import sqlite3

import pytest
from pypdf import PdfReader

from scorekeeper import store
from support.hostile import pdf_with_attachments
from support.nights import night_app, a_played_night

PIN = "4821"
PREFIX = 8  # the start of an id that would give it away


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
            for t in ("nights", "night_players", "night_rounds", "night_tables", "night_byes", "sessions", "hands")
        )


def links_of(db, night: store.Night) -> set[str]:
    """Every link that changes something: the organizer's, each table's scorer's, each player's."""
    tables = [t.session_id for r in night.rounds for t in r.tables]
    players = [row[0] for row in db.execute("select token from seat_links")]
    return {night.id, *tables, *players}


def text_and_attachment(pdf: bytes) -> tuple[str, str]:
    reader = PdfReader(io.BytesIO(pdf))
    return "\n".join(p.extract_text() for p in reader.pages), reader.attachments["night.json"][0].decode()


def upload(client, data: bytes, filename: str = "night.pdf"):
    return client.post("/import", data={"file": (io.BytesIO(data), filename)}, content_type="multipart/form-data")


def standings_part(client, watch_id: str) -> str:
    """The standings page's figures: the table and every round's tables (the poll's URL left out)."""
    page = client.get(f"/n/{watch_id}").text
    return page[page.index("Standings</h2>") : page.index("</section>", page.index("Standings</h2>"))]


def problems_on(page: str) -> list[str]:
    return [html.unescape(p) for p in re.findall(r"<li>([^<]*)</li>", page)]


@pytest.mark.parametrize("paper, width", [("a4", 842), ("letter", 792)])
def test_the_sheet_from_both_links_gives_no_link_away(app, db, paper, width):
    night = a_played_night(db)
    client = app.test_client()
    organizer = client.get(f"/night/{night.id}/sheet.pdf?paper={paper}")
    public = app.test_client().get(f"/n/{night.watch_id}/sheet.pdf?paper={paper}")
    for response in (organizer, public):
        assert response.status_code == 200 and response.mimetype == "application/pdf"
        assert response.headers["Content-Disposition"] == 'inline; filename="Friday club.pdf"'
        assert round(float(PdfReader(io.BytesIO(response.data)).pages[0].mediabox.width)) == width
        text, attached = text_and_attachment(response.data)
        assert "Friday club — 4 December 2026" in text and "Standings, by counters" in text
        assert "王芳" in text and "Ζωή" in text
        assert json.loads(attached) == store.night_data(db, night)
        for link in links_of(db, night) | {night.watch_id}:
            assert link[:PREFIX] not in text and link[:PREFIX] not in attached
    assert client.get(f"/night/{night.id}").text.count(f'href="/night/{night.id}/sheet.pdf') == 2
    assert app.test_client().get(f"/n/{night.watch_id}").text.count(f'href="/n/{night.watch_id}/sheet.pdf') == 2
    assert client.get(f"/n/{night.watch_id}/sheet.pdf?paper=a3").status_code == 404
    assert client.get("/n/nosuchnightxxxxxxxxxxxxx/sheet.pdf").status_code == 404


def test_a_night_with_a_pin_prints_from_its_organizers_link_only_once_unlocked(app, db):
    night = a_played_night(db)
    from werkzeug.security import generate_password_hash

    store.set_night_pin(db, night.id, generate_password_hash(PIN, method=store.PIN_METHOD))
    stranger = app.test_client()
    response = stranger.get(f"/night/{night.id}/sheet.pdf")
    assert response.status_code == 303 and response.headers["Location"] == f"/night/{night.id}/unlock"
    assert stranger.get(f"/n/{night.watch_id}/sheet.pdf").status_code == 200  # the public standings' own
    stranger.post(f"/night/{night.id}/unlock", data={"pin": PIN})
    assert stranger.get(f"/night/{night.id}/sheet.pdf").status_code == 200


@pytest.mark.parametrize("kind", ["pdf", "json"])
def test_importing_the_sheet_restores_the_whole_night_with_new_links(app, db, kind):
    night = a_played_night(db)
    client = app.test_client()
    before = standings_part(client, night.watch_id)
    if kind == "pdf":
        response = upload(client, client.get(f"/n/{night.watch_id}/sheet.pdf").data)
    else:
        response = upload(client, store.night_text(db, night).encode(), "night.json")
    assert response.status_code == 303
    new_id = response.headers["Location"].removeprefix("/night/")
    copied = store.get_night(db, new_id)
    assert new_id != night.id and copied.watch_id != night.watch_id
    assert not links_of(db, night) & {t.session_id for r in copied.rounds for t in r.tables}
    page = client.get(f"/night/{new_id}").text  # the organizer's page, with what the import did
    assert store.night_data(db, copied) == store.night_data(db, night)
    assert standings_part(client, copied.watch_id) == before
    assert (
        "Friday club is imported: 10 players, 2 rounds drawn, 6 tables, each a new session with a link of its "
        "own. Keep this page's link: it runs the night."
    ) in html.unescape(page)
    assert "without the circle" not in page
    assert [n["id"] for n in store.nights_by_ids(db, [new_id])] == [new_id]
    # each table is an ordinary session at its own new link
    table = copied.round(1).tables[0]
    assert client.get(f"/s/{table.session_id}").status_code == 200


def test_a_circles_night_comes_back_without_its_circle_and_says_so(app, db):
    members = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    circle = store.create_circle(db, "Thursday Gleek", members)
    night = a_played_night(db, circle.id, players=[(m.name, m.id) for m in circle.members])
    client = app.test_client()
    response = upload(client, client.get(f"/night/{night.id}/sheet.pdf").data)
    assert response.status_code == 303
    copied = store.get_night(db, response.headers["Location"].removeprefix("/night/"))
    assert copied.circle_id is None
    assert all(store.circle_of_session(db, t.session_id) is None for r in copied.rounds for t in r.tables)
    page = html.unescape(client.get(f"/night/{copied.id}").text)
    assert (
        "This was a night of the circle Thursday Gleek: it is imported as a night of its own, without the "
        "circle (its tables are not evenings of the circle here)."
    ) in page


def hostile_seats(data):
    """Table 2 of round 1 a copy of table 1: its players at two tables at once."""
    data["rounds"][0]["tables"][1] = data["rounds"][0]["tables"][0]


def hostile_record(data):
    data["rounds"][1]["tables"][0]["record"]["hands"][0]["dealer"] = 7


def stranger_at_a_seat(data):
    data["rounds"][0]["tables"][0]["seats"] = [0, 1, 40]


@pytest.mark.parametrize(
    "change, first_line",
    [
        (hostile_seats, "round 1: {a} is seated at table 1 and at table 2: each player once a round"),
        (hostile_record, "round 2, table 1: its session's record: hand 1: dealer must be a seat (0, 1 or 2), not 7"),
        (
            stranger_at_a_seat,
            "round 1, table 1: seats must be three different players of the night (their places in "
            "players), not [0, 1, 40]",
        ),
    ],
)
def test_a_hostile_night_is_refused_with_a_422_naming_it_and_nothing_saved(app, db, change, first_line):
    night = a_played_night(db)
    data = copy.deepcopy(store.night_data(db, night))  # its hands are the store's own, kept between requests
    a = data["players"][data["rounds"][0]["tables"][0]["seats"][0]]["name"]
    change(data)
    before = counts(app)
    response = upload(app.test_client(), json.dumps(data).encode(), "night.json")
    assert response.status_code == 422
    assert first_line.format(a=a) in problems_on(response.text), problems_on(response.text)
    assert counts(app) == before


def test_a_nights_tables_count_against_the_sessions_an_address_may_keep(app, db):
    night = a_played_night(db)
    pdf = app.test_client().get(f"/n/{night.watch_id}/sheet.pdf").data
    app.config["SESSIONS_PER_ADDRESS"] = 5
    before = counts(app)
    response = upload(app.test_client(), pdf)
    assert response.status_code == 507
    assert (
        "This club night has 6 tables, each a session here; this address keeps 0 sessions and may keep 5, so "
        "there is room for 5 more. Nothing was imported."
    ) in html.unescape(response.text)
    assert counts(app) == before
    app.config["SESSIONS_PER_ADDRESS"] = 6
    assert upload(app.test_client(), pdf).status_code == 303


def test_a_hostile_nights_pdf_is_refused_as_any_pdf_is_and_nothing_saved(app, db):
    night = a_played_night(db)
    data = copy.deepcopy(store.night_data(db, night))
    stranger_at_a_seat(data)
    text = store.night_text(db, night).encode()
    cases = [
        (
            pdf_with_attachments(1, 0, name="night.json", content=json.dumps(data).encode()),
            "round 1, table 1: seats must be three different players of the night (their places in players), "
            "not [0, 1, 40]",
        ),
        (
            pdf_with_attachments(2, 0, name="night.json", content=text),
            "record: this PDF carries 2 night.json attachments; it is not one club night's sheet",
        ),
        (
            pdf_with_attachments(1, 40 * 1024 * 1024, name="night.json"),
            "record: the session record in this PDF is larger than 2 MB",
        ),
    ]
    before = counts(app)
    for pdf, line in cases:
        assert len(pdf) < 2 * 1024 * 1024  # within the upload limit: refused for what it is
        response = upload(app.test_client(), pdf)
        assert response.status_code == 422
        assert line in problems_on(response.text), problems_on(response.text)
    assert counts(app) == before
