"""What a circle's read-only links give away, over real HTTP: everything the
members' link (/cw/…), a table's watch link (/w/…, the QR code everyone scans)
and a manage link whose PIN was not entered can reach — every page, its htmx
part, the season sheet PDF (its text and its attachment), the exports — holds no
evening's scorer's link (the session id, which can change the scores), nor the
start of one, nor a player's own link. An undated evening is named by its title
or its number in the circle ("Evening 2"), never by its id."""

from __future__ import annotations

import http.client
import io
import json
import re
import sqlite3
import threading
from collections import deque

import pytest
from pypdf import PdfReader
from werkzeug.serving import make_server

from scorekeeper import create_app
from support.data import load_example
from support.database import fresh_database
from support.web import hand_fields, http_request

HANDS = load_example("parlett-evening.json")["hands"]
PIN = "4821"
#: The start of an id that would give it away (a sheet that prints 10 of its 24 characters does).
PREFIX = 8


@pytest.fixture
def app(tmp_path, migrated_database):
    return create_app(
        {
            "DATABASE": fresh_database(migrated_database, tmp_path),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(tmp_path / "backups"),
            "SESSIONS_PER_MINUTE": 10_000,
            "PDF_RENDERS_PER_MINUTE": 1_000,
        }
    )


@pytest.fixture
def served(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    thread.join(timeout=5)


def members(page: str) -> dict:
    select = re.search(r'<select name="seat_0".*?</select>', page, re.S).group(0)
    return {name: value for value, name in re.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', select)}


def play(manager, session: str, hands) -> None:
    for version, hand in enumerate(hands, 1):
        response = manager.post(session + "/hands", data=hand_fields(hand, version))
        assert response.status_code == 303, response.data


def a_circle_of_dated_and_undated_evenings(app) -> tuple[str, str]:
    """A circle with a PIN (its maker's browser unlocked) and four open evenings:
    one dated, one undated and untitled, one undated with a title and the players'
    own links (OKs asked for), one undated imported from a file; one payment
    marked. (The manage link, the members' link.)"""
    manager = app.test_client()
    made = manager.post(
        "/circles", data={"circle_name": "Thursday Gleek", "circle_members": "Ann\nBen\nCat\nDan", "circle_pin": PIN}
    )
    assert made.status_code == 303
    circle = made.headers["Location"]
    page = manager.get(circle).get_data(as_text=True)
    ids = members(page)
    watch = re.search(r"/cw/[A-Za-z0-9_-]{24}", page).group(0)

    def start(seats, **fields):
        response = manager.post(
            circle + "/sessions",
            data=dict(
                {
                    "seat_0": ids[seats[0]],
                    "seat_1": ids[seats[1]],
                    "seat_2": ids[seats[2]],
                    "rulebook": "parlett",
                    "first_dealer": "0",
                    "stake": "1d",
                    "played_on": "",
                },
                **fields,
            ),
        )
        assert response.status_code == 303, response.data
        return response.headers["Location"]

    play(manager, start(("Ann", "Ben", "Cat"), played_on="2026-11-14"), HANDS[:2])
    play(manager, start(("Cat", "Ann", "Dan")), HANDS[:2])
    play(manager, start(("Dan", "Ben", "Cat"), title="At the Bell", confirm="on"), HANDS[:1])
    record = dict(load_example("parlett-evening.json"), players=["Ben", "Cat", "Dan"])
    record.pop("played_on", None)
    imported = manager.post(circle + "/import", data={"file": (io.BytesIO(json.dumps(record).encode()), "e.json")})
    assert imported.status_code == 303, imported.data
    attached = manager.post(
        imported.headers["Location"], data={"seat_0": ids["Ben"], "seat_1": ids["Cat"], "seat_2": ids["Dan"]}
    )
    assert attached.status_code == 303
    owed = manager.get(circle + "/owed").get_data(as_text=True)
    form = re.search(r'<form method="post" action="[^"]+/owed/pay".*?</form>', owed, re.S).group(0)
    fields = dict(re.findall(r'name="(payer|payee|currency|evenings|amount|based_on)" value="([^"]*)"', form))
    assert (
        manager.post(circle + "/owed/pay", data=dict(fields, paid_by=ids["Ann"], paid_on="2026-11-28")).status_code
        == 303
    )
    return circle, watch


def secrets_of(app) -> list[str]:
    """The links that can change something: each evening's scorer's link (its
    session id) and each player's own link."""
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        found = [r[0] for r in conn.execute("select id from sessions")]
        found += [r[0] for r in conn.execute("select token from seat_links")]
        return found
    finally:
        conn.close()


def watch_links(app) -> list[str]:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return [f"/w/{r[0]}" for r in conn.execute("select watch_id from sessions order by id")]
    finally:
        conn.close()


def texts_of(headers: dict, body: bytes) -> list[str]:
    """What a response says: its headers, its body, and for a PDF its text and attachments."""
    said = [json.dumps(headers), body.decode("latin-1")]
    if body.startswith(b"%PDF"):
        reader = PdfReader(io.BytesIO(body))
        said += [page.extract_text() for page in reader.pages]
        said += [data.decode("utf-8") for contents in reader.attachments.values() for data in contents]
    return said


def links_in(page: str) -> list[str]:
    """The paths a page links to or fetches (href, src, hx-get), this server's own only."""
    paths = []
    for raw in re.findall(r'(?:href|src|hx-get)="([^"]+)"', page):
        raw = raw.replace("&amp;", "&")
        path = re.sub(r"^https?://[^/]+", "", raw) if raw.startswith("http") else raw
        if path.startswith("/") and not path.startswith(("/static/", "//")):
            paths.append(path.split("#")[0])
    return paths


def crawl(port: int, starts: list[str], limit: int = 400) -> dict[str, list[str]]:
    """Every page reachable from ``starts`` by GET (each also as htmx asks for its
    part): path -> what it said. Nothing is posted."""
    seen, queue, said = set(), deque(starts), {}
    while queue and len(seen) < limit:
        path = queue.popleft()
        if path in seen or path.startswith(("/s/", "/p/")):
            continue
        seen.add(path)
        status, headers, body = http_request("127.0.0.1", port, "GET", path, timeout=120)
        assert status < 500, (path, status)
        said[path] = texts_of(headers, body)
        if "text/html" in headers.get("Content-Type", ""):
            queue.extend(links_in(body.decode("utf-8")))
            said[path + " (htmx)"] = texts_of(*get(port, path, {"HX-Request": "true"}))
        if 300 <= status < 400 and headers.get("Location", "").startswith("/"):
            queue.append(headers["Location"])
    return said


def get(port: int, path: str, headers: dict) -> tuple[dict, bytes]:
    """A GET over real HTTP with ``headers`` (HX-Request, a cookie)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    try:
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        return dict(response.getheaders()), response.read()
    finally:
        conn.close()


def leaks(said: dict, secrets: list[str]) -> list[tuple[str, str]]:
    return [
        (path, secret)
        for path, texts in said.items()
        for secret in secrets
        if any(secret[:PREFIX] in text for text in texts)
    ]


def test_the_members_and_watch_links_never_give_out_a_scorers_link(app, served):
    circle, watch = a_circle_of_dated_and_undated_evenings(app)
    tables = watch_links(app)
    starts = [watch] + [
        watch + p
        for p in (
            "/ledger",
            "/ledger?all=1",
            "/owed",
            "/stats",
            "/season.pdf",
            "/season.pdf?paper=letter",
            "/export.json",
        )
    ]
    for table in tables:  # the QR code everyone scans, and all it has
        starts += [table] + [
            table + p for p in ("/live", "/live?all=1", "/sheet", "/sheet.pdf", "/settle", "/export.json", "/hands/1")
        ]
    said = crawl(served, starts)
    assert set(starts) <= set(said)
    assert leaks(said, secrets_of(app)) == []
    # an evening is named by its date, title or number; what is owed says which
    sheet = " ".join(said[watch + "/season.pdf"])
    assert "At the Bell" in sheet and "Evening 2" in sheet and "Evening 4" in sheet
    owed = said[watch + "/owed"][1]
    debts = [re.sub(r"<[^>]+>", "", d) for d in re.findall(r'<p class="debt">(.*?)</p>', owed)]
    assert debts == [
        "Cat pays Ann 1s 8d, for 14 Nov, Evening 2 and At the Bell",
        "Cat pays Ben 5d, for 14 Nov, Evening 2 and At the Bell",
        "Dan pays Ben 43 counters, for Evening 4",
        "Dan pays Cat 3 counters, for Evening 4",
    ]
    assert "Dan paid Ann 2s 11d, for 14 Nov, Evening 2 and At the Bell" in owed


def test_a_manage_link_shows_no_scorers_link_until_its_pin_is_entered(app, served):
    circle, watch = a_circle_of_dated_and_undated_evenings(app)
    said = crawl(
        served,
        [circle] + [circle + p for p in ("/ledger", "/owed", "/stats", "/season.pdf", "/export.json", "/unlock")],
    )
    assert leaks(said, secrets_of(app)) == []
    page = said[circle][1]
    assert "Unlock to change the circle" in page
    assert re.findall(r'href="(/[sw])/', page) == ["/w"] * 4  # each evening by its watch link
    # once unlocked, the manage link is the scorer's way into each evening
    status, headers, _ = http_request("127.0.0.1", served, "POST", circle + "/unlock", {"pin": PIN})
    assert status == 303
    _, page = get(served, circle, {"Cookie": headers["Set-Cookie"].split(";")[0]})
    assert re.findall(r'href="(/[sw])/', page.decode()) == ["/s"] * 4
