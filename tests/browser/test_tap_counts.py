"""Fewer taps (a hand entered at the table): the trial's contested parlett hand (a bid-by-bid
auction, a raised ruff with a showdown, two gleeks, honours split) in ≤ 20 taps
from the open form to saved, the section being answered brought into view; and
modern's card points from the card counter in ≤ 15 taps. Every tap goes through
``UI.tap`` (counted); the counts are printed (``pytest -s``)."""

from __future__ import annotations

import json

from playwright.sync_api import expect

from scorekeeper.rules.record import settle

from .browser_ui import FORM, UI

PLAYERS = ("Ann", "Ben", "Cat")  # Ann deals: Ben is eldest, then Cat


def exported(page, table) -> dict:
    return json.loads(page.request.get(table + "/export.json").text())


def in_view(page, locator) -> bool:
    """The control is on the screen, above the thumb bar, before the tap (no scrolling needed)."""
    box, bar = locator.bounding_box(), page.locator(".thumb-bar").bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= bar["y"]


def test_the_contested_parlett_hand_in_at_most_20_taps(page, base_url):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.taps, out_of_view = 0, []

    def tap(locator, what):
        if not in_view(page, locator):
            out_of_view.append(what)
        ui.form_tap(locator)

    def chip(name, value):
        tap(page.locator(f'{FORM} label.chip:has(input[name="{name}"][value="{value}"])'), f"{name}={value}")

    def call(pad, label):
        tap(page.locator(f"{FORM} #pad-{pad}").get_by_role("button", name=label, exact=True), f"{pad}: {label}")

    tap(page.locator(FORM).get_by_role("button", name="9 of Hearts"), "9 of Hearts")  # suit and rank: one tap
    expect(ui.chip_input("trump", "hearts")).to_be_checked()
    expect(ui.chip_input("turned_up", "9")).to_be_checked()
    chip("tiddy", "nobody")
    for label in ("Bid 12", "Bid 14", "Pass", "Pass"):
        call("auction", label)
    for label in ("Open at 2", "Raise to 4", "Fold", "Match 4"):
        call("ruff", label)
    chip("ruff_winner", 2)
    chip("set_0", "gleek:K")
    chip("set_1", "gleek:Q")
    chip("tricks_0", 4)
    chip("tricks_1", 5)
    for rank, seat in (("A", 1), ("K", 0), ("Q", 2), ("J", 1)):
        chip(f"honour_{rank}", seat)
    ui.ready()
    answered = ui.taps
    ui.save()
    print(
        f"\nparlett contested hand: {ui.taps} taps from the open form to saved "
        f"({answered} answering, 1 Save); out of view before the tap: {len(out_of_view)} {out_of_view}"
    )
    assert ui.taps <= 20
    hand = exported(page, table)["hands"][0]
    assert hand["auction"] == {"buyer": 2, "price": 14, "bids": [[1, 12], [2, 14], [0, "pass"], [1, "pass"]]}
    assert hand["ruff"]["winner"] == 2 and hand["sets"] == [["gleek:K"], ["gleek:Q"], []]
    assert hand["honours"] == {"A": 1, "K": 0, "Q": 2, "J": 1} and hand["tricks"] == [4, 5, 3]
    assert not out_of_view, out_of_view


def test_modern_card_points_from_the_counter_in_at_most_15_taps(page, base_url):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "modern")
    ui.next_hand()
    ui.chip("buyer", 1)
    ui.amount("price", 13)
    ui.chip("trump", "hearts")
    ui.chip("tiddy", "nobody")
    ui.chip("ruff_winner", 1)
    ui.amount("paid_0", 2)
    ui.amount("paid_2", 2)
    ui.chip("sets", "none")
    ui.chip("tricks_0", 3)
    ui.chip("tricks_1", 5)
    ui.taps = 0
    ui.tap(page.locator(f"{FORM} details.card-counter summary"))
    counts = {
        0: {"A": 2, "K": 1, "10": 2, "9": 2, "8": 2},
        1: {"A": 2, "K": 3, "Q": 4, "J": 4, "10": 2},
        2: {"9": 2, "8": 2, "7": 4, "6": 4},
    }  # the trial's count: 36 taps of + before
    for seat, count in counts.items():
        for rank, n in count.items():
            ui.form_tap(page.locator(f'{FORM} label.chip:has(input[name="count_{seat}_{rank}"][value="{n}"])'))
    counted = ui.taps
    for seat, points in ((0, "79"), (1, "75"), (2, "86")):
        expect(page.locator(f'{FORM} input[name="card_points_{seat}"]')).to_have_value(points)
    print(f"\nmodern card points: {counted} taps (the trial's counter: 36)")
    assert counted <= 15
    ui.chip("tib", 0)
    ui.chip("tom", 1)
    ui.chip("last_trick", 2)
    ui.ready()
    ui.save()
    record = exported(page, table)
    assert record["hands"][0]["card_points"] == [79, 75, 86]
    ui.expect_balances(settle(record))
