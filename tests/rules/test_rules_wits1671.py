"""Rule book ``wits1671`` (docs/rules.md and the record's checks), phase by phase, with the
exact amounts of the rule book."""

import json
from fractions import Fraction

import pytest

from scorekeeper.rules.record import settle
from support.strategies import make_record, phases_of, problems_of, wits_hand

F = Fraction
OFF = {"tiddy": False}


def phase(name, hand, options=None):
    return phases_of("wits1671", hand, options)[name]


def lines(*hands, options=None):
    return problems_of(make_record("wits1671", list(hands), options))


# ================================================================ tiddy


@pytest.mark.parametrize("options", [None, {}, {"tiddy": True}])
def test_tiddy_turned_up_pays_the_dealer_2_from_each(options):
    hand = wits_hand(dealer=0, auction={"buyer": 1, "price": 13}, turned_up="4", tiddy=None)
    assert phase("tiddy", hand, options) == [4, -2, -2]
    assert phase("tiddy", wits_hand(turned_up="4", tiddy=None), options) == [-2, -2, 4]


def test_tiddy_held_after_the_exchange_gets_2_from_each():
    assert phase("tiddy", wits_hand(tiddy=0)) == [4, -2, -2]
    assert phase("tiddy", wits_hand(tiddy=1)) == [-2, 4, -2]


def test_tiddy_discarded_pays_nobody():
    assert phase("tiddy", wits_hand(tiddy=None)) == [0, 0, 0]


def test_tiddy_off_pays_nothing_even_when_turned_up():
    assert phase("tiddy", wits_hand(turned_up="4", tiddy=None), OFF) == [0, 0, 0]
    assert phase("tiddy", wits_hand(tiddy=None), OFF) == [0, 0, 0]


def test_tiddy_off_refuses_a_tiddy_holder():
    assert lines(wits_hand(tiddy=1), options=OFF) == ["hand 1: tiddy must be null when the table plays without Tiddy"]
    assert lines(wits_hand(turned_up="4", tiddy=1), options=OFF) == [
        "hand 1: tiddy must be null when the table plays without Tiddy"
    ]


def test_tiddy_must_be_null_when_the_four_is_turned_up():
    assert lines(wits_hand(turned_up="4", tiddy=2)) == [
        "hand 1: tiddy must be null when the Four is turned up (the dealer is paid for it)"
    ]


def test_tiddy_off_session_settles_every_hand_without_tiddy():
    hands = [wits_hand(turned_up="4"), wits_hand(dealer=0, auction={"buyer": 1, "price": 13})]
    result = settle(make_record("wits1671", hands, OFF))
    assert [h.phases["tiddy"] for h in result.hands] == [[0, 0, 0], [0, 0, 0]]
    on = settle(make_record("wits1671", hands))
    assert [h.phases["tiddy"] for h in on.hands] == [[-2, -2, 4], [0, 0, 0]]


# ================================================================ auction


def test_odd_price_is_split_in_halves():
    assert phase("auction", wits_hand(auction={"buyer": 0, "price": 13})) == [-13, F(13, 2), F(13, 2)]
    assert phase("auction", wits_hand(auction={"buyer": 1, "price": 17})) == [F(17, 2), -17, F(17, 2)]
    assert phase("auction", wits_hand(auction={"buyer": 2, "price": 16})) == [8, 8, -16]


def test_halves_run_through_totals_balances_and_payments():
    hand = wits_hand(
        auction={"buyer": 0, "price": 13},
        ruff={"winner": 0, "paid": [0, 2, 2]},
        sets=[[], [], []],
        tricks=[4, 4, 4],
        honours={"A": 0, "K": 1, "Q": 2, "J": 2},
    )
    out = settle(make_record("wits1671", [hand])).as_json()
    # tricks: Ann 12+15=27 (+5), Ben 12+3=15 (-7), Cat 12+3+9=24 (+2)
    assert out["hands"][0]["phases"] == {
        "tiddy": [0, 0, 0],
        "auction": [-13, 6.5, 6.5],
        "ruff": [4, -2, -2],
        "sets": [0, 0, 0],
        "tricks": [5, -7, 2],
    }
    assert out["hands"][0]["total"] == [-4, -2.5, 6.5]
    assert out["balances"] == [-4, -2.5, 6.5]
    assert out["payments"] == [{"from": 0, "to": 2, "amount": 4}, {"from": 1, "to": 2, "amount": 2.5}]
    assert json.loads(json.dumps(out)) == out


def test_eldest_opens_at_13_others_pay_14_or_more():
    # dealer 2: eldest is seat 0
    assert lines(wits_hand(auction={"buyer": 0, "price": 13})) == []
    assert lines(wits_hand(auction={"buyer": 1, "price": 14})) == []
    assert lines(wits_hand(auction={"buyer": 2, "price": 15})) == []
    assert lines(wits_hand(auction={"buyer": 1, "price": 13})) == [
        "hand 1: auction: Ben is not eldest, so bought at 14 or more, not 13 (eldest opens at 13)"
    ]


def test_prices_no_bidding_reaches():
    """Wits' bidding: bids of exactly 1 more and a final pass: eldest (13, then 15) never buys at 14,
    middle (14, then 16) never at 15; the dealer may buy at either."""
    assert lines(wits_hand(auction={"buyer": 0, "price": 14})) == [
        "hand 1: auction: Ann is eldest, so after opening at 13 his next bid is 15: eldest never buys at 14"
    ]
    assert lines(wits_hand(auction={"buyer": 1, "price": 15})) == [
        "hand 1: auction: Ben is middle, so after bidding 14 his next bid is 16: middle never buys at 15"
    ]
    for buyer, price in ((0, 15), (0, 16), (1, 16), (1, 17), (2, 14), (2, 15), (2, 16)):
        assert lines(wits_hand(auction={"buyer": buyer, "price": price})) == [], (buyer, price)


@pytest.mark.parametrize(
    "auction, line",
    [
        ({"buyer": 0, "price": 12}, "auction price 12 is below the opening bid of 13"),
        ({"buyer": 0, "price": 13.0}, "auction price must be a whole number, not 13.0"),
        ({"buyer": 0, "price": 13.5}, "auction price must be a whole number, not 13.5"),
        (None, "auction cannot be null: somebody always buys the stock in this rule book"),
    ],
)
def test_auction_problems(auction, line):
    assert lines(wits_hand(auction=auction)) == [f"hand 1: {line}"]


# ================================================================ ruff


def test_ruff_even_amounts_of_at_least_2():
    # the text's example: 6 from the last holder-out and 4 from the one who saw then refused
    assert phase("ruff", wits_hand(ruff={"winner": 0, "paid": [0, 6, 4]})) == [10, -6, -4]
    assert phase("ruff", wits_hand(ruff={"winner": 2, "paid": [2, 2, 0]})) == [-2, -2, 4]


@pytest.mark.parametrize(
    "paid, seat, amount",
    [
        ([0, 3, 2], "Ben", 3),
        ([0, 2, 1], "Cat", 1),
        ([0, 0, 2], "Ben", 0),
        ([0, 2, -2], "Cat", -2),
    ],
)
def test_ruff_odd_or_below_2_refused(paid, seat, amount):
    assert lines(wits_hand(ruff={"winner": 0, "paid": paid})) == [
        f"hand 1: ruff: {seat} paid {amount}, but a ruff loser pays an even amount of at least 2 "
        "(2 for nothing to say, then 4, 6, 8 …)"
    ]


def test_ruff_is_never_null():
    assert lines(wits_hand(ruff=None)) == [
        "hand 1: ruff cannot be null: somebody always wins the ruff in this rule book"
    ]


def test_ruff_stake_does_not_double():
    # Unlike parlett there is no ``ruff: null`` to double after; 2 is always the least.
    hands = [wits_hand(ruff={"winner": 0, "paid": [0, 2, 2]})] * 3
    assert lines(*hands) == []


# ================================================================ sets


def test_sets_as_parlett():
    honours = {"A": 1, "K": 0, "Q": 2, "J": 0}
    assert phase("sets", wits_hand(sets=[["gleek:A"], [], []])) == [8, -4, -4]
    assert phase("sets", wits_hand(honours=honours, sets=[[], ["mournival:A"], []])) == [-8, 16, -8]
    assert phase("sets", wits_hand(honours=honours, sets=[["mournival:K", "gleek:J"], [], ["gleek:Q"]])) == [
        12 + 2 - 2,
        -6 - 1 - 2,
        -6 - 1 + 4,
    ]


def test_no_mournival_of_a_discarded_honour():
    hand = wits_hand(honours={"A": 0, "K": None, "Q": 0, "J": 1}, sets=[["mournival:K"], [], []])
    assert lines(hand) == [
        "hand 1: sets: Ann declares a mournival of Kings, so holds the King of trumps, but honours give it to nobody (discarded)"
    ]
    hand = wits_hand(honours={"A": 0, "K": None, "Q": 0, "J": 1}, sets=[["gleek:K"], [], []])
    assert lines(hand) == []


# ================================================================ tricks


def test_twenty_two_are_your_cards():
    # 5 tricks + Tib, King, Queen held = 36; 4 + Tom = 21; 3 = 9
    assert phase("tricks", wits_hand()) == [14, -1, -13]


def test_turned_up_honour_counts_for_the_dealer():
    hand = wits_hand(
        dealer=1, auction={"buyer": 2, "price": 13}, turned_up="A", tricks=[4, 4, 4], honours={"K": 0, "Q": 0, "J": 2}
    )
    # Ann 12+3+3, Ben (dealer) 12 + Tib 15, Cat 12 + Tom 9
    assert phase("tricks", hand) == [-4, 5, -1]


def test_discarded_tib_counts_for_nobody_par_is_17():
    hand = wits_hand(tricks=[4, 4, 4], honours={"A": None, "K": 0, "Q": 1, "J": 2})
    # T = 66 - 15 = 51, par 17: Ann 15, Ben 15, Cat 21
    assert phase("tricks", hand) == [-2, -2, 4]


def test_discarded_tom_par_is_19():
    hand = wits_hand(tricks=[5, 4, 3], honours={"A": 0, "K": 1, "Q": 2, "J": None})
    # T = 57, par 19: Ann 15+15=30, Ben 12+3=15, Cat 9+3=12
    assert phase("tricks", hand) == [11, -4, -7]


def test_discarded_king_and_queen_par_is_20():
    hand = wits_hand(tricks=[4, 4, 4], honours={"A": 0, "K": None, "Q": None, "J": 1})
    # T = 60, par 20: Ann 27, Ben 21, Cat 12
    assert phase("tricks", hand) == [7, 1, -8]


def test_every_honour_discarded_par_is_12():
    hand = wits_hand(tricks=[6, 3, 3], honours={"A": None, "K": None, "Q": None, "J": None})
    assert phase("tricks", hand) == [6, -3, -3]


def test_discarded_honour_with_the_turned_up_one():
    hand = wits_hand(dealer=2, turned_up="J", tricks=[4, 4, 4], honours={"A": None, "K": 0, "Q": 1})
    # T = 66 - 15 = 51, par 17: Ann 12+3, Ben 12+3, Cat (dealer) 12 + Tom 9
    assert phase("tricks", hand) == [-2, -2, 4]


def test_tib_held_always_wins_its_trick():
    hand = wits_hand(tricks=[0, 6, 6], honours={"A": 0, "K": 0, "Q": 0, "J": 1})
    assert lines(hand) == [
        "hand 1: honours: Ann held Tib (the Ace of trumps) but won no trick; Tib always wins its trick"
    ]
    # a discarded Tib needs no trick
    assert lines(wits_hand(tricks=[0, 6, 6], honours={"A": None, "K": 0, "Q": 0, "J": 1})) == []


@pytest.mark.parametrize(
    "honours, line",
    [
        ({"A": 0, "K": 0, "Q": 0}, "honours: who held Tom (Jack)? (J missing)"),
        ({"A": 0, "K": 0, "Q": 0, "J": 3}, "honours must be a seat (0, 1 or 2, or null), not 3"),
        ({"A": 0, "K": 0, "Q": 0, "J": False}, "honours must be a seat (0, 1 or 2, or null), not false"),
    ],
)
def test_honours_problems(honours, line):
    assert lines(wits_hand(honours=honours)) == [f"hand 1: {line}"]
