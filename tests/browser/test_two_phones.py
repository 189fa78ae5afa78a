"""Two phones on one hand in progress, and the pads' refusals (no answer lost,
no call the rules refuse kept), in real Chromium at 390×844: an answer both
phones changed is a conflict shown with both answers, never overwritten
silently; a hand saved on the other phone is said so, with what can be done; a
call the rules refuse is never kept; a typed amount too low is said, its box
kept."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from .browser_ui import FORM, UI
from .test_hand_kept import HAND, PLAYERS, phone


def stored_answers(page, table: str) -> str:
    return page.request.get(table + "/hands/new").text()


def test_an_answer_both_phones_changed_is_a_conflict_with_both_answers_and_nothing_lost(page, base_url, browser):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    second = phone(browser)
    try:
        b = second.new_page()
        b.goto(table + "/hands/new")
        expect(b.locator(f'{FORM} input[name="trump"][value="hearts"]')).to_be_checked()
        ui.chip("turned_up", "9")  # phone A goes on: the turned-up card, then a change of trump
        ui.chip("trump", "spades")
        # phone B, not refreshed: an answer A did not touch goes in, beside A's
        b.locator(f'{FORM} label.chip:has(input[name="tiddy"][value="nobody"])').click()
        expect(b.locator("#hand-summary")).to_contain_text("Another phone added answers to this hand meanwhile")
        expect(b.locator(f'{FORM} input[name="trump"][value="spades"]')).to_be_checked()
        expect(b.locator(f'{FORM} input[name="turned_up"][value="9"]')).to_be_checked()
        # A changes trump again; B, a version behind, taps another trump: both changed it
        ui.chip("trump", "diamonds")
        b.locator(f"{FORM} #step-deal .fold-line").click()  # the answered Deal, folded: opened again
        b.locator(f'{FORM} label.chip:has(input[name="trump"][value="clubs"])').click()
        expect(b.locator('#conflict[data-conflict="answers"]')).to_have_count(1)
        box = b.locator(f'{FORM} #step-deal .clash[data-field="trump"]')  # beside the question
        expect(box).to_contain_text("Trump: the other phone: ♦ Diamonds (shown) · this phone: ♣ Clubs")
        expect(b.locator("#use-mine")).to_have_count(0)  # one offer, the server's
        expect(b.locator(f'{FORM} input[name="trump"][value="diamonds"]')).to_be_checked()
        assert 'value="diamonds" checked' in stored_answers(page, table)  # A's answer was not overwritten
        box.get_by_role("button", name="Use this phone's: ♣ Clubs").click()
        expect(b.locator(f'{FORM} input[name="trump"][value="clubs"]')).to_be_checked()
        expect(b.locator("#conflict")).to_have_count(0)
        page.reload()
        for name, value in (("trump", "clubs"), ("turned_up", "9"), ("tiddy", "nobody")):
            expect(page.locator(f'{FORM} input[name="{name}"][value="{value}"]')).to_be_checked()
    finally:
        second.close()


def test_a_hand_saved_on_the_other_phone_is_said_so_and_its_answers_can_start_the_next_hand(page, base_url, browser):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    second = phone(browser)
    try:
        b = second.new_page()
        b.goto(table + "/hands/new")
        expect(b.locator(f'{FORM} input[name="trump"][value="hearts"]')).to_be_checked()
        ui.enter_hand("parlett", HAND, PLAYERS)
        ui.save()  # phone A saves hand 1
        b.locator(f'{FORM} label.chip:has(input[name="trump"][value="spades"])').click()  # B taps on hand 1
        summary = b.locator("#hand-summary")
        expect(summary).to_contain_text("Hand 1 was saved on another phone a moment ago.")
        expect(summary).not_to_contain_text("cancelled")
        expect(b.locator("#use-mine")).to_have_count(0)
        box = b.locator('#conflict[data-conflict="saved"]')
        expect(box.get_by_role("link", name="Open hand 1")).to_have_attribute(
            "href", table.replace(base_url, "") + "/hands/1"
        )
        expect(b.locator("h1")).to_have_text("Hand 2")
        box.get_by_role("button", name="Start hand 2 with this phone's answers").click()
        expect(b.locator("#conflict")).to_have_count(0)
        expect(b.locator(f'{FORM} input[name="trump"][value="spades"]')).to_be_checked()
        expect(b.locator(f'{FORM} input[name="dealer"][value="1"]')).to_be_checked()  # hand 2's dealer
        page.goto(table)
        expect(page.locator("#in-progress")).to_contain_text("Hand 2 in progress")
        assert json.loads(page.request.get(table + "/export.json").text())["hands"] == [HAND]
    finally:
        second.close()


def test_a_call_the_rules_refuse_is_never_kept_and_undo_always_works(page, base_url):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "9")
    pad = page.locator(f"{FORM} #pad-auction")
    ui.form_tap(pad.get_by_role("button", name="Bid 12", exact=True))
    expect(pad.locator(".calls-line")).to_have_text("Ben bids 12")
    # a call out of turn, as a page left behind would send it (Ben again; Cat is to bid)
    pass_button = pad.get_by_role("button", name="Pass", exact=True)
    pass_button.evaluate("button => button.value = '[1, \"pass\"]'")
    ui.form_tap(pass_button)
    expect(page.locator("#hand-summary")).to_contain_text("Not kept: ")
    expect(pad.locator(".calls-line")).to_have_text("Ben bids 12")
    page.reload()
    expect(pad.locator(".calls-line")).to_have_text("Ben bids 12")  # not kept
    ui.form_tap(pad.get_by_role("button", name="Pass", exact=True))  # the pad goes on: Cat passes
    expect(pad.locator(".calls-line")).to_have_text("Ben bids 12 · Cat passes")
    ui.form_tap(pad.get_by_role("button", name="Undo last call"))
    expect(pad.locator(".calls-line")).to_have_text("Ben bids 12")
    ui.form_tap(pad.get_by_role("button", name="Undo last call"))
    expect(pad.locator(".calls-line")).to_have_count(0)
    page.goto(table)
    expect(page.locator("#in-progress")).not_to_contain_text("bids")


def test_a_typed_bid_below_the_least_is_said_and_its_box_kept(page, base_url):
    ui = UI(page)
    ui.start_session(base_url, PLAYERS, "modern")
    ui.next_hand()
    pad = page.locator(f"{FORM} #pad-auction")
    ui.form_tap(pad.get_by_role("button", name="Bid 13", exact=True))
    expect(pad.locator(".calls-line")).to_have_text("Ben bids 13")
    pad.locator('input[name="bid_amount"]').fill("13")  # Cat types 13: the least is 14
    ui.form_tap(pad.get_by_role("button", name="Bid", exact=True))
    expect(page.locator("#hand-summary")).to_contain_text("Not kept: Cat cannot bid 13: the least is 14.")
    expect(pad.locator('input[name="bid_amount"]')).to_have_value("13")
    expect(pad.locator(".calls-line")).to_have_text("Ben bids 13")
    pad.locator('input[name="bid_amount"]').fill("20")
    ui.form_tap(pad.get_by_role("button", name="Bid", exact=True))
    expect(pad.locator(".calls-line")).to_have_text("Ben bids 13 · Cat 20")


def test_a_clash_is_said_beside_the_question_where_the_second_phone_tapped(page, base_url, browser):
    """Phone B taps Ann's tricks after phone A changed them: B's chip shows A's
    answer again, and the notice with B's own answer is beside that question, in
    view where B tapped (not at the foot of the form, below the Note)."""
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    second = phone(browser)
    try:
        b = second.new_page()
        b.goto(table + "/hands/new")
        expect(b.locator(f'{FORM} input[name="trump"][value="hearts"]')).to_be_checked()
        ui.chip("tricks_0", 5)  # phone A
        chip = b.locator(f'{FORM} label.chip:has(input[name="tricks_0"][value="6"])')
        chip.click()  # phone B, a version behind
        notice = b.locator(f"{FORM} #step-play .clash")
        expect(notice).to_contain_text("Another phone changed this a moment ago.")
        expect(notice).to_contain_text("Tricks, Ann: the other phone: 5 (shown) · this phone: 6")
        expect(b.locator(f'{FORM} input[name="tricks_0"][value="5"]')).to_be_checked()  # A's answer, shown
        use = notice.get_by_role("button", name="Use this phone's: 6")
        expect(use).to_be_in_viewport()  # where B tapped: the chip and the notice
        expect(chip).to_be_in_viewport()
        use.click()
        expect(b.locator(f'{FORM} input[name="tricks_0"][value="6"]')).to_be_checked()
        expect(b.locator(f"{FORM} .clash")).to_have_count(0)
        page.reload()
        expect(page.locator(f'{FORM} input[name="tricks_0"][value="6"]')).to_be_checked()
    finally:
        second.close()
