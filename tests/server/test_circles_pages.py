"""Circles over real HTTP (a served app, cookies kept as a browser keeps them):
made from the home page, members added, renamed, merged, an evening started
from three members, one attached by its link, one imported; the members' link
can change nothing; a PIN locks the circle; bad input is said in the table's
words and nothing is saved; the ledger, what is owed and the statistics show
the evenings' figures, and a payment marked closes what it settles."""

from __future__ import annotations

import http.cookiejar
import json
import re
import sqlite3
import threading
import urllib.error
import urllib.parse
import urllib.request
import uuid

import pytest
from openskill.models import PlackettLuce
from werkzeug.serving import make_server

from scorekeeper import create_app
from support.circles import forms
from support.data import load_example
from support.web import hand_fields

HANDS = load_example("parlett-evening.json")["hands"]


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """A client over real HTTP that keeps cookies and does not follow redirects."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), NoRedirect()
        )

    def open(self, method: str, path: str, fields=None, files=None) -> tuple[int, dict, str]:
        data, headers = None, {"Sec-Fetch-Site": "same-origin"}
        if files:
            boundary = uuid.uuid4().hex
            parts = []
            for name, value in (fields or {}).items():
                parts.append(
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
                )
            for name, (filename, content) in files.items():
                parts.append(
                    f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                    f"Content-Type: application/octet-stream\r\n\r\n".encode()
                    + content
                    + b"\r\n"
                )
            data = b"".join(parts) + f"--{boundary}--\r\n".encode()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        elif fields is not None:
            data = urllib.parse.urlencode(fields, doseq=True).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode()

    def get(self, path):
        return self.open("GET", path)

    def open_bytes(self, path) -> tuple[int, dict, bytes]:
        """A GET whose body is kept as bytes (a PDF)."""
        request = urllib.request.Request(self.base + path, headers={"Sec-Fetch-Site": "same-origin"})
        try:
            with self.opener.open(request, timeout=120) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def post(self, path, fields=None, files=None):
        return self.open("POST", path, fields or {}, files)


@pytest.fixture
def served(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "c.db"),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(tmp_path / "backups"),
            "SESSIONS_PER_MINUTE": 10_000,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def problems(page: str) -> list[str]:
    import html

    return [
        html.unescape(re.sub(r"<[^>]+>", "", p)) for p in re.findall(r'class="problem" role="alert">(.*?)</p>', page)
    ]


def members_of(page: str) -> dict:
    """name -> member id, from the new evening's first seat."""
    select = re.search(r'<select name="seat_0".*?</select>', page, re.S).group(0)
    return {name: int(value) for value, name in re.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', select)}


def new_circle(phone, name="Thursday Gleek", members="Ann\nBen\nCat\nDan", **extra) -> str:
    status, headers, page = phone.post("/circles", dict({"circle_name": name, "circle_members": members}, **extra))
    assert status == 303, page
    return headers["Location"]


def start_evening(phone, circle, seats, played_on, stake="1d") -> str:
    status, headers, page = phone.post(
        circle + "/sessions",
        {
            "seat_0": seats[0],
            "seat_1": seats[1],
            "seat_2": seats[2],
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": stake,
            "played_on": played_on,
        },
    )
    assert status == 303, problems(page)
    return headers["Location"]


def play(phone, session, hands):
    for version, hand in enumerate(hands, 1):
        status, _, page = phone.post(session + "/hands", list(hand_fields(hand, version).items(multi=True)))
        assert status == 303, page


def database(app):
    return sqlite3.connect(app.config["DATABASE"])


def counts(app) -> tuple:
    conn = database(app)
    try:
        return tuple(
            conn.execute(f"select count(*) from {t}").fetchone()[0]
            for t in ("circles", "members", "sessions", "seats", "circle_sessions", "payments")
        ) + (
            conn.execute("select group_concat(name, ',') from (select name from members order by id)").fetchone()[0],
            conn.execute("select group_concat(version, ',') from circles").fetchone()[0],
        )
    finally:
        conn.close()


def test_a_circle_made_from_the_home_page_plays_its_evenings(served):
    app, base = served
    phone = Browser(base)
    assert 'action="/circles"' in phone.get("/")[2]
    circle = new_circle(phone)
    status, _, page = phone.get(circle)
    assert status == 200 and "Thursday Gleek" in page and "4 members · 0 evenings" in page
    watch = re.search(r'href="http://[^"]+(/cw/[A-Za-z0-9_-]{24})"', page).group(1)
    assert "<svg" in page and circle.rsplit("/", 1)[1] in page  # the QR code, and the manage link shown
    ids = members_of(page)
    assert list(ids) == ["Ann", "Ben", "Cat", "Dan"]
    # the home page lists it
    assert "Thursday Gleek" in phone.get("/")[2]

    session = start_evening(phone, circle, [ids["Cat"], ids["Ann"], ids["Ben"]], "2026-11-14")
    status, _, table = phone.get(session)
    assert f'<a href="{circle}">An evening of Thursday Gleek</a>' in table
    assert re.findall(r'data-seat="\d">([^<]+)<', table)[:0] == [] and "Cat" in table
    play(phone, session, HANDS[:2])
    conn = database(app)
    assert conn.execute("select seat, name, member_id from seats order by seat").fetchall() == [
        (0, "Cat", ids["Cat"]),
        (1, "Ann", ids["Ann"]),
        (2, "Ben", ids["Ben"]),
    ]
    conn.close()

    # a session's watcher reaches the circle by its members' link, never the manage link
    other = Browser(base)
    watch_table = re.search(r"/w/[A-Za-z0-9_-]{24}", table).group(0)
    page = other.get(watch_table)[2]
    assert f'href="{watch}"' in page and circle not in page
    page = other.get(watch)[2]
    assert "The members' link" in page and 'action="' + circle not in page and circle not in page
    assert "/s/" not in page  # no scorer's link of any evening


def test_members_are_added_renamed_and_merged_and_bad_names_are_said(served):
    app, base = served
    phone = Browser(base)
    status, _, page = phone.post("/circles", {"circle_name": "Thursday Gleek", "circle_members": "Ann\nBen"})
    assert status == 422 and problems(page) == ["A circle needs three members at least: Gleek is a game for three."]
    assert "Ann\nBen</textarea>" in page  # what was typed, kept
    status, _, page = phone.post("/circles", {"circle_name": " ", "circle_members": "Ann, Ben, ann"})
    assert status == 422 and problems(page) == [
        "Give the circle a name, such as “Thursday Gleek”.",
        "ann is named twice: each member once.",
    ]
    assert counts(app)[:2] == (0, 0)
    circle = new_circle(phone, members="Ann, Ben, Cat, Anne")
    ids = members_of(phone.get(circle)[2])
    before = counts(app)
    for path, fields, line in (
        ("/members", {"name": "  "}, "A member's name cannot be empty."),
        ("/members", {"name": "ben"}, "Ben is already a member: if they are one person, merge the two names instead."),
        (
            f"/members/{ids['Ben']}/rename",
            {"name": "Cat"},
            "Cat is already a member: if they are one person, merge the two names instead.",
        ),
        ("/merge", {"keep": ids["Ann"], "merged": ids["Ann"]}, "Choose two different members to merge."),
    ):
        status, _, page = phone.post(circle + path, fields)
        assert status == 422 and problems(page) == [line], (path, problems(page))
    assert counts(app) == before  # nothing saved
    assert phone.post(circle + "/members", {"name": "Dan"})[0] == 303
    session = start_evening(phone, circle, [ids["Anne"], ids["Ben"], ids["Cat"]], "2026-11-14")
    assert phone.post(circle + f"/members/{ids['Ben']}/rename", {"name": "Benjamin"})[0] == 303
    status, _, page = phone.post(circle + "/merge", {"keep": ids["Ann"], "merged": ids["Anne"]})
    assert status == 303
    page = phone.get(circle)[2]
    assert list(members_of(page)) == ["Ann", "Benjamin", "Cat", "Dan"]
    assert "Ann <small>(as Anne)</small> · Benjamin <small>(as Ben)</small> · Cat" in page
    assert json.loads(phone.get(session + "/export.json")[2])["players"] == ["Anne", "Ben", "Cat"]  # as played


def new_member_placeholder(page: str) -> str:
    return re.search(r'A new member <input name="name"[^>]*placeholder="([^"]*)"', page).group(1)


def test_the_new_member_field_suggests_a_name_the_circle_has_not_taken(served):
    """The example in the new-member field is not a member's name already: "Dan"
    beside the circle's Dan (the home page's own example members are Ann, Ben,
    Cat and Dan) reads as a name to add again; each suggestion taken, the next
    one; all taken, a neutral one."""
    _, base = served
    phone = Browser(base)
    circle = new_circle(phone, members="Ann\nBen\nCat\nDan")
    taken = ["Ann", "Ben", "Cat", "Dan"]
    for added in ("meg", "Kit", "Ned", "Sue", "Tom", "Wat"):  # in any case: "meg" is Meg
        placeholder = new_member_placeholder(phone.get(circle)[2])
        assert placeholder.lower() == added.lower() and placeholder.lower() not in [n.lower() for n in taken]
        assert phone.post(circle + "/members", {"name": added})[0] == 303
        taken.append(added)
    assert new_member_placeholder(phone.get(circle)[2]) == "Their name"


def test_a_new_evening_needs_three_different_members(served):
    app, base = served
    phone = Browser(base)
    circle = new_circle(phone)
    ids = members_of(phone.get(circle)[2])
    before = counts(app)
    for seats, line in (
        ([ids["Ann"], ids["Ann"], ids["Ben"]], "Three different members, one per seat: Ann cannot sit twice."),
        ([ids["Ann"], "", ids["Ben"]], "Choose a member of the circle for each of the three seats."),
        ([ids["Ann"], 999, ids["Ben"]], "Choose a member of the circle for each of the three seats."),
    ):
        status, _, page = phone.post(
            circle + "/sessions",
            {
                "seat_0": seats[0],
                "seat_1": seats[1],
                "seat_2": seats[2],
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": "",
            },
        )
        assert status == 422 and problems(page) == [line]
    status, _, page = phone.post(
        circle + "/sessions",
        {
            "seat_0": ids["Ann"],
            "seat_1": ids["Ben"],
            "seat_2": ids["Cat"],
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "",
            "played_on": "2026-02-30",
        },
    )
    assert status == 422 and problems(page) == ["Enter a real date."]
    assert counts(app) == before


def test_an_evening_played_already_is_attached_by_its_link_or_imported(served):
    app, base = served
    phone = Browser(base)
    circle = new_circle(phone)
    ids = members_of(phone.get(circle)[2])
    status, headers, _ = phone.post(
        "/sessions",
        {
            "player_0": "Ann",
            "player_1": "Eve",
            "player_2": "dan ",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "",
        },
    )
    played = headers["Location"]
    watch = re.search(r"/w/[A-Za-z0-9_-]{24}", phone.get(played)[2]).group(0)
    status, _, page = phone.post(circle + "/attach", {"link": base + watch})
    assert status == 422 and problems(page) == ["That is a watch link: paste the scorer's link (it has /s/ in it)."]
    status, headers, _ = phone.post(circle + "/attach", {"link": base + played})
    assert status == 303
    mapping = headers["Location"]
    page = phone.get(mapping)[2]
    assert re.findall(r'<option value="([^"]+)" selected', page) == [
        str(ids["Ann"]),
        str(ids["Dan"]),
    ]  # by name, any case
    before = counts(app)
    status, _, page = phone.post(mapping, {"seat_0": ids["Ann"], "seat_1": ids["Ann"], "seat_2": ids["Dan"]})
    assert status == 422 and problems(page) == ["Three different members, one per seat: Ann cannot sit twice."]
    status, _, page = phone.post(mapping, {"seat_0": ids["Ann"], "seat_1": "new", "seat_2": "new"})
    assert status == 422 and problems(page) == [
        "Dan is already a member: if they are one person, merge the two names instead."
    ]
    assert counts(app) == before  # no member made by a refused attach
    assert phone.post(mapping, {"seat_0": ids["Ann"], "seat_1": "new", "seat_2": ids["Dan"]})[0] == 303
    page = phone.get(circle)[2]
    assert list(members_of(page)) == ["Ann", "Ben", "Cat", "Dan", "Eve"] and "1 evening" in page
    status, _, page = phone.post(mapping, {"seat_0": ids["Ann"], "seat_1": ids["Ben"], "seat_2": ids["Dan"]})
    assert status == 422 and problems(page) == ["This session is already one of the circle's evenings."]

    # a session file, imported into the circle
    record = dict(load_example("parlett-evening.json"), players=["Ben", "Cat", "Dan"], played_on="2026-11-21")
    status, headers, page = phone.post(
        circle + "/import", files={"file": ("evening.json", json.dumps(record).encode())}
    )
    assert status == 303, page
    page = phone.get(headers["Location"])[2]
    assert re.findall(r'<option value="([^"]+)" selected', page) == [str(ids["Ben"]), str(ids["Cat"]), str(ids["Dan"])]
    assert phone.post(headers["Location"], {"seat_0": ids["Ben"], "seat_1": ids["Cat"], "seat_2": ids["Dan"]})[0] == 303
    status, _, page = phone.post(circle + "/import", files={"file": ("bad.json", b'{"format": "gleek-session/1"}')})
    assert status == 422 and "rulebook" in page


def every_post(key: str, session_id: str, member: int) -> list[tuple[str, dict]]:
    """Every request that changes a circle, each valid enough to succeed from the manage link."""
    return [
        (f"/c/{key}/members", {"name": "Zed"}),
        (f"/c/{key}/members/{member}/rename", {"name": "Zed"}),
        (f"/c/{key}/merge", {"keep": member, "merged": member + 3}),
        (f"/c/{key}/pin", {"pin": "1234"}),
        (
            f"/c/{key}/sessions",
            {
                "seat_0": member,
                "seat_1": member + 1,
                "seat_2": member + 2,
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": "",
            },
        ),
        (f"/c/{key}/attach", {"link": f"/s/{session_id}"}),
        (f"/c/{key}/attach/{session_id}", {"seat_0": member, "seat_1": member + 1, "seat_2": member + 2}),
        (f"/c/{key}/evenings/{session_id}/detach", {}),
        (f"/c/{key}/owed/pay", {}),
        (f"/c/{key}/owed/{session_id}/settle", {"paid_by": member}),
        (f"/c/{key}/owed/payments/1/undo", {}),
        (f"/c/{key}/unlock", {"pin": "1234"}),
    ]


def test_the_members_link_can_change_nothing(served):
    app, base = served
    phone = Browser(base)
    circle = new_circle(phone)
    page = phone.get(circle)[2]
    ids = members_of(page)
    session = start_evening(phone, circle, [ids["Ann"], ids["Ben"], ids["Cat"]], "2026-11-14")
    play(phone, session, HANDS[:2])
    watch = re.search(r"/cw/([A-Za-z0-9_-]{24})", page).group(1)
    before = counts(app)
    member = Browser(base)
    assert member.get(f"/cw/{watch}")[0] == 200
    for path, fields in every_post(watch, session.rsplit("/", 1)[1], ids["Ann"]):
        for link in (path, path.replace("/c/", "/cw/", 1)):  # the watch id as a manage id, and under /cw/
            status, _, _ = member.post(link, fields)
            assert status in (404, 405), (link, status)
    for path in ("", "/ledger", "/owed", "/stats"):
        status, _, page = member.get(f"/cw/{watch}{path}")
        assert status == 200 and 'method="post"' not in page, path
        assert circle not in page and session not in page
    assert member.get(f"/c/{watch}")[0] == 404
    assert counts(app) == before


def test_a_circle_with_a_pin_changes_only_where_it_was_unlocked(served):
    app, base = served
    phone = Browser(base)
    circle = new_circle(phone, circle_pin="4821")
    ids = members_of(phone.get(circle)[2])
    session = start_evening(phone, circle, [ids["Ann"], ids["Ben"], ids["Cat"]], "2026-11-14")
    assert (
        phone.post(session + "/hands", list(hand_fields(HANDS[0], 1).items(multi=True)))[0] == 303
    )  # the same PIN: unlocked
    stranger = Browser(base)
    page = stranger.get(circle)[2]
    assert "Unlock to change the circle" in page and 'action="' + circle + '/members"' not in page
    before = counts(app)
    for path, fields in every_post(circle.rsplit("/", 1)[1], session.rsplit("/", 1)[1], ids["Ann"])[:-1]:
        status, _, _ = stranger.post(path, fields)
        assert status == 403, (path, status)
    assert counts(app) == before
    assert stranger.post(circle + "/unlock", {"pin": "1111"})[2].count("That PIN is not right.") == 1
    assert stranger.post(circle + "/unlock", {"pin": "4821"})[0] == 303
    assert stranger.post(circle + "/members", {"name": "Eve"})[0] == 303
    # the table has the circle's PIN: a stranger's phone cannot record hands before it is unlocked
    assert stranger.post(session + "/hands", list(hand_fields(HANDS[1], 2).items(multi=True)))[0] == 403


def test_a_locked_circle_with_no_evenings_says_how_to_start_one(served):
    """On a phone that has not unlocked it, the circle offers no new evening: it says to
    unlock it (it said "start one below", with nothing below); unlocked, it says start one below."""
    _, base = served
    phone = Browser(base)
    circle = new_circle(phone, circle_pin="4821")
    stranger = Browser(base)
    page = stranger.get(circle)[2]
    assert "No evenings yet: unlock the circle (its button below) to start one." in page
    assert "start one below" not in page and 'id="new-evening"' not in page
    assert "No evenings yet: start one below, or add one played already." in phone.get(circle)[2]


def test_the_ledger_owed_and_statistics_show_the_evenings(served):
    app, base = served
    phone = Browser(base)
    circle = new_circle(phone)
    ids = members_of(phone.get(circle)[2])
    one = start_evening(phone, circle, [ids["Ann"], ids["Ben"], ids["Cat"]], "2026-11-14")
    play(phone, one, HANDS[:2])
    two = start_evening(phone, circle, [ids["Dan"], ids["Ben"], ids["Cat"]], "2026-11-21")
    play(phone, two, HANDS[:2])
    balances = [re.findall(r'data-seat="\d">([^<]*)<', phone.get(s)[2])[:3] for s in (one, two)]
    assert balances == [["+52", "+3", "−55"]] * 2  # the worked evening's first two hands

    page = phone.get(circle + "/ledger")[2]
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td class="amount">([^<]+)</td>', page)
    # both evenings at 1d a counter: the season in money (52 counters are 4s 4d)
    assert rows == [("Ann", "+4s 4d"), ("Ben", "+6d"), ("Cat", "−9s 2d"), ("Dan", "+4s 4d")]
    assert "Σ +6d" in page and "<svg" in page and "evening</text>" in page
    page = phone.get(circle + "/ledger?since=2026-11-20")[2]
    assert re.findall(r'<tr><th scope="row">([^<]+)</th><td class="amount">([^<]+)</td>', page) == [
        ("Dan", "+4s 4d"),
        ("Ben", "+3d"),
        ("Cat", "−4s 7d"),
    ]
    page = phone.get(circle + "/ledger?rulebook=modern")[2]
    assert "No evenings in that choice." in page

    page = phone.get(circle + "/stats")[2]
    assert re.search(r"<th scope=\"row\">Evenings</th>(.*?)</tr>", page).group(1).count(">2<") == 2  # Ben and Cat
    assert "Head to head" in page and "Net by phase" in page
    bars = re.search(r'<svg[^>]*class="balance-chart bars".*?</svg>', page, re.S).group(0)
    assert re.findall(r'fill="#000">([^<]+)</text>', bars) == [
        "Ann",
        "+4s 4d",
        "Ben",
        "+6d",
        "Cat",
        "−9s 2d",
        "Dan",
        "+4s 4d",
    ]

    page = phone.get(circle + "/owed")[2]
    debts = [re.sub(r"<[^>]+>", "", d) for d in re.findall(r'<p class="debt">(.*?)</p>', page)]
    assert debts == [
        "Cat pays Ann 4s 4d, for 14 Nov and 21 Nov",
        "Cat pays Dan 4s 4d, for 14 Nov and 21 Nov",
        "Cat pays Ben 6d, for 14 Nov and 21 Nov",
    ]
    # the first evening was settled at the table; the second is carried
    [(action, settle)] = forms(page, f"/owed/{one.rsplit('/', 1)[1]}/settle")
    assert settle["paid_by"] == str(ids["Cat"])  # marked by the evening's payer, unless changed
    status, _, _ = phone.post(action, dict(settle, paid_by=ids["Ann"], paid_on="2026-11-14"))
    assert status == 303
    page = phone.get(circle + "/owed")[2]
    debts = [re.sub(r"<[^>]+>", "", d) for d in re.findall(r'<p class="debt">(.*?)</p>', page)]
    assert debts == ["Cat pays Dan 4s 4d, for 21 Nov", "Cat pays Ben 3d, for 21 Nov"]
    for _ in range(2):
        _, fields = forms(page, "/owed/pay")[0]
        assert fields["paid_by"] == str(ids["Cat"])  # the payer
        status, _, _ = phone.post(circle + "/owed/pay", dict(fields, paid_by=ids["Ben"], paid_on="2026-11-28"))
        assert status == 303
        page = phone.get(circle + "/owed")[2]
    assert "Nothing is owed: every evening is settled." in page
    assert "Cat paid Ben 3d, for 21 Nov" in page and "2026-11-28, marked by Ben" in page
    assert phone.get(circle)[2].count(" · settled") == 2


def test_the_season_sheet_prints_with_the_circles_archive_in_it(served):
    from io import BytesIO

    from pypdf import PdfReader

    app, base = served
    phone = Browser(base)
    circle = new_circle(phone)
    ids = members_of(phone.get(circle)[2])
    play(phone, start_evening(phone, circle, [ids["Ann"], ids["Ben"], ids["Cat"]], "2026-11-14"), HANDS[:2])
    watch = re.search(r"/cw/[A-Za-z0-9_-]{24}", phone.get(circle)[2]).group(0)
    for link, paper, width in ((circle, "", 842), (watch, "?paper=letter", 792)):  # landscape A4, Letter
        request = urllib.request.Request(base + link + "/season.pdf" + paper)
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status == 200 and response.headers["Content-Type"] == "application/pdf"
            reader = PdfReader(BytesIO(response.read()))
        assert round(float(reader.pages[0].mediabox.width)) == width
        text = " ".join(page.extract_text() for page in reader.pages)
        assert "Thursday Gleek" in text and "Ann" in text and "Cat pays Ann" in text
        ((name, [data]),) = reader.attachments.items()
        assert name == "circle-thursday-gleek.json"
        assert json.loads(data) == json.loads(phone.get(circle + "/export.json")[2])
    assert phone.get(circle + "/season.pdf?paper=a3")[0] == 404


def test_the_season_sheet_is_printed_by_the_sheets_renderer_within_a_devices_renders_a_minute(tmp_path):
    """The season PDF goes through the session sheets' renderer (pdf.py), not the server's own
    threads: it counts in the same few new renders a minute per device, and a sheet already
    rendered costs nothing."""
    from io import BytesIO

    from pypdf import PdfReader

    from scorekeeper.printing import pdf

    app = create_app(
        {
            "DATABASE": str(tmp_path / "c.db"),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(tmp_path / "backups"),
            "SESSIONS_PER_MINUTE": 10_000,
            "PDF_RENDERS_PER_MINUTE": 2,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        phone = Browser(f"http://127.0.0.1:{server.server_port}")
        circle = new_circle(phone)
        ids = members_of(phone.get(circle)[2])
        evening = start_evening(phone, circle, [ids["Ann"], ids["Ben"], ids["Cat"]], "2026-11-14")
        play(phone, evening, HANDS[:2])
        status, headers, _ = phone.open_bytes(circle + "/season.pdf")
        assert status == 200 and headers["Content-Type"] == "application/pdf"
        assert pdf._pools.get(pdf.SEASONS) is not None  # the season sheets' renderer process was started for it
        assert phone.open_bytes(circle + "/season.pdf")[0] == 200  # rendered already: free
        status, _, body = phone.open_bytes(circle + "/season.pdf?paper=letter")  # the device's second render
        assert status == 200 and round(float(PdfReader(BytesIO(body)).pages[0].mediabox.width)) == 792
        status, headers, body = phone.open_bytes(circle + "/season.pdf?rulebook=parlett")  # a third: refused
        assert status == 429 and 1 <= int(headers["Retry-After"]) <= 61
        assert SHARED_COUNT.format(2) in body.decode()
        status, _, body = phone.open_bytes(evening + "/sheet.pdf")  # the session sheets' count is the same one
        assert status == 429 and SHARED_COUNT.format(2) in body.decode()
    finally:
        server.shutdown()
        thread.join(timeout=5)


SHARED_COUNT = (
    "This device asked for {} new sheets in the last minute (session, season and night sheets count together), "
    "the most it may."
)


def test_a_season_sheet_refused_after_session_sheets_says_the_count_is_shared(tmp_path):
    """A device that printed two session sheets is refused the season sheet: the
    refusal says it asked for two sheets of either kind, not "two new season
    sheets" (it asked for none), and the session sheets after it say the same."""
    app = create_app(
        {
            "DATABASE": str(tmp_path / "c.db"),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(tmp_path / "backups"),
            "SESSIONS_PER_MINUTE": 10_000,
            "PDF_RENDERS_PER_MINUTE": 2,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        phone = Browser(f"http://127.0.0.1:{server.server_port}")
        circle = new_circle(phone)
        ids = members_of(phone.get(circle)[2])
        evening = start_evening(phone, circle, [ids["Ann"], ids["Ben"], ids["Cat"]], "2026-11-14")
        play(phone, evening, HANDS[:2])
        assert phone.open_bytes(evening + "/sheet.pdf")[0] == 200
        assert phone.open_bytes(evening + "/sheet.pdf?paper=letter")[0] == 200
        status, _, body = phone.open_bytes(circle + "/season.pdf")
        page = body.decode()
        assert status == 429 and SHARED_COUNT.format(2) in page and "season sheets in" not in page
    finally:
        server.shutdown()
        thread.join(timeout=5)


@pytest.mark.parametrize("stake, shown", [("", ["+14½", "+1", "−15½"]), ("1d", ["+1s 2¼d", "+1d", "−1s 3¼d"])])
def test_the_statistics_give_an_average_to_the_nearest_half_counter(served, stake, shown):
    """Three hands of the worked evening: Ann +43, Ben +3, Cat −46, so a hand's
    average is 14⅓, 1 and −15⅓: shown, as the text and the season sheet show it,
    to the nearest half counter (the finest amount of the game), signed; at a
    stake, in money to the nearest farthing (14⅓d is 1s 2¼d)."""
    app, base = served
    phone = Browser(base)
    circle = new_circle(phone)
    ids = members_of(phone.get(circle)[2])
    play(phone, start_evening(phone, circle, [ids["Ann"], ids["Ben"], ids["Cat"]], "2026-11-14", stake), HANDS[:3])
    page = phone.get(circle + "/stats")[2]
    row = re.search(r'<th scope="row">Average a hand</th>(.*?)</tr>', page).group(1)
    assert re.findall(r'<td class="amount">([^<]*)</td>', row) == shown


def test_the_statistics_rate_each_member_as_openskill_does(served):
    """Each evening a three-player free for all ranked by its totals, in date order,
    whatever the order the evenings were started in."""
    app, base = served
    phone = Browser(base)
    circle = new_circle(phone)
    ids = members_of(phone.get(circle)[2])
    later = start_evening(phone, circle, [ids["Dan"], ids["Ben"], ids["Cat"]], "2026-11-21")
    play(phone, later, HANDS[:2])  # Dan +52, Ben +3, Cat −55
    first = start_evening(phone, circle, [ids["Cat"], ids["Ann"], ids["Ben"]], "2026-11-14")
    play(phone, first, HANDS[:1])  # Cat +20, Ann +2, Ben −22
    model = PlackettLuce()
    expected = {name: model.rating(name=name) for name in ("Ann", "Ben", "Cat", "Dan")}
    for table in (("Cat", "Ann", "Ben"), ("Dan", "Ben", "Cat")):
        rated = model.rate([[expected[n]] for n in table], ranks=[1, 2, 3])
        expected.update({n: after for n, (after,) in zip(table, rated)})
    page = phone.get(circle + "/stats")[2]
    ratings = re.search(r'<table class="season-ratings">.*?</table>', page, re.S).group(0)
    rows = re.findall(
        r'<th scope="row">([^<]+)</th><td class="amount">([^<]+)</td><td class="amount">([^<]+)</td>', ratings
    )
    best_first = sorted(expected.items(), key=lambda item: -(item[1].mu - 3 * item[1].sigma))
    assert rows == [(name, f"{r.mu:.1f}", f"{r.sigma:.1f}") for name, r in best_first]
    assert rows[0][0] == "Dan"  # won the only evening played


def cells(page: str, label: str) -> list[str]:
    """A statistics row's cells, as text."""
    import html

    row = re.search(rf'<th scope="row">{re.escape(label)}</th>(.*?)</tr>', page, re.S).group(1)
    return [
        html.unescape(re.sub(r"<[^>]+>", "", c.split("<br>")[0])).strip()  # a head-to-head cell's net
        for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
    ]


def test_a_season_at_three_stakes_is_added_up_in_money(served):
    """Round two (support.data.round_two): parlett at ¼d, cotton1674 at 1d, wits1671 at ½d.
    Zoë is up 16½ counters but down 2s 0¾d: every figure that adds up evenings is money."""
    from support.data import ROUND_TWO_MEMBERS, round_two

    app, base = served
    phone = Browser(base)
    archive = {
        "format": "gleek-circle/1",
        "name": "Round two",
        "members": ROUND_TWO_MEMBERS,
        "evenings": [{"members": seats, "record": record} for record, seats in round_two()],
    }
    status, headers, page = phone.post(
        "/circles/import", files={"file": ("round-two.json", json.dumps(archive).encode())}
    )
    assert status == 303, page
    circle = headers["Location"]

    page = phone.get(circle + "/ledger")[2]
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td class="amount">([^<]+)</td>', page)
    assert rows == [("Zoë", "−2s 0¾d"), ("Ann", "−1s 0½d"), ("Ben", "−11½d"), ("Cat", "+3s 5d"), ("Dan", "+7¾d")]
    assert "Counters</th>" not in page
    # the last evening's running totals, in pence (Zoë: +10¾d, −44½d, +9d)
    assert "Σ −2s 0¾d" in page and "Σ +16½" not in page

    page = phone.get(circle + "/stats")[2]
    assert cells(page, "Net") == ["−2s 0¾d", "−1s 0½d", "−11½d", "+3s 5d", "+7¾d"]
    # Zoë's best hand is 22½ counters at 1d, not 32 at ¼d (8d)
    assert cells(page, "Best hand")[0] == "+1s 10½d" and cells(page, "Worst hand")[0] == "−3s 9d"
    assert cells(page, "Average a hand")[0] == "−2¾d"
    assert cells(page, "Zoë")[1:] == ["+1s 7¾d", "+10¾d", "−3s 8½d", "−2s 11½d"]  # head to head, in pence
    bars = re.search(r'<svg[^>]*class="balance-chart bars".*?</svg>', page, re.S).group(0)
    assert re.findall(r'fill="#000">([^<]+)</text>', bars)[:2] == ["Zoë", "−2s 0¾d"]
    assert "in counters" not in page


def test_a_new_evening_reads_the_new_session_options_and_a_bad_one_saves_nothing(served):
    """The circle's new evening posts the home page's fields (web/forms.parse_new_session):
    a book's option, the other players' OK and who keeps the score, a PIN of its own."""
    app, base = served
    phone = Browser(base)
    circle = new_circle(phone, pin="1357", circle_pin="1357")
    page = phone.get(circle)[2]
    for field in ('name="opt_cotton1674_towser"', 'name="confirm"', 'name="scorer"', 'name="pin"'):
        assert re.search(r'<form method="post" action="[^"]*/sessions".*' + field, page, re.S), field
    ids = members_of(page)
    seats = {
        "seat_0": ids["Ann"],
        "seat_1": ids["Ben"],
        "seat_2": ids["Cat"],
        "rulebook": "wits1671",
        "first_dealer": "1",
        "stake": "",
        "opt_wits1671_tiddy": "off",
        "confirm": "on",
        "scorer": "2",
    }
    status, _, page = phone.post(circle + "/sessions", dict(seats, pin="12"))
    assert status == 422 and problems(page) == ["A PIN is 4 to 8 digits (or leave it empty)."]
    assert 'value="off" checked' in re.search(
        r'<div class="chips[^"]*" [^>]*label-opt_wits1671_tiddy.*?</div>', page, re.S
    ).group(0)  # what was chosen is kept
    sessions = sqlite3.connect(app.config["DATABASE"]).execute("select count(*) from sessions").fetchone()[0]
    assert sessions == 0
    status, headers, _ = phone.post(circle + "/sessions", dict(seats, pin="8642"))
    assert status == 303
    record = json.loads(phone.get(headers["Location"] + "/export.json")[2])
    assert (record["options"], record["confirm"], record["scorer"]) == ({"tiddy": False}, True, 2)
    # its own PIN, typed here, not the circle's
    from werkzeug.security import check_password_hash

    (pin_hash,) = sqlite3.connect(app.config["DATABASE"]).execute("select pin_hash from sessions").fetchone()
    assert check_password_hash(pin_hash, "8642") and not check_password_hash(pin_hash, "1357")


def test_the_season_sheet_spells_each_running_total_as_the_ledger_page_does(served):
    """Round two (parlett at ¼d, cotton1674 at 1d, wits1671 at ½d): every running total the
    ledger page shows ("Σ −2s 0¾d") is in the season PDF's ledger spelled the same
    (words/wording.py), never in an ASCII of the sheet's own ("-24.75d", "-44.5")."""
    from io import BytesIO

    from pypdf import PdfReader

    from support.data import ROUND_TWO_MEMBERS, round_two

    app, base = served
    phone = Browser(base)
    archive = {
        "format": "gleek-circle/1",
        "name": "Round two",
        "members": ROUND_TWO_MEMBERS,
        "evenings": [{"members": seats, "record": record} for record, seats in round_two()],
    }
    status, headers, page = phone.post(
        "/circles/import", files={"file": ("round-two.json", json.dumps(archive).encode())}
    )
    assert status == 303, page
    circle = headers["Location"]
    page = phone.get(circle + "/ledger")[2]
    running = re.findall(r"Σ ([^<]+)<", page)
    assert "−2s 0¾d" in running and "+10¾d" in running  # Zoë's, in pence as the page says them
    status, _, body = phone.open_bytes(circle + "/season.pdf")
    assert status == 200
    drawn = []  # the ledger's lines, drawn into the PDF in a font of their own (printing/ledger_pdf.py)
    for pdf_page in PdfReader(BytesIO(body)).pages:
        pdf_page.extract_text(
            visitor_text=lambda text, cm, tm, font, size: (
                drawn.append(text) if font is not None and font.get("/BaseFont") == "/LEDGER+DejaVuSansMono" else None
            )
        )
    ledger = "".join(drawn)
    assert "2026-12-18 wits1671" in ledger
    assert [amount for amount in running if amount not in ledger] == []
    assert re.findall(r"(?<!\d)-\d|\d\.\d+d", ledger) == []  # no ASCII minus, no decimal pence
