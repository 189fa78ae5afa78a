"""A circle in a real browser at 390 × 844: made from the home page, two short
evenings played from it (three members picked for the seats, hands tapped in),
the first left unsettled and carried, what is owed across both paid in the
fewest payments, and then nothing is owed."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from support.data import load_example

from .browser_ui import UI, assert_fits

HANDS = load_example("parlett-evening.json")["hands"]


def start_evening(page, seats, played_on):
    page.locator("#new-evening").scroll_into_view_if_needed()
    for seat, name in enumerate(seats):
        page.locator(f'select[name="seat_{seat}"]').select_option(label=name)
    page.locator('#new-evening input[name="rulebook"][value="parlett"]').check()
    page.locator('#new-evening select[name="stake"]').select_option("1d")
    page.locator('#new-evening input[name="played_on"]').fill(played_on)
    page.get_by_role("button", name="Start the evening").click()
    page.wait_for_url(re.compile(r"/s/[^/?]+$"))


def test_a_circle_plays_two_evenings_carries_one_and_pays_what_is_owed(page, base_url):
    ui = UI(page)
    page.goto(base_url + "/")
    page.locator('input[name="circle_name"]').fill("Thursday Gleek")
    page.locator('textarea[name="circle_members"]').fill("Ann\nBen\nCat\nDan")
    page.get_by_role("button", name="Make the circle").click()
    page.wait_for_url(re.compile(r"/c/[^/?]+$"))
    circle = page.url
    expect(page.locator("h1")).to_have_text("Thursday Gleek")
    assert_fits(page)

    for seats, day in ((("Ann", "Ben", "Cat"), "2026-11-14"), (("Dan", "Ben", "Cat"), "2026-11-21")):
        page.goto(circle)
        start_evening(page, seats, day)
        expect(page.locator(".circle-line")).to_contain_text("An evening of Thursday Gleek")
        for hand in HANDS[:2]:
            ui.next_hand()
            ui.enter_hand("parlett", hand, seats)
            ui.ready()
            ui.save()
        expect(page.locator(".balance .amount")).to_have_text(["+52", "+3", "−55"])
        page.locator(".circle-line a").click()
        page.wait_for_url(circle)

    # the ledger: both evenings, each member's season (at 1d a counter: in money)
    page.get_by_role("link", name="Ledger").click()
    expect(page.locator("table.season-totals tbody tr")).to_have_text(
        [
            re.compile(r"Ann\s*\+4s 4d"),
            re.compile(r"Ben\s*\+6d"),
            re.compile(r"Cat\s*−9s 2d"),
            re.compile(r"Dan\s*\+4s 4d"),
        ]
    )
    expect(page.locator(".chart svg polyline")).to_have_count(4)
    assert_fits(page)

    # the first evening is left open (carried); what is owed is paid across both
    page.get_by_role("link", name="What is owed").click()
    expect(page.locator(".debt")).to_have_text(
        [
            "Cat pays Ann 4s 4d, for 14 Nov and 21 Nov",
            "Cat pays Dan 4s 4d, for 14 Nov and 21 Nov",
            "Cat pays Ben 6d, for 14 Nov and 21 Nov",
        ]
    )
    expect(page.locator(".open-evenings li")).to_have_count(2)
    assert_fits(page)
    for payee in ("Ann", "Dan", "Ben"):
        debt = page.locator(".debts li").first
        expect(debt.locator(".debt")).to_contain_text(f"Cat pays {payee}")
        debt.locator('select[name="paid_by"]').select_option(label="Cat")
        debt.get_by_role("button", name="Mark paid").click()
        expect(page.locator(".flash")).to_contain_text(f"Cat paid {payee}")
    expect(page.locator("#owed")).to_contain_text("Nothing is owed: every evening is settled.")
    expect(page.locator(".payments li")).to_have_count(3)
    expect(page.locator(".payments li").first).to_contain_text("marked by Cat")
    page.goto(circle)
    expect(page.locator("#evenings .meta")).to_have_text([re.compile("settled$")] * 2)


def import_circle(page, base_url, tmp_path, name, members, evenings):
    """A circle made by importing its archive on the home page, as a person would:
    ``evenings`` are (record, member index at each seat)."""
    archive = {
        "format": "gleek-circle/1",
        "name": name,
        "members": members,
        "evenings": [{"members": seats, "record": record} for record, seats in evenings],
    }
    path = tmp_path / "circle.json"
    path.write_text(json.dumps(archive))
    page.goto(base_url + "/")
    page.locator("#circle-archive").set_input_files(str(path))
    page.get_by_role("button", name="Import the circle").click()
    page.wait_for_url(re.compile(r"/c/[^/?]+$"))
    return page.url


def parlett_on(day: str, stake: dict | None = None) -> dict:
    record = load_example("parlett-evening.json")
    record["played_on"] = day
    if stake:
        record["stake"] = stake
    return record


def test_the_season_filter_shows_the_evenings_chosen_last_and_a_reload_keeps_them(page, base_url, tmp_path):
    circle = import_circle(
        page,
        base_url,
        tmp_path,
        "Round two",
        ["Ann", "Ben", "Cat"],
        [(parlett_on(day), [0, 1, 2]) for day in ("2026-12-08", "2026-12-10", "2026-12-12", "2026-12-18")],
    )
    for page_name in ("Ledger", "Statistics"):
        page.goto(circle)
        page.get_by_role("link", name=page_name).click()
        page.locator('input[name="since"]').fill("2026-12-10")
        page.locator('input[name="since"]').dispatch_event("change")
        expect(page).to_have_url(re.compile(r"since=2026-12-10"))
        page.locator('input[name="until"]').fill("2026-12-12")
        page.locator('input[name="until"]').dispatch_event("change")
        expect(page).to_have_url(re.compile(r"until=2026-12-12"))
        page.get_by_role("button", name="Show").click()
        expect(page).to_have_url(re.compile(r"until=2026-12-12"))
        query = parse_qs(urlsplit(page.url).query, keep_blank_values=True)
        assert {k: len(v) for k, v in query.items()} == {"since": 1, "until": 1, "rulebook": 1}, page.url
        for reloaded in (False, True):
            if reloaded:
                page.reload()
            expect(page.locator('input[name="since"]')).to_have_value("2026-12-10")
            expect(page.locator('input[name="until"]')).to_have_value("2026-12-12")
            if page_name == "Ledger":
                expect(page.locator(".ledger-totals h2")).to_contain_text("(2 evenings, 6 hands)")
                expect(page.locator("table.season-ledger tbody th")).to_have_text(
                    [re.compile(r"^10 Dec"), re.compile(r"^12 Dec")]
                )
            else:
                expect(page.locator("table.season-stats tbody tr").first).to_have_text(
                    re.compile(r"Evenings\s*2\s*2\s*2")
                )


def test_a_season_at_three_stakes_shows_money_on_the_statistics_and_ledger(page, base_url, tmp_path):
    """Round two: ¼d, 1d and ½d evenings. Zoë, up 16½ counters, is shown down 2s 0¾d."""
    from support.data import ROUND_TWO_MEMBERS, round_two

    circle = import_circle(page, base_url, tmp_path, "Round two", ROUND_TWO_MEMBERS, round_two())
    page.goto(circle)
    page.get_by_role("link", name="Statistics").click()
    net = page.locator("table.season-stats tr", has=page.locator("th", has_text=re.compile(r"^Net$")))
    expect(net.locator("td")).to_have_text(["−2s 0¾d", "−1s 0½d", "−11½d", "+3s 5d", "+7¾d"])
    best = page.locator("table.season-stats tr", has=page.locator("th", has_text="Best hand"))
    expect(best.locator("td").first).to_have_text("+1s 10½d")
    expect(page.locator("svg.bars text")).to_contain_text(["Zoë", "−2s 0¾d"])
    expect(page.locator("#season")).not_to_contain_text("counters")
    assert_fits(page)
    page.get_by_role("link", name="Ledger").click()
    expect(page.locator("table.season-totals tbody tr").first).to_have_text(re.compile(r"Zoë\s*−2s 0¾d"))
    expect(page.locator("table.season-totals thead")).not_to_contain_text("Counters")


def test_a_circles_new_evening_offers_the_new_session_options(page, base_url, browser):
    """The circle's "A new evening" has the home page's options: cotton1674's Towser off,
    each hand needing the other players' OK with Ann keeping the score, and the table's
    PIN the circle's when none is typed."""
    page.goto(base_url + "/")
    page.locator('input[name="circle_name"]').fill("Locked Thursday")
    page.locator('textarea[name="circle_members"]').fill("Ann\nBen\nCat\nDan")
    page.locator('input[name="circle_pin"]').fill("2468")
    page.get_by_role("button", name="Make the circle").click()
    page.wait_for_url(re.compile(r"/c/[^/?]+$"))
    form = page.locator("#new-evening")
    for seat, name in enumerate(("Dan", "Ann", "Cat")):
        form.locator(f'select[name="seat_{seat}"]').select_option(label=name)
    form.locator('input[name="rulebook"][value="cotton1674"]').check()
    towser = form.locator('[aria-labelledby="label-opt_cotton1674_towser"]')
    towser.get_by_text("Off", exact=True).click()
    form.locator('[aria-labelledby="label-confirm"]').get_by_text("On", exact=True).click()
    scorer = form.locator('[aria-labelledby="label-scorer"]')
    expect(scorer.locator("label.chip")).to_have_text(["Dan", "Ann", "Cat", re.compile("None of us")])
    scorer.get_by_text("Ann", exact=True).click()
    expect(form.locator('input[name="pin"]')).to_have_attribute("placeholder", "the circle's PIN")
    form.get_by_role("button", name="Start the evening").click()
    page.wait_for_url(re.compile(r"/s/[^/?]+$"))
    table = page.url

    record = page.request.get(table + "/export.json").json()
    assert (record["rulebook"], record["options"], record["players"]) == (
        "cotton1674",
        {"towser": False},
        ["Dan", "Ann", "Cat"],
    )
    assert record["confirm"] is True and record["scorer"] == 1
    # another phone meets the circle's PIN at the table
    other = browser.new_context()
    try:
        stranger = other.new_page()
        stranger.goto(table)
        stranger.get_by_role("link", name="Unlock to record hands").click()
        stranger.locator('input[name="pin"]').fill("2468")
        stranger.locator('input[name="pin"]').press("Enter")
        expect(stranger.get_by_role("link", name="Next hand")).to_be_visible()
    finally:
        other.close()


def test_export_the_circle_is_in_sight_on_its_pages(page, base_url):
    """ "Export the circle" was inside the closed "The members' link (QR code)": now with the
    circle's other pages, in sight, and a tap downloads its archive."""
    page.goto(base_url + "/")
    page.locator('input[name="circle_name"]').fill("Export me")
    page.locator('textarea[name="circle_members"]').fill("Ann\nBen\nCat")
    page.get_by_role("button", name="Make the circle").click()
    page.wait_for_url(re.compile(r"/c/[^/?]+$"))
    for where in ("Evenings", "Ledger", "Statistics"):
        page.get_by_role("link", name=where).click()
        link = page.get_by_role("link", name="Export the circle (archive)")
        expect(link).to_be_visible()
    with page.expect_download() as download:
        link.click()
    archive = json.loads(download.value.path().read_text())
    assert (archive["format"], archive["name"], archive["members"]) == (
        "gleek-circle/1",
        "Export me",
        ["Ann", "Ben", "Cat"],
    )
