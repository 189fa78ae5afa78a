"""A Save tapped too early is refused and forgotten: the hand is saved only by a
Save the scorer taps, online and offline (real Chromium at 390×844)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from .browser_ui import FORM, UI

PLAYERS = ("Ann", "Ben", "Cat")
REFUSED = "Not saved yet: answer what is marked below, then Save again."


def exported(page, table) -> dict:
    return json.loads(page.request.get(table + "/export.json").text())


def kept_on_phone(page) -> list:
    return page.evaluate(
        "Object.keys(localStorage).filter(k => k.startsWith('gleek:')).map(k => JSON.parse(localStorage.getItem(k)))"
    )


def all_but(ui: UI, last_honour: bool = True) -> None:
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "9")
    ui.preset("Quiet hand: no Tiddy, no ruff contest, no sets")
    ui.preset("Ben (eldest) bought at 12")
    ui.chip("tricks_0", 5)
    ui.chip("tricks_1", 4)
    for rank, seat in (("A", 0), ("K", 1), ("Q", 2)):
        ui.chip(f"honour_{rank}", seat)
    if last_honour:
        ui.chip("honour_J", 0)


def still_on_the_form(page, table) -> None:
    page.wait_for_timeout(1500)  # a Save left armed would have gone by now
    expect(page).to_have_url(re.compile(r"/hands/new$"))
    assert exported(page, table)["hands"] == []
    assert not any(k.get("saveTapped") for k in kept_on_phone(page))


def test_a_refused_save_is_forgotten_online(page, base_url):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    all_but(ui, last_honour=False)
    ui.form_tap(ui.button("Save hand"))
    expect(page.locator("#hand-summary")).to_contain_text(REFUSED)
    ui.chip("honour_J", 0)  # the last answer: the hand is ready, but not saved by itself
    ui.ready()
    still_on_the_form(page, table)
    ui.save()  # the scorer's own Save
    assert len(exported(page, table)["hands"]) == 1


def test_an_offline_save_refused_when_sent_is_forgotten(page, base_url, context):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "9")
    ui.chip("tiddy", "nobody")
    ui.preset("Ben (eldest) bought at 12")
    ui.chip("ruff_winner", "nobody")
    ui.chip("tricks_0", 5)
    ui.chip("tricks_1", 4)
    for rank, seat in (("A", 0), ("K", 1), ("Q", 2), ("J", 0)):
        ui.chip(f"honour_{rank}", seat)
    context.set_offline(True)
    page.locator(f'{FORM} label.chip:has(input[name="sets"][value="some"])').click()
    ui.button("Save hand").click()
    expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
    context.set_offline(False)
    # back online: the answers go, then the Save, refused (no set chosen yet)
    expect(page.locator("#hand-summary")).to_contain_text(REFUSED, timeout=15_000)
    expect(page.locator("#connection")).to_be_hidden()
    ui.chip("set_0", "gleek:K")  # Ann's gleek of Kings: not saved by itself …
    still_on_the_form(page, table)
    ui.chip("set_1", "gleek:Q")  # … so Ben's gleek can be added
    ui.ready()
    ui.save()
    assert exported(page, table)["hands"][0]["sets"] == [["gleek:K"], ["gleek:Q"], []]


SAVE_AGAIN = "You changed the hand after Save: tap Save again when it is done."


def test_an_offline_save_then_a_change_waits_for_save_again(page, base_url, context):
    """The trial's case: offline, Save tapped before the hand was done, the hand
    finished offline: back online it must not save by itself (the Save was for the
    hand as it was), and says so; the scorer's next Save saves it, once."""
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    all_but(ui, last_honour=False)
    context.set_offline(True)
    ui.button("Save hand").click()
    expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
    page.locator(f'{FORM} label.chip:has(input[name="honour_J"][value="0"])').click()  # the last answer, offline
    expect(page.locator("#connection")).to_contain_text(SAVE_AGAIN)
    assert not any(k.get("saveTapped") for k in kept_on_phone(page))
    context.set_offline(False)
    expect(page.locator("#hand-summary .ready")).to_have_text(re.compile("Ready to save"), timeout=15_000)
    still_on_the_form(page, table)
    ui.save()
    assert len(exported(page, table)["hands"]) == 1


def test_an_offline_save_of_a_finished_hand_is_sent_when_back(page, base_url, context):
    """The other side: a Save tapped offline on a finished hand, nothing changed
    after it, saves the hand as soon as the connection is back (once)."""
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    all_but(ui)
    ui.ready()
    context.set_offline(True)
    ui.button("Save hand").click()
    expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
    context.set_offline(False)
    expect(page).to_have_url(re.compile(r"/s/[^/?]+$"), timeout=15_000)
    assert len(exported(page, table)["hands"]) == 1
