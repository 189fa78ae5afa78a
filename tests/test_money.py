"""Money display of counters under a session's stake: exact, never float."""

from decimal import Decimal
from fractions import Fraction

import pytest

from scorekeeper.money import money, stake_label

FARTHING = {"per_counter": "0.25", "currency": "d"}
HALFPENNY = {"per_counter": "0.5", "currency": "d"}
PENNY = {"per_counter": "1", "currency": "d"}
SIXPENCE = {"per_counter": "6", "currency": "d"}
SHILLING = {"per_counter": "12", "currency": "d"}
TENTH = {"per_counter": "0.1", "currency": "d"}
EUR = {"per_counter": "0.05", "currency": "EUR"}
GBP = {"per_counter": "0.01", "currency": "GBP"}
USD = {"per_counter": "0.25", "currency": "USD"}
CHF = {"per_counter": "0.1", "currency": "CHF"}


@pytest.mark.parametrize("counters, stake, shown", [
    # farthing Gleek: 1 counter = ¼d
    (1, FARTHING, "¼d"),
    (2, FARTHING, "½d"),
    (3, FARTHING, "¾d"),
    (4, FARTHING, "1d"),
    (12, FARTHING, "3d"),
    (Fraction(1, 2), FARTHING, "0.125d"),  # half a counter is half a farthing: shown exactly
    (0, FARTHING, "0d"),
    (47, FARTHING, "11¾d"),
    (48, FARTHING, "1s"),
    (49, FARTHING, "1s 0¼d"),
    (66, FARTHING, "1s 4½d"),
    (-66, FARTHING, "−1s 4½d"),
    (-1, FARTHING, "−¼d"),
    (960, FARTHING, "£1"),
    (1059, FARTHING, "£1 2s 0¾d"),
    (-1059, FARTHING, "−£1 2s 0¾d"),
    (984, FARTHING, "£1 0s 6d"),
    (1040, FARTHING, "£1 1s 8d"),
    (1056, FARTHING, "£1 2s"),
    # penny, halfpenny, sixpenny, shilling Gleek
    (42, PENNY, "3s 6d"),
    (Fraction(13, 2), PENNY, "6½d"),
    (Fraction(-27, 2), PENNY, "−1s 1½d"),
    (240, PENNY, "£1"),
    (Fraction(1, 2), HALFPENNY, "¼d"),
    (5, HALFPENNY, "2½d"),
    (3, SIXPENCE, "1s 6d"),
    (Fraction(3, 2), SIXPENCE, "9d"),
    (44, SIXPENCE, "£1 2s"),
    (25, SHILLING, "£1 5s"),
    (Fraction(1, 2), SHILLING, "6d"),
    # not a whole number of farthings: the exact pence, never rounded to a coin
    (1, TENTH, "0.10d"),
    (13, TENTH, "1.30d"),
    (Fraction(1, 2), TENTH, "0.05d"),
    (-123, TENTH, "−1s 0.30d"),
    (2410, TENTH, "£1 0s 1d"),  # 241d is whole again
    (2413, TENTH, "£1 0s 1.30d"),
    # decimal currencies
    (21, EUR, "€1.05"),
    (-21, EUR, "−€1.05"),
    (0, EUR, "€0.00"),
    (Fraction(1, 2), EUR, "€0.02"),  # 0.025 → half to even
    (Fraction(3, 2), EUR, "€0.08"),  # 0.075 → half to even
    (Fraction(-1, 2), EUR, "−€0.02"),
    (100000, EUR, "€5,000.00"),
    (Fraction(21, 2), GBP, "£0.10"),  # 0.105 → 0.10
    (Fraction(23, 2), GBP, "£0.12"),  # 0.115 → 0.12
    (7, USD, "$1.75"),
    (Fraction(-1, 2), USD, "−$0.12"),  # −0.125 → −0.12
    (35, CHF, "CHF 3.50"),
    (Fraction(-101, 2), CHF, "−CHF 5.05"),
])
def test_money_table(counters, stake, shown):
    assert money(Fraction(counters), stake) == shown


def test_tiny_negative_rounds_to_an_unsigned_zero():
    assert money(Fraction(-1, 2), {"per_counter": "0.001", "currency": "EUR"}) == "€0.00"


def test_without_a_stake_amounts_stay_counters():
    assert money(Fraction(42), None) == "42 counters"
    assert money(Fraction(1), None) == "1 counter"
    assert money(Fraction(-13, 2), None) == "−6½ counters"
    assert money(Fraction(0), None) == "0 counters"


def test_money_is_exact_for_large_amounts():
    # 0.1 is not exact in binary: a float would make this 0.30000000000000004
    assert money(Fraction(3), {"per_counter": "0.1", "currency": "EUR"}) == "€0.30"
    big = Fraction(10**15 + 1, 2)
    expected = (Decimal(10**15 + 1) / 2 * Decimal("0.05")).quantize(Decimal("0.01"))
    assert money(big, EUR) == f"€{expected:,.2f}"


def test_money_accepts_ints():
    assert money(66, FARTHING) == "1s 4½d"


@pytest.mark.parametrize("stake, label", [
    (FARTHING, "¼d a counter (farthing Gleek)"),
    (HALFPENNY, "½d a counter (halfpenny Gleek)"),
    (PENNY, "1d a counter (penny Gleek)"),
    (SIXPENCE, "6d a counter (sixpenny Gleek)"),
    (SHILLING, "1s a counter (shilling Gleek)"),
    ({"per_counter": "0.75", "currency": "d"}, "¾d a counter"),
    (TENTH, "0.10d a counter"),
    (EUR, "€0.05 a counter"),
    ({"per_counter": "0.005", "currency": "EUR"}, "€0.005 a counter"),
    ({"per_counter": "2", "currency": "USD"}, "$2.00 a counter"),
    (CHF, "CHF 0.10 a counter"),
    (None, "counters only (no money stake)"),
])
def test_stake_label(stake, label):
    assert stake_label(stake) == label
