"""The hand on the table is never lost: reload, a second phone, a dropped Wi-Fi,
a watcher, undo after navigating away (real Chromium at 390×844)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .browser_ui import FORM, UI, expected
from .conftest import PHONE

PLAYERS = ("Ann", "Ben", "Cat")
HAND = {
    "dealer": 0,
    "trump": "hearts",
    "turned_up": "9",
    "tiddy": None,
    "auction": {"buyer": 1, "price": 12},
    "ruff": None,
    "sets": [[], [], []],
    "tricks": [5, 4, 3],
    "honours": {"A": 0, "K": 1, "Q": 2, "J": 0},
}


def half_a_hand(ui: UI) -> None:
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "9")
    ui.chip("tiddy", "nobody")
    ui.chip("buyer", 1)
    ui.chip("price", 12)


def expect_half_a_hand(page) -> None:
    for name, value in (("trump", "hearts"), ("turned_up", "9"), ("tiddy", "nobody"), ("buyer", "1"), ("price", "12")):
        expect(page.locator(f'{FORM} input[name="{name}"][value="{value}"]')).to_be_checked()
    # with its running payments: Ben bought at 12, 6 to each
    expect(page.locator(f"{FORM} #status-stock .phase-result")).to_contain_text("−12")


def export(page, table_url) -> dict:
    return json.loads(page.request.get(table_url + "/export.json").text())


def phone(browser):
    return browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)


def test_reload_navigation_and_a_second_phone_bring_the_hand_back(page, base_url, browser):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    half_a_hand(ui)
    page.reload()
    expect_half_a_hand(page)
    page.locator("header a.brand").click()  # a stray tap on the header
    page.wait_for_url(base_url + "/")
    page.go_back()
    expect_half_a_hand(page)
    page.goto(table)
    expect(page.locator("#in-progress")).to_contain_text("Hand 1 in progress")
    page.get_by_role("link", name="Continue hand 1").first.click()
    expect_half_a_hand(page)
    second = phone(browser)
    try:
        other = second.new_page()
        other.goto(table + "/hands/new")
        expect_half_a_hand(other)
    finally:
        second.close()


def test_offline_taps_and_save_are_sent_when_the_wifi_is_back_exactly_once(page, base_url, context):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    half_a_hand(ui)
    ui.chip("ruff_winner", "nobody")
    ui.chip("sets", "none")
    ui.chip("tricks_0", 5)
    ui.chip("tricks_1", 4)
    context.set_offline(True)
    for rank, seat in HAND["honours"].items():
        page.locator(f'{FORM} label.chip:has(input[name="honour_{rank}"][value="{seat}"])').click()
    connection = page.locator("#connection")
    expect(connection).to_have_text(
        "No connection — your answers are kept on this phone and will be sent when it's back."
    )
    expect(page.locator("#hand-form")).to_have_class(re.compile(r"\bwaiting\b"))  # messages marked as waiting
    page.locator(FORM).get_by_role("button", name="Save hand").click()
    expect(connection).to_be_visible()
    for rank, seat in HAND["honours"].items():  # nothing tapped is undone
        expect(ui.chip_input(f"honour_{rank}", seat)).to_be_checked()
    context.set_offline(False)
    page.wait_for_url(re.compile(r"/s/[^/?]+$"), timeout=15_000)  # saved, with no further tap
    ui.expect_balances(expected("parlett", PLAYERS, [HAND]))
    assert export(page, table)["hands"] == [HAND]  # exactly once


def test_a_watcher_sees_the_hand_in_progress_then_the_saved_hand(page, base_url, browser):
    ui = UI(page)
    ui.start_session(base_url, PLAYERS, "parlett")
    watch = page.locator("details.invite .link a").get_attribute("href")
    watcher_context = phone(browser)
    try:
        watcher = watcher_context.new_page()
        watcher.goto(re.sub(r"^https?://[^/]+", base_url, watch))
        ui.next_hand()
        half_a_hand(ui)
        expect(watcher.locator("#in-progress")).to_contain_text("Hand 1 in progress", timeout=8_000)
        expect(watcher.locator("#in-progress")).to_contain_text("Ben bought at 12, pays 6 to each.")
        expect(watcher.get_by_role("link", name="Continue hand 1")).to_have_count(0)  # read-only
        ui.preset("Quiet hand: no Tiddy, no ruff contest, no sets")
        ui.chip("tricks_0", 5)
        ui.chip("tricks_1", 4)
        for rank, seat in HAND["honours"].items():
            ui.chip(f"honour_{rank}", seat)
        ui.ready()
        ui.save()
        expect(watcher.locator("#in-progress")).to_have_count(0, timeout=8_000)
        ui.expect_balances(expected("parlett", PLAYERS, [HAND]), page=watcher)
    finally:
        watcher_context.close()


def test_delete_asks_and_can_be_undone_after_navigating_away(page, base_url):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    half_a_hand(ui)
    ui.preset("Quiet hand: no Tiddy, no ruff contest, no sets")
    ui.chip("tricks_0", 5)
    ui.chip("tricks_1", 4)
    for rank, seat in HAND["honours"].items():
        ui.chip(f"honour_{rank}", seat)
    ui.save()
    page.locator("table.hands").get_by_role("link", name=re.compile(r"^#1\b")).click()
    dialogs = []
    page.once("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.accept()))
    page.get_by_role("button", name="Delete hand 1").click()
    page.wait_for_url(table)
    assert dialogs == ["Delete hand 1? You can undo that from the table page."]
    expect(page.locator(".empty")).to_contain_text("No hands yet")
    page.get_by_role("link", name="Rules").click()
    page.goto(table)
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Undo: delete of hand 1").click()
    ui.expect_balances(expected("parlett", PLAYERS, [HAND]))
    assert export(page, table)["hands"] == [HAND]


def test_two_presets_tapped_offline_both_arrive(page, base_url, context):
    ui = UI(page)
    ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "9")
    context.set_offline(True)
    ui.button("Quiet hand: no Tiddy, no ruff contest, no sets").click()
    ui.button("Ben (eldest) bought at 12").click()
    connection = page.locator("#connection")
    expect(connection).to_be_visible()
    expect(page.locator(f"{FORM} button.quick.queued")).to_have_count(2)  # both shown as waiting
    context.set_offline(False)
    expect(page.locator(f"{FORM} #status-stock .phase-result")).to_contain_text("−12", timeout=15_000)
    expect(page.locator(f"{FORM} #status-ruff")).to_have_class(re.compile(r"\bdone\b"))
    expect(connection).to_be_hidden()
    queued = "Object.values(localStorage).map(k => JSON.parse(k).actions.length)"
    for _ in range(50):  # the queue on the phone empties (every tap sent)
        if page.evaluate(queued) == [0]:
            break
        page.wait_for_timeout(100)
    assert page.evaluate(queued) == [0]
    page.reload()
    expect(ui.chip_input("buyer", 1)).to_be_checked()
    expect(ui.chip_input("tiddy", "nobody")).to_be_checked()


def test_offline_the_pad_takes_call_after_call_and_the_server_checks_them(page, base_url, context):
    """Offline, the pad goes on call by call from the states the server prepared
    (whose turn, the calls offered), marked as not checked; back online the server
    replays them and draws its own pad."""
    ui = UI(page)
    ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "9")
    context.set_offline(True)
    pad = page.locator(f"{FORM} #pad-auction")
    pad.get_by_role("button", name="Bid 12", exact=True).click()
    expect(pad.locator(".turn:visible")).to_contain_text("Cat to bid")  # at once, with no server
    pad.get_by_role("button", name="Bid 14", exact=True).click()
    expect(pad.locator(".turn:visible")).to_contain_text("Ann (dealer) to bid")
    pad.get_by_role("button", name="Undo last call").click()  # a slip, taken back on the phone
    expect(pad.locator(".turn:visible")).to_contain_text("Cat to bid")
    pad.get_by_role("button", name="Pass", exact=True).click()
    expect(pad.locator(".calls-line:visible")).to_have_text("Ben bids 12 · Cat passes")
    expect(pad.locator(".pad-note")).to_contain_text("Not checked yet")
    expect(page.locator("#connection")).to_be_visible()
    context.set_offline(False)
    expect(pad.locator(".pad-note")).to_have_count(0, timeout=15_000)  # the server's pad again
    expect(pad.locator(".calls-line:visible")).to_have_text("Ben bids 12 · Cat passes")
    expect(pad.locator(".turn:visible")).to_contain_text("Ann (dealer) to bid")
    expect(page.locator("#connection")).to_be_hidden()


def test_a_gleek_then_a_mournival_of_one_rank_is_stored_as_the_mournival(page, base_url):
    ui = UI(page)
    ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("sets", "some")
    gleek = page.locator(f'{FORM} label.chip:has(input[name="set_0"][value="gleek:K"])')
    mournival = page.locator(f'{FORM} label.chip:has(input[name="set_0"][value="mournival:K"])')
    ui.form_tap(gleek)
    ui.form_tap(mournival)
    expect(ui.chip_input("set_0", "gleek:K")).not_to_be_checked()
    expect(page.locator(f"{FORM} #status-sets")).not_to_contain_text("two sets")
    page.reload()
    expect(ui.chip_input("set_0", "mournival:K")).to_be_checked()
    expect(ui.chip_input("set_0", "gleek:K")).not_to_be_checked()


def test_offline_the_third_players_tricks_fill_themselves_in(page, base_url, context):
    ui = UI(page)
    ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    context.set_offline(True)

    def tap(seat, count):
        page.locator(f'{FORM} label.chip:has(input[name="tricks_{seat}"][value="{count}"])').click()

    tap(0, 5)
    tap(1, 4)
    expect(ui.chip_input("tricks_2", 3)).to_be_checked()  # at once, with no server
    tap(0, 6)  # the filled-in count follows
    expect(ui.chip_input("tricks_2", 2)).to_be_checked()
    expect(ui.chip_input("tricks_2", 3)).not_to_be_checked()
    expect(page.locator("#connection")).to_be_visible()
    context.set_offline(False)
    expect(page.locator("#connection")).to_be_hidden(timeout=15_000)
    page.reload()
    for seat, count in enumerate((6, 4, 2)):
        expect(ui.chip_input(f"tricks_{seat}", count)).to_be_checked()


def test_use_this_phones_answers_after_a_clashing_call_keeps_the_other_phones_other_calls(page, base_url, browser):
    """Phone A: Ben checks (ruff) and Cat passes (stock). Phone B, not refreshed,
    taps Cat bids 14: refused. "Use this phone's answers" puts B's stock calls in
    and keeps A's ruff call; the same call tapped on both phones is no conflict."""
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "9")
    ui.chip("tiddy", "nobody")
    ui.form_tap(page.locator(f"{FORM} #pad-auction").get_by_role("button", name="Bid 12", exact=True))
    second = phone(browser)
    try:
        b = second.new_page()
        b.goto(table + "/hands/new")
        expect(b.locator(f"{FORM} #pad-auction .calls-line")).to_have_text("Ben bids 12")
        ui.form_tap(page.locator(f"{FORM} #pad-ruff").get_by_role("button", name="Check", exact=True))
        ui.form_tap(page.locator(f"{FORM} #pad-auction").get_by_role("button", name="Pass", exact=True))
        expect(page.locator(f"{FORM} #pad-auction .calls-line")).to_have_text("Ben bids 12 · Cat passes")
        b.locator(f"{FORM} #pad-auction").get_by_role("button", name="Bid 14", exact=True).click()
        mine = b.locator("#use-mine")
        expect(mine).to_contain_text("This phone has answers for hand 1 that are not in the hand shown.")
        expect(mine).to_contain_text("Another phone changed this hand a moment ago")  # one bar says it all
        expect(b.locator("#hand-summary .flash.warn")).to_have_count(1)
        mine.get_by_role("button", name="Use this phone's answers").click()
        expect(b.locator(f"{FORM} #pad-auction .calls-line")).to_have_text("Ben bids 12 · Cat 14", timeout=10_000)
        page.reload()
        expect(page.locator(f"{FORM} #pad-auction .calls-line")).to_have_text("Ben bids 12 · Cat 14")
        expect(page.locator(f"{FORM} #pad-ruff .calls-line")).to_contain_text("Ben checks")  # A's call kept
        # both phones tap the same call: taken once, and no conflict
        b.reload()
        ui.form_tap(page.locator(f"{FORM} #pad-auction").get_by_role("button", name="Pass", exact=True))
        b.locator(f"{FORM} #pad-auction").get_by_role("button", name="Pass", exact=True).click()
        expect(b.locator("#hand-form-body")).to_contain_text("The other phone had already recorded that call")
        expect(b.locator("#use-mine")).to_have_count(0)
        expect(b.locator(f"{FORM} #pad-auction .calls-line")).to_have_text("Ben bids 12 · Cat 14 · Ann passes")
    finally:
        second.close()


def test_a_note_being_typed_is_kept_without_leaving_the_box(page, base_url, browser):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    note = page.locator(f'{FORM} input[name="note"]')
    note.click()
    note.press_sequentially("Ben spilled the ale")
    page.reload()  # at once, the box never left
    expect(page.locator(f'{FORM} input[name="note"]')).to_have_value("Ben spilled the ale", timeout=10_000)
    page.locator(f'{FORM} input[name="note"]').press("End")
    page.locator(f'{FORM} input[name="note"]').press_sequentially(" again")
    page.wait_for_timeout(1500)  # typing stopped: sent by itself
    second = phone(browser)
    try:
        other = second.new_page()
        other.goto(table + "/hands/new")
        expect(other.locator(f'{FORM} input[name="note"]')).to_have_value("Ben spilled the ale again")
    finally:
        second.close()


def test_a_note_changed_on_one_phone_is_not_put_back_by_the_other(page, base_url, browser):
    """Phone B's note box (kept as typed while the form is redrawn) takes phone A's
    new note when A's answers are merged in, so B's next tap does not send the old one."""
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    note = page.locator(f'{FORM} input[name="note"]')
    note.fill("walrus ibis")
    note.press("Tab")
    page.wait_for_timeout(500)
    second = phone(browser)
    try:
        b = second.new_page()
        b.goto(table + "/hands/new")
        expect(b.locator(f'{FORM} input[name="note"]')).to_have_value("walrus ibis")
        note.fill("egret")  # A replaces the note; sent when typing stops
        page.wait_for_timeout(1500)
        b.locator(f'{FORM} label.chip:has(input[name="tricks_0"][value="5"])').click()  # B, a version behind
        expect(b.locator("#hand-form-body")).to_contain_text("Another phone added answers to this hand meanwhile")
        expect(b.locator(f'{FORM} input[name="note"]')).to_have_value("egret")
        ui_b = UI(b)
        ui_b.chip("tricks_1", 4)
        page.reload()
        expect(page.locator(f'{FORM} input[name="note"]')).to_have_value("egret")
        expect(ui.chip_input("tricks_2", 3)).to_be_checked()  # B's taps are in too
    finally:
        second.close()
