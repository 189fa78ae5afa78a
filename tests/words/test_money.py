"""Money display of counters under a session's stake: exact, never float."""

from decimal import Decimal
from fractions import Fraction

import pytest

from scorekeeper.words.wording import money, stake_label

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


@pytest.mark.parametrize(
    "counters, stake, shown",
    [
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
    ],
)
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


@pytest.mark.parametrize(
    "stake, label",
    [
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
    ],
)
def test_stake_label(stake, label):
    assert stake_label(stake) == label


# ---------------------------------------------------------------- a session's money adds up

from support.sessions import rounding_session  # noqa: E402

from scorekeeper.words.money import rounded_balances  # noqa: E402
from scorekeeper.words.wording import session_money  # noqa: E402
from scorekeeper.rules.core import Payment  # noqa: E402
from scorekeeper.rules.record import settle  # noqa: E402


def test_the_issue_evening_adds_up_to_the_cent():
    settlement = settle(rounding_session(EUR))
    assert settlement.balances == [-237, Fraction(291, 2), Fraction(183, 2)]
    shown = session_money(settlement, EUR)
    # exact: −11.85, +7.275, +4.575; half a cent each way cannot both round up
    assert shown.balances == ["−€11.85", "+€7.28", "+€4.57"]
    assert shown.payments == ["€7.28", "€4.57"]  # Kit pays Nell, Kit pays Tom: €11.85 in all
    assert shown.note == ("Money rounded to the cent so the three add up to zero; exact: Nell €7.275, Tom €4.575.")


def test_farthing_gleek_with_half_counters_rounds_to_the_farthing():
    shown = session_money(settle(rounding_session(FARTHING)), FARTHING)
    # exact: −59¼d, 36.375d, 22.875d
    assert shown.balances == ["−4s 11¼d", "+3s 0½d", "+1s 10¾d"]
    assert shown.payments == ["3s 0½d", "1s 10¾d"]
    assert shown.note == (
        "Money rounded to the farthing so the three add up to zero; exact: Nell 3s 0.375d, Tom 1s 10.875d."
    )


def test_shilling_gleek_needs_no_rounding():
    shown = session_money(settle(rounding_session(SHILLING)), SHILLING)
    assert shown.balances == ["−£11 17s", "+£7 5s 6d", "+£4 11s 6d"]
    assert shown.payments == ["£7 5s 6d", "£4 11s 6d"]
    assert shown.note is None


def test_no_stake_no_money():
    assert session_money(settle(rounding_session(None)), None) is None


class Settled:
    """A settlement's shape, for cases no single hand reaches."""

    def __init__(self, balances, payments):
        self.players = ["Ann", "Ben", "Cat"]
        self.balances = [Fraction(b) for b in balances]
        self.payments = [Payment(*p) for p in payments]


@pytest.mark.parametrize(
    "balances, payments, stake, shown, paid",
    [
        # one payee, two payers: each payer pays his own rounded balance
        (
            ["-145.5", "-91.5", "237"],
            [(0, 2, Fraction(291, 2)), (1, 2, Fraction(183, 2))],
            EUR,
            ["−€7.28", "−€4.57", "+€11.85"],
            ["€7.28", "€4.57"],
        ),
        # three remainders (0.1d a counter, 13 + 14 + −27 counters): 1.3d, 1.4d, −2.7d
        (["13", "14", "-27"], [(2, 1, 14), (2, 0, 13)], TENTH, ["+1¼d", "+1½d", "−2¾d"], ["1½d", "1¼d"]),
        # equal balances must differ by a unit: the earlier seat gets it
        (
            ["0.5", "0.5", "-1"],
            [(2, 0, Fraction(1, 2)), (2, 1, Fraction(1, 2))],
            EUR,
            ["+€0.03", "+€0.02", "−€0.05"],
            ["€0.03", "€0.02"],
        ),
        # one pays one, the third is square
        (["-0.5", "0", "0.5"], [(0, 2, Fraction(1, 2))], USD, ["−$0.13", "$0.00", "+$0.13"], ["$0.13"]),
        # GBP rounds to the penny
        (
            ["10.5", "-21", "10.5"],
            [(1, 0, Fraction(21, 2)), (1, 2, Fraction(21, 2))],
            GBP,
            ["+£0.11", "−£0.21", "+£0.10"],
            ["£0.11", "£0.10"],
        ),
    ],
)
def test_rounded_money_always_adds_up(balances, payments, stake, shown, paid):
    settled = Settled(balances, payments)
    money_shown = session_money(settled, stake)
    assert money_shown.balances == shown
    assert money_shown.payments == paid
    rounded = rounded_balances(settled.balances, stake)
    assert sum(rounded) == 0
    unit = Fraction(1, 4) if stake["currency"] == "d" else Fraction(1, 100)
    for value, balance in zip(rounded, settled.balances):
        assert (value / unit).denominator == 1
        assert abs(value - balance * Fraction(stake["per_counter"])) < unit


def test_rounding_keeps_the_order_of_the_balances():
    from hypothesis import given, strategies as st

    @given(
        st.lists(st.integers(-4000, 4000), min_size=2, max_size=2),
        st.sampled_from([EUR, GBP, USD, CHF, FARTHING, TENTH, {"per_counter": "0.003", "currency": "EUR"}]),
    )
    def check(halves, stake):
        balances = [Fraction(h, 2) for h in halves]
        balances.append(-sum(balances))
        rounded = rounded_balances(balances, stake)
        assert sum(rounded) == 0
        for a in range(3):
            for b in range(3):
                if balances[a] > balances[b]:
                    assert rounded[a] >= rounded[b]

    check()
