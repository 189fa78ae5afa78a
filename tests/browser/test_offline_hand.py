"""A whole hand entered with no connection at all — the deal, the Tiddy, the
auction bid by bid, the ruff call by call to a showdown, two gleeks, tricks and
honours, then Save — is kept on the phone, and sent, checked and saved exactly
once when the connection is back, identical to the same hand entered online
(real Chromium at 390×844, Playwright's context.set_offline)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .browser_ui import FORM, UI

PLAYERS = ("Ann", "Ben", "Cat")  # Ann deals: Ben is eldest, then Cat
BIDS = ("Bid 12", "Bid 14", "Pass", "Pass")  # Cat buys at 14
RUFF = ("Open at 2", "Raise to 4", "Fold", "Match 4")  # Ben and Cat show
CHIPS = [
    ("tiddy", "nobody"),
    ("set_0", "gleek:K"),
    ("set_1", "gleek:Q"),
    ("tricks_0", 4),
    ("tricks_1", 5),
    ("honour_A", 1),
    ("honour_K", 0),
    ("honour_Q", 2),
    ("honour_J", 1),
]


def exported(page, table) -> dict:
    return json.loads(page.request.get(table + "/export.json").text())


def test_a_whole_hand_entered_offline_is_saved_once_as_online(page, base_url, context):
    # online: the hand as the server checks it tap by tap
    ui = UI(page)
    online_table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "9")
    ui.chip("tiddy", "nobody")
    for label in BIDS:
        ui.form_tap(page.locator(f"{FORM} #pad-auction").get_by_role("button", name=label, exact=True))
    for label in RUFF:
        ui.form_tap(page.locator(f"{FORM} #pad-ruff").get_by_role("button", name=label, exact=True))
    ui.chip("ruff_winner", 2)
    for name, value in CHIPS[1:]:
        ui.chip(name, value)
    ui.ready()
    ui.save()
    online = exported(page, online_table)["hands"]
    assert online[0]["auction"]["bids"] == [[1, 12], [2, 14], [0, "pass"], [1, "pass"]]

    # offline from the moment the form is open
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    context.set_offline(True)

    def tap(name, value):
        page.locator(f'{FORM} label.chip:has(input[name="{name}"][value="{value}"])').click()

    tap("trump", "hearts")
    tap("turned_up", "9")
    for pad, labels in (("auction", BIDS), ("ruff", RUFF)):
        for label in labels:
            page.locator(f"{FORM} #pad-{pad}").get_by_role("button", name=label, exact=True).click()
    expect(page.locator(f"{FORM} #pad-auction .calls-result:visible")).to_have_text("Cat bought at 14.")
    expect(page.locator(f"{FORM} #pad-ruff .calls-line:visible")).to_have_text(
        "Ben opens 2 · Cat raises to 4 · Ann folds (owes 4) · Ben matches"
    )
    expect(page.locator(f"{FORM} #pad-ruff .calls-result:visible")).to_contain_text("Ben and Cat show")
    # at the showdown the winner is tapped among those who show
    expect(page.locator(f'{FORM} label.chip:has(input[name="ruff_winner"][value="0"])')).to_be_hidden()
    tap("ruff_winner", 2)
    for name, value in CHIPS:
        tap(name, value)
    expect(ui.chip_input("tricks_2", 3)).to_be_checked()  # filled in from the server's table
    # what the phone could not check is marked so
    expect(page.locator(f"{FORM} #step-ruff .pad-note")).to_contain_text("Not checked yet")
    expect(page.locator(f"{FORM} #step-play.unchecked")).to_have_count(1)
    page.locator(FORM).get_by_role("button", name="Save hand").click()
    expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
    page.wait_for_timeout(500)
    assert exported(page, table)["hands"] == []  # nothing reached the server
    kept = page.evaluate("JSON.parse(localStorage.getItem(Object.keys(localStorage).find(k => k.endsWith(':next'))))")
    assert kept["saveTapped"] and dict(kept["answers"])["ruff_calls"]

    context.set_offline(False)
    page.wait_for_url(re.compile(r"/s/[^/?]+$"), timeout=20_000)  # sent, checked, saved: no further tap
    assert exported(page, table)["hands"] == online  # exactly once, and as entered online


def test_a_forfeit_can_be_tapped_offline_before_the_server_knows_the_buyer(page, base_url, context):
    """Cotton's forfeit is the buyer's: online its chips come once the server knows
    who bought; offline every player's are shown (the buyer's taken when back)."""
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "cotton1674")
    ui.next_hand()
    forfeits = page.locator(f"{FORM} .offline-only")
    expect(forfeits).to_be_hidden()  # online: the server says whose they are
    context.set_offline(True)
    page.locator(f'{FORM} label.chip:has(input[name="trump"][value="hearts"])').click()
    page.locator(f'{FORM} label.chip:has(input[name="buyer"][value="1"])').click()  # Ben bought
    page.locator(f'{FORM} label.chip:has(input[name="price"][value="12"])').click()
    expect(forfeits).to_be_visible()
    expect(forfeits).to_contain_text("Ben called a set laid out in the stock")
    forfeits.locator('label.chip:has(input[name="forfeits_1"][value="gleek:A"])').click()
    context.set_offline(False)
    # back online: the answers are sent, and the buyer's own chips say what he forfeits
    expect(page.locator(f'{FORM} input[name="forfeits_1"][value="gleek:A"]:visible')).to_be_checked(timeout=15_000)
    expect(forfeits).to_have_count(0)
    expect(page.locator(f"{FORM} #step-sets")).to_contain_text("8 to each")
    draft = page.request.get(table + "/export.json").json()
    assert draft["hands"] == []  # a hand in progress, not saved
