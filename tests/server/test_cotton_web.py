"""Cotton's Gleek (1674) on the phone, over real HTTP (the app on a loopback port, a
socket per request, its cookies kept as a browser keeps them): the hand form asks
what Cotton's book asks, the call pads bid and vie as he says, the doubled ruff is
carried to the next deal, a false call is forfeited, and every page says it in the
period's terms. The figures are worked out here by hand from docs/rules.md (Cotton's book),
not taken from the engine."""

from __future__ import annotations

import html
import io
import json
import logging
import re
import threading
from fractions import Fraction
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

import pypdf
import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.rules import BOOKS
from support.web import hand_fields

F = Fraction
BOOK = BOOKS["cotton1674"]

# Hand 1: Ann deals, Ben is eldest, Cat middle; Ben holds Towser, Cat Tumbler; Cat buys at
# 13 (the odd penny to Ben, eldest); Ben and Cat pass the ruff and Ann doubles it; Cat
# declares a gleek of Kings and forfeits a false gleek of Aces he had laid out.
HAND_1 = {
    "dealer": 0,
    "trump": "hearts",
    "turned_up": "9",
    "tiddy": None,
    "towser": 1,
    "tumbler": 2,
    "auction": {"buyer": 2, "price": 13},
    "ruff": None,
    "sets": [[], [], ["gleek:K"]],
    "forfeits": [[], [], ["gleek:A"]],
    "tricks": [4, 4, 4],
    "honours": {"A": 0, "K": 1, "Q": 2, "J": 0},
}
# Hand 2, played for double: Ben deals, Cat (eldest) buys at 12, Ann holds Tiddy; all
# three pass the ruff and Ben's is best: 1 from each, doubled.
HAND_2 = {
    "dealer": 1,
    "trump": "spades",
    "turned_up": "7",
    "tiddy": 0,
    "towser": None,
    "tumbler": None,
    "auction": {"buyer": 2, "price": 12},
    "ruff": {"winner": 1, "paid": [2, 0, 2], "calls": [[2, "pass"], [0, "pass"], [1, "pass"]]},
    "sets": [[], [], []],
    "tricks": [4, 4, 4],
    "honours": {"A": 1, "K": 2, "Q": 0, "J": 1},
}
# By hand, phase by phase (Ann, Ben, Cat):
PHASES_1 = {
    "tiddy": [0, 0, 0],
    "towser": [F(-11, 2), 2, F(7, 2)],  # Towser 2½ from each to Ben, Tumbler 3 from each to Cat
    "auction": [6, 7, -13],  # 13: 6 to the dealer, 7 to Ben (eldest: the odd penny)
    "ruff": [0, 0, 0],  # doubled: nothing now
    "sets": [5, 5, -10],  # gleek of Kings 3 from each; false gleek of Aces 8 to each
    "tricks": [14, -7, -7],
}  # 12 + Tib 15 + Tom 9 = 36, 15, 15 against 22
PHASES_2 = {
    "tiddy": [4, -2, -2],
    "towser": [0, 0, 0],
    "auction": [6, 6, -12],
    "ruff": [-2, 4, -2],
    "sets": [0, 0, 0],
    "tricks": [-7, 14, -7],
}
BALANCES = [F(41, 2), 29, F(-99, 2)]


class Phone:
    """A phone's browser, without JavaScript: real requests on a fresh connection each,
    its cookies kept and sent back, redirects not followed (the test follows them)."""

    def __init__(self, host: str, port: int):
        self.host, self.port, self.cookies = host, port, SimpleCookie()

    def request(self, method: str, path: str, fields=None) -> tuple[int, dict, str]:
        import http.client

        conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
        try:
            headers = {}
            if self.cookies:
                headers["Cookie"] = "; ".join(f"{k}={m.value}" for k, m in self.cookies.items())
            body = None
            if fields is not None:
                items = fields.items(multi=True) if hasattr(fields, "getlist") else fields.items()
                body = urlencode(list(items))
                headers["Content-Type"] = "application/x-www-form-urlencoded"
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            for value in response.headers.get_all("Set-Cookie") or ():
                self.cookies.load(value)
            return response.status, dict(response.getheaders()), response.read()
        finally:
            conn.close()

    def get(self, path: str) -> str:
        status, _, body = self.request("GET", path)
        assert status == 200, (path, status)
        return body.decode()

    def get_bytes(self, path: str) -> bytes:
        status, _, body = self.request("GET", path)
        assert status == 200, (path, status)
        return body

    def post(self, path: str, fields) -> tuple[int, str, str]:
        status, headers, body = self.request("POST", path, fields)
        return status, urlsplit(headers.get("Location", "")).path, body.decode()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cotton")
    app = create_app(
        {
            "DATABASE": str(folder / "gleek.db"),
            "SECRET_KEY": "cotton",
            "TESTING": True,
            "BACKUP_DIR": str(folder / "backups"),
            "SESSIONS_PER_MINUTE": 100_000,
        }
    )
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    httpd = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd.server_port
    httpd.shutdown()
    thread.join(timeout=5)


@pytest.fixture
def phone(server):
    return Phone("127.0.0.1", server)


def text(page: str) -> str:
    """A page's words as a reader sees them (tags out, entities read, spaces folded)."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


def new_cotton_session(phone: Phone, **options) -> str:
    fields = {
        "player_0": "Ann",
        "player_1": "Ben",
        "player_2": "Cat",
        "rulebook": "cotton1674",
        "first_dealer": "0",
        "stake": "",
        **{f"opt_{k}": v for k, v in options.items()},
    }
    status, location, body = phone.post("/sessions", fields)
    assert status == 303, body
    return location


def tap(phone: Phone, url: str, answers: dict) -> str:
    """The new-hand form's answers so far, posted as a tap is (based on the hand in
    progress the form shows); the form as it comes back."""
    page = phone.get(url + "/hands/new")
    fields = dict(answers, draft_version=re.search(r'name="draft_version" value="(\d+)"', page).group(1))
    status, _, body = phone.post(url + "/hands/check", fields)
    assert status == 200, body
    return body


def save(phone: Phone, url: str, hand: dict) -> tuple[int, str]:
    page = phone.get(url)
    version = re.search(r"\?v=(\d+)-\d+-\d+-\w+\"", page).group(1)
    status, _, body = phone.post(url + "/hands", hand_fields(hand, int(version)))
    return status, body


def pad_calls(page: str, name: str) -> list[tuple[str, str]]:
    """The call pad's buttons: (the call posted, its words)."""
    return [
        (value, words.strip())
        for value, words in re.findall(name.join((r'name="', r'" value=\'(\[[^\']+\])\'[^>]*>([^<]*)<')), page)
    ]


def checked(page: str, name: str) -> list[str]:
    return re.findall(rf'name="{name}" value="([^"]+)"[^>]*\bchecked', page)


def amounts(page: str) -> list[Fraction]:
    shown = re.findall(r'class="amount[^"]*" data-seat="\d">([^<]*)<', page)
    return [counters(a) for a in shown]


def counters(shown: str) -> Fraction:
    """``+19``, ``−49½``, ``½`` → an exact amount."""
    shown = shown.strip().replace("−", "-").replace("+", "").replace(",", "")
    sign, shown = (-1, shown[1:]) if shown.startswith("-") else (1, shown)
    whole = shown.rstrip("½")
    return sign * (F(int(whole) if whole else 0) + (F(1, 2) if shown.endswith("½") else 0))


# ------------------------------------------------------------ the hand form


def test_the_hand_form_asks_what_cottons_book_asks(phone):
    url = new_cotton_session(phone)
    assert "Cotton's Compleat Gamester (1674)" in text(phone.get("/"))
    form = phone.get(url + "/hands/new")
    assert 'id="step-towser"' in form and 'name="towser"' in form and 'name="tumbler"' in form
    assert "Towser (the Five of trumps) after the stock exchange?" in text(form)

    tiddy_up = text(tap(phone, url, {"dealer": "0", "trump": "hearts", "turned_up": "4"}))
    # said where Tiddy is asked, with its payments as soon as they are known
    assert "Tiddy turned up: 4 from each to Ann. Ann +8 Ben −4 Cat −4" in tiddy_up

    towser_up = tap(phone, url, {"dealer": "0", "trump": "hearts", "turned_up": "5"})
    assert 'name="towser"' not in towser_up and 'name="tumbler"' in towser_up
    assert "Towser turned up: 5 from each to Ann." in text(towser_up)

    quiet = tap(phone, url, {"dealer": "0", "trump": "hearts", "turned_up": "9", "preset": "quiet"})
    assert checked(quiet, "towser") == ["nobody"] and checked(quiet, "tumbler") == ["nobody"]
    assert checked(quiet, "sets") == ["none"]


def test_towser_and_tumbler_are_not_asked_when_the_table_plays_without_them(phone):
    url = new_cotton_session(phone, towser="off", tiddy="off")
    form = tap(phone, url, {"dealer": "0", "trump": "hearts", "turned_up": "9"})
    assert 'name="towser"' not in form and 'name="tumbler"' not in form and 'name="tiddy"' not in form
    assert "Quiet hand: no sets" in text(form)


def test_the_stock_pad_bids_from_12_by_ones_and_the_dealer_may_double_the_ruff(phone):
    url = new_cotton_session(phone)
    start = {"dealer": "0", "trump": "hearts", "turned_up": "9"}
    assert pad_calls(tap(phone, url, start), "bid") == [("[1, 12]", "Bid 12")]  # eldest must bid: no pass
    after_12 = pad_calls(tap(phone, url, dict(start, bids="[]", bid="[1, 12]")), "bid")
    assert after_12 == [("[2, 13]", "Bid 13"), ('[2, "pass"]', "Pass")]
    after_13 = pad_calls(tap(phone, url, dict(start, bids="[[1, 12]]", bid="[2, 13]")), "bid")
    assert after_13 == [("[0, 14]", "Bid 14"), ('[0, "pass"]', "Pass")]

    two_passes = pad_calls(
        tap(phone, url, dict(start, ruff_calls='[[1, "pass"]]', ruff_call='[2, "pass"]')), "ruff_call"
    )
    assert two_passes == [
        ('[0, "vie"]', "Vie 4"),
        ('[0, "pass"]', "Pass"),
        ('[0, "double"]', "Double it (played for at the next deal)"),
    ]
    doubled = text(tap(phone, url, dict(start, ruff_calls='[[1, "pass"], [2, "pass"]]', ruff_call='[0, "double"]')))
    assert "Ann doubled the ruff: it is played for at the next deal." in doubled


def test_the_buyer_marks_a_forfeit_with_its_price(phone):
    url = new_cotton_session(phone)
    page = tap(phone, url, {"dealer": "0", "trump": "hearts", "turned_up": "9", "buyer": "2", "price": "13"})
    words = text(page)
    assert "Cat called a set laid out in the stock — caught" in words
    assert "gleek of Aces — 8 to each" in words and "mournival of Kings — 12 to each" in words
    assert 'name="forfeits_2"' in page and 'name="forfeits_0"' not in page and 'name="forfeits_1"' not in page
    marked = text(
        tap(
            phone,
            url,
            {
                "dealer": "0",
                "trump": "hearts",
                "turned_up": "9",
                "buyer": "2",
                "price": "13",
                "sets": "none",
                "forfeits_2": "gleek:A",
            },
        )
    )
    assert "Sets +8 +8 −16" in marked


# ------------------------------------------------------------ an evening


def test_a_cotton_evening_in_the_periods_terms_on_every_page(phone):
    url = new_cotton_session(phone)
    assert save(phone, url, HAND_1)[0] == 303

    # the doubled ruff is played for at the next deal: the pad and the table say so
    assert "Ruff played for double (×2)" in text(phone.get(url))
    assert "Ruff played for double (×2)" in text(tap(phone, url, {"dealer": "1", "trump": "spades"}))
    single = dict(HAND_2, ruff={"winner": 1, "paid": [1, 0, 1]})  # as if not doubled
    status, refused = save(phone, url, single)
    assert status == 422 and "this ruff is played for double (×2): a loser pays 2 (nothing to say)" in text(refused)

    # a forfeit by one who did not buy is refused in the table's words, and nothing saved
    status, refused = save(phone, url, dict(HAND_2, forfeits=[["gleek:A"], [], []]))
    assert status == 422 and "Only Cat bought, so only he laid cards out" in text(refused)
    assert save(phone, url, HAND_2)[0] == 303

    record = json.loads(phone.get(url + "/export.json"))
    assert record["rulebook"] == "cotton1674" and record["hands"] == [HAND_1, HAND_2]
    table = phone.get(url)
    assert amounts(table) == BALANCES

    detail = text(phone.get(url + "/hands/1"))
    for said in (
        "Towser (5♥) held by Ben: 2½ from each.",
        "Tumbler (6♥) held by Cat: 3 from each.",
        "the odd penny to Ben, eldest",
        "Ann doubled the ruff",
        "Cat forfeits a false gleek of Aces: 8 to each",
    ):
        assert said in detail, said
    assert "Played for double (×2): the ruff was doubled at the deal before." in text(phone.get(url + "/hands/2"))

    sheet = text(phone.get(url + "/sheet"))
    pdf = phone.get_bytes(url + "/sheet.pdf")
    printed = " ".join(" ".join(page.extract_text().split()) for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    for words in (sheet, printed):
        for said in (
            "Towser: Ben",
            "Tumbler: Cat",
            "Ann doubled the ruff",
            "Cat forfeits a false gleek of Aces: 8 to each",
        ):
            assert said in words, said
    settle_up = text(phone.get(url + "/settle"))
    assert "Cat pays Ann 20½" in settle_up and "Cat pays Ben 29" in settle_up

    # the import refuses a forfeit by one who did not buy, in the table's words
    bad = dict(record, hands=[HAND_1, dict(HAND_2, forfeits=[["gleek:A"], [], []])])
    status, _, body = http_json(phone, "/import", bad)
    assert status == 422 and "hand 2: forfeits: only Cat bought, so only he laid cards out" in text(body)


def http_json(phone: Phone, path: str, data) -> tuple[int, dict, str]:
    import http.client

    conn = http.client.HTTPConnection(phone.host, phone.port, timeout=120)
    try:
        conn.request("POST", path, body=json.dumps(data), headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        conn.close()


def test_the_rules_page_shows_each_of_cottons_decisions_beside_his_sentence(phone):
    rules = text(phone.get("/rules"))
    assert "Cotton's Compleat Gamester (1674)" in rules
    for decision in BOOK.decisions:
        assert decision.title in rules, decision.title
        assert " ".join(decision.source.split()) in rules, decision.source
