"""Rule book ``parlett`` (docs/rules.md and the record's checks), phase by phase, with the
exact amounts of the rule book."""

import pytest
from hypothesis import given, strategies as st

from scorekeeper.rules import BOOKS
from scorekeeper.rules.record import settle
from support.strategies import make_record, parlett_hand, phases_of, problems_of


def phase(name, hand, before=()):
    return phases_of("parlett", hand, before=before)[name]


def lines(*hands):
    return problems_of(make_record("parlett", list(hands)))


# ================================================================ tiddy


def test_tiddy_turned_up_pays_the_dealer_4_from_each():
    for dealer, expected in ((0, [8, -4, -4]), (1, [-4, 8, -4]), (2, [-4, -4, 8])):
        assert (
            phase(
                "tiddy",
                parlett_hand(
                    dealer=dealer, turned_up="4", tiddy=None, auction={"buyer": (dealer + 1) % 3, "price": 12}
                ),
            )
            == expected
        )


def test_tiddy_held_in_the_play_gets_2_from_each():
    assert phase("tiddy", parlett_hand(tiddy=1)) == [-2, 4, -2]
    assert phase("tiddy", parlett_hand(tiddy=2)) == [-2, -2, 4]


def test_tiddy_discarded_pays_nobody():
    assert phase("tiddy", parlett_hand(tiddy=None)) == [0, 0, 0]


def test_tiddy_must_be_null_when_the_four_is_turned_up():
    assert lines(parlett_hand(turned_up="4", tiddy=0)) == [
        "hand 1: tiddy must be null when the Four is turned up (the dealer is paid for it)"
    ]


@pytest.mark.parametrize("tiddy, shown", [(3, "3"), (True, "true"), (0.0, "0.0"), ("0", '"0"')])
def test_tiddy_is_a_seat_or_null(tiddy, shown):
    assert lines(parlett_hand(tiddy=tiddy)) == [f"hand 1: tiddy must be a seat (0, 1 or 2, or null), not {shown}"]


def test_wrong_turned_up_skips_the_tiddy_check():
    assert lines(parlett_hand(turned_up="3", tiddy=0)) == [
        'hand 1: turned_up must be a rank (A K Q J 10 9 8 7 6 5 4), not "3"'
    ]


# ================================================================ auction


def test_buyer_pays_half_the_price_to_each():
    assert phase("auction", parlett_hand(auction={"buyer": 0, "price": 12})) == [-12, 6, 6]
    assert phase("auction", parlett_hand(auction={"buyer": 1, "price": 14})) == [7, -14, 7]
    assert phase("auction", parlett_hand(auction={"buyer": 2, "price": 22})) == [11, 11, -22]


def test_eldest_opens_at_12_others_pay_14_or_more():
    # dealer 2: eldest is seat 0
    assert lines(parlett_hand(auction={"buyer": 0, "price": 12})) == []
    assert lines(parlett_hand(auction={"buyer": 1, "price": 14})) == []
    assert lines(parlett_hand(auction={"buyer": 2, "price": 14})) == []
    assert lines(parlett_hand(auction={"buyer": 1, "price": 12})) == [
        "hand 1: auction: Ben is not eldest, so bought at 14 or more, not 12 (eldest opens at 12)"
    ]
    assert lines(parlett_hand(dealer=0, auction={"buyer": 0, "price": 12})) == [
        "hand 1: auction: Ann is not eldest, so bought at 14 or more, not 12 (eldest opens at 12)"
    ]


def test_prices_no_bidding_reaches():
    """Parlett's bidding: every bid is exactly 2 more and a pass is final, so eldest (12, then 16)
    never buys at 14 and middle (14, then 18) never at 16; the dealer may buy at either."""
    # dealer 2: eldest Ann (0), middle Ben (1), dealer Cat (2)
    assert lines(parlett_hand(auction={"buyer": 0, "price": 14})) == [
        "hand 1: auction: Ann is eldest, so after opening at 12 his next bid is 16: eldest never buys at 14"
    ]
    assert lines(parlett_hand(auction={"buyer": 1, "price": 16})) == [
        "hand 1: auction: Ben is middle, so after bidding 14 his next bid is 18: middle never buys at 16"
    ]
    assert lines(parlett_hand(dealer=0, auction={"buyer": 2, "price": 16})) == [
        "hand 1: auction: Cat is middle, so after bidding 14 his next bid is 18: middle never buys at 16"
    ]
    for buyer, price in ((0, 16), (0, 18), (1, 18), (1, 20), (2, 14), (2, 16), (2, 18)):
        assert lines(parlett_hand(auction={"buyer": buyer, "price": price})) == [], (buyer, price)


@pytest.mark.parametrize(
    "auction, line",
    [
        ({"buyer": 0, "price": 13}, "auction price 13 is odd: bids go up by 2 from 12"),
        ({"buyer": 1, "price": 15}, "auction price 15 is odd: bids go up by 2 from 12"),
        ({"buyer": 0, "price": 10}, "auction price 10 is below the opening bid of 12"),
        ({"buyer": 0, "price": -12}, "auction price -12 is below the opening bid of 12"),
        ({"buyer": 0, "price": 12.0}, "auction price must be a whole number, not 12.0"),
        ({"buyer": 0, "price": "12"}, 'auction price must be a whole number, not "12"'),
        ({"buyer": 0, "price": True}, "auction price must be a whole number, not true"),
        ({"buyer": 3, "price": 12}, "auction must be a seat (0, 1 or 2), not 3"),
        ({"buyer": True, "price": 12}, "auction must be a seat (0, 1 or 2), not true"),
        ({"buyer": 0}, 'auction must be {"buyer": seat, "price": n}, not {"buyer": 0}'),
        (
            {"buyer": 0, "price": 12, "calls": []},
            'auction must be {"buyer": seat, "price": n}, not {"buyer": 0, "price": 12, "calls": []}',
        ),
        ([0, 12], 'auction must be {"buyer": seat, "price": n}, not [0, 12]'),
        (None, "auction cannot be null: somebody always buys the stock in this rule book"),
    ],
)
def test_auction_problems(auction, line):
    assert lines(parlett_hand(auction=auction)) == [f"hand 1: {line}"]


# ================================================================ ruff


def test_ruff_winner_takes_each_losers_payment():
    assert phase("ruff", parlett_hand(ruff={"winner": 1, "paid": [4, 0, 2]})) == [-4, 6, -2]
    assert phase("ruff", parlett_hand(ruff={"winner": 0, "paid": [0, 2, 2]})) == [4, -2, -2]


def test_no_contest_pays_nothing():
    assert phase("ruff", parlett_hand(ruff=None)) == [0, 0, 0]


def ruff(paid, winner):
    return {"winner": winner, "paid": paid}


QUIET = parlett_hand(ruff=None)
CONTEST = parlett_hand(ruff=ruff([0, 16, 16], 0))  # 16 = S + 2k for S of 2, 4, 8 or 16


@pytest.mark.parametrize(
    "before, stake",
    [
        ((), 2),
        ((CONTEST,), 2),
        ((QUIET,), 4),
        ((QUIET, QUIET), 8),
        ((QUIET, QUIET, QUIET), 16),
        ((QUIET, CONTEST), 2),  # a contest resets S to 2
        ((QUIET, QUIET, CONTEST, QUIET), 4),
        ((CONTEST, QUIET, QUIET), 8),
    ],
)
def test_opening_stake_doubles_after_each_no_contest(before, stake):
    def check(paid):
        return problems_of(make_record("parlett", [*before, parlett_hand(ruff=ruff(paid, 1))]))

    n = len(before) + 1
    # S + 2k is accepted ...
    for k in (0, 1, 2, 5):
        assert check([stake + 2 * k, 0, stake]) == []
    # ... less than S is refused ...
    for low in sorted({0, 1, stake - 2, stake - 1} - {stake}):
        if low < 0:
            continue
        assert check([low, 0, stake]) == [f"hand {n}: ruff: Ann paid {low}, but the opening stake this hand is {stake}"]
    # ... and so is S plus an odd amount.
    for odd in (1, 3):
        assert check([stake, 0, stake + odd]) == [
            f"hand {n}: ruff: Cat paid {stake + odd}, but stakes go {stake}, {stake + 2}, {stake + 4} … (raises of 2)"
        ]


def test_two_quiet_hands_then_8_then_back_to_2():
    hands = [QUIET, QUIET, parlett_hand(ruff=ruff([0, 8, 10], 0)), parlett_hand(ruff=ruff([2, 0, 4], 1))]
    record = make_record("parlett", hands)
    assert problems_of(record) == []
    result = settle(record)
    assert [h.phases["ruff"] for h in result.hands] == [[0, 0, 0], [0, 0, 0], [18, -8, -10], [-2, 6, -4]]


def test_an_invalid_quiet_hand_still_doubles_the_stake():
    # The stake depends only on explicit ``ruff: null`` before, so hand 1's own
    # problem does not change hand 2's checks: 4 is right, 2 is refused.
    bad_quiet = parlett_hand(ruff=None, tricks=[5, 4, 2])
    assert lines(bad_quiet, parlett_hand(ruff=ruff([0, 4, 6], 0))) == ["hand 1: tricks add up to 11, not 12"]
    assert lines(bad_quiet, parlett_hand(ruff=ruff([0, 2, 4], 0))) == [
        "hand 1: tricks add up to 11, not 12",
        "hand 2: ruff: Ben paid 2, but the opening stake this hand is 4",
    ]


def test_a_hand_that_is_not_an_object_or_has_no_ruff_resets_the_stake():
    no_ruff = parlett_hand()
    del no_ruff["ruff"]
    assert lines(QUIET, no_ruff, parlett_hand(ruff=ruff([0, 2, 2], 0))) == ["hand 2: ruff is missing"]
    assert lines(QUIET, "redeal", parlett_hand(ruff=ruff([0, 2, 2], 0))) == [
        'hand 2: is not a hand (an object with dealer, trump, …), but "redeal"'
    ]


@pytest.mark.parametrize(
    "value, line",
    [
        (ruff([1, 0, 2], 0), "ruff: the winner Ann pays nothing, so their paid entry must be 0, not 1"),
        (ruff([0, 2], 0), "ruff paid must be three whole numbers, one per seat, not [0, 2]"),
        (ruff([0, 2.0, 2], 0), "ruff paid must be three whole numbers, one per seat, not [0, 2.0, 2]"),
        (ruff([0, -2, 2], 0), "ruff: Ben paid -2, but the opening stake this hand is 2"),
        (ruff([0, 2, 2], 3), "ruff must be a seat (0, 1 or 2), not 3"),
        (ruff([0, 2, 2], False), "ruff must be a seat (0, 1 or 2), not false"),
        ({"winner": 0}, 'ruff must be {"winner": seat, "paid": [a, b, c]}, not {"winner": 0}'),
        ("Ann", 'ruff must be {"winner": seat, "paid": [a, b, c]}, not "Ann"'),
    ],
)
def test_ruff_problems(value, line):
    assert lines(parlett_hand(ruff=value)) == [f"hand 1: {line}"]


# ================================================================ sets


def test_gleeks_pay_from_each_opponent():
    assert phase("sets", parlett_hand(sets=[["gleek:A"], [], []])) == [8, -4, -4]
    assert phase("sets", parlett_hand(sets=[[], ["gleek:K"], []])) == [-3, 6, -3]
    assert phase("sets", parlett_hand(sets=[[], [], ["gleek:Q"]])) == [-2, -2, 4]
    assert phase("sets", parlett_hand(sets=[["gleek:J"], [], []])) == [2, -1, -1]


def test_mournivals_double():
    honours = {"A": 0, "K": 1, "Q": 2, "J": 0}
    assert phase("sets", parlett_hand(honours=honours, sets=[["mournival:A"], [], []])) == [16, -8, -8]
    assert phase("sets", parlett_hand(honours=honours, sets=[[], ["mournival:K"], []])) == [-6, 12, -6]
    assert phase("sets", parlett_hand(honours=honours, sets=[[], [], ["mournival:Q"]])) == [-4, -4, 8]
    assert phase("sets", parlett_hand(honours=honours, sets=[["mournival:J"], [], []])) == [4, -2, -2]


def test_every_player_scores_every_set():
    honours = {"A": 0, "K": 1, "Q": 2, "J": 0}
    sets = [["mournival:A", "gleek:J"], ["gleek:K"], ["gleek:Q"]]
    # Ann +16+2, Ben +6, Cat +4, each paying the others' sets
    assert phase("sets", parlett_hand(honours=honours, sets=sets)) == [18 - 3 - 2, 6 - 8 - 1 - 2, 4 - 8 - 1 - 3]


def test_a_mournival_holds_the_trump_honour():
    hand = parlett_hand(honours={"A": 0, "K": 0, "Q": 0, "J": 1}, sets=[[], ["mournival:K"], []])
    assert lines(hand) == [
        "hand 1: sets: Ben declares a mournival of Kings, so holds the King of trumps, but honours give it to Ann"
    ]


def test_no_mournival_of_the_turned_up_rank():
    hand = parlett_hand(turned_up="K", honours={"A": 0, "Q": 0, "J": 1}, sets=[[], ["mournival:K"], []])
    assert lines(hand) == ["hand 1: sets declare 4 Kings, but only 3 are in play"]
    hand = parlett_hand(turned_up="K", honours={"A": 0, "Q": 0, "J": 1}, sets=[[], ["gleek:K"], []])
    assert lines(hand) == []
    hand = parlett_hand(turned_up="10", sets=[[], ["gleek:A"], []])
    assert lines(hand) == []


def test_wrong_honours_skip_the_mournival_check():
    hand = parlett_hand(honours={"A": 0, "K": 3, "Q": 0, "J": 1}, sets=[[], ["mournival:K"], []])
    assert lines(hand) == ["hand 1: honours must be a seat (0, 1 or 2), not 3"]


def test_wrong_sets_skip_the_mournival_check():
    hand = parlett_hand(honours={"A": 0, "K": 0, "Q": 0, "J": 1}, sets=[[], ["mournival:K", "gleek:K"], []])
    assert lines(hand) == ["hand 1: sets: Ben declares two sets of Kings"]


# ================================================================ tricks


def test_tricks_seed_worked_example():
    # docs/record.md: Ann 5 tricks + Tib, King, Queen = 36; Ben 4 + Tom = 21; Cat 3 = 9
    assert phase("tricks", parlett_hand()) == [14, -1, -13]


def test_honours_count_for_who_played_them():
    hand = parlett_hand(tricks=[4, 4, 4], honours={"A": 2, "K": 1, "Q": 1, "J": 0})
    # Ann 12 + 9 = 21, Ben 12 + 6 = 18, Cat 12 + 15 = 27
    assert phase("tricks", hand) == [-1, -4, 5]


def test_turned_up_honour_is_credited_to_the_dealer():
    hand = parlett_hand(
        dealer=1, auction={"buyer": 2, "price": 12}, turned_up="J", tricks=[4, 4, 4], honours={"A": 0, "K": 2, "Q": 2}
    )
    # Ann 12 + 15, Ben (dealer) 12 + Tom 9, Cat 12 + 3 + 3
    assert phase("tricks", hand) == [5, -1, -4]


def test_turned_up_tib_counts_for_a_dealer_who_won_no_trick():
    hand = parlett_hand(dealer=2, turned_up="A", tricks=[6, 6, 0], honours={"K": 0, "Q": 1, "J": 1})
    assert lines(hand) == []
    # Ann 18 + 3, Ben 18 + 3 + 9, Cat 0 + Tib 15
    assert phase("tricks", hand) == [-1, 8, -7]


def test_all_honours_and_all_tricks_to_one_player():
    hand = parlett_hand(tricks=[12, 0, 0], honours={"A": 0, "K": 0, "Q": 0, "J": 0})
    assert phase("tricks", hand) == [44, -22, -22]


@pytest.mark.parametrize(
    "honours, line",
    [
        ({"A": 0, "K": 0, "Q": 0}, "honours: who played Tom (Jack)? (J missing)"),
        ({"A": 0, "Q": 0}, "honours: who played King and Tom (Jack)? (K, J missing)"),
        ({"A": 0, "K": 0, "Q": 0, "J": 1, "10": 2}, 'honours: "10" is not an honour'),
        ({"A": 0, "K": 0, "Q": 0, "J": 1, "9": 2}, "honours: 9 is turned up (it counts for the dealer)"),
        ({"A": 0, "K": 0, "Q": 0, "J": None}, "honours must be a seat (0, 1 or 2), not null"),
        ({"A": 0, "K": 0, "Q": 0, "J": True}, "honours must be a seat (0, 1 or 2), not true"),
        ({"A": 0, "K": 0, "Q": 0, "J": 1.0}, "honours must be a seat (0, 1 or 2), not 1.0"),
        ([0, 0, 0, 1], "honours must be an object giving a seat for each of A K Q J not turned up, not [0, 0, 0, 1]"),
    ],
)
def test_honours_problems(honours, line):
    assert lines(parlett_hand(honours=honours)) == [f"hand 1: {line}"]


def test_the_turned_up_honour_is_not_in_honours():
    hand = parlett_hand(turned_up="K", honours={"A": 0, "K": 0, "Q": 0, "J": 1})
    assert lines(hand) == ["hand 1: honours: K is turned up (it counts for the dealer)"]


def test_tib_always_wins_its_trick():
    hand = parlett_hand(tricks=[6, 6, 0], honours={"A": 2, "K": 0, "Q": 0, "J": 1})
    assert lines(hand) == [
        "hand 1: honours: Cat played Tib (the Ace of trumps) but won no trick; Tib always wins its trick"
    ]


def test_wrong_tricks_skip_the_tib_check():
    hand = parlett_hand(tricks=[6, 6, 0, 0], honours={"A": 2, "K": 0, "Q": 0, "J": 1})
    assert lines(hand) == ["hand 1: tricks must be three whole numbers, one per seat, not [6, 6, 0, 0]"]


def test_wrong_turned_up_skips_the_honours_keys_and_in_play_checks():
    hand = parlett_hand(turned_up=11, honours={"A": 0, "Q": 0}, sets=[["gleek:K"], [], []])
    assert lines(hand) == ["hand 1: turned_up must be a rank (A K Q J 10 9 8 7 6 5 4), not 11"]
    # had K been turned up: only 3 Kings in play, and honours must not name it
    hand = parlett_hand(turned_up="K", honours={"A": 0, "K": 0, "Q": 0, "J": 1}, sets=[["mournival:K"], [], []])
    assert lines(hand) == [
        "hand 1: honours: K is turned up (it counts for the dealer)",
        "hand 1: sets declare 4 Kings, but only 3 are in play",
    ]
    hand["turned_up"] = "k"
    assert lines(hand) == ['hand 1: turned_up must be a rank (A K Q J 10 9 8 7 6 5 4), not "k"']


# ================================================================ a whole hand


def test_hand_total_is_the_sum_of_its_phases():
    hand = parlett_hand(
        dealer=0,
        turned_up="4",
        tiddy=None,
        auction={"buyer": 2, "price": 18},
        ruff=None,
        sets=[["gleek:A"], ["mournival:Q"], []],
        tricks=[4, 3, 5],
        honours={"A": 2, "K": 1, "Q": 1, "J": 0},
    )
    result = settle(make_record("parlett", [hand])).hands[0]
    assert result.phases == {
        "tiddy": [8, -4, -4],
        "auction": [9, 9, -18],
        "ruff": [0, 0, 0],
        "sets": [4, 4, -8],
        "tricks": [-1, -7, 8],
    }
    assert result.total == [20, 2, -22]


# The opening stake counted from the end (what the hand form asks on every tap)
# is the stake counted forward hand by hand, as the record's check counts it.
BEFORE = st.lists(st.sampled_from([QUIET, CONTEST, "redeal", None, {}, {"ruff": None}, {"ruff": 0}]), max_size=40)


@given(BEFORE)
def test_the_opening_stake_from_the_end_is_the_stake_counted_forward(before):
    book = BOOKS["parlett"]
    forward = book.first_ruff_opening
    for hand in before:
        forward = book.ruff_opening_after(forward, hand)
    assert book.ruff_opening(before) == forward
