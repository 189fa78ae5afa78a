"""Trust: hostile and random input to every endpoint.

For every request: never a 500; a refused request changes nothing (the
session's export is byte-identical, its version and history are unchanged, no
session appears or disappears); an accepted one changes exactly one thing and
leaves a valid record; every response header is one a real WSGI server sends;
names and other text with HTML in them are escaped wherever they are shown.

The bugs the random tests once found are pinned by the examples at the end of
this file, each the input that found it.
"""

from __future__ import annotations

import copy
import io
import json
import re

import pytest
from flask import got_request_exception
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from markupsafe import escape
from werkzeug.datastructures import MultiDict

from support.data import load_example
from support.profiles import examples
from support.web import hand_fields

from scorekeeper import create_app, store
from scorekeeper.rules.record import validate
from support.books import MODELS
from support.strategies import BOOK_IDS

FUZZ = settings(
    max_examples=examples(100),
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)

SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'
PAYLOADS = (SCRIPT, IMG)

EVENINGS = tuple(MODELS[book].evening for book in BOOK_IDS)  # every book's worked evening
EXAMPLES = EVENINGS + ("wits1671-tiddy-off.json",)

# What gunicorn accepts as a response header value (gunicorn/http/wsgi.py HEADER_VALUE_RE).
HEADER_VALUE = re.compile(r"[ \t\x21-\x7e\x80-\xff]*")

HOSTILE_TEXT = [
    "",
    " ",
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-0",
    "+1",
    "1.5",
    "1e3",
    "12.0",
    "0x10",
    " 12 ",
    "12 ",
    "١٢",
    "１２",
    "²",
    "12\x00",
    str(10**30),
    str(-(10**30)),
    "99999999",
    "9" * 20,
    "nobody",
    "discarded",
    "none",
    "NaN",
    "Infinity",
    "null",
    "true",
    "[]",
    "{}",
    SCRIPT,
    IMG,
    "a\x00b",
    "\x00",
    "é",
    "🂡",
    "\u202e",
    "\r\n",
    "\n",
    "{{7*7}}",
    "'; drop table sessions;--",
    "gleek:A",
    "mournival:A",
    "mournival:Z",
    "gleek:",
    ":",
    "0:12",
    "2:",
    "1:99",
    "quiet",
    "eldest-opening",
    "some",
    "hearts",
    "clubs",
    "A",
    "K",
    "4",
    "10",
    "x" * 5000,
    "x" * 100_000,
    "<b>" * 200,
    # input once let past: text UTF-8 cannot encode (JSON's "\\ud800"; in a form, its bytes %ED%A0%80),
    # NULs, and strings just over each of the app's limits (name 40, title 120, note 500)
    "\ud800",
    "Ann\udfff",
    "\udc80\ud800",
    "\x00" * 3,
    "Ann\x00",
    "p" * 41,
    "t" * 121,
    "n" * 501,
]
hostile_text = st.one_of(st.sampled_from(HOSTILE_TEXT), st.text(max_size=30), st.integers(-(10**30), 10**30).map(str))

HAND_FIELDS = [
    "dealer",
    "trump",
    "turned_up",
    "tiddy",
    "buyer",
    "price",
    "price_other",
    "ruff_winner",
    "paid_0",
    "paid_1",
    "paid_2",
    "paid_0_other",
    "paid_1_other",
    "paid_2_other",
    "sets",
    "set_0",
    "set_1",
    "set_2",
    "tricks_0",
    "tricks_1",
    "tricks_2",
    "tricks_auto",
    "honour_A",
    "honour_K",
    "honour_Q",
    "honour_J",
    "card_points_0",
    "card_points_1",
    "card_points_2",
    "tib",
    "tom",
    "last_trick",
    "note",
    "preset",
    "version",
]
SESSION_FIELDS = [
    "player_0",
    "player_1",
    "player_2",
    "rulebook",
    "first_dealer",
    "stake",
    "stake_amount",
    "stake_currency",
    "title",
    "played_on",
    "opt_tiddy",
    "opt_simplified",
]


# ---------------------------------------------------------------- the site under test


def form_bytes(form: MultiDict) -> bytes:
    """A form body as an attacker can send it: a lone surrogate goes as its
    (invalid) UTF-8 bytes, %ED%A0%80, which no browser would send."""
    from urllib.parse import quote_from_bytes

    def encode(text: str) -> str:
        return quote_from_bytes(text.encode("utf-8", "surrogatepass"), safe="")

    return "&".join(f"{encode(k)}={encode(v)}" for k, v in form.items(multi=True)).encode("ascii")


class Site:
    """The app with a test client, its database, and the checks every response gets."""

    def __init__(self, app):
        self.app = app
        self.client = app.test_client()
        self.db = store.connect(app.config["DATABASE"])
        self.errors = []
        self.requests = 0
        got_request_exception.connect(self._error, app)

    def _error(self, sender, exception, **extra):
        self.errors.append(repr(exception))

    def call(self, method, path, check_disposition=True, **kw):
        self.errors.clear()
        if isinstance(kw.get("data"), MultiDict) and kw.get("content_type") is None:
            kw["data"], kw["content_type"] = form_bytes(kw["data"]), "application/x-www-form-urlencoded"
        if isinstance(kw.get("query_string"), dict):
            kw["query_string"] = form_bytes(MultiDict(kw["query_string"])).decode("ascii")
        response = self.client.open(path, method=method, **kw)
        self.requests += 1
        assert response.status_code < 500, (method, path, response.status_code, self.errors)
        for name, value in response.headers.items():
            if name == "Content-Disposition" and not check_disposition:
                continue
            assert HEADER_VALUE.fullmatch(value), (path, name, value)
        if response.mimetype == "text/html":
            page = response.get_data(as_text=True)
            for payload in PAYLOADS:
                assert payload not in page, (path, payload)
        return response

    # state ------------------------------------------------------------
    def session_count(self) -> int:
        return self.db.execute("select count(*) from sessions").fetchone()[0]

    def state(self, sid: str):
        """Everything a write could touch, as seen from outside and inside."""
        export = self.call("GET", f"/s/{sid}/export.json").data
        version = self.db.execute("select version from sessions where id = ?", [sid]).fetchone()[0]
        history = self.db.execute("select count(*) from history where session_id = ?", [sid]).fetchone()[0]
        hands = self.db.execute("select count(*) from hands where session_id = ?", [sid]).fetchone()[0]
        return {
            "export": export,
            "version": version,
            "history": history,
            "hands": hands,
            "sessions": self.session_count(),
        }

    def watch_id(self, sid: str) -> str:
        return self.db.execute("select watch_id from sessions where id = ?", [sid]).fetchone()[0]

    def import_example(self, name: str, **changes) -> str:
        record = load_example(name)
        record.update(changes)
        response = self.call("POST", "/import", json=record)
        assert response.status_code == 303, response.data
        return response.headers["Location"].rsplit("/", 1)[1]

    def pages(self, sid: str, full: bool = True) -> dict[str, str]:
        """Every page of a session, both links (``full``), or one of each kind;
        each must render (no 500)."""
        wid = self.watch_id(sid)
        hands = self.db.execute("select count(*) from hands where session_id = ?", [sid]).fetchone()[0]
        paths = [f"/s/{sid}", f"/w/{wid}", f"/s/{sid}/hands/new", f"/s/{sid}/settle", f"/s/{sid}/sheet", "/"]
        if full:
            paths += [f"/s/{sid}/live", f"/w/{wid}/live", f"/s/{sid}/history", f"/w/{wid}/settle", f"/w/{wid}/sheet"]
        for n in ({1, hands} if full else {hands}) if hands else ():
            paths += [f"/s/{sid}/hands/{n}", f"/w/{wid}/hands/{n}", f"/s/{sid}/hands/{n}/edit"]
        out = {}
        for path in paths:
            response = self.call("GET", path)
            assert response.status_code == 200, (path, response.status_code)
            out[path] = response.get_data(as_text=True)
        response = self.call("POST", f"/s/{sid}/hands/check", data={})
        out["check"] = response.get_data(as_text=True)
        return out


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    app = create_app(
        {
            "DATABASE": str(folder / "fuzz.db"),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(folder / "backups"),
            "SESSIONS_PER_MINUTE": 100_000,
        }
    )
    site = Site(app)
    yield site
    print(f"\nfuzz: {site.requests} requests")


def accepted(response) -> bool:
    return response.status_code == 303 or (response.status_code == 204 and "HX-Redirect" in response.headers)


def assert_one_change_or_none(site: Site, sid: str, before: dict, response, must_change: bool):
    """Either nothing changed at all, or the request was accepted and made exactly one
    change (one version, one history entry) that leaves a valid record."""
    after = site.state(sid)
    if after == before:
        assert not (must_change and accepted(response)), "accepted but nothing stored"
        return after
    assert accepted(response), ("refused but changed", response.status_code, response.data[:300])
    assert after["version"] == before["version"] + 1
    assert after["history"] == before["history"] + 1
    assert after["sessions"] == before["sessions"]
    assert validate(json.loads(after["export"])) == []
    return after


# ---------------------------------------------------------------- strategies


@st.composite
def mutated_form(draw, base: MultiDict, names: list[str]):
    """``base`` with fields dropped, replaced by hostile values, added or doubled."""
    items = list(base.items(multi=True))
    for _ in range(draw(st.integers(0, 5))):
        op = draw(st.sampled_from(["drop", "set", "add", "double"]))
        key = draw(st.one_of(st.sampled_from(names), hostile_text))
        value = draw(hostile_text)
        if op == "drop":
            items = [(k, v) for k, v in items if k != key]
        elif op == "set":
            items = [(k, v) for k, v in items if k != key] + [(key, value)]
        elif op == "add":
            items.append((key, value))
        else:
            items.insert(0, (key, value))
    return MultiDict(items)


json_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**30), 10**30),
    st.sampled_from(
        [
            10**30,
            -(10**30),
            2**63,
            2**64,
            -1,
            0,
            1,
            2,
            3,
            12,
            13,
            14,
            1.0,
            12.0,
            -0.0,
            1e308,
            0.5,
            "12",
            "0",
            "",
            True,
            False,
        ]
    ),
    st.floats(allow_nan=False, allow_infinity=False),
    hostile_text,
)
json_value = st.recursive(
    json_scalar,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


hostile_key = st.one_of(st.text(max_size=10), st.sampled_from(["\ud800", "k\udfff", "\x00", "x" * 200]))


@st.composite
def mutated_record(draw):
    record = copy.deepcopy(load_example(draw(st.sampled_from(EXAMPLES))))
    for _ in range(draw(st.integers(1, 4))):
        paths = list(_paths(record))
        path = draw(st.sampled_from(paths))
        op = draw(st.sampled_from(["set", "set", "drop", "add"]))
        if not path:
            if op == "add":
                record[draw(hostile_key)] = draw(json_value)
            continue
        parent = record
        for step in path[:-1]:
            parent = parent[step]
        if op == "set":
            parent[path[-1]] = draw(json_value)
        elif op == "drop":
            del parent[path[-1]]
        elif isinstance(parent[path[-1]], dict):
            parent[path[-1]][draw(hostile_key)] = draw(json_value)
        elif isinstance(parent[path[-1]], list):
            parent[path[-1]].append(draw(json_value))
    return record


RAW_BODIES = [
    b"",
    b"null",
    b"[]",
    b"{}",
    b"\x00\x01\x02",
    b"\xff\xfe\xfa",
    b"[" * 100_000,
    b'{"a":' * 50_000,
    b"1" * 5000,
    b"NaN",
    b'{"format": Infinity}',
    b"\xef\xbb\xbf{}",
    '{"players": ["\u00e9"]}'.encode("utf-16"),
    SCRIPT.encode(),
    b"x" * 100_000,
]


# ---------------------------------------------------------------- new sessions


@FUZZ
@given(data=st.data())
def test_new_session_form_never_500_and_all_or_nothing(site, data):
    base = MultiDict(
        {
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": data.draw(st.sampled_from(BOOK_IDS)),
            "first_dealer": "0",
            "stake": "",
            "title": "Fuzz",
            "played_on": "2026-11-05",
        }
    )
    form = data.draw(mutated_form(base, SESSION_FIELDS))
    count = site.session_count()
    response = site.call("POST", "/sessions", data=form)
    event(f"/sessions -> {response.status_code}")
    if response.status_code == 303:
        assert site.session_count() == count + 1
        sid = response.headers["Location"].rsplit("/", 1)[1]
        record = json.loads(site.call("GET", f"/s/{sid}/export.json").data)
        assert validate(record) == [] and record["hands"] == []
        site.pages(sid, full=False)
    else:
        assert response.status_code in (400, 413, 422), response.status_code
        assert site.session_count() == count


# ---------------------------------------------------------------- import


@FUZZ
@given(record=mutated_record(), how=st.sampled_from(["json", "file", "form"]))
def test_import_of_a_mutated_record_is_all_or_nothing(site, record, how):
    text = json.dumps(record)  # ASCII, as a client sends a lone surrogate: "\ud800"
    count = site.session_count()
    if how == "json":
        response = site.call("POST", "/import", data=text.encode(), content_type="application/json")
    elif how == "file":
        response = site.call(
            "POST", "/import", data={"file": (io.BytesIO(text.encode()), "s.json")}, content_type="multipart/form-data"
        )
    else:
        response = site.call("POST", "/import", data={"record": text})
    problems = validate(record) or store.limit_problems(record)  # the format's, then the app's limits
    event(f"/import ({how}) -> {response.status_code}")
    if problems:
        assert response.status_code in (413, 422), response.status_code
        assert site.session_count() == count
        if how == "json" and response.status_code == 422:
            assert response.json["problems"]
    else:
        assert response.status_code == 303, response.data[:500]
        made = site.session_count() - count
        # a sheet this client imported already opens that session, no copy made (not for a JSON client)
        assert made == 1 or (made == 0 and how != "json"), made
        sid = response.headers["Location"].rsplit("/", 1)[1]
        stored = json.loads(site.call("GET", f"/s/{sid}/export.json").data)
        assert validate(stored) == []
        assert stored["hands"] == record["hands"]
        assert stored["players"] == [p.strip() for p in record["players"]]
        site.pages(sid)


@FUZZ
@given(
    body=st.one_of(st.sampled_from(RAW_BODIES), st.binary(max_size=200)),
    how=st.sampled_from(["json", "file", "form", "plain"]),
)
def test_import_of_garbage_is_refused_cleanly(site, body, how):
    count = site.session_count()
    if how == "json":
        response = site.call("POST", "/import", data=body, content_type="application/json")
    elif how == "file":
        response = site.call(
            "POST", "/import", data={"file": (io.BytesIO(body), "s.json")}, content_type="multipart/form-data"
        )
    elif how == "form":
        response = site.call("POST", "/import", data={"record": body.decode("latin-1")})
    else:
        response = site.call("POST", "/import", data=body, content_type="text/plain")
    assert response.status_code in (400, 413, 422), response.status_code
    assert site.session_count() == count


# ---------------------------------------------------------------- hands

WRITE_ROUTES = ["/hands/check", "/hands", "/hands/1", "/hands/1/check", "/hands/last/delete", "/undo"]


@pytest.mark.parametrize("route", WRITE_ROUTES)
@settings(FUZZ, max_examples=examples(40))
@given(data=st.data(), example=st.sampled_from(EVENINGS), htmx=st.booleans())
def test_hostile_hand_forms_never_500_and_never_half_written(site, route, data, example, htmx):
    sid = site.import_example(example)
    hands = load_example(example)["hands"]
    if route == "/undo":  # something to undo: one more hand
        added = dict(hands[-1], note="to undo")
        assert site.call("POST", f"/s/{sid}/hands", data=hand_fields(added, 1)).status_code == 303
    before = site.state(sid)
    version = before["version"]
    if route == "/hands/last/delete":
        route = f"/hands/{len(hands)}/delete"
    if route in ("/undo",) or route.endswith("/delete"):
        base = MultiDict({"version": str(version)})
    elif route in ("/hands", "/hands/check"):
        base = hand_fields(hands[-1], version)  # a valid next hand in every example
    else:
        base = hand_fields(hands[0], version)  # hand 1, as it is
    form = data.draw(mutated_form(base, HAND_FIELDS))
    headers = {"HX-Request": "true"} if htmx else {}
    response = site.call("POST", f"/s/{sid}{route}", data=form, headers=headers)
    event(f"{route} -> {response.status_code}")
    if route.endswith("/check"):
        assert site.state(sid) == before
        return
    after = assert_one_change_or_none(site, sid, before, response, must_change=route in ("/hands", "/hands/1"))
    if after != before:
        stored = json.loads(after["export"])["hands"]
        if route == "/hands":
            assert stored[:-1] == hands and len(stored) == len(hands) + 1
        elif route == "/hands/1":
            assert stored[1:] == hands[1:]
        elif route.endswith("/delete"):
            assert stored == hands[:-1]
        elif route == "/undo":
            assert stored == hands


@FUZZ
@given(
    example=st.sampled_from(EVENINGS),
    version=hostile_text,
    route=st.sampled_from(["/hands", "/hands/1", "/hands/last/delete", "/undo"]),
)
def test_any_version_field_is_a_clean_answer(site, example, version, route):
    sid = site.import_example(example)
    hands = load_example(example)["hands"]
    before = site.state(sid)
    if route == "/hands/last/delete":
        route = f"/hands/{len(hands)}/delete"
    fields = hand_fields(hands[-1] if route == "/hands" else hands[0])
    fields["version"] = version
    response = site.call("POST", f"/s/{sid}{route}", data=fields)
    assert response.status_code in (303, 409, 422), response.status_code
    if response.status_code != 303:
        assert site.state(sid) == before
    after = site.state(sid)
    assert after["version"] in (before["version"], before["version"] + 1)
    assert validate(json.loads(after["export"])) == []


def test_stale_version_changes_nothing_on_every_write_route(site):
    sid = site.import_example("parlett-evening.json")
    hands = load_example("parlett-evening.json")["hands"]
    url = f"/s/{sid}"
    assert site.call("POST", url + "/hands", data=hand_fields(hands[-1], 1)).status_code == 303
    before = site.state(sid)
    for route, fields in [
        ("/hands", hand_fields(hands[-1], 1)),
        ("/hands/1", hand_fields(hands[0], 1)),
        ("/hands/4/delete", {"version": "1"}),
        ("/undo", {"version": "1"}),
    ]:
        response = site.call("POST", url + route, data=fields)
        assert response.status_code in (303, 409), (route, response.status_code)
        assert site.state(sid) == before, route


# ---------------------------------------------------------------- GETs with odd paths and queries


@FUZZ
@given(data=st.data())
def test_odd_gets_never_500(site, data):
    sid = site.import_example("parlett-evening.json")
    wid = site.watch_id(sid)
    before = site.state(sid)
    value = data.draw(hostile_text)
    path = data.draw(
        st.sampled_from(
            [
                f"/s/{sid}/live",
                f"/w/{wid}/live",
                f"/s/{sid}",
                f"/w/{wid}",
                f"/s/{sid}/sheet",
                f"/s/{sid}/settle",
                f"/s/{sid}/hands/new",
                f"/s/{sid}/hands/1",
                f"/w/{wid}/hands/2",
                f"/s/{sid}/hands/3/edit",
                f"/s/{sid}/history",
                "/",
                "/rules",
                f"/s/{sid}/export.json",
            ]
        )
    )
    param = data.draw(st.sampled_from(["v", "saved", "edited", "undo", "paper", "x"]))
    response = site.call("GET", path, query_string={param: value})
    assert response.status_code in (200, 204, 404), (path, param, value, response.status_code)
    if response.status_code == 200 and response.mimetype == "text/html" and len(value) > 3:
        page = response.get_data(as_text=True)
        if any(c in value for c in '<>"'):
            assert value not in page
    assert site.state(sid) == before


@pytest.mark.parametrize(
    "suffix",
    [
        "/hands/999999999999",
        "/hands/0",
        "/hands/-1",
        "/hands/4",
        "/hands/99999999999999999999999999",
        "/hands/999999999999/edit",
        "/hands/1x",
        "/hands/%00",
        "/hands/%E2%99%A0",
        "/live?v=abc",
        "/live?v=",
        "/live?v=99999999999999999999999999",
        "/live?v=%00",
        "/live?v=-1",
        "/sheet?paper=a5",
        "/sheet?paper=%00",
        "/settle?x=%3Cscript%3E",
        "/%00",
        "/../../etc/passwd",
        "/export.json?download=1",
    ],
)
@pytest.mark.parametrize("prefix", ["s", "w"])
def test_odd_paths_are_404_or_fine(site, prefix, suffix):
    sid = site.import_example("parlett-evening.json")
    key = sid if prefix == "s" else site.watch_id(sid)
    before = site.state(sid)
    response = site.call("GET", f"/{prefix}/{key}{suffix}")
    assert response.status_code in (200, 204, 404, 405), response.status_code
    assert site.state(sid) == before


@pytest.mark.parametrize(
    "route",
    [
        "/hands/999999999999",
        "/hands/0",
        "/hands/4",
        "/hands/0/check",
        "/hands/999999999999/check",
        "/hands/1/delete",
        "/hands/0/delete",
        "/hands/99999999999999999999999/delete",
        "/hands/-1",
        "/hands/1/edit",
    ],
)
def test_posts_to_hands_that_do_not_exist_change_nothing(site, route):
    sid = site.import_example("parlett-evening.json")
    before = site.state(sid)
    fields = hand_fields(load_example("parlett-evening.json")["hands"][0], before["version"])
    response = site.call("POST", f"/s/{sid}{route}", data=fields)
    assert response.status_code in (303, 404, 405, 409, 422), response.status_code
    assert site.state(sid) == before


@pytest.mark.parametrize(
    "key", ["nope", "A" * 24, "%00", "%3Cscript%3E", "x" * 5000, "..", "é", "' or 1=1 --", "%E2%80%AE"]
)
def test_guessed_ids_are_404_on_every_route(site, key):
    count = site.session_count()
    for method, suffix in [
        ("GET", ""),
        ("GET", "/live?v=1"),
        ("GET", "/hands/1"),
        ("GET", "/export.json"),
        ("GET", "/settle"),
        ("GET", "/sheet"),
        ("POST", "/hands"),
        ("POST", "/hands/check"),
        ("POST", "/hands/1"),
        ("POST", "/undo"),
        ("POST", "/hands/1/delete"),
    ]:
        for prefix in ("s", "w"):
            response = site.call(
                method, f"/{prefix}/{key}{suffix}", data={"version": "1"} if method == "POST" else None
            )
            assert response.status_code in (404, 405), (method, prefix, suffix, response.status_code)
    assert site.session_count() == count


@pytest.mark.parametrize(
    "host",
    [
        SCRIPT,
        IMG,
        "[::1",
        "[::1]:",
        "localhost:",
        ":",
        "127.0.0.1:abc",
        "localhost:99999",
        "évil",
        "[::1]:5000",
        "evil.example",
    ],
)
def test_hostile_host_header_is_never_reflected_raw(site, host):
    sid = site.import_example("parlett-evening.json")
    for path in (f"/s/{sid}", f"/w/{site.watch_id(sid)}", "/"):
        response = site.call("GET", path, headers={"Host": host})
        assert response.status_code in (200, 400), (path, response.status_code)


# ---------------------------------------------------------------- limits


def test_limits_refuse_cleanly(site):
    evening = load_example("parlett-evening.json")
    record = dict(evening, hands=[evening["hands"][1 + i % 2] for i in range(store.MAX_HANDS)])
    count = site.session_count()
    assert (
        site.call("POST", "/import", json=dict(record, hands=record["hands"] + [evening["hands"][2]])).status_code
        == 422
    )
    assert (
        site.call(
            "POST", "/import", data=json.dumps(record) + " " * 3_000_000, content_type="application/json"
        ).status_code
        == 413
    )
    assert site.session_count() == count
    response = site.call("POST", "/import", json=record)
    assert response.status_code == 303
    sid = response.headers["Location"].rsplit("/", 1)[1]
    before = site.state(sid)
    response = site.call("POST", f"/s/{sid}/hands", data=hand_fields(evening["hands"][2], before["version"]))
    assert response.status_code == 422
    assert f"at most {store.MAX_HANDS} hands" in response.get_data(as_text=True)
    assert site.state(sid) == before
    assert site.call("GET", f"/s/{sid}/hands/new").status_code == 303  # sent back to the table


# ---------------------------------------------------------------- escaping


def _assert_escaped_everywhere(site, sid, names):
    pages = site.pages(sid)
    for path, page in pages.items():
        for name in names:
            if any(c in name for c in '<>"&'):
                assert name not in page, (path, name)
    table = pages[f"/s/{sid}"]
    for name in names:
        assert str(escape(name)) in table, name


@pytest.mark.parametrize("rulebook", BOOK_IDS)
def test_html_in_names_and_title_is_escaped_on_every_page(site, rulebook):
    names = [SCRIPT, IMG, "Ann & <b>Ben</b>"]
    example = MODELS[rulebook].evening
    sid = site.import_example(example, players=names, title=SCRIPT + IMG)
    # a hand whose note carries script too
    hands = load_example(example)["hands"]
    fields = hand_fields(hands[-1], site.state(sid)["version"])
    fields["note"] = SCRIPT + IMG
    assert site.call("POST", f"/s/{sid}/hands", data=fields).status_code == 303
    _assert_escaped_everywhere(site, sid, names)
    detail = site.call("GET", f"/s/{sid}/hands/{len(hands) + 1}").get_data(as_text=True)
    assert str(escape(SCRIPT + IMG)) in detail


def test_html_in_names_is_escaped_when_made_through_the_form(site):
    response = site.call(
        "POST",
        "/sessions",
        data={
            "player_0": SCRIPT,
            "player_1": IMG,
            "player_2": "<i>Cat",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "",
            "title": IMG,
        },
    )
    assert response.status_code == 303
    sid = response.headers["Location"].rsplit("/", 1)[1]
    _assert_escaped_everywhere(site, sid, [SCRIPT, IMG, "<i>Cat"])


def test_html_in_refused_input_is_escaped_in_the_problems(site):
    record = load_example("parlett-evening.json")
    record["players"] = [SCRIPT, SCRIPT, IMG]
    record["hands"][0]["trump"] = IMG
    page = site.call("POST", "/import", data={"record": json.dumps(record)}).get_data(as_text=True)
    assert str(escape(SCRIPT)) in page
    page = site.call(
        "POST",
        "/sessions",
        data={"player_0": SCRIPT, "player_1": SCRIPT, "player_2": IMG, "rulebook": "parlett", "stake": ""},
    ).get_data(as_text=True)
    assert str(escape(SCRIPT)) in page


@settings(FUZZ, max_examples=examples(40))
@given(
    token=st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=6, max_size=6),
    tails=st.lists(st.text(max_size=12).map(str.strip), min_size=3, max_size=3),
)
def test_random_tag_like_names_are_never_rendered_raw(site, token, tails):
    names = [f"<q{token}{i} x='{tail}'>"[:40] for i, tail in enumerate(tails)]
    record = load_example("parlett-evening.json")
    record["players"] = names
    assume(validate(record) == [])
    response = site.call("POST", "/import", json=record)
    assert response.status_code == 303
    sid = response.headers["Location"].rsplit("/", 1)[1]
    stored = [n.strip() for n in names]
    for path, page in site.pages(sid, full=False).items():
        assert f"<q{token}" not in page, path
    assert all(str(escape(n)) in site.call("GET", f"/s/{sid}").get_data(as_text=True) for n in stored)


# ---------------------------------------------------------------- bugs the random tests found


@pytest.mark.parametrize("version", ["²", "9" * 5000])
@pytest.mark.parametrize("route", ["/hands", "/hands/1", "/hands/3/delete", "/undo"])
def test_version_field_that_is_not_a_number_is_not_a_500(site, route, version):
    sid = site.import_example("parlett-evening.json")
    hands = load_example("parlett-evening.json")["hands"]
    fields = hand_fields(hands[-1] if route == "/hands" else hands[0])
    fields["version"] = version
    before = site.state(sid)
    response = site.call("POST", f"/s/{sid}{route}", data=fields)
    assert response.status_code in (303, 409, 422)
    if response.status_code != 303:
        assert site.state(sid) == before


@pytest.mark.parametrize("how", ["form", "import"])
def test_title_with_a_line_break_still_exports(site, how):
    if how == "form":
        response = site.call(
            "POST",
            "/sessions",
            data={
                "player_0": "Ann",
                "player_1": "Ben",
                "player_2": "Cat",
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": "",
                "title": "Thursday\nat the Mitre",
            },
        )
    else:
        record = load_example("parlett-evening.json")
        record["title"] = "Thursday\r\nat the Mitre"
        response = site.call("POST", "/import", json=record)
    assert response.status_code == 303
    sid = response.headers["Location"].rsplit("/", 1)[1]
    wid = site.watch_id(sid)
    assert site.call("GET", f"/s/{sid}/export.json").status_code == 200
    assert site.call("GET", f"/w/{wid}/export.json").status_code == 200


@pytest.mark.parametrize("title", ["♠ Thursday", "5 € a counter", "Łódź"])
def test_title_beyond_latin1_gives_a_valid_export_header(site, title):
    response = site.call(
        "POST",
        "/sessions",
        data={
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "",
            "title": title,
        },
    )
    assert response.status_code == 303
    sid = response.headers["Location"].rsplit("/", 1)[1]
    response = site.call("GET", f"/s/{sid}/export.json")  # site.call checks every header
    assert response.status_code == 200


@pytest.mark.parametrize("how", ["form", "import"])
def test_stake_with_thousands_of_digits_is_not_a_500(site, how):
    count = site.session_count()
    amount = "9" * 5000
    if how == "form":
        response = site.call(
            "POST",
            "/sessions",
            data={
                "player_0": "Ann",
                "player_1": "Ben",
                "player_2": "Cat",
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": "money",
                "stake_amount": amount,
                "stake_currency": "EUR",
            },
        )
    else:
        record = load_example("parlett-evening.json")
        record["stake"] = {"per_counter": amount, "currency": "EUR"}
        response = site.call("POST", "/import", json=record)
    assert response.status_code == 422  # at most 30 characters (record.MAX_STAKE_DIGITS)
    assert site.session_count() == count


def test_huge_stake_accepted_by_the_form_still_renders(site):
    response = site.call(
        "POST",
        "/sessions",
        data={
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "money",
            "stake_amount": "1" * 70,
            "stake_currency": "EUR",
        },
    )
    assert response.status_code in (303, 422)
    if response.status_code == 422:
        return  # refused up front: fine
    sid = response.headers["Location"].rsplit("/", 1)[1]
    hand = load_example("parlett-seed-example.json")["hands"][0]
    assert site.call("POST", f"/s/{sid}/hands", data=hand_fields(hand, 1)).status_code == 303
    site.pages(sid)


def test_imported_astronomical_price_still_renders_or_is_refused(site):
    record = load_example("parlett-evening.json")
    record["hands"][2]["auction"]["price"] = 2 * 10**308
    count = site.session_count()
    response = site.call("POST", "/import", json=record)
    if response.status_code == 422:
        assert site.session_count() == count
        return
    assert response.status_code == 303
    site.pages(response.headers["Location"].rsplit("/", 1)[1])


# ---------------------------------------------------------------- the hostile corpus in every field, deterministically

NEW_CORPUS = ["\ud800", "Ann\udfff", "\x00" * 3, "Ann\x00", "p" * 41, "t" * 121, "n" * 501]


def test_every_form_field_with_the_new_corpus(site):
    sid = site.import_example("parlett-evening.json")
    hands = load_example("parlett-evening.json")["hands"]
    base_session = MultiDict(
        {
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "",
            "title": "Fuzz",
        }
    )
    for field in SESSION_FIELDS:
        for value in NEW_CORPUS:
            form = MultiDict(base_session)
            form[field] = value
            count = site.session_count()
            response = site.call("POST", "/sessions", data=form)
            assert response.status_code in (303, 422), (field, value, response.status_code)
            assert site.session_count() == count + (response.status_code == 303)
            if response.status_code == 303:
                site.pages(response.headers["Location"].rsplit("/", 1)[1], full=False)
    for field in HAND_FIELDS:
        for value in NEW_CORPUS:
            before = site.state(sid)
            form = hand_fields(hands[-1], before["version"])
            form[field] = value
            response = site.call("POST", f"/s/{sid}/hands", data=form)
            after = assert_one_change_or_none(site, sid, before, response, must_change=False)
            if after != before:  # a note of NULs, say: stored, shown, and taken back for the next value
                site.pages(sid, full=False)
                assert site.call("POST", f"/s/{sid}/undo", data={"version": str(after["version"])}).status_code == 303


@pytest.mark.parametrize("example", EVENINGS)
def test_every_record_value_and_key_with_the_new_corpus(site, example):
    base = load_example(example)
    for path in list(_paths(base)):
        for value in NEW_CORPUS:
            for kind in ("value", "key"):
                record = copy.deepcopy(base)
                parent = record
                for step in path[:-1]:
                    parent = parent[step]
                if kind == "value" and path:
                    parent[path[-1]] = value
                elif kind == "key" and (not path or isinstance(parent[path[-1]], dict)):
                    (record if not path else parent[path[-1]])[value] = 1
                else:
                    continue
                count = site.session_count()
                response = site.call(
                    "POST", "/import", data=json.dumps(record).encode(), content_type="application/json"
                )
                expected = validate(record) or store.limit_problems(record)
                assert response.status_code == (422 if expected else 303), (path, kind, value, response.status_code)
                assert site.session_count() == count + (not expected)
                if expected:
                    for problem in response.json["problems"]:
                        assert problem.isprintable() and problem.encode("utf-8")
                else:
                    site.pages(response.headers["Location"].rsplit("/", 1)[1], full=False)


# ---------------------------------------------------------------- a tap cannot break the table

DEEP_LIST = "[" * 1000 + "]" * 1000
DEEP_OBJECT = '{"a":' * 1000 + "1" + "}" * 1000
#: What a hostile phone can tap into any field: an unknown chip, a call nested too deep,
#: a malformed call, text past a limit, and the earlier corpus's worst.
TAP_CORPUS = [
    "x",
    DEEP_LIST,
    DEEP_OBJECT,
    '[1, "bid", 13, 14]',
    "[" + ", ".join(["[1, 13]"] * 61) + "]",
    "n" * 501,
    "\ud800",
]
TAP_FIELDS = [
    f
    for f in HAND_FIELDS
    if f not in ("preset", "version", "card_points_0", "card_points_1", "card_points_2", "tib", "tom", "last_trick")
] + ["bids", "bid", "bid_amount", "ruff_calls", "ruff_call", "ruff_amount", "shown_0", "shown_total_0", "junk"]
MODERN_TAP_FIELDS = ["card_points_0", "tib", "last_trick", "count_0_A", "card_points_counted"]


def stored_draft(site: Site, sid: str):
    return site.db.execute("select answers, version from drafts where session_id = ?", [sid]).fetchone()


@pytest.mark.parametrize(
    "example, fields", [("parlett-evening.json", TAP_FIELDS), ("modern-evening.json", MODERN_TAP_FIELDS)]
)
def test_every_tap_field_with_the_tap_corpus_is_refused_or_stored_and_every_page_still_renders(site, example, fields):
    """Each value in each field of a tap: refused with a line and nothing stored
    (422), or stored as an answer of the book's own shapes, and the session's
    pages all still answer 200."""
    sid = site.import_example(example)
    base = MultiDict({"dealer": "0", "trump": "hearts"})
    for field in fields:
        for value in TAP_CORPUS:
            before = stored_draft(site, sid)
            form = MultiDict(base)
            form[field] = value
            form["draft_version"] = str(before[1] if before else 0)
            response = site.call("POST", f"/s/{sid}/hands/check", data=form, headers={"HX-Request": "true"})
            assert response.status_code in (200, 422), (field, value[:20], response.status_code)
            if response.status_code == 422:
                assert stored_draft(site, sid) == before, (field, value[:20])
                assert "Not kept: " in response.get_data(as_text=True)
            else:
                answers = json.loads(stored_draft(site, sid)[0])
                assert len(json.dumps(answers)) < 2000, (field, value[:20])
        assert site.call("GET", f"/s/{sid}").status_code == 200, field  # the table page, with the hand in progress
    site.pages(sid)
    assert site.errors == []
