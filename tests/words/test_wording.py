"""words/wording.py, the one place an amount, a date or a statistics row is written:
each row of these tables is what the pages, the command line and the PDFs all show."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from scorekeeper.rules.season import evening_figures, season
from scorekeeper.words.wording import (
    amount_text,
    and_list,
    bare_amount,
    counts_text,
    date_words,
    day_text,
    head_to_head_rows,
    in_units,
    long_date,
    session_money,
    signed_amount,
    stake_choice,
    stake_label,
    stats_rows,
    unit_words,
)
from support.data import load_example

F = Fraction


@pytest.mark.parametrize(
    "amount, currency, shown",
    [
        # old pence: farthings as ¼ ½ ¾, £sd with the inner zero units kept
        (F(27, 4), "d", "6¾d"),
        (F(1, 2), "d", "½d"),
        (F(1, 4), "d", "¼d"),
        (0, "d", "0d"),
        (12, "d", "1s"),
        (F(49, 4), "d", "1s 0¼d"),
        (F(-1059, 4), "d", "−£1 2s 0¾d"),
        (240, "d", "£1"),
        (F(219, 8), "d", "2s 3.375d"),  # not a whole farthing: the exact pence, never a coin it is not
        # decimal currencies: the symbol or the code, two decimals, thousands grouped
        (F(6, 5), "EUR", "€1.20"),
        (F(215, 100), "GBP", "£2.15"),
        (F(-1, 2), "USD", "−$0.50"),
        (1234, "CHF", "CHF 1,234.00"),
        (0, "EUR", "€0.00"),
        # counters (no stake): the word, one counter alone
        (41, None, "41 counters"),
        (1, None, "1 counter"),
        (F(-1), None, "−1 counter"),
        (F(13, 2), None, "6½ counters"),
        (F(-1, 2), None, "−½ counters"),
        (0, None, "0 counters"),
    ],
)
def test_an_amount_in_its_unit(amount, currency, shown):
    assert amount_text(amount, currency) == shown


@pytest.mark.parametrize(
    "amount, currency, shown",
    [
        (F(27, 4), "d", "+6¾d"),
        (F(-99, 4), "d", "−2s 0¾d"),
        (0, "d", "0d"),
        (F(6, 5), "EUR", "+€1.20"),
        (F(-6, 5), "EUR", "−€1.20"),
        (41, None, "+41"),  # a balance in counters is bare, as the table writes it
        (F(-89, 2), None, "−44½"),
        (F(2475, 2), None, "+1,237½"),
        (0, None, "0"),
    ],
)
def test_a_signed_amount(amount, currency, shown):
    assert signed_amount(amount, currency) == shown


@pytest.mark.parametrize(
    "by_unit, units, shown",
    [
        ({"d": F(-23, 4)}, ("d",), "−5¾d"),
        ({"d": 4, "EUR": F(6, 5)}, ("d", "EUR"), "+4d · +€1.20"),  # two currencies side by side, never added
        ({"d": 4, None: -3}, ("d", None), "+4d · −3 counters"),
        ({None: 41}, (None,), "+41"),  # a season with no stake at all: plain counters
        ({}, ("d",), "–"),
    ],
)
def test_amounts_per_unit_in_one_cell(by_unit, units, shown):
    assert in_units(by_unit, units) == shown


@pytest.mark.parametrize(
    "unit, units, shown",
    [
        ("d", ("d",), "old pence"),
        ("EUR", ("d", "EUR"), "EUR"),
        (None, (None,), "counters"),
        (None, ("d", None), "counters, evenings without a stake"),
    ],
)
def test_a_units_words(unit, units, shown):
    assert unit_words(unit, units) == shown


@pytest.mark.parametrize(
    "stake, shown",
    [
        ({"per_counter": "0.25", "currency": "d"}, "¼d a counter (farthing Gleek)"),
        ({"per_counter": "12", "currency": "d"}, "1s a counter (shilling Gleek)"),
        ({"per_counter": "0.05", "currency": "EUR"}, "€0.05 a counter"),
        ({"per_counter": "0.125", "currency": "USD"}, "$0.125 a counter"),
        (None, "counters only (no money stake)"),
    ],
)
def test_a_stake(stake, shown):
    assert stake_label(stake) == shown


@pytest.mark.parametrize(
    "played_on, with_year, shown",
    [
        ("2026-11-14", False, "14 Nov"),
        ("2026-11-14", True, "14 Nov 2026"),
        ("2025-03-03", True, "3 Mar 2025"),
        (None, False, "undated"),
        ("", True, "undated"),
        ("someday", False, "someday"),  # not a date: as it was given, never an error page
    ],
)
def test_a_date_in_words(played_on, with_year, shown):
    assert date_words(played_on, with_year) == shown


@pytest.mark.parametrize(
    "played_on, this_year, shown",
    [
        ("2026-11-14", 2026, "14 Nov"),  # this year's: no year
        ("2025-11-14", 2026, "14 Nov 2025"),  # another year's: its year
        ("2027-01-02", 2026, "2 Jan 2027"),
        (None, 2026, "undated"),
    ],
)
def test_an_evenings_day_on_the_circles_pages(played_on, this_year, shown):
    assert day_text(played_on, this_year) == shown


def test_todays_evening_has_no_year_and_last_years_has():
    today = date.today()
    assert day_text(today.isoformat()) == date_words(today.isoformat())
    last_year = today.replace(year=today.year - 1, day=min(today.day, 28))
    assert day_text(last_year.isoformat()).endswith(f" {last_year.year}")


def test_month_names_short_and_long():
    assert [date_words(f"2026-{m:02d}-01") for m in range(1, 13)] == [
        "1 Jan",
        "1 Feb",
        "1 Mar",
        "1 Apr",
        "1 May",
        "1 Jun",
        "1 Jul",
        "1 Aug",
        "1 Sep",
        "1 Oct",
        "1 Nov",
        "1 Dec",
    ]
    assert [long_date(f"2026-{m:02d}-09") for m in range(1, 13)] == [
        "9 January 2026",
        "9 February 2026",
        "9 March 2026",
        "9 April 2026",
        "9 May 2026",
        "9 June 2026",
        "9 July 2026",
        "9 August 2026",
        "9 September 2026",
        "9 October 2026",
        "9 November 2026",
        "9 December 2026",
    ]
    assert long_date(None) == ""


def test_a_sessions_money_is_spelled_as_the_season_spells_it():
    """The settle-up page's and the session sheet's money (session_money) and the season's
    amounts are one spelling: 41 counters at ¼d are +10¼d in both."""

    class Settled:
        players = ["Ann", "Ben", "Cat"]
        balances = [41, F(-89, 2), F(7, 2)]
        payments = [
            type("Payment", (), {"payer": 1, "payee": 0, "amount": 41})(),
            type("Payment", (), {"payer": 1, "payee": 2, "amount": F(7, 2)})(),
        ]

    shown = session_money(Settled, {"per_counter": "0.25", "currency": "d"})
    # −11⅛d and ⅞d are no coin: rounded to the farthing so that the three add up to zero
    assert shown.balances == ["+10¼d", "−11¼d", "+1d"] == [signed_amount(v, "d") for v in (F(41, 4), F(-45, 4), 1)]
    assert shown.payments == ["10¼d", "1d"]
    assert shown.note == "Money rounded to the farthing so the three add up to zero; exact: Ben −11.125d, Cat 0.875d."


@pytest.mark.parametrize("counts, shown", [({"A": 2, "K": 1}, "A×2 K"), ({"Tiddy": 1}, "Tiddy"), ({}, "–")])
def test_counts_by_key(counts, shown):
    assert counts_text(counts) == shown


@pytest.fixture(scope="module")
def two_evenings():
    """The worked parlett evening at ¼d (Samuel, Elizabeth, Will) and the wits1671 one
    without a stake (Tom, Dick, Harry)."""
    staked = dict(
        load_example("parlett-evening.json"), played_on="2026-11-14", stake={"per_counter": "0.25", "currency": "d"}
    )
    plain = dict(load_example("wits1671-evening.json"), played_on="2026-11-21")
    return season([evening_figures(staked, "a"), evening_figures(plain, "b")])


@pytest.mark.parametrize(
    "label, cells",
    [
        ("", ["Samuel", "Elizabeth", "Will", "Tom", "Dick", "Harry"]),
        ("Hands", ["3", "3", "3", "2", "2", "2"]),
        ("Net", ["+10¾d", "+¾d", "−11½d", "+18 counters", "+8½ counters", "−26½ counters"]),
        ("Average a hand", ["+3½d", "+¼d", "−3¾d", "+9 counters", "+4 counters", "−13 counters"]),
        ("Best hand", ["+8d", "+½d", "+2¼d", "+30½ counters", "+13 counters", "−½ counters"]),
        ("Gleeks declared", ["A", "K J", "Q", "–", "A", "J"]),
        ("Average price", ["–", "14", "15", "–", "17", "13"]),
        ("Net: ruff", ["+2½d", "0d", "−2½d", "+8 counters", "−6 counters", "−2 counters"]),
    ],
)
def test_statistics_rows(two_evenings, label, cells):
    rows = {row[0]: row[1:] for row in stats_rows(two_evenings)}
    assert rows[label] == cells


def test_head_to_head_rows(two_evenings):
    rows = {row[0]: row[1:] for row in head_to_head_rows(two_evenings)}
    assert rows["Samuel"] == ["", "+10¾d in 1", "+10¾d in 1", "·", "·", "·"]
    assert rows["Harry"] == ["·", "·", "·", "−26½ counters in 1", "−26½ counters in 1", ""]


@pytest.mark.parametrize(
    "stake, shown",
    [
        (None, "Counters only"),
        ({"per_counter": "0.25", "currency": "d"}, "¼d — farthing Gleek"),
        ({"per_counter": "12", "currency": "d"}, "1s — shilling Gleek"),
        ({"per_counter": "5", "currency": "d"}, "5d"),
        ({"per_counter": "0.05", "currency": "EUR"}, "€0.05"),
    ],
)
def test_a_stake_as_the_new_session_form_offers_it(stake, shown):
    assert stake_choice(stake) == shown


@pytest.mark.parametrize(
    "words, shown",
    [
        ([], ""),
        (["14 Nov"], "14 Nov"),
        (["14 Nov", "21 Nov"], "14 Nov and 21 Nov"),
        (["14 Nov", "21 Nov", "28 Nov"], "14 Nov, 21 Nov and 28 Nov"),
    ],
)
def test_a_list_in_words(words, shown):
    assert and_list(words) == shown


@pytest.mark.parametrize(
    "amount, currency, shown",
    [
        (F(-89, 2), None, "−44½"),
        (41, None, "41"),
        (F(27, 4), "d", "6¾d"),
        (F(6, 5), "EUR", "€1.20"),
    ],
)
def test_an_amount_under_a_heading_that_names_its_unit(amount, currency, shown):
    assert bare_amount(amount, currency) == shown
