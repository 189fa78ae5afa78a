"""A club night's standings and big screen behind the front (server/front_polls.py,
real SQLite, the real app through Flask's test client): their answers are left
for the front when the night is made, renewed when a table saves or the night
changes (a round drawn, a swap, a rank choice, a player dropped, a table's
session deleted), only ever forward (a renewal that read the night earlier than
the files' is dropped), saying the night is gone once it is deleted, and hold nothing of the
organizer's link. (Through a real Caddy: tests/server/test_night_front.py.)"""

from __future__ import annotations

import html
import re
import stat
import time

import pytest

from scorekeeper import store
from support.data import load_example
from support.database import delete_session
from support.web import hand_fields

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "<b>Fay</b>"]
HANDS = load_example("parlett-evening.json")["hands"]


@pytest.fixture
def front_app(app, front_files):
    return app, front_files


def start_night(client) -> str:
    response = client.post(
        "/nights",
        data={
            "name": "Friday club",
            "players": "\n".join(PLAYERS),
            "rounds": "3",
            "rulebook": "parlett",
            "stake": "1d",
            "played_on": "2026-12-04",
            "rank_by": "placings",
        },
    )
    assert response.status_code == 303, response.text
    response.close()  # its answer sent: the request's thread leaves the night's files
    return response.headers["Location"]


def post(client, path: str, data: dict) -> None:
    response = client.post(path, data=data)
    assert response.status_code == 303, response.text
    response.close()


def night_of(app, organizer: str) -> store.Night:
    return store.get_night(store.connect(app.config["DATABASE"]), organizer.rsplit("/", 1)[1])


def key_of(app, night: store.Night) -> str:
    return store.night_live_key(store.connect(app.config["DATABASE"]), night.watch_id)


def left(files, night: store.Night, within: float = 0.0):
    """(the key marked, the standings' part, the big screen's) the front would answer with, once there."""
    folder = files.of(night.watch_id, "n")
    deadline = time.monotonic() + within
    while True:
        marks = [
            p.name.removeprefix("same-")
            for p in (folder.iterdir() if folder.exists() else ())
            if p.name.startswith("same-")
        ]
        if marks and (folder / "part.html").exists() and (folder / "screen.html").exists():
            return marks[0], (folder / "part.html").read_bytes(), (folder / "screen.html").read_bytes()
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.02)


def renewed_to(files, night: store.Night, key: str, within: float = 5.0):
    """The files once they are those of ``key`` (a change outside a request is renewed by a thread)."""
    deadline = time.monotonic() + within
    while (found := left(files, night)) is None or found[0] != key:
        assert time.monotonic() < deadline, found and found[0]
        time.sleep(0.02)
    return found


def test_the_nights_answers_are_left_for_the_front_as_its_polls_would_get_them(front_app):
    app, files = front_app
    client = app.test_client()
    organizer = start_night(client)
    night = night_of(app, organizer)
    first = left(files, night)
    assert first is not None and first[0] == key_of(app, night)  # made: left before any screen polls
    assert b"Round 1 is not drawn yet." in first[2]

    post(client, organizer + "/rounds", {"round": "1"})
    key = key_of(app, night)
    marked, standings, screen = left(files, night)
    assert marked == key != first[0]
    hx = {"HX-Request": "true"}
    assert client.get(f"/n/{night.watch_id}/live?v=0", headers=hx).get_data() == standings
    assert client.get(f"/n/{night.watch_id}/screen/live?v=0", headers=hx).get_data() == screen
    assert f'hx-get="/n/{night.watch_id}/screen/live?v={key}"'.encode() in screen
    assert f'hx-get="/n/{night.watch_id}/live?v={key}"'.encode() in standings
    assert b"Round 1 of 3" in screen and b' screen"' in screen and b' screen"' not in standings
    folder = files.of(night.watch_id, "n")
    for part in folder.iterdir():  # nothing of the organizer's link, a name escaped
        assert night.id.encode() not in part.read_bytes()
    assert b"&lt;b&gt;Fay&lt;/b&gt;" in standings and b"<b>Fay" not in standings
    for private in (folder, folder.parent, files.folder):  # as a table's: only the server's user reads them
        assert stat.S_IMODE(private.stat().st_mode) == 0o700


def test_a_save_at_one_table_renews_the_nights_answers_once_it_is_answered(front_app):
    app, files = front_app
    client = app.test_client()
    organizer = start_night(client)
    post(client, organizer + "/rounds", {"round": "1"})
    night = night_of(app, organizer)
    before, _, _ = left(files, night)
    table = night.round(1).tables[0]
    dealer = night.name_of(table.seats[0])

    saved = client.post(f"/s/{table.session_id}/hands", data=hand_fields(HANDS[0], 1))
    assert saved.status_code == 303
    assert left(files, night)[0] == before  # answered, not yet sent: the files wait for their renewal
    saved.close()
    key, standings, screen = left(files, night)
    assert key == key_of(app, night) != before
    assert not (files.of(night.watch_id, "n") / f"same-{before}").exists()
    for part in (standings, screen):  # the first seat dealt the example's first hand: 20, 2, −22
        assert re.search(
            rf'<th scope="row">{re.escape(html.escape(dealer))}</th>\s*<td>2</td>\s*<td>20</td>'.encode(), part
        )


def test_renewals_ending_out_of_order_leave_the_later_reading(front_app):
    """Two processes renew one night: the one that read it first may write last."""
    _, files = front_app
    assert files.keep_night("Night1", "8-bbbbbb", b"<p>later</p>", b"<p>later, big</p>", read_at=2_000)
    assert files.keep_night("Night1", "7-aaaaaa", b"<p>earlier</p>", b"<p>earlier, big</p>", read_at=1_000)
    folder = files.of("Night1", "n")
    assert (folder / "part.html").read_bytes() == b"<p>later</p>"
    assert (folder / "screen.html").read_bytes() == b"<p>later, big</p>"
    assert sorted(p.name for p in folder.glob("same-*")) == ["same-8-bbbbbb"]
    # a 204 for the key the files are of: they stay, parts and all
    assert files.keep_night("Night1", "8-bbbbbb", None, None, read_at=2_500)
    assert (folder / "part.html").read_bytes() == b"<p>later</p>"
    # a 204 for a key read later: its mark, and no part of another key left to be sent for it
    assert files.keep_night("Night1", "9-cccccc", None, None, read_at=3_000)
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == ["same-9-cccccc"]


@pytest.mark.parametrize("change", ["rank", "swap", "drop", "redraw", "end"])
def test_each_change_of_the_night_renews_its_answers(front_app, change):
    app, files = front_app
    client = app.test_client()
    organizer = start_night(client)
    post(client, organizer + "/rounds", {"round": "1"})
    night = night_of(app, organizer)
    before = left(files, night)
    one, two = night.round(1).tables
    if change == "rank":
        post(client, organizer + "/rank", {"rank_by": "counters"})
    elif change == "swap":
        post(
            client, organizer + "/rounds/1/swap", {"one": one.seats[0], "other": two.seats[0], "version": night.version}
        )
    elif change == "drop":
        post(client, organizer + f"/players/{one.seats[0]}/drop", {})
    elif change == "redraw":
        post(client, organizer + "/rounds/1/redraw", {"version": night.version})
    else:
        post(client, organizer + "/rounds/1/end", {"minutes": "30"})
    now = left(files, night)
    assert now[0] == key_of(app, night) != before[0]
    assert now[1:] != before[1:] or change in ("drop", "redraw")  # what the standings show of it, where it shows
    if change == "rank":
        assert b"Ranked by counters" in now[1] and b"Ranked by counters" in now[2]
    elif change == "end":
        assert b"data-ends-at" in now[1] and b"data-ends-at" in now[2]


def test_a_change_outside_a_request_is_renewed_by_the_apps_own_thread(front_app):
    """A table's session deleted (expiry, a command): the standings saying so left by
    the app's own thread; the night itself removed: its files say it is gone."""
    app, files = front_app
    client = app.test_client()
    organizer = start_night(client)
    post(client, organizer + "/rounds", {"round": "1"})
    night = night_of(app, organizer)
    before, _, _ = left(files, night)
    gone = night.round(1).tables[1].session_id
    with app.app_context():
        from scorekeeper.db import get_db

        delete_session(get_db(), gone)  # as expiry removes an untouched session
    key, standings, screen = renewed_to(files, night, key_of(app, night))
    assert key != before
    for part in (standings, screen):
        assert b"Round 1, table 2: its session was deleted, so it counts for nothing here." in part

    with app.app_context():
        db = get_db()
        with store.writing(db):
            for table in ("night_tables", "night_rounds", "night_players"):
                db.execute(f"delete from {table} where night_id = ?", [night.id])
            db.execute("delete from nights where id = ?", [night.id])
    # the screens left open are told it is gone: its parts say so, and poll no more
    _, *parts = renewed_to(files, night, "gone")
    for part in parts:
        assert b"This club night was deleted by its organizer." in part and b"hx-trigger" not in part


def test_a_night_the_front_holds_as_deleted_is_renewed_when_its_page_is_opened(front_app):
    """A night deleted, then restored by a command (another process: this one is not
    told): the front holds the deleted night's part, which would tell a page opened now
    that the night is gone. Opening its standings or big screen renews its files."""
    app, files = front_app
    client = app.test_client()
    organizer = start_night(client)
    night = night_of(app, organizer)
    key = key_of(app, night)
    for page in (f"/n/{night.watch_id}", f"/n/{night.watch_id}/screen"):
        assert files.keep_night(night.watch_id, "gone", b"gone", b"gone", time.monotonic_ns())
        assert left(files, night)[0] == "gone"
        assert client.get(page).status_code == 200
        mark, standings, screen = left(files, night)
        assert mark == key and f"live?v={key}".encode() in standings and f"live?v={key}".encode() in screen


def test_an_unchanged_poll_answered_by_the_app_leaves_its_mark_for_the_front(front_app):
    """After a start (the folder emptied) the first poll reaches the app, which leaves its answer."""
    app, files = front_app
    client = app.test_client()
    organizer = start_night(client)
    night = night_of(app, organizer)
    files.clear()
    key = key_of(app, night)
    assert client.get(f"/n/{night.watch_id}/screen/live?v={key}", headers={"HX-Request": "true"}).status_code == 204
    assert (files.of(night.watch_id, "n") / f"same-{key}").exists()
    assert client.get(f"/n/{night.watch_id}/live?v=0", headers={"HX-Request": "true"}).status_code == 200
    assert left(files, night)[0] == key
