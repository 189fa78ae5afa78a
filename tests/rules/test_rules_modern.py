"""Rule book ``modern`` (docs/rules.md and the record's checks), phase by phase, with the
exact amounts of the rule book."""

from fractions import Fraction

import pytest

from scorekeeper.rules.record import settle
from support.strategies import make_record, modern_hand, phases_of, problems_of

F = Fraction
SIMPLE = {"simplified": True}


def phase(name, hand, options=None):
    return phases_of("modern", hand, options)[name]


def lines(*hands, options=None):
    return problems_of(make_record("modern", list(hands), options))


def kiss(**changes):
    return modern_hand(**{"trump": "none", "tiddy": None, "tib": None, "tom": None, **changes})


# ================================================================ tiddy


def test_tiddy_dealt_gets_2_from_each():
    assert phase("tiddy", modern_hand(tiddy=2)) == [-2, -2, 4]
    assert phase("tiddy", modern_hand(tiddy=0)) == [4, -2, -2]


def test_tiddy_in_the_stock_pays_nobody():
    assert phase("tiddy", modern_hand(tiddy=None)) == [0, 0, 0]


def test_no_tiddy_under_kiss():
    assert phase("tiddy", kiss()) == [0, 0, 0]
    assert lines(kiss(tiddy=1)) == ["hand 1: tiddy must be null under Kiss (no trumps)"]


def test_wrong_trump_skips_the_kiss_checks():
    assert lines(modern_hand(trump="kiss", tiddy=1)) == [
        'hand 1: trump must be one of clubs, diamonds, hearts, spades, none, not "kiss"'
    ]


# ================================================================ auction


def test_buyer_pays_half_the_price_to_each():
    assert phase("auction", modern_hand(auction={"buyer": 0, "price": 13})) == [-13, F(13, 2), F(13, 2)]
    assert phase("auction", modern_hand(auction={"buyer": 1, "price": 14})) == [7, -14, 7]
    assert phase("auction", modern_hand(auction={"buyer": 2, "price": 21})) == [F(21, 2), F(21, 2), -21]


def test_anybody_may_buy_at_13():
    for buyer in (0, 1, 2):
        assert lines(modern_hand(auction={"buyer": buyer, "price": 13})) == []


def test_bids_of_at_least_1_more_reach_every_price():
    # no "prices no bidding reaches" here: a bid may be any amount above the last
    for buyer in (0, 1, 2):
        for price in (14, 15, 16):
            assert lines(modern_hand(auction={"buyer": buyer, "price": price})) == []


def test_no_buyer():
    hand = modern_hand(auction=None)
    assert lines(hand) == []
    assert phase("auction", hand) == [0, 0, 0]


@pytest.mark.parametrize(
    "auction, line",
    [
        ({"buyer": 0, "price": 12}, "auction price 12 is below the opening bid of 13"),
        ({"buyer": 0, "price": 0}, "auction price 0 is below the opening bid of 13"),
        ({"buyer": 0, "price": 13.0}, "auction price must be a whole number, not 13.0"),
        ({"buyer": -1, "price": 13}, "auction must be a seat (0, 1 or 2), not -1"),
        ({}, 'auction must be {"buyer": seat, "price": n} or null, not {}'),
        (13, 'auction must be {"buyer": seat, "price": n} or null, not 13'),
    ],
)
def test_auction_problems(auction, line):
    assert lines(modern_hand(auction=auction)) == [f"hand 1: {line}"]


# ================================================================ simplified


def test_simplified_has_no_auction_and_no_ruff():
    hand = modern_hand(auction=None, ruff=None)
    assert lines(hand, options=SIMPLE) == []
    assert phase("auction", hand, SIMPLE) == [0, 0, 0]
    assert phase("ruff", hand, SIMPLE) == [0, 0, 0]
    assert lines(modern_hand(ruff=None), options=SIMPLE) == [
        "hand 1: auction must be null: simplified Gleek has no auction"
    ]
    assert lines(modern_hand(auction=None), options=SIMPLE) == [
        "hand 1: ruff must be null: simplified Gleek has no ruff"
    ]


def test_ruff_is_null_only_when_simplified():
    for options in (None, {}, {"simplified": False}):
        assert lines(modern_hand(ruff=None), options=options) == [
            "hand 1: ruff cannot be null: somebody always wins the ruff in this rule book"
        ]


# ================================================================ ruff


def test_ruff_losers_pay_the_ante_and_what_they_put_in():
    assert phase("ruff", modern_hand(ruff={"winner": 0, "paid": [0, 2, 7]})) == [9, -2, -7]
    assert phase("ruff", modern_hand(ruff={"winner": 2, "paid": [2, 2, 0]})) == [-2, -2, 4]
    assert lines(modern_hand(ruff={"winner": 0, "paid": [0, 3, 5]})) == []


@pytest.mark.parametrize("paid, seat, amount", [([0, 1, 2], "Ben", 1), ([0, 2, 0], "Cat", 0), ([0, -4, 2], "Ben", -4)])
def test_ruff_loser_pays_at_least_2(paid, seat, amount):
    assert lines(modern_hand(ruff={"winner": 0, "paid": paid})) == [
        f"hand 1: ruff: {seat} paid {amount}, but every ruff loser pays at least the ante of 2"
    ]


# ================================================================ sets

GLEEK = {"A": 8, "K": 4, "Q": 4, "J": 4, "10": 10, "9": 9, "8": 8, "7": 7, "6": 6, "5": 5, "4": 4}


@pytest.mark.parametrize("rank, value", GLEEK.items())
def test_gleek_and_mournival_of_every_rank(rank, value):
    # Ann holds Tib (tib 0), so she may declare a mournival of Aces too.
    assert phase("sets", modern_hand(sets=[["gleek:" + rank], [], []])) == [2 * value, -value, -value]
    assert phase("sets", modern_hand(sets=[[], [], ["gleek:" + rank]])) == [-value, -value, 2 * value]
    assert phase("sets", modern_hand(sets=[["mournival:" + rank], [], []])) == [4 * value, -2 * value, -2 * value]


def test_numeral_sets_add_up():
    sets = [["gleek:10", "mournival:4"], ["gleek:9"], ["gleek:K", "gleek:5"]]
    # Ann +10 +8 each, Ben +9 each, Cat +4 +5 each
    assert phase("sets", modern_hand(sets=sets)) == [36 - 9 - 9, 18 - 18 - 9, 18 - 18 - 9]


def test_the_buyer_may_hold_13_cards():
    thirteen = ["mournival:10", "gleek:9", "gleek:8", "gleek:7"]
    assert lines(modern_hand(auction={"buyer": 0, "price": 13}, sets=[thirteen, [], []])) == []
    assert lines(modern_hand(auction={"buyer": 0, "price": 13}, sets=[[], thirteen, []])) == [
        "hand 1: sets: Ben declares sets of 13 cards but holds only 12"
    ]
    assert lines(modern_hand(auction=None, sets=[thirteen, [], []])) == [
        "hand 1: sets: Ann declares sets of 13 cards but holds only 12"
    ]
    fourteen = ["mournival:10", "mournival:9", "gleek:8", "gleek:7"]
    assert lines(modern_hand(auction={"buyer": 0, "price": 13}, sets=[fourteen, [], []])) == [
        "hand 1: sets: Ann declares sets of 14 cards but holds only 13"
    ]


def test_wrong_auction_skips_the_twelve_card_check():
    thirteen = ["mournival:10", "gleek:9", "gleek:8", "gleek:7"]
    assert lines(modern_hand(auction={"buyer": 0, "price": 12}, sets=[[], thirteen, []])) == [
        "hand 1: auction price 12 is below the opening bid of 13"
    ]


# ================================================================ tricks


def test_trick_scores_settled_player_to_player():
    # scores: Ann 80 + Tib 15 = 95, Ben 70 + Tom 9 = 79, Cat 60 + last trick 4 = 64; sum 238
    assert phase("tricks", modern_hand()) == [3 * 95 - 238, 3 * 79 - 238, 3 * 64 - 238]
    assert phase("tricks", modern_hand()) == [47, -1, -46]


def test_tib_and_tom_never_played():
    hand = modern_hand(tib=None, tom=None, last_trick=0)
    # Ann 84, Ben 70, Cat 60: sum 214
    assert phase("tricks", hand) == [38, -4, -34]


def test_kiss_has_no_tib_or_tom():
    hand = kiss()
    assert lines(hand) == []
    # Ann 80, Ben 70, Cat 64: sum 214
    assert phase("tricks", hand) == [26, -4, -22]
    assert lines(kiss(tib=0)) == ["hand 1: tib must be null under Kiss: there are no trumps, so no Tib"]
    assert lines(kiss(tom=1)) == ["hand 1: tom must be null under Kiss: there are no trumps, so no Tom"]


def test_one_player_captures_everything():
    hand = modern_hand(tricks=[12, 0, 0], card_points=[252, 0, 0], tib=0, tom=0, last_trick=0)
    assert lines(hand) == []
    # Ann 252 + 15 + 9 + 4 = 280 from each opponent
    assert phase("tricks", hand) == [560, -280, -280]


@pytest.mark.parametrize("points", [[80, 60, 52], [120, 80, 52], [45, 132, 60], [165, 36, 27]])
def test_card_points_at_the_bounds(points):
    assert lines(modern_hand(card_points=points)) == []


@pytest.mark.parametrize(
    "points, problems",
    [
        ([70, 61, 60], ["card_points add up to 191, less than 192 (the captured cards are worth 192 to 252)"]),
        ([100, 90, 63], ["card_points add up to 253, more than 252 (the captured cards are worth 192 to 252)"]),
        (
            [40, 60, 100],
            [
                "card_points: Ann has 40 card points from 5 tricks, less than 9 a trick (45)",
                "card_points: Cat has 100 card points from 3 tricks, more than 33 a trick (99)",
            ],
        ),
        ([166, 36, 27], ["card_points: Ann has 166 card points from 5 tricks, more than 33 a trick (165)"]),
        ([80.0, 70, 60], ["card_points must be three whole numbers, one per seat, not [80.0, 70, 60]"]),
        ([80, 70], ["card_points must be three whole numbers, one per seat, not [80, 70]"]),
        ([-80, 70, 60], ["card_points cannot be negative ([-80, 70, 60])"]),
    ],
)
def test_card_points_problems(points, problems):
    assert lines(modern_hand(card_points=points)) == [f"hand 1: {p}" for p in problems]


def test_no_card_points_without_a_trick():
    hand = modern_hand(tricks=[6, 6, 0], card_points=[110, 100, 10], tib=0, tom=1, last_trick=0)
    assert lines(hand) == ["hand 1: card_points: Cat has 10 card points but won no trick"]


def test_wrong_tricks_skip_the_per_trick_checks():
    # With good tricks, Cat's 10 points and captures would each be a problem (no trick won).
    good = modern_hand(tricks=[6, 6, 0], card_points=[110, 100, 10], tib=2, tom=2, last_trick=2)
    assert len(lines(good)) == 4
    hand = modern_hand(tricks=[7, 6, 0], card_points=[110, 100, 10], tib=2, tom=2, last_trick=2)
    assert lines(hand) == ["hand 1: tricks add up to 13, not 12"]


@pytest.mark.parametrize(
    "changes, line",
    [
        ({"tib": 2}, "tib: Cat captured Tib (the Ace of trumps) but won no trick"),
        ({"tom": 2}, "tom: Cat captured Tom (the Jack of trumps) but won no trick"),
        ({"last_trick": 2}, "last_trick: Cat captured the last trick but won no trick"),
        ({"last_trick": None}, "last_trick must be a seat (0, 1 or 2), not null"),
        ({"tib": 3}, "tib must be a seat (0, 1 or 2, or null), not 3"),
        ({"tom": True}, "tom must be a seat (0, 1 or 2, or null), not true"),
    ],
)
def test_tib_tom_last_trick_problems(changes, line):
    base = {"tricks": [6, 6, 0], "card_points": [110, 110, 0], "tib": 0, "tom": 1, "last_trick": 1}
    assert lines(modern_hand(**{**base, **changes})) == [f"hand 1: {line}"]


# ================================================================ mournival of Aces and Tib


def test_mournival_of_aces_captures_tib():
    assert lines(modern_hand(tib=0, sets=[["mournival:A"], [], []])) == []
    assert lines(modern_hand(tib=1, sets=[["mournival:A"], [], []])) == [
        "hand 1: tib: Ann declares a mournival of Aces, so holds Tib and captures it, but tib is Ben"
    ]


def test_only_the_buyer_may_leave_tib_unplayed():
    # buyer is Ann (seat 0)
    assert lines(modern_hand(tib=None, sets=[["mournival:A"], [], []])) == []
    assert lines(modern_hand(tib=None, sets=[[], ["mournival:A"], []])) == [
        "hand 1: tib: Ben declares a mournival of Aces, so holds Tib and captures it, but tib is null"
    ]
    assert lines(modern_hand(auction=None, tib=None, sets=[["mournival:A"], [], []])) == [
        "hand 1: tib: Ann declares a mournival of Aces, so holds Tib and captures it, but tib is null"
    ]


def test_mournival_of_aces_under_kiss_needs_no_tib():
    hand = kiss(sets=[[], ["mournival:A"], []])
    assert lines(hand) == []
    assert phase("sets", hand) == [-16, 32, -16]


def test_wrong_tib_or_auction_skips_the_mournival_of_aces_check():
    hand = modern_hand(tricks=[6, 6, 0], card_points=[110, 110, 0], tib=2, last_trick=1, sets=[[], ["mournival:A"], []])
    assert lines(hand) == ["hand 1: tib: Cat captured Tib (the Ace of trumps) but won no trick"]
    hand = modern_hand(auction={"buyer": 1, "price": 12}, tib=None, sets=[[], ["mournival:A"], []])
    assert lines(hand) == ["hand 1: auction price 12 is below the opening bid of 13"]


# ================================================================ the shared example


def test_evening_example_balances():
    from support.data import load_example

    record = load_example("modern-evening.json")
    expected = load_example("modern-evening.expected.json")
    assert settle(record).as_json() == expected
