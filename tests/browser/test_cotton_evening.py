"""Cotton's worked evening (docs/rules.md, Cotton's book; tests/data/cotton1674-evening.json)
tapped in on a phone in real Chromium at 390×844: Tiddy, Towser and Tumbler turned up
and held, the stock bought at odd prices (the odd penny to eldest), a ruff the dealer
doubles on the call pad and the next one played for double, and a false gleek of Aces
forfeited. The table's balances, each hand's totals and the settle-up are the
example's expected figures exactly (the spec's, worked out by hand)."""

from __future__ import annotations

from fractions import Fraction

from playwright.sync_api import expect

from support.data import load_example

from .browser_ui import FORM, UI, assert_fits, counters, shown


def exact(amount) -> Fraction:
    return Fraction(str(amount))


def call(ui: UI, pad: str, label: str) -> None:
    ui.form_tap(ui.page.locator(f"{FORM} #pad-{pad}").get_by_role("button", name=label, exact=True))


def test_cottons_evening_with_a_doubled_ruff_and_a_forfeit(page, base_url, artifacts):
    evening, expected = load_example("cotton1674-evening.json"), load_example("cotton1674-evening.expected.json")
    ui = UI(page)
    table = ui.start_session(base_url, evening["players"], "cotton1674", first_dealer=evening["hands"][0]["dealer"])
    for number, hand in enumerate(evening["hands"], start=1):
        ui.next_hand()
        if hand["ruff"] is None:  # Ann deals; Ben (eldest) and Cat pass the ruff, and Ann doubles it
            ui.enter_hand("cotton1674", {k: v for k, v in hand.items() if k != "ruff"}, evening["players"])
            call(ui, "ruff", "Pass")
            call(ui, "ruff", "Pass")
            expect(ui.button("Double it (played for at the next deal)")).to_be_visible()
            call(ui, "ruff", "Double it (played for at the next deal)")
            expect(page.locator(f"{FORM} #pad-ruff")).to_contain_text("Ann doubled the ruff")
        else:
            if number == 3:  # the hand after the double
                expect(page.locator(f"{FORM} #step-ruff")).to_contain_text("Ruff played for double (×2)")
            ui.enter_hand("cotton1674", hand, evening["players"])
        if hand.get("forfeits"):
            sets = expected["hands"][number - 1]["phases"]["sets"]  # a false gleek of Aces: 8 to each
            expect(page.locator(f"{FORM} #status-sets .phase-result")).to_have_text(
                "".join(f"{name} {shown(exact(a))}" for name, a in zip(evening["players"], sets))
            )
        assert_fits(page)
        ui.ready()
        ui.save()
        if number == 2:
            expect(page.locator(".deal-line")).to_contain_text("Ruff played for double (×2)")

    for seat, balance in enumerate(expected["balances"]):
        amount = page.locator(f'.balance .amount[data-seat="{seat}"]')
        expect(amount).to_have_text(shown(exact(balance)))
        assert counters(amount.inner_text()) == exact(balance)
    rows = page.locator("table.hands tbody tr")
    expect(rows).to_have_count(len(expected["hands"]))
    for result in expected["hands"]:
        cells = rows.nth(len(expected["hands"]) - result["hand"]).locator("td")  # newest first
        assert [counters(t) for t in cells.all_inner_texts()] == [exact(a) for a in result["total"]]

    exported = page.request.get(table + "/export.json").json()
    assert exported["hands"][1]["ruff"] is None and exported["hands"][0]["forfeits"] == [[], ["gleek:A"], []]
    page.goto(table + "/settle")
    for payment in expected["payments"]:
        names = evening["players"]
        expect(page.locator("body")).to_contain_text(
            f"{names[payment['from']]} pays {names[payment['to']]} {shown(exact(payment['amount'])).lstrip('+')}"
        )
    assert_fits(page)
    page.screenshot(path=str(artifacts / "cotton-evening-settle.png"))
