"""The other players agree each hand, each on his own phone (three Chromium
contexts at 390×844: the scorer and two players on their own links)."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .browser_ui import FORM, UI
from .conftest import PHONE

PLAYERS = ("Ann", "Ben", "Cat")
HONOURS = (("A", 0), ("K", 1), ("Q", 2), ("J", 0))


def quiet_hand(ui: UI, tricks=(5, 4)) -> None:
    ui.next_hand()
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "9")
    ui.preset("Quiet hand: no Tiddy, no ruff contest, no sets")
    ui.form_tap(ui.page.locator(FORM).get_by_role("button", name=re.compile(r"\(eldest\) bought at 12")))
    ui.chip("tricks_0", tricks[0])
    ui.chip("tricks_1", tricks[1])
    for rank, seat in HONOURS:
        ui.chip(f"honour_{rank}", seat)
    ui.ready()
    ui.save()


def test_two_players_agree_on_their_phones_and_an_edit_asks_again(page, base_url, browser):
    ui = UI(page)
    page.goto(base_url + "/")
    for seat, name in enumerate(PLAYERS):
        page.locator(f'input[name="player_{seat}"]').fill(name)
    page.locator('label.chip:has(input[name="confirm"][value="on"])').click()
    scorer = page.locator('label.chip:has(input[name="scorer"][value="0"])')
    expect(scorer).to_have_text("Ann")  # the chips take the names as they are typed
    scorer.click()
    page.get_by_role("button", name="Start the session").click()
    page.wait_for_url(re.compile(r"/s/[^/?]+$"))
    page.locator("details.players summary").click()
    links = [
        re.sub(r"^https?://[^/]+", base_url, a.get_attribute("href"))
        for a in page.locator("details.players .link a").all()
    ]
    assert len(links) == 3
    quiet_hand(ui)
    expect(page.locator("#live")).to_contain_text("Hand 1: do you agree?")  # the verification card
    expect(page.locator("#live")).to_contain_text("Ben and Cat each tap their own name to agree (Ann keeps the score)")
    phones = [
        browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True) for _ in range(2)
    ]
    try:
        ben, cat = (context.new_page() for context in phones)
        ben.goto(links[1])
        cat.goto(links[2])
        for player, name in ((ben, "Ben"), (cat, "Cat")):
            expect(player.locator(".waiting-for-me")).to_contain_text(f"Waiting for your OK, {name}")
            player.get_by_role("button", name=f"I agree ({name})").click()
            expect(player.locator(".all-agreed")).to_contain_text("nothing is waiting for your OK")
        expect(page.locator("table.hands .agree-status")).to_have_text("✓ agreed", timeout=5_000)  # within a poll
        expect(page.locator("#live")).not_to_contain_text("do you agree?")

        quiet_hand(ui, tricks=(4, 5))
        cat.reload()
        cat.locator("#hand-2 input[name=reason]").fill("I had only two Kings")
        cat.locator("#hand-2").get_by_role("button", name="Dispute").click()
        expect(page.locator("table.hands tbody tr").first.locator(".agree-status")).to_have_text(
            "⚠ disputed", timeout=5_000
        )
        expect(ben.locator("#live")).to_contain_text("I had only two Kings", timeout=5_000)

        page.locator("table.hands").get_by_role("link", name=re.compile(r"^#2\b")).click()
        expect(page.locator(".hand-detail")).to_contain_text("Cat: “I had only two Kings”")
        page.get_by_role("link", name="Edit hand 2").click()
        ui.chip("tricks_0", 5)
        ui.chip("tricks_1", 4)
        ui.ready()
        ui.save(editing=True)
        expect(page.locator("#live")).to_contain_text("Hand 2: do you agree?")  # both OKs needed again
        for player in (ben, cat):
            expect(player.locator("#hand-2")).to_contain_text("do you agree?", timeout=5_000)
            expect(player.locator("#hand-2")).to_contain_text("OKs needed from Ben and Cat")
    finally:
        for context in phones:
            context.close()
