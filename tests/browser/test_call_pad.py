"""Call by call on the phone: the auction and the ruff followed as they are
spoken, Undo last call, the showdown helper and modern's card counter; the
balances then equal settle() of the export (real Chromium at 390×844)."""

from __future__ import annotations

import json
import re

from playwright.sync_api import expect

from scorekeeper.rules.record import settle

from .browser_ui import FORM, UI

PLAYERS = ("Ann", "Ben", "Cat")  # Ann deals: Ben is eldest, then Cat


def call(ui: UI, pad: str, label: str) -> None:
    """One spoken call: tap its button on the pad (``auction`` or ``ruff``)."""
    ui.form_tap(ui.page.locator(f"{FORM} #pad-{pad}").get_by_role("button", name=label, exact=True))


def pad_line(page, pad):
    return page.locator(f"{FORM} #pad-{pad} .calls-line")


def exported(page, table):
    return json.loads(page.request.get(table + "/export.json").text())


def expect_balances_of_settle(ui, table):
    record = exported(ui.page, table)
    ui.expect_balances(settle(record))
    return record


def test_parlett_bid_by_bid_and_a_raise_and_fold_ruff(page, base_url, artifacts):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "parlett")
    ui.next_hand()
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "9")
    ui.chip("tiddy", "nobody")
    expect(page.locator(f"{FORM} #pad-auction .turn")).to_contain_text("Ben (eldest) to bid")
    call(ui, "auction", "Bid 12")
    call(ui, "auction", "Bid 14")
    call(ui, "auction", "Pass")
    call(ui, "auction", "Bid 16")
    call(ui, "auction", "Undo last call")  # a slip: Ben's 16 taken back
    expect(pad_line(page, "auction")).to_have_text("Ben bids 12 · Cat 14 · Ann passes")
    call(ui, "auction", "Bid 16")
    call(ui, "auction", "Pass")
    expect(page.locator(f"{FORM} #pad-auction .calls-result")).to_have_text("Ben bought at 16.")
    expect(page.locator(f"{FORM} #status-stock .phase-result")).to_contain_text("−16")
    call(ui, "ruff", "Open at 2")
    call(ui, "ruff", "Raise to 4")
    expect(page.locator(f"{FORM} #pad-ruff .owes")).to_have_text("Ann risks 4 · Ben risks 4 · Cat risks 4")
    call(ui, "ruff", "Fold")
    call(ui, "ruff", "Match 4")
    expect(pad_line(page, "ruff")).to_have_text("Ben opens 2 · Cat raises to 4 · Ann folds (owes 4) · Ben matches")
    expect(page.locator(f"{FORM} #pad-ruff .calls-result")).to_have_text("Showdown: Ben and Cat show.")
    page.locator(f"{FORM} #step-ruff").screenshot(path=str(artifacts / "call-pad-showdown.png"))
    ui.chip("ruff_winner", 2)  # the table says Cat's suit was best
    expect(page.locator(f"{FORM} #status-ruff .phase-result")).to_contain_text("+8")
    ui.chip("sets", "none")
    ui.chip("tricks_0", 4)
    ui.chip("tricks_1", 5)
    for rank, seat in (("A", 1), ("K", 0), ("Q", 2), ("J", 1)):
        ui.chip(f"honour_{rank}", seat)
    ui.ready()
    ui.save()
    record = expect_balances_of_settle(ui, table)
    hand = record["hands"][0]
    assert hand["auction"] == {"buyer": 1, "price": 16, "bids": [[1, 12], [2, 14], [0, "pass"], [1, 16], [2, "pass"]]}
    assert hand["ruff"] == {
        "winner": 2,
        "paid": [4, 4, 0],
        "calls": [[1, "open"], [2, "raise"], [0, "fold"], [1, "match"]],
    }
    page.locator("table.hands").get_by_role("link", name=re.compile(r"^#1\b")).click()
    expect(page.locator(".hand-detail")).to_contain_text("Ann folded at 4: pays 4.")
    expect(page.locator(".hand-detail")).to_contain_text("Ben held out to 4: pays 4.")


def test_wits1671_vie_see_revie_see_pass(page, base_url):
    """The Wits Interpreter's own vying: the winner takes 6 and 4."""
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "wits1671")
    ui.next_hand()
    ui.chip("trump", "spades")
    ui.chip("turned_up", "7")
    ui.chip("tiddy", "nobody")
    ui.preset("Ben (eldest) bought at 13")
    call(ui, "ruff", "Vie 4")
    # what each would owe if he passed now, and if he sees (his choice, priced)
    owes = page.locator(f"{FORM} #pad-ruff .owes")
    expect(owes).to_have_text("Ann: pass now 2, see 4 · Ben risks 4 · Cat: pass now 2, see 4")
    call(ui, "ruff", "See 4")
    call(ui, "ruff", "Revie to 6")
    expect(owes).to_have_text("Ann risks 6 · Ben: pass now 4, see 6 · Cat: pass now 4, see 6")
    call(ui, "ruff", "See 6")
    call(ui, "ruff", "Pass")
    expect(pad_line(page, "ruff")).to_have_text(
        "Ben vies 4 · Cat sees · Ann revies to 6 · Ben sees · Cat passes (owes 4)"
    )
    # the showdown: four Aces for Ann and an Ace for Ben cannot both be, and that alone is said
    status, pad = page.locator(f"{FORM} #status-ruff"), page.locator(f"{FORM} #pad-ruff")
    ui.chip("shown_0", "aces")
    ui.chip("shown_1", "A")
    expect(status).to_contain_text("Showdown: Ann shows four Aces, so Ben cannot show an Ace.")
    expect(status.locator(".phase-result")).to_have_count(0)
    expect(pad).not_to_contain_text("Winner by the cards")
    expect(pad.locator('input[name="ruff_winner"]')).to_have_count(0)
    ui.form_tap(page.locator(f'{FORM} label.chip:has(input[name="shown_1"][value="A"])'))  # untapped
    expect(ui.chip_input("shown_1", "A")).not_to_be_checked()
    ui.chip("shown_1", "K")  # Ben's King alone is no best suit yet: no winner while he taps
    expect(pad).not_to_contain_text("Winner by the cards")
    ui.chip("shown_1", "Q")
    ui.chip("shown_1", "J")
    expect(pad).to_contain_text("Winner by the cards: Ann")
    expect(status.locator(".phase-result")).to_contain_text("+10")
    ui.chip("sets", "none")
    ui.chip("tricks_0", 4)
    ui.chip("tricks_1", 4)
    for rank, seat in (("A", 0), ("K", 1), ("Q", 2), ("J", 0)):
        ui.chip(f"honour_{rank}", seat)
    ui.ready()
    ui.save()
    record = expect_balances_of_settle(ui, table)
    assert record["hands"][0]["ruff"]["paid"] == [0, 6, 4]
    assert record["hands"][0]["ruff"]["shown"] == ["aces", 30, None]


def test_modern_vie_and_see_with_the_showdown_helper_and_the_card_counter(page, base_url):
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "modern")
    ui.next_hand()
    pad = page.locator(f"{FORM} #pad-auction")
    pad.get_by_role("button", name="one more").click()  # the stepper starts at the least bid, 13
    pad.get_by_role("button", name="one more").click()
    expect(page.locator(f'{FORM} input[name="bid_amount"]')).to_have_value("14")
    call(ui, "auction", "Bid")  # Ben's 14, beyond the chips' first
    expect(pad_line(page, "auction")).to_have_text("Ben bids 14")
    call(ui, "auction", "Pass")
    call(ui, "auction", "Pass")
    ui.chip("trump", "hearts")
    ui.chip("tiddy", "nobody")
    call(ui, "ruff", "Vie 2")
    call(ui, "ruff", "See 2")
    call(ui, "ruff", "Pass")
    expect(page.locator(f"{FORM} #pad-ruff .calls-result")).to_have_text("Showdown: Ben and Cat show.")
    for seat, cards in ((1, ("A", "K", "Q")), (2, ("10", "9", "8"))):
        for card in cards:
            ui.chip(f"shown_{seat}", card)
    expect(page.locator(f"{FORM} #pad-ruff")).to_contain_text("Ben: 17")
    expect(page.locator(f"{FORM} #pad-ruff")).to_contain_text("Cat: 27")
    expect(page.locator(f"{FORM} #pad-ruff")).to_contain_text("Winner by the cards: Cat")
    expect(page.locator(f'{FORM} #pad-ruff label.chip:has(input[name="ruff_winner"])')).to_have_count(0)
    expect(page.locator(f"{FORM} #status-ruff .phase-result")).to_contain_text("+6")  # Cat: 4 from Ben, 2 from Ann
    ui.chip("sets", "none")
    ui.chip("tricks_0", 3)
    ui.chip("tricks_1", 5)
    page.locator(f"{FORM} details.card-counter summary").click()
    counts = {
        0: {"A": 2, "K": 1, "10": 2, "9": 2, "8": 2},
        1: {"A": 2, "K": 3, "Q": 4, "J": 4, "10": 2},
        2: {"9": 2, "8": 2, "7": 4, "6": 4},
    }
    for seat, count in counts.items():
        for rank, n in count.items():  # one tap a count
            ui.form_tap(page.locator(f'{FORM} label.chip:has(input[name="count_{seat}_{rank}"][value="{n}"])'))
    for seat, points in ((0, "79"), (1, "75"), (2, "86")):
        expect(page.locator(f'{FORM} input[name="card_points_{seat}"]')).to_have_value(points)
    ui.chip("tib", 0)
    ui.chip("tom", 1)
    ui.chip("last_trick", 2)
    ui.ready()
    ui.save()
    record = expect_balances_of_settle(ui, table)
    hand = record["hands"][0]
    assert hand["ruff"] == {
        "winner": 2,
        "paid": [2, 4, 0],
        "calls": [[1, "vie", 2], [2, "see"], [0, "pass"]],
        "shown": [None, 17, 27],
    }
    assert hand["card_points"] == [79, 75, 86]


def test_cotton1674_the_dealer_doubles_the_ruff_and_the_next_is_played_for_double(page, base_url):
    """Cotton's ruff: eldest and middle pass, the dealer taps "Double it" (nobody pays,
    no calls are kept); the next hand's pad and the table say "Ruff played for double
    (×2)" and the vies go 8, 12; a forfeit is marked in the sets section."""
    ui = UI(page)
    table = ui.start_session(base_url, PLAYERS, "cotton1674")
    ui.next_hand()  # Ann deals: Ben is eldest, then Cat
    ui.chip("trump", "hearts")
    ui.chip("turned_up", "5")  # Towser turned up: not asked
    expect(page.locator(f'{FORM} input[type="radio"][name="towser"]')).to_have_count(0)
    expect(page.locator(f"{FORM} #step-towser")).to_contain_text("Towser turned up: 5 from each to Ann.")
    ui.chip("tiddy", "nobody")
    ui.chip("tumbler", 1)
    ui.preset("Ben (eldest) bought at 12")
    call(ui, "ruff", "Pass")
    call(ui, "ruff", "Pass")
    call(ui, "ruff", "Double it (played for at the next deal)")
    expect(page.locator(f"{FORM} #pad-ruff")).to_contain_text(
        "Ann doubled the ruff: it is played for at the next deal."
    )
    ui.chip("sets", "none")  # nobody declared a set, but
    ui.chip("forfeits_1", "gleek:A")  # Ben, the buyer, called a gleek of Aces he had laid out
    expect(page.locator(f"{FORM} #status-sets .phase-result")).to_contain_text("−16")
    ui.chip("tricks_0", 4)
    ui.chip("tricks_1", 4)
    for rank, seat in (("A", 0), ("K", 1), ("Q", 2), ("J", 0)):
        ui.chip(f"honour_{rank}", seat)
    ui.ready()
    ui.save()
    record = expect_balances_of_settle(ui, table)
    first = record["hands"][0]
    assert first["ruff"] is None and first["forfeits"] == [[], ["gleek:A"], []] and first["towser"] is None
    expect(page.locator(".deal-line")).to_contain_text("Ruff played for double (×2)")

    ui.next_hand()  # Ben deals: Cat is eldest
    expect(page.locator(f"{FORM} #step-ruff")).to_contain_text("Ruff played for double (×2)")
    ui.chip("trump", "clubs")
    ui.chip("turned_up", "9")
    for key in ("tiddy", "towser", "tumbler"):
        ui.chip(key, "nobody")
    ui.preset("Cat (eldest) bought at 12")
    call(ui, "ruff", "Vie 8")
    call(ui, "ruff", "See 8")
    call(ui, "ruff", "Revie to 12")
    call(ui, "ruff", "Pass")
    call(ui, "ruff", "Pass")
    expect(pad_line(page, "ruff")).to_have_text(
        "Cat vies 8 · Ann sees · Ben revies to 12 · Cat passes (owes 8) · Ann passes (owes 8)"
    )
    ui.chip("sets", "none")
    ui.chip("tricks_0", 4)
    ui.chip("tricks_1", 4)
    for rank, seat in (("A", 0), ("K", 1), ("Q", 2), ("J", 0)):
        ui.chip(f"honour_{rank}", seat)
    ui.ready()
    ui.save()
    record = expect_balances_of_settle(ui, table)
    assert record["hands"][1]["ruff"]["paid"] == [8, 0, 8]
