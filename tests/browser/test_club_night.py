"""A club night in a real browser at 390 × 844: the organizer starts a night of nine
players, draws round 1, two tables each save a hand on their own phone (a browser of
their own on the table's link), and the big screen, left open, shows both tables'
results and the standings without anyone touching it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from support.data import load_example

from .browser_ui import UI, assert_fits
from .conftest import PHONE

HAND = load_example("parlett-evening.json")["hands"][0]  # the first seat deals: +20, +2, −22
NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def table_seats(page, number: int) -> list[str]:
    text = page.locator(f"#round-1-table-{number}").inner_text()
    seats = re.search(r"Table \d+:\s*(.*?)\s*·", text).group(1).replace(" (deals first)", "")
    return [name.strip() for name in seats.split(",")]


def test_two_tables_save_a_hand_each_and_the_big_screen_shows_both(page, browser, base_url):
    page.goto(base_url + "/")
    page.get_by_role("link", name="Start a club night").click()
    page.locator('input[name="name"]').fill("Friday club")
    page.locator('textarea[name="players"]').fill("\n".join(NINE))
    page.locator('input[name="rulebook"][value="parlett"]').check()
    page.locator('select[name="stake"]').select_option("1d")
    page.get_by_role("button", name="Start the night").click()
    page.wait_for_url(re.compile(r"/night/[^/?]+$"))
    expect(page.locator("h1")).to_have_text("Friday club")
    page.get_by_role("button", name="Draw round 1").click()
    expect(page.locator(".flash")).to_contain_text("Round 1 is drawn")
    expect(page.locator("#round-1 .night-tables > li")).to_have_count(3)
    assert_fits(page)
    links = [page.locator(f"#round-1-table-{n} a.table-link").get_attribute("href") for n in (1, 2)]
    seats = [table_seats(page, n) for n in (1, 2)]
    standings = page.locator("a", has_text="Big screen").first.get_attribute("href")

    screen_context = browser.new_context(viewport={"width": 1280, "height": 720})
    screen = screen_context.new_page()
    screen.goto(base_url + standings)
    expect(screen.locator(".night-round")).to_have_text("Round 1 of 4")
    expect(screen.locator("form, button")).to_have_count(0)  # no controls on the big screen

    phones = []
    try:
        for link, players in zip(links, seats):  # each table on its own phone
            phone = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
            phones.append(phone)
            table = phone.new_page()
            table.goto(link)
            ui = UI(table)
            ui.next_hand()
            ui.enter_hand("parlett", HAND, players)
            ui.ready()
            ui.save()
            expect(table.locator(".balance .amount")).to_have_text(["+20", "+2", "−22"])

        # the big screen follows by itself
        results = [f"Table {n} · 1 hand: {p[0]} +20, {p[1]} +2, {p[2]} −22" for n, p in ((1, seats[0]), (2, seats[1]))]
        expect(screen.locator(".night-tables li")).to_have_text(results, timeout=10_000)
        winners = sorted((seats[0][0], seats[1][0]))
        expect(screen.locator("table.standings tbody tr th").nth(0)).to_have_text(winners[0])
        expect(screen.locator("table.standings tbody tr th").nth(1)).to_have_text(winners[1])
        expect(screen.locator(".tiebreaks")).to_contain_text("ties broken by placing points, then counters")
    finally:
        for phone in phones:
            phone.close()
        screen_context.close()


def save_hand(page, base_url, table_link: str) -> None:
    """Hand 1 saved at a table straight from its form's fields (what its phone sends)."""
    from support.web import hand_fields

    path = re.sub(r"^https?://[^/]+", "", table_link)
    saved = page.request.post(
        base_url + path + "/hands", form=dict(hand_fields(HAND, 1).items(multi=True)), max_redirects=0
    )
    assert saved.status == 303, saved.text()


def test_drawing_the_next_round_asks_first_while_a_table_has_not_played(page, base_url):
    """ "Draw round 2" sits above round 1's tables: tapped while tables 2 and 3 have
    no hand saved, it asks first (most likely a tap too soon), and a No draws
    nothing; once every table has played it draws at once."""
    page.goto(base_url + "/")
    page.get_by_role("link", name="Start a club night").click()
    page.locator('input[name="name"]').fill("Friday club")
    page.locator('textarea[name="players"]').fill("\n".join(NINE))
    page.locator('input[name="rulebook"][value="parlett"]').check()
    page.get_by_role("button", name="Start the night").click()
    page.wait_for_url(re.compile(r"/night/[^/?]+$"))
    page.get_by_role("button", name="Draw round 1").click()  # nothing to ask before the first round
    expect(page.locator(".flash")).to_contain_text("Round 1 is drawn")
    links = [page.locator(f"#round-1-table-{n} a.table-link").get_attribute("href") for n in (1, 2, 3)]
    save_hand(page, base_url, links[0])
    page.reload()
    asked = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Draw round 2").click()
    page.wait_for_timeout(500)  # a draw would have been on its way by now
    assert asked == ["Tables 2 and 3 of round 1 have no hand saved yet. Draw round 2 now?"]
    expect(page.locator("#round-2")).to_have_count(0)
    save_hand(page, base_url, links[1])
    page.reload()
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
    page.get_by_role("button", name="Draw round 2").click()
    page.wait_for_timeout(500)
    assert asked[1:] == ["Table 3 of round 1 has no hand saved yet. Draw round 2 now?"]
    expect(page.locator("#round-2")).to_have_count(0)
    save_hand(page, base_url, links[2])
    page.reload()
    page.get_by_role("button", name="Draw round 2").click()  # every table has played: no question
    expect(page.locator(".flash")).to_contain_text("Round 2 is drawn")
    assert len(asked) == 2
    expect(page.locator("#round-2 .night-tables > li")).to_have_count(3)


def test_the_big_screens_headings_are_no_smaller_than_its_standings(page, browser, base_url):
    """On the big screen "Standings" and each round's "Round N" head their part in
    type at least as large as the rows under them (they were two-thirds of it: a
    heading that reads as a footnote on a projector)."""
    night = page.request.post(
        base_url + "/nights",
        form={
            "name": "Friday club",
            "players": "\n".join(NINE),
            "rounds": "4",
            "rulebook": "parlett",
            "stake": "1d",
            "played_on": "2026-12-04",
            "rank_by": "placings",
        },
        max_redirects=0,
    ).headers["location"]
    assert page.request.post(base_url + night + "/rounds", form={"round": "1"}, max_redirects=0).status == 303
    page.goto(base_url + night)
    save_hand(page, base_url, page.locator("#round-1-table-1 a.table-link").get_attribute("href"))
    standings = page.locator("a", has_text="Big screen").first.get_attribute("href")
    screen_context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        screen = screen_context.new_page()
        screen.goto(base_url + standings)
        expect(screen.locator("#standings h3")).to_have_text(["Round 1"])
        size = "e => parseFloat(getComputedStyle(e).fontSize)"
        row = screen.locator("table.standings tbody th").first.evaluate(size)
        assert screen.locator("#standings h2").evaluate(size) >= row
        assert screen.locator("#standings h3").evaluate(size) >= row
    finally:
        screen_context.close()
