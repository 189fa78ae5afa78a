"""Trust: who can change what.

- the read-only watch link (/w/<watch id>) cannot change anything and never
  reveals the scorer's link;
- a guessed or random id is a 404; ids are unguessable (≥ 128 bits);
- a cross-site POST to any state-changing route is refused (403) and changes
  nothing, while the same request from the site itself works;
- a table PIN keeps everyone who has not unlocked it out of every write;
- every response carries the protective headers (a CSP without inline script,
  nosniff, frame-ancestors 'none', a Referrer-Policy), pages use no inline
  script, and the session cookie is HttpOnly and SameSite=Lax.
"""

from __future__ import annotations

import json
import re
import secrets

import pytest

from support.data import load_example
from support.database import fresh_database
from support.web import hand_fields

from scorekeeper import create_app, store

EVENING = load_example("parlett-evening.json")
TOKEN = re.compile(r"[A-Za-z0-9_-]{24}")  # secrets.token_urlsafe(18): 18 bytes = 144 bits


@pytest.fixture
def app(tmp_path, migrated_database):
    return create_app(
        {
            "DATABASE": fresh_database(migrated_database, tmp_path),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(tmp_path / "backups"),
            "SESSIONS_PER_MINUTE": 100_000,
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


def import_session(client, record=None) -> tuple[str, str]:
    response = client.post("/import", json=record or EVENING)
    assert response.status_code == 303, response.data
    sid = response.headers["Location"].rsplit("/", 1)[1]
    page = client.get(f"/s/{sid}").get_data(as_text=True)
    wid = re.search(r'href="[^"]*/w/([A-Za-z0-9_-]+)"', page).group(1)
    return sid, wid


def snapshot(app, client, sid) -> tuple:
    db = store.connect(app.config["DATABASE"])
    try:
        version = db.execute("select version from sessions where id = ?", [sid]).fetchone()[0]
        history = db.execute("select count(*) from history").fetchone()[0]
        sessions = db.execute("select count(*) from sessions").fetchone()[0]
    finally:
        db.close()
    return client.get(f"/s/{sid}/export.json").data, version, history, sessions


def write_requests(key: str, prefix: str = "s", version: int = 1) -> list[tuple[str, str, object]]:
    """Every state-changing request, each valid enough to succeed if allowed."""
    hands = EVENING["hands"]
    return [
        ("POST", f"/{prefix}/{key}/hands", hand_fields(hands[-1], version)),
        ("POST", f"/{prefix}/{key}/hands/check", hand_fields(hands[-1], version)),
        ("POST", f"/{prefix}/{key}/hands/1", hand_fields(dict(hands[0], note="changed"), version)),
        ("POST", f"/{prefix}/{key}/hands/1/check", hand_fields(hands[0], version)),
        ("POST", f"/{prefix}/{key}/hands/3/delete", {"version": str(version)}),
        ("POST", f"/{prefix}/{key}/undo", {"version": str(version)}),
        ("POST", f"/{prefix}/{key}/unlock", {"pin": "1234"}),
        ("PUT", f"/{prefix}/{key}/hands/1", hand_fields(hands[0], version)),
        ("DELETE", f"/{prefix}/{key}/hands/3", None),
        ("PATCH", f"/{prefix}/{key}", {"title": "x"}),
        ("DELETE", f"/{prefix}/{key}", None),
    ]


# ---------------------------------------------------------------- the watch link


def test_watch_link_cannot_change_anything(app, client):
    sid, wid = import_session(client)
    before = snapshot(app, client, sid)
    watcher = app.test_client()
    for method, path, data in write_requests(wid, "w"):
        response = watcher.open(path, method=method, data=data)
        assert response.status_code in (404, 405), (method, path, response.status_code)
    # the watch id is not an edit id either
    for method, path, data in write_requests(wid, "s"):
        response = watcher.open(path, method=method, data=data)
        assert response.status_code in (404, 405), (method, path, response.status_code)
    for path in (
        f"/w/{wid}/hands/new",
        f"/w/{wid}/hands/1/edit",
        f"/w/{wid}/history",
        f"/s/{wid}",
        f"/s/{wid}/hands/new",
        f"/s/{wid}/export.json",
        f"/s/{wid}/history",
    ):
        assert watcher.get(path).status_code == 404, path
    assert snapshot(app, client, sid) == before


def test_watch_pages_never_show_the_scorers_link(app, client):
    sid, wid = import_session(client)
    watcher = app.test_client()
    pages = [
        f"/w/{wid}",
        f"/w/{wid}/live",
        f"/w/{wid}/live?v=0",
        f"/w/{wid}/hands/1",
        f"/w/{wid}/hands/3",
        f"/w/{wid}/settle",
        f"/w/{wid}/sheet",
        f"/w/{wid}/export.json",
        "/",
    ]
    for path in pages:
        response = watcher.get(path)
        assert response.status_code == 200, path
        body = response.get_data(as_text=True)
        assert sid not in body, path
        assert "/s/" not in body, path
    assert wid in watcher.get("/").get_data(as_text=True)  # the watcher's home lists it, read-only
    cookie = watcher.get_cookie("session")
    assert cookie is not None and sid not in cookie.value


def test_the_scorers_page_offers_the_watch_link(app, client):
    sid, wid = import_session(client)
    page = client.get(f"/s/{sid}").get_data(as_text=True)
    assert f"/w/{wid}" in page and sid != wid


# ---------------------------------------------------------------- ids


def test_ids_are_unguessable_tokens(app, client):
    seen = set()
    for _ in range(30):
        sid, wid = import_session(client)
        assert TOKEN.fullmatch(sid) and TOKEN.fullmatch(wid), (sid, wid)
        assert sid != wid
        seen |= {sid, wid}
    assert len(seen) == 60
    # store.new_token is token_urlsafe(18): 18 random bytes, at least 128 bits
    tokens = [store.new_token() for _ in range(2000)]
    assert len(set(tokens)) == len(tokens)
    assert all(TOKEN.fullmatch(t) for t in tokens)
    for position in range(24):
        assert len({t[position] for t in tokens}) > 40  # every character varies over base64url
    assert len(tokens[0]) * 6 >= 128 + 16


@pytest.mark.parametrize("prefix", ["s", "w"])
def test_random_ids_are_404_everywhere(app, client, prefix):
    import_session(client)
    before = store.connect(app.config["DATABASE"]).execute("select count(*) from history").fetchone()[0]
    for _ in range(5):
        key = secrets.token_urlsafe(18)
        for path in (
            "",
            "/live",
            "/live?v=1",
            "/hands/1",
            "/hands/new",
            "/hands/1/edit",
            "/settle",
            "/sheet",
            "/sheet.pdf",
            "/export.json",
            "/history",
            "/unlock",
        ):
            response = client.get(f"/{prefix}/{key}{path}")
            assert response.status_code == 404, (prefix, path, response.status_code)
        for method, path, data in write_requests(key, prefix):
            response = client.open(path, method=method, data=data)
            assert response.status_code in (404, 405), (path, response.status_code)
    after = store.connect(app.config["DATABASE"]).execute("select count(*) from history").fetchone()[0]
    assert after == before


def test_a_near_miss_id_is_a_404(app, client):
    sid, wid = import_session(client)
    for key, prefix in ((sid, "s"), (wid, "w")):
        flipped = key[:-1] + ("A" if key[-1] != "A" else "B")
        for candidate in (flipped, key[:-1], key + "A", key.upper() if key.upper() != key else key.lower()):
            assert client.get(f"/{prefix}/{candidate}").status_code == 404, candidate


# ---------------------------------------------------------------- cross-site requests

CROSS_SITE = [
    {"Sec-Fetch-Site": "cross-site"},
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site", "Origin": "http://localhost"},  # Sec-Fetch-Site wins
    {"Origin": "http://evil.example"},
    {"Origin": "http://localhost.evil.example"},
    {"Origin": "http://localhost:8080"},
    {"Origin": "null"},
    {"Origin": "http://evil.example", "Referer": "http://localhost/"},
]
SAME_SITE = [{}, {"Sec-Fetch-Site": "same-origin"}, {"Sec-Fetch-Site": "none"}, {"Origin": "http://localhost"}]


@pytest.mark.parametrize("headers", CROSS_SITE, ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()))
def test_cross_site_writes_are_refused_and_change_nothing(app, client, headers):
    sid, _ = import_session(client)
    before = snapshot(app, client, sid)
    requests = write_requests(sid, "s", version=1) + [
        (
            "POST",
            "/sessions",
            {
                "player_0": "Ann",
                "player_1": "Ben",
                "player_2": "Cat",
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": "",
            },
        ),
        ("POST", "/import", {"record": json.dumps(EVENING)}),
    ]
    for method, path, data in requests:
        response = client.open(path, method=method, data=data, headers=headers)
        allowed = (403,) if method == "POST" else (403, 405)
        assert response.status_code in allowed, (method, path, response.status_code)
        if response.status_code == 403:
            assert "another site" in response.get_data(as_text=True)
    response = client.post("/import", json=EVENING, headers=headers)
    assert response.status_code == 403
    assert snapshot(app, client, sid) == before


@pytest.mark.parametrize("headers", SAME_SITE, ids=lambda h: ",".join(f"{k}={v}" for k, v in h.items()) or "none")
def test_same_site_writes_work(app, client, headers):
    sid, _ = import_session(client)
    response = client.post(f"/s/{sid}/hands", data=hand_fields(EVENING["hands"][-1], 1), headers=headers)
    assert response.status_code == 303
    assert len(json.loads(client.get(f"/s/{sid}/export.json").data)["hands"]) == 4


def test_cross_site_gets_are_harmless(app, client):
    """GETs are allowed from anywhere (links), and no GET changes anything."""
    sid, wid = import_session(client)
    before = snapshot(app, client, sid)
    headers = {"Sec-Fetch-Site": "cross-site", "Origin": "http://evil.example"}
    for path in (
        f"/s/{sid}",
        f"/s/{sid}/hands/new",
        f"/s/{sid}/hands/1/edit",
        f"/s/{sid}/history",
        f"/s/{sid}/live",
        f"/w/{wid}",
        f"/s/{sid}/undo",
        f"/s/{sid}/hands/3/delete",
        f"/s/{sid}/export.json",
        f"/s/{sid}/unlock",
    ):
        response = client.get(path, headers=headers)
        assert response.status_code in (200, 303, 404, 405), (path, response.status_code)
    assert snapshot(app, client, sid) == before


# ---------------------------------------------------------------- table PIN


def test_a_locked_table_refuses_every_write_from_a_browser_that_did_not_unlock(app, client):
    response = client.post(
        "/sessions",
        data={
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "",
            "pin": "4821",
        },
    )
    assert response.status_code == 303
    sid = response.headers["Location"].rsplit("/", 1)[1]
    hand = EVENING["hands"][-1]
    assert client.post(f"/s/{sid}/hands", data=hand_fields(hand, 1)).status_code == 303  # the creator
    before = snapshot(app, client, sid)
    stranger = app.test_client()
    for method, path, data in write_requests(sid, "s", version=2):
        if path.endswith("/unlock"):
            continue
        response = stranger.open(path, method=method, data=data)
        assert response.status_code in (403, 405), (method, path, response.status_code)
    assert stranger.get(f"/s/{sid}/hands/new").status_code in (302, 303)  # sent to unlock
    response = stranger.post(f"/s/{sid}/unlock", data={"pin": "0000"})
    assert response.status_code in (403, 429)
    assert snapshot(app, client, sid)[:2] == before[:2]
    # the right PIN unlocks that browser only
    assert stranger.post(f"/s/{sid}/unlock", data={"pin": "4821"}).status_code == 303
    assert stranger.post(f"/s/{sid}/hands", data=hand_fields(hand, 2)).status_code == 303
    assert app.test_client().post(f"/s/{sid}/hands", data=hand_fields(hand, 3)).status_code == 403


def test_wrong_pins_are_rate_limited(app, client):
    response = client.post(
        "/sessions",
        data={
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "",
            "pin": "4821",
        },
    )
    sid = response.headers["Location"].rsplit("/", 1)[1]
    guesser = app.test_client()
    statuses = [guesser.post(f"/s/{sid}/unlock", data={"pin": f"{n:04d}"}).status_code for n in range(12)]
    assert 429 in statuses, statuses
    # once limited, even the right PIN must wait
    assert guesser.post(f"/s/{sid}/unlock", data={"pin": "4821"}).status_code == 429


# ---------------------------------------------------------------- headers and cookies


def every_kind_of_response(app, client):
    sid, wid = import_session(client)
    hands = EVENING["hands"]
    yield "GET", "/", None
    yield "GET", "/rules", None
    yield "GET", "/manifest.webmanifest", None
    yield "GET", "/static/app.css", None
    for key, prefix in ((sid, "s"), (wid, "w")):
        for path in ("", "/live", "/live?v=0", "/hands/1", "/settle", "/sheet", "/export.json"):
            yield "GET", f"/{prefix}/{key}{path}", None
    for path in ("/hands/new", "/hands/1/edit", "/history", "/unlock"):
        yield "GET", f"/s/{sid}{path}", None
    version = 1  # just imported
    yield "GET", f"/s/{sid}/live?v={version}-0-0-n", None  # 204: nothing new (nobody keeps the score)
    yield "POST", f"/s/{sid}/hands/check", hand_fields(hands[-1], version)
    yield "POST", f"/s/{sid}/hands", {"dealer": "0"}  # 422
    yield "POST", f"/s/{sid}/hands", hand_fields(hands[0], 999)  # 409 (not the last hand again)
    yield "POST", f"/s/{sid}/hands", hand_fields(hands[-1], version)  # 303
    yield "POST", "/import", {"record": "{"}  # 422
    yield "POST", "/sessions", {"player_0": ""}  # 422
    yield "GET", "/s/nope", None  # 404
    yield "PUT", "/sessions", None  # 405
    yield "POST", f"/s/{sid}/undo", {"version": "1"}  # 403 below
    yield "GET", f"/s/{sid}/hands", None  # 405


def test_protective_headers_on_every_response(app, client):
    seen = set()
    for method, path, data in every_kind_of_response(app, client):
        headers = {"Sec-Fetch-Site": "cross-site"} if path.endswith("/undo") else {}
        response = client.open(path, method=method, data=data, headers=headers)
        seen.add(response.status_code)
        h = response.headers
        csp = h.get("Content-Security-Policy", "")
        directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
        assert "frame-ancestors" in directives and directives["frame-ancestors"] == ["'none'"], path
        script = directives.get("script-src", directives.get("default-src"))
        assert script and "'unsafe-inline'" not in script and "'unsafe-eval'" not in script, (path, csp)
        assert not any(s.startswith(("http:", "https:", "*")) or s in ("http:", "https:", "data:") for s in script), (
            path,
            csp,
        )
        assert directives.get("object-src") == ["'none'"] or directives.get("default-src") == ["'none'"]
        assert h.get("X-Content-Type-Options") == "nosniff", path
        assert h.get("Referrer-Policy") in (
            "no-referrer",
            "same-origin",
            "strict-origin",
            "strict-origin-when-cross-origin",
        ), path
        if response.mimetype == "text/html" and response.status_code != 204:
            page = response.get_data(as_text=True)
            # no inline script; a data block (type="application/json", never run) is not one,
            # and a name inside it cannot end it early
            scripts = re.findall(r"<script(?![^>]*\ssrc=)([^>]*)>(.*?)</script>", page, re.S)
            assert all('type="application/json"' in attrs and "<" not in body for attrs, body in scripts), (
                path,
                "inline script",
            )
            assert not re.search(r"\son[a-z]+\s*=", page, re.I), (path, "inline event handler")
            assert "javascript:" not in page.lower(), path
            assert "hx-on" not in page, path
    assert {200, 204, 303, 403, 404, 405, 409, 422} <= seen, seen


def test_session_cookie_is_httponly_and_samesite_lax(app, client):
    response = client.post("/import", json=EVENING)
    assert response.status_code == 303
    cookies = response.headers.getlist("Set-Cookie")
    assert cookies, "the scorer's browser remembers its sessions"
    for cookie in cookies:
        attributes = [a.strip().lower() for a in cookie.split(";")]
        assert "httponly" in attributes, cookie
        assert "samesite=lax" in attributes, cookie
        assert "path=/" in attributes, cookie
    # the watcher's browser gets the same kind of cookie
    sid = response.headers["Location"].rsplit("/", 1)[1]
    wid = re.search(r"/w/([A-Za-z0-9_-]+)", client.get(f"/s/{sid}").get_data(as_text=True)).group(1)
    for cookie in app.test_client().get(f"/w/{wid}").headers.getlist("Set-Cookie"):
        assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()


# ---------------------------------------------------------------- only the server's own host names (no forged links)

NEW_SESSION = {
    "player_0": "Ann",
    "player_1": "Ben",
    "player_2": "Cat",
    "rulebook": "parlett",
    "first_dealer": "0",
    "stake": "",
}
FOREIGN_HOSTS = [
    "evil.example",
    "evil.example:5000",
    "localhost.evil.example",
    "127.0.0.1.nip.io",
    "192.0.2.66:5000",
    "[::2]:5000",
    "evil.example@localhost",
    "localhost:99999",
    "local host",
]


@pytest.mark.parametrize("host", FOREIGN_HOSTS)
def test_a_foreign_host_is_refused_before_anything_happens(app, client, host):
    """A DNS-rebinding page on evil.example talks to the server under its own name:
    the browser calls that same-origin, so only the Host check stops it."""
    before = store.connect(app.config["DATABASE"]).execute("select count(*) from sessions").fetchone()[0]
    for headers in (
        {"Host": host, "Origin": f"http://{host}"},
        {"Host": host, "Origin": f"http://{host}", "Sec-Fetch-Site": "same-origin"},
        {"Host": host},
    ):
        response = client.post("/sessions", data=NEW_SESSION, headers=headers)
        assert response.status_code == 400, (host, headers, response.status_code)
        assert "does not answer to that address" in response.get_data(as_text=True)
        response = client.post("/import", json=EVENING, headers=headers)
        assert response.status_code == 400
    for path in ("/", "/rules", "/static/app.css", "/manifest.webmanifest"):
        assert client.get(path, headers={"Host": host}).status_code == 400, path
    after = store.connect(app.config["DATABASE"]).execute("select count(*) from sessions").fetchone()[0]
    assert after == before


def test_the_servers_own_names_are_answered(app, client):
    from scorekeeper.server.lan import lan_address

    hosts = ["localhost", "localhost:5000", "127.0.0.1", "127.0.0.1:5000", "[::1]:5000"]
    if lan_address():
        hosts.append(f"{lan_address()}:5000")
    for host in hosts:
        response = client.post("/sessions", data=NEW_SESSION, headers={"Host": host, "Origin": f"http://{host}"})
        assert response.status_code == 303, (host, response.status_code)


def test_host_names_from_the_config_are_answered(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "h.db"),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(tmp_path / "b"),
            "ALLOWED_HOSTS": ["gleek.local", "Scores.Example"],
        }
    )
    client = app.test_client()
    assert client.get("/", headers={"Host": "gleek.local:5000"}).status_code == 200
    assert client.get("/", headers={"Host": "scores.example"}).status_code == 200
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400


@pytest.mark.parametrize(
    "origin, allowed",
    [
        ("http://localhost", True),
        ("http://localhost:80", True),
        ("HTTP://LOCALHOST", True),
        ("https://localhost", False),
        ("https://localhost:80", False),
        ("http://localhost:443", False),
        ("ws://localhost", False),
        ("http://localhost:5000", False),
        ("http://localhost:abc", False),
        ("http://127.0.0.1", False),
        ("localhost", False),
        ("http://user@localhost", False),
    ],
)
def test_the_same_origin_check_compares_scheme_host_and_port(app, client, origin, allowed):
    response = client.post("/sessions", data=NEW_SESSION, headers={"Origin": origin})
    assert response.status_code == (303 if allowed else 403), (origin, response.status_code)
