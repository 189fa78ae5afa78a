"""A club night's standings as people read them, in a real browser: the big screen
at 1920 × 1080 (large type, from the back of a room) and the standings link on a
375 px phone (no sideways scrolling), each showing the figure the organizer ranks
by first, the other beside it, the ratings, and the tiebreaks written out. The
night is run over real HTTP to the live server (two tables save hands)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from support.data import load_example
from support.web import hand_fields, http_request

from .browser_ui import assert_fits

HANDS = load_example("parlett-evening.json")["hands"]
NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
HEADS = ["#", "Player", "Counters", "Placings", "Tables", "μ", "σ", "R1"]
#: How many lines each cell's text takes: a figure or a heading broken over two ("Cou/nter/s") is unreadable.
LINES = """() => [...document.querySelectorAll('table.standings th, table.standings td')]
    .filter(cell => cell.offsetParent !== null)
    .map(cell => { const range = document.createRange(); range.selectNodeContents(cell);
                   return new Set([...range.getClientRects()].map(r => Math.round(r.top))).size; })"""
TIEBREAKS = "Ranked by counters; ties broken by counters, then placing points, then tables won outright, then name."


def request(base_url: str, method: str, path: str, fields=None) -> tuple[int, dict, str]:
    host, port = re.match(r"http://([^:]+):(\d+)", base_url).groups()
    status, headers, body = http_request(host, int(port), method, path, fields)
    return status, headers, body.decode()


def night_with_two_tables_played(base_url: str) -> tuple[str, list[list[str]]]:
    """A night of nine ranked by counters, round 1 drawn, hands saved at tables 1 and 2:
    the standings link and each table's players in seat order."""
    status, headers, _ = request(
        base_url,
        "POST",
        "/nights",
        {
            "name": "Friday club",
            "players": "\n".join(NINE),
            "rounds": "4",
            "rulebook": "parlett",
            "stake": "1d",
            "played_on": "2026-12-04",
            "rank_by": "counters",
        },
    )
    assert status == 303
    organizer = headers["Location"]
    assert request(base_url, "POST", organizer + "/rounds", {"round": "1"})[0] == 303
    page = request(base_url, "GET", organizer)[2]
    sessions = re.findall(r'class="table-link" href="[^"]*/s/([^"]+)"', page)
    seats = [
        re.sub(r"<[^>]+>", "", s).replace(" (deals first)", "").split(", ")
        for s in re.findall(r"<strong>Table \d+</strong>:\s*(.*?)\s*&nbsp;", page, re.S)
    ]
    for session, hands in zip(sessions, (HANDS[:1], HANDS[:2])):
        for version, hand in enumerate(hands, 1):
            fields = list(hand_fields(hand, version).items(multi=True))
            assert request(base_url, "POST", f"/s/{session}/hands", fields)[0] == 303
    watch = re.search(r'href="(/n/[^"/]+)/screen"', page).group(1)
    return watch, [[name.strip() for name in s] for s in seats]


def test_the_big_screen_at_1920_and_the_phone_at_375_show_the_ranking_the_other_beside_and_the_tiebreaks(
    browser, base_url
):
    watch, seats = night_with_two_tables_played(base_url)
    (a, b, c), (d, e, f) = seats[:2]
    leaders = [d, a, e, b]  # +52, +20, +3, +2 in counters
    screen_context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        screen = screen_context.new_page()
        screen.goto(base_url + watch + "/screen")
        standings = screen.locator("table.standings")
        expect(standings.locator("thead th")).to_have_text(HEADS[:-1])  # the screen has no column a round
        expect(standings.locator("tbody th[scope=row]").nth(0)).to_have_text(leaders[0])
        assert standings.locator("tbody th[scope=row]").all_inner_texts()[:4] == leaders
        expect(standings.locator("tbody tr").first.locator("td")).to_have_text(
            ["1", "52", "2", "1", re.compile(r"\d+\.\d"), re.compile(r"\d+\.\d")]
        )
        expect(screen.locator(".tiebreaks")).to_have_text(TIEBREAKS)
        sizes = screen.evaluate("""() => [...document.querySelectorAll(
            'h1, h2, h3, table.standings td, table.standings th, .tiebreaks, .night-round, .night-tables li')].map(
            el => parseFloat(getComputedStyle(el).fontSize))""")
        assert min(sizes) >= 28, sizes  # large type: readable from the back of a room
        assert screen.evaluate("document.documentElement.scrollWidth") <= 1920
        assert set(screen.evaluate(LINES)) == {1}
        box, beside = standings.bounding_box(), screen.locator(".rounds-side").bounding_box()
        # the screen used, not a phone's column in its middle: the latest round's tables beside the standings
        assert box["width"] >= 480 and beside["x"] >= box["x"] + box["width"] and beside["x"] + beside["width"] >= 1500
    finally:
        screen_context.close()

    phone_context = browser.new_context(
        viewport={"width": 375, "height": 812}, device_scale_factor=2, is_mobile=True, has_touch=True
    )
    try:
        phone = phone_context.new_page()
        phone.goto(base_url + watch)
        standings = phone.locator("table.standings")
        # each round's placings are left to the rounds' tables below on a phone
        expect(standings.locator("thead th:visible")).to_have_text(HEADS[:-1])
        expect(phone.locator(".night-tables li").first).to_have_text(f"Table 1 · 1 hand: {a} +20, {b} +2, {c} −22")
        assert standings.locator("tbody th[scope=row]").all_inner_texts()[:4] == leaders
        expect(phone.locator(".tiebreaks")).to_have_text(TIEBREAKS)
        assert_fits(phone)  # no sideways scrolling on a 375 px phone
        assert set(phone.evaluate(LINES)) == {1}
        box = standings.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    finally:
        phone_context.close()


def night_played(base_url: str, players: list[str], rounds: int) -> tuple[str, list[list[str]]]:
    """A night ranked by counters, ``rounds`` rounds drawn and one hand saved at each
    of their tables: its standings link and each round's table sessions."""
    status, headers, _ = request(
        base_url,
        "POST",
        "/nights",
        {
            "name": "Friday club",
            "players": "\n".join(players),
            "rounds": str(rounds),
            "rulebook": "parlett",
            "stake": "1d",
            "played_on": "2026-12-04",
            "rank_by": "counters",
        },
    )
    assert status == 303
    organizer = headers["Location"]
    drawn: list[list[str]] = []
    for number in range(1, rounds + 1):
        assert request(base_url, "POST", organizer + "/rounds", {"round": str(number)})[0] == 303
        page = request(base_url, "GET", organizer)[2]
        seen = {s for r in drawn for s in r}
        drawn.append([s for s in re.findall(r'class="table-link" href="[^"]*/s/([^"]+)"', page) if s not in seen])
        for session in drawn[-1]:
            fields = list(hand_fields(HANDS[0], 1).items(multi=True))
            assert request(base_url, "POST", f"/s/{session}/hands", fields)[0] == 303
    watch = re.search(r'href="(/n/[^"/]+)/screen"', page).group(1)
    return watch, drawn


def test_the_standings_box_keeps_its_scroll_when_a_save_brings_new_standings(page, base_url):
    """On a screen too narrow for every round's column the standings scroll in their
    box; scrolled to the rounds, a save at a table (the poll bringing the new standings)
    leaves the box where it was, not back at its left edge."""
    watch, drawn = night_played(base_url, NINE, 4)
    page.set_viewport_size({"width": 560, "height": 900})
    page.goto(base_url + watch)
    box = page.locator("#standings .scroll")
    page.wait_for_function(
        "() => { const b = document.querySelector('#standings .scroll'); return b.scrollWidth > b.clientWidth; }"
    )
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    scrolled = box.evaluate("b => b.scrollLeft")
    assert scrolled > 0
    fields = list(hand_fields(HANDS[1], 2).items(multi=True))  # a second hand at round 4's first table
    assert request(base_url, "POST", f"/s/{drawn[-1][0]}/hands", fields)[0] == 303
    expect(page.locator(".night-tables li").first).to_contain_text("Table 1 · 2 hands")  # the new standings came
    assert page.locator("#standings .scroll").evaluate("b => b.scrollLeft") == scrolled


FIFTEEN = NINE + ["Jo", "Kim", "Lou", "Max", "Ned", "Olga"]
#: Every visible element's box, as the page lays it out (the viewport's own coordinates).
BOXES = """() => [...document.querySelectorAll('main *')].filter(el => el.offsetParent !== null || el.tagName === 'TR')
    .map(el => el.getBoundingClientRect()).filter(r => r.width > 0 && r.height > 0)
    .map(r => [r.right, r.bottom])"""


def test_the_big_screen_fits_1280_by_720_with_fifteen_players_and_four_rounds(browser, base_url):
    """A projector cannot scroll: at 1280 × 720 the big screen of 15 players after four
    rounds has nothing past the window's bottom or right edge, shows every player (a
    page at a time, if it pages them, every one within a cycle) and stays readable."""
    watch, _ = night_played(base_url, FIFTEEN, 4)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        screen = context.new_page()
        screen.goto(base_url + watch + "/screen")
        expect(screen.locator("table.standings thead th")).to_have_text(HEADS[:-1])  # no column a round
        expect(screen.locator(".night-tables li")).to_have_count(5)  # the latest round's five tables
        seen: set[str] = set()
        for _ in range(4):  # the pages shown in turn (one, if every player fits at once)
            assert screen.evaluate("document.documentElement.scrollHeight") <= 720
            assert screen.evaluate("document.documentElement.scrollWidth") <= 1280
            for right, bottom in screen.evaluate(BOXES):
                assert right <= 1280.5 and bottom <= 720.5, (right, bottom)
            names = screen.locator("table.standings tbody th[scope=row]:visible").all_inner_texts()
            assert names
            seen |= set(names)
            if len(names) == len(FIFTEEN):
                break
            screen.wait_for_timeout(8_500)
        assert seen == set(FIFTEEN)
        sizes = screen.evaluate("""() => [...document.querySelectorAll('table.standings td, table.standings th')]
            .filter(el => el.offsetParent !== null).map(el => parseFloat(getComputedStyle(el).fontSize))""")
        assert min(sizes) >= 18, sizes  # read from across a room
    finally:
        context.close()


def test_a_big_screen_too_small_for_every_player_shows_them_a_page_at_a_time(browser, base_url):
    """24 players at 1280 × 720 do not fit even in the smallest type the screen allows:
    the standings show a page of players at a time, saying which, and every player
    within a cycle of pages, nothing ever past the window's edges."""
    players = FIFTEEN + ["Pat", "Quin", "Rob", "Sal", "Tom", "Uma", "Vic", "Wes", "Xia"]
    watch, _ = night_played(base_url, players, 1)
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        screen = context.new_page()
        screen.goto(base_url + watch + "/screen")
        line = screen.locator(".standings-side .screen-page")
        expect(line).to_have_text(re.compile(r"Players 1–(\d+) of 24"))
        per_page = int(re.search(r"1–(\d+)", line.inner_text()).group(1))
        seen: list[str] = []
        for page in range(-(-24 // per_page)):
            first = page * per_page + 1
            expect(line).to_have_text(f"Players {first}–{min(24, first + per_page - 1)} of 24", timeout=10_000)
            assert screen.evaluate("document.documentElement.scrollHeight") <= 720
            for right, bottom in screen.evaluate(BOXES):
                assert right <= 1280.5 and bottom <= 720.5, (right, bottom)
            seen += screen.locator("table.standings tbody th[scope=row]:visible").all_inner_texts()
        assert sorted(seen) == sorted(players)  # each once, every one within the cycle
    finally:
        context.close()


def test_a_big_screen_left_open_says_the_night_was_deleted_and_stops_polling(browser, base_url):
    """A big screen and a standings page left open while the organizer deletes the night
    (over real HTTP): within a poll or two each shows that the night was deleted in place
    of its last figures, polls no more, and logs no error."""
    status, headers, _ = request(
        base_url, "POST", "/nights", {"name": "Friday club", "players": "\n".join(NINE), "rounds": "4"}
    )
    assert status == 303
    organizer = headers["Location"]
    assert request(base_url, "POST", organizer + "/rounds", {"round": "1"})[0] == 303
    watch = re.search(r'href="(/n/[^"/]+)/screen"', request(base_url, "GET", organizer)[2]).group(1)
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    try:
        errors: list[str] = []
        polls: list[str] = []
        pages = []
        for path in (watch + "/screen", watch):
            page = context.new_page()
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.on("request", lambda r: polls.append(r.url) if "/live?" in r.url else None)
            page.goto(base_url + path)
            expect(page.locator("table.standings")).to_be_visible()
            pages.append(page)
        assert request(base_url, "POST", organizer + "/delete")[0] == 303
        for page in pages:
            expect(page.locator("#standings")).to_have_text(
                "This club night was deleted by its organizer.", timeout=3_000
            )
            expect(page.locator("table.standings")).to_have_count(0)
        polled = len(polls)
        pages[0].wait_for_timeout(2_000)  # four poll periods
        assert len(polls) == polled  # no page polls a night that is gone
        assert errors == []
    finally:
        context.close()
