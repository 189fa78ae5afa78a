"""Renaming and deleting a club night (the Flask test client, real SQLite): the
organizer's link only, its PIN honoured, a double tap doing one thing; deleting
asks first and says what is kept (the tables' sessions, ordinary sessions at
their own links), and the night's links are then a 404 page that says so."""

from __future__ import annotations

import html
import re
import sqlite3

from scorekeeper import store
from support.data import load_example
from support.web import hand_fields

FIRST = load_example("parlett-evening.json")["hands"][0]
NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def night_form(**fields) -> dict:
    return {
        "name": "Friday club",
        "players": "\n".join(NINE),
        "rounds": "4",
        "rulebook": "parlett",
        "stake": "1d",
        "played_on": "2026-12-04",
        "rank_by": "placings",
        **fields,
    }


def start_night(client, **fields) -> str:
    response = client.post("/nights", data=night_form(**fields))
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def night_of(app, organizer: str) -> store.Night:
    return store.get_night(store.connect(app.config["DATABASE"]), organizer.rsplit("/", 1)[1])


def rows(app) -> tuple:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return tuple(
            conn.execute(f"select count(*) from {t}").fetchone()[0]
            for t in ("nights", "night_players", "night_rounds", "night_tables", "night_byes", "sessions", "hands")
        )


def problems(page: str) -> list[str]:
    return [html.unescape(p) for p in re.findall(r'<p class="problem" role="alert">([^<]*)</p>', page)]


def flashes(page: str) -> list[str]:
    return [
        html.unescape(re.sub(r"<[^>]+>", "", f)).strip()
        for f in re.findall(r'<p class="flash"[^>]*>(.*?)</p>', page, re.S)
    ]


def test_the_organizer_renames_the_night_once_and_a_bad_name_changes_nothing(app, client):
    organizer = start_night(client)
    version = re.search(r'action="[^"]*/name".*?name="version" value="(\d+)"', client.get(organizer).text, re.S).group(
        1
    )
    for _ in range(2):  # a double tap renames it once
        response = client.post(organizer + "/name", data={"name": " Saturday club ", "version": version})
        assert response.status_code == 303
    night = night_of(app, organizer)
    assert night.name == "Saturday club" and night.version == int(version) + 1
    page = client.get(organizer).text
    assert "<h1>Saturday club</h1>" in page
    assert "<h1>Saturday club</h1>" in client.get(f"/n/{night.watch_id}").text
    client.post(organizer + "/rounds", data={"round": "1"})
    table = night_of(app, organizer).round(1).tables[0]
    assert "Saturday club · round 1 · table 1" in client.get(f"/s/{table.session_id}").text

    before = night_of(app, organizer)
    for name, line in (
        (" ", "Give the night a name, such as “Club night”."),
        ("N" * 81, "A night's name is at most 80 characters."),
    ):
        response = client.post(organizer + "/name", data={"name": name, "version": str(before.version)})
        assert response.status_code == 422 and problems(response.text) == [line]
    assert night_of(app, organizer) == before
    assert client.post(f"/n/{before.watch_id}/name", data={"name": "Mine"}).status_code in (404, 405)
    assert night_of(app, organizer) == before


def test_deleting_a_night_asks_first_keeps_its_tables_sessions_and_its_links_say_it_is_gone(app, client):
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    table = night.round(1).tables[0]
    assert client.post(f"/s/{table.session_id}/hands", data=hand_fields(FIRST, 1)).status_code == 303
    assert f'href="{organizer}/delete"' in client.get(organizer).text

    ask = client.get(organizer + "/delete")
    assert ask.status_code == 200 and rows(app)[0] == 1  # asking deletes nothing
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", ask.text)).split())
    assert "Delete Friday club?" in text
    assert (
        "Its 3 tables' sessions are kept: they are ordinary sessions, each at its own link, with its hands, "
        "settle up and sheet."
    ) in text
    assert f'<form method="post" action="{organizer}/delete">' in ask.text

    before = rows(app)
    for _ in range(2):  # a double tap deletes it once; the second finds it gone
        response = client.post(organizer + "/delete")
        assert response.status_code == 303 and response.headers["Location"] == "/"
    home = client.get("/").text
    assert flashes(home) == [
        "Friday club is deleted: its organizer's and standings links lead nowhere now. "
        "Its 3 tables' sessions are kept, each at its own link.",
        "That club night is deleted already: nothing more was deleted.",
    ]
    assert rows(app) == (0, 0, 0, 0, 0, before[5], before[6])  # the sessions and their hands stay
    assert organizer not in home
    session = client.get(f"/s/{table.session_id}")
    assert session.status_code == 200 and "Friday club · round 1 · table 1" in session.text

    for path in (f"/n/{night.watch_id}", f"/n/{night.watch_id}/screen", organizer, organizer + "/delete"):
        gone = client.get(path)
        assert gone.status_code == 404
        assert "This club night is not here: its organizer deleted it, or the link is not complete." in html.unescape(
            gone.text
        )
    assert client.get(f"/n/{night.watch_id}/live?v=x").status_code == 404


def test_a_circles_night_deleted_keeps_its_tables_as_the_circles_evenings(app, client):
    response = client.post("/circles", data={"circle_name": "Thursday Gleek", "circle_members": ",".join(NINE[:6])})
    circle = response.headers["Location"]
    ids = re.findall(r'name="present" value="(\d+)" checked>', client.get(circle + "/nights/new").text)
    organizer = client.post(circle + "/nights", data={**night_form(players=""), "present": ids}).headers["Location"]
    client.post(organizer + "/rounds", data={"round": "1"})
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", client.get(organizer + "/delete").text)).split())
    assert (
        "Its 2 tables' sessions are kept: they are ordinary sessions, each at its own link, with its hands, "
        "settle up and sheet, and they stay evenings of Thursday Gleek in its season."
    ) in text
    assert client.post(organizer + "/delete").status_code == 303
    db = store.connect(app.config["DATABASE"])
    assert len(store.evenings(db, circle.rsplit("/", 1)[1])) == 2
    assert organizer not in client.get(circle).text


def test_a_pin_keeps_renaming_and_deleting_to_those_who_know_it(app, client):
    organizer = start_night(client, pin="4821")
    stranger = app.test_client()
    before = night_of(app, organizer)
    assert stranger.post(organizer + "/name", data={"name": "Mine"}).status_code == 403
    assert stranger.post(organizer + "/delete").status_code == 403
    response = stranger.get(organizer + "/delete")
    assert response.status_code == 303 and response.headers["Location"] == organizer + "/unlock"
    assert night_of(app, organizer) == before
    assert client.post(organizer + "/delete").status_code == 303  # the organizer's browser, unlocked
    assert rows(app)[0] == 0


def test_a_deleted_nights_standings_and_big_screen_left_open_say_so_and_poll_no_more(app, client):
    """A standings page or big screen left open (on a projector) polls its part: once the
    night is deleted the poll answers a part saying so in place of the last figures, with
    no hx-trigger, so the page shows it and stops polling."""
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    key = store.night_live_key(store.connect(app.config["DATABASE"]), night.watch_id)
    htmx = {"HX-Request": "true"}
    assert client.post(organizer + "/delete").status_code == 303
    for poll, screen in ((f"/n/{night.watch_id}/live", ""), (f"/n/{night.watch_id}/screen/live", " screen")):
        for version in (key, "0-x"):  # the page's last key, or any
            response = client.get(f"{poll}?v={version}", headers=htmx)
            assert response.status_code == 200
            assert response.text.strip() == (
                f'<section id="standings" class="card night-standings night-gone{screen}" aria-live="polite">\n'
                '  <p class="night-round">This club night was deleted by its organizer.</p>\n'
                "</section>"
            )
            assert "hx-trigger" not in response.text and "hx-get" not in response.text
            assert "HX-Request" in response.headers["Vary"]
    assert client.get(f"/n/{night.watch_id}/live?v={key}").status_code == 404  # no htmx: the 404 page


def test_a_tables_night_lines_say_the_night_was_deleted_and_poll_no_more(app, client):
    """A table's page (the scorer's, the watch link's, a player's own) polls its night's
    lines: once the night is deleted the poll answers lines saying so, with no
    hx-trigger; the table's session stays."""
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    table = night.round(1).tables[0]
    page = client.get(f"/s/{table.session_id}").text
    watch = re.search(r'href="[^"]*(/w/[^"/]+)"', page).group(1)
    own = re.search(r'href="[^"]*(/p/[^"/]+)"', page).group(1)
    polls = [f"/s/{table.session_id}/night", f"{watch}/night", f"{own}/night"]
    for poll in polls:
        assert client.get(f"{poll}?v={night.version}").status_code == 204  # unchanged while the night is there
    assert client.post(organizer + "/delete").status_code == 303
    for poll in polls:
        response = client.get(f"{poll}?v={night.version}", headers={"HX-Request": "true"})
        assert response.status_code == 200, poll
        assert response.text.strip() == (
            '<section class="card night-seat" id="night-seat" aria-live="polite">\n'
            "  <p>This club night was deleted by its organizer. This table's session is kept, at its own link.</p>\n"
            "</section>"
        )
        assert "hx-trigger" not in response.text and "hx-get" not in response.text
    page = client.get(f"/s/{table.session_id}")
    assert page.status_code == 200 and "night-seat" not in page.text  # reloaded: an ordinary session now
