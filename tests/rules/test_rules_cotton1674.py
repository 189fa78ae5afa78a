"""Rule book ``cotton1674`` (docs/rules.md, Cotton's book: *Compleat Gamester*, 1674),
phase by phase with exact amounts and the problems worded for the table, then its
properties over random records (``support.strategies``; what the rules say is
stated again in ``support.books``, not taken from the engine)."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import BOOKS
from scorekeeper.rules.calls import replay_ruff
from scorekeeper.rules.hand import sheet_words
from scorekeeper.rules.record import settle, validate
from support.books import MODELS, eldest
from support.data import load_example
from support.profiles import examples
from support.strategies import cotton_hand, make_record, phases_of, problems_of, records

F = Fraction
BOOK = "cotton1674"
OFF = {"tiddy": False, "towser": False}
NAMES = ("Ann", "Ben", "Cat")
PER_BOOK = settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def phase(name, hand, options=None, before=()):
    return phases_of(BOOK, hand, options, before)[name]


def lines(*hands, options=None):
    return problems_of(make_record(BOOK, list(hands), options))


# ================================================================ tiddy


def test_tiddy_turned_up_pays_the_dealer_4_from_each():
    assert phase("tiddy", cotton_hand(turned_up="4", tiddy=None)) == [-4, -4, 8]


def test_tiddy_held_after_the_exchange_gets_2_from_each():
    assert phase("tiddy", cotton_hand(tiddy=0)) == [4, -2, -2]
    assert phase("tiddy", cotton_hand(tiddy=None)) == [0, 0, 0]


def test_tiddy_off_pays_nothing_and_refuses_a_holder():
    assert phase("tiddy", cotton_hand(turned_up="4", tiddy=None), {"tiddy": False}) == [0, 0, 0]
    assert lines(cotton_hand(tiddy=1), options={"tiddy": False}) == [
        "hand 1: tiddy must be null when the table plays without Tiddy"
    ]
    assert lines(cotton_hand(turned_up="4", tiddy=2)) == [
        "hand 1: tiddy must be null when the Four is turned up (the dealer is paid for it)"
    ]


# ================================================================ towser and tumbler


def test_towser_held_is_2_and_a_half_and_tumbler_3_from_each():
    assert phase("towser", cotton_hand(towser=1)) == [F(-5, 2), 5, F(-5, 2)]
    assert phase("towser", cotton_hand(tumbler=0)) == [6, -3, -3]
    assert phase("towser", cotton_hand(towser=0, tumbler=0)) == [11, F(-11, 2), F(-11, 2)]


def test_towser_and_tumbler_turned_up_pay_the_dealer_5_and_6_from_each():
    assert phase("towser", cotton_hand(turned_up="5")) == [-5, -5, 10]
    assert phase("towser", cotton_hand(turned_up="6", towser=2)) == [F(-17, 2), F(-17, 2), 17]  # 6 + 2½ each


def test_nobody_pays_for_a_discarded_five_or_six():
    assert phase("towser", cotton_hand()) == [0, 0, 0]


def test_towser_and_tumbler_must_be_nobodys_when_turned_up_or_off():
    assert lines(cotton_hand(turned_up="5", towser=1)) == [
        "hand 1: towser must be null when the Five is turned up (the dealer is paid for it)"
    ]
    assert lines(cotton_hand(turned_up="6", tumbler=0)) == [
        "hand 1: tumbler must be null when the Six is turned up (the dealer is paid for it)"
    ]
    assert lines(cotton_hand(towser=1, tumbler=2), options={"towser": False}) == [
        "hand 1: towser must be null when the table plays without Towser and Tumbler",
        "hand 1: tumbler must be null when the table plays without Towser and Tumbler",
    ]


def test_towser_off_pays_nothing_even_turned_up():
    assert phase("towser", cotton_hand(turned_up="5"), {"towser": False}) == [0, 0, 0]
    assert phase("tiddy", cotton_hand(turned_up="4", tiddy=None), {"towser": False}) == [-4, -4, 8]


def test_towser_and_tumbler_are_required_seats():
    hand = cotton_hand()
    del hand["tumbler"]
    assert lines(hand, cotton_hand(towser=3)) == [
        "hand 1: tumbler is missing",
        "hand 2: towser must be a seat (0, 1 or 2, or null), not 3",
    ]


def test_another_books_hand_knows_neither_towser_nor_forfeits():
    wits = make_record(
        "wits1671",
        [
            dict(
                cotton_hand(),
                ruff={"winner": 1, "paid": [2, 0, 2]},
                auction={"buyer": 0, "price": 13},
                forfeits=[[], [], []],
            )
        ],
    )
    assert problems_of(wits) == [
        "hand 1: towser is not part of a wits1671 hand",
        "hand 1: tumbler is not part of a wits1671 hand",
        "hand 1: forfeits is not part of a wits1671 hand",
    ]


def test_the_towser_phase_comes_after_tiddy_in_every_hand():
    result = settle(make_record(BOOK, [cotton_hand()])).as_json()
    assert list(result["hands"][0]["phases"]) == ["tiddy", "towser", "auction", "ruff", "sets", "tricks"]
    assert result["hands"][0]["phases"]["towser"] == [0, 0, 0]


# ================================================================ the stock


@pytest.mark.parametrize(
    "buyer, price, paid",
    [
        (0, 12, [-12, 6, 6]),
        (1, 16, [8, -16, 8]),  # even: half to each ("eight to one and eight to the other")
        (1, 15, [8, -15, 7]),
        (2, 15, [8, 7, -15]),  # odd: the odd penny to Ann, eldest
        (0, 15, [-14, 7, 7]),
        (0, 17, [-16, 8, 8]),  # eldest buys: he claims it by keeping it
    ],
)
def test_the_odd_unit_goes_to_eldest_never_halves(buyer, price, paid):
    assert phase("auction", cotton_hand(auction={"buyer": buyer, "price": price})) == paid


@pytest.mark.parametrize(
    "auction, line",
    [
        (
            {"buyer": 0, "price": 13},
            "auction: Ann is eldest, so after opening at 12 his next bid is 14: eldest never buys at 13",
        ),
        (
            {"buyer": 1, "price": 14},
            "auction: Ben is middle, so after bidding 13 his next bid is 15: middle never buys at 14",
        ),
        ({"buyer": 2, "price": 12}, "auction: Cat is not eldest, so bought at 13 or more, not 12 (eldest opens at 12)"),
        ({"buyer": 0, "price": 11}, "auction price 11 is below the opening bid of 12"),
        (None, "auction cannot be null: somebody always buys the stock in this rule book"),
        ({"buyer": 0, "price": 12, "bids": [[0, 13]]}, "auction: Ann is eldest and must open at 12, not 13"),
        ({"buyer": 1, "price": 13, "bids": [[0, 12], [1, 14]]}, "auction: Ben bid 14, but bids go up by 1 (13 next)"),
    ],
)
def test_auction_problems(auction, line):
    assert lines(cotton_hand(auction=auction)) == [f"hand 1: {line}"]


def test_prices_every_bidding_reaches():
    for buyer, price in ((1, 13), (2, 13), (1, 15), (0, 14), (0, 12)):
        assert lines(cotton_hand(auction={"buyer": buyer, "price": price})) == [], (buyer, price)
    bids = [[0, 12], [1, 13], [2, "pass"], [0, "pass"]]
    assert lines(cotton_hand(auction={"buyer": 1, "price": 13, "bids": bids})) == []


# ================================================================ the ruff


def test_nothing_to_say_pays_1_and_vies_go_4_6_8():
    assert phase("ruff", cotton_hand(ruff={"winner": 1, "paid": [1, 0, 1]})) == [-1, 2, -1]
    assert lines(cotton_hand(ruff={"winner": 1, "paid": [4, 0, 6]})) == []
    assert lines(cotton_hand(ruff={"winner": 1, "paid": [2, 0, 1]})) == [
        "hand 1: ruff: Ann paid 2, but a ruff loser pays 1 (nothing to say) or an even amount of at least 4 "
        "(vies of 4, 6, 8 …)"
    ]
    assert lines(cotton_hand(ruff={"winner": 0, "paid": [0, 5, 4]})) == [
        "hand 1: ruff: Ben paid 5, but a ruff loser pays 1 (nothing to say) or an even amount of at least 4 "
        "(vies of 4, 6, 8 …)"
    ]


def test_the_texts_own_vying():
    calls = [[0, "vie"], [1, "see"], [2, "revie"], [0, "see"], [1, "pass"]]  # Cotton's own example
    assert lines(cotton_hand(ruff={"winner": 2, "paid": [6, 4, 0], "calls": calls})) == []
    quiet = [[0, "pass"], [1, "pass"], [2, "pass"]]  # all three pass: the best ruff takes 1 from each
    assert lines(cotton_hand(ruff={"winner": 2, "paid": [1, 1, 0], "calls": quiet, "shown": [40, 31, 55]})) == []


def test_a_doubled_ruff_is_played_for_double_at_the_next_deal():
    doubled = cotton_hand(ruff=None)
    assert phase("ruff", doubled) == [0, 0, 0]
    after = cotton_hand(dealer=0, auction={"buyer": 1, "price": 12}, ruff={"winner": 1, "paid": [2, 0, 8]})
    assert lines(doubled, after) == []
    assert phase("ruff", after, before=[doubled]) == [-2, 10, -8]
    played_once = cotton_hand(dealer=0, auction={"buyer": 1, "price": 12}, ruff={"winner": 1, "paid": [1, 0, 4]})
    assert lines(doubled, played_once) == [
        "hand 2: ruff: Ann paid 1, but this ruff is played for double (×2): a loser pays 2 (nothing to say) "
        "or 8, 12, 16 …"
    ]


def test_a_doubled_ruff_can_be_doubled_again():
    hands = [cotton_hand(ruff=None), cotton_hand(ruff=None), cotton_hand(ruff={"winner": 1, "paid": [4, 0, 16]})]
    assert lines(*hands) == []
    hands.append(cotton_hand(ruff={"winner": 1, "paid": [1, 0, 1]}))  # back to the usual after a played ruff
    assert lines(*hands) == []
    assert BOOKS[BOOK].next_hand_note(hands[:1]) == "Ruff played for double (×2)"
    assert BOOKS[BOOK].next_hand_note(hands[:2]) == "Ruff played for double (×4)"
    assert BOOKS[BOOK].next_hand_note(hands) is None


def test_calls_in_a_doubled_ruff_are_doubled():
    calls = [[2, "vie"], [0, "see"], [1, "revie"], [2, "see"], [0, "pass"]]  # vie 8, revie 12
    hand = cotton_hand(
        dealer=1,
        auction={"buyer": 2, "price": 12},
        ruff={"winner": 1, "paid": [8, 0, 12], "calls": calls, "shown": [None, 50, 44]},
    )
    assert lines(cotton_hand(ruff=None), hand) == []
    assert problems_of(make_record(BOOK, [hand])) == ["hand 1: ruff: the calls leave Ann owing 4, not 8"]


def test_an_invalid_hand_with_a_null_ruff_still_doubles_the_next():
    broken = cotton_hand(ruff=None, tricks=[5, 5, 5])
    assert lines(broken, cotton_hand(ruff={"winner": 1, "paid": [2, 0, 2]})) == ["hand 1: tricks add up to 15, not 12"]


def test_double_is_never_a_call_of_the_record():
    calls = [[0, "pass"], [1, "pass"], [2, "double"]]
    assert lines(cotton_hand(ruff={"winner": 1, "paid": [1, 0, 1], "calls": calls})) == [
        'hand 1: ruff: Cat says "double", which is not a cotton1674 call (vie, pass, see, revie)'
    ]


def test_the_call_pad_offers_the_dealer_a_double_after_two_passes():
    book = BOOKS[BOOK]
    state = replay_ruff(book, 2, [[0, "pass"], [1, "pass"]], NAMES, 1)
    assert [c.label for c in state.choices] == ["Vie 4", "Pass", "Double it (played for at the next deal)"]
    assert [c.label for c in replay_ruff(book, 2, [[0, "pass"]], NAMES, 1).choices] == ["Vie 4", "Pass"]
    doubled = replay_ruff(book, 2, [[0, "pass"], [1, "pass"], [2, "double"]], NAMES, 1)
    assert (doubled.ended, doubled.end, doubled.problem) == (True, "doubled", None)
    assert doubled.outcome() == "Cat doubled the ruff: it is played for at the next deal"
    assert doubled.line() == "Ann passes · Ben passes · Cat doubles it (played for at the next deal)"
    early = replay_ruff(book, 2, [[0, "pass"], [1, "double"]], NAMES, 1)
    assert early.problem == (
        "Ben cannot double the ruff: only the dealer may, once eldest and middle have passed and nobody has vied"
    )
    played_for = replay_ruff(book, 2, [[0, "vie"]], NAMES, 2)
    assert (played_for.stake, [c.label for c in played_for.choices]) == (8, ["See 8", "Revie to 12", "Pass"])


# ================================================================ sets and forfeits


def test_a_forfeit_pays_each_opponent_double_its_value():
    hand = cotton_hand(sets=[[], [], []], forfeits=[["gleek:A"], [], []])  # Ann, eldest, bought
    assert phase("sets", hand) == [-16, 8, 8]
    hand = cotton_hand(sets=[["gleek:K"], [], ["gleek:J"]], forfeits=[["mournival:Q"], [], []])
    assert phase("sets", hand) == [6 - 1 - 16, -3 - 1 + 8, -3 + 2 + 8]


@pytest.mark.parametrize(
    "forfeits, line",
    [
        ([[], ["gleek:A"], []], 'forfeits: only Ann bought, so only he laid cards out (Ben forfeits ["gleek:A"])'),
        ([["gleek:A", "mournival:A"], [], []], "forfeits: Ann forfeits two sets of Aces"),
        ([["gleek:K"], [], []], "forfeits: Ann both declares and forfeits a set of Kings"),
        (
            [["gleek:10"], [], []],
            'forfeits: Ann forfeits "gleek:10"; a set is "gleek:R" or "mournival:R" with R one of A K Q J',
        ),
        (None, "forfeits must be three lists, one per seat (the sets each called and had laid out), not null"),
        ([[], []], "forfeits must be three lists, one per seat (the sets each called and had laid out), not [[], []]"),
    ],
)
def test_forfeit_problems(forfeits, line):
    assert lines(cotton_hand(forfeits=forfeits)) == [f"hand 1: {line}"]


def test_forfeited_sets_are_not_counted_against_the_cards_in_play():
    # Ben declares all four Aces (he holds Tib); Ann, the buyer, still forfeits a false gleek of Aces
    hand = cotton_hand(
        sets=[[], ["mournival:A"], []], forfeits=[["gleek:A"], [], []], honours={"A": 1, "K": 0, "Q": 0, "J": 1}
    )
    assert lines(hand) == []


def test_the_forfeits_of_a_wrong_auction_are_checked_no_further():
    assert lines(cotton_hand(auction={"buyer": 7, "price": 12}, forfeits=[[], ["gleek:A"], []])) == [
        "hand 1: auction must be a seat (0, 1 or 2), not 7"
    ]


# ================================================================ the worked example


def test_the_worked_example_reads_in_the_periods_terms():
    record = load_example("cotton1674-evening.json")
    book, hands = BOOKS[BOOK], record["hands"]
    reasons = [book.reasons(hand, {}, NAMES) for hand in hands]
    assert reasons[0]["tiddy"] == ["Tiddy (4♥) turned up: 4 from each to the dealer, Cat."]
    assert reasons[0]["towser"] == ["Towser (5♥) held by Ben: 2½ from each.", "Tumbler (6♥) held by Ann: 3 from each."]
    assert reasons[0]["auction"][-1] == "Ben bought at 15, pays 7 to each and the odd penny to Ann, eldest."
    assert reasons[0]["sets"][-1] == "Ben forfeits a false gleek of Aces: 8 to each."
    assert reasons[1]["auction"][-1] == "Ben bought at 15 as eldest and keeps the odd penny: pays 7 to each."
    assert reasons[1]["ruff"] == [
        "Ann doubled the ruff (eldest and middle passed): nothing is paid now, and the "
        "next deal's ruff is played for double."
    ]
    assert reasons[2]["ruff"][0] == "Played for double (×2): the ruff was doubled at the deal before."
    assert reasons[2]["ruff"][-2:] == ["Ann saw 8, then passed: pays 8.", "Cat held out to 12: pays 12."]
    assert reasons[3]["towser"] == [
        "Towser (5♦) turned up: 5 from each to the dealer, Cat.",
        "Tumbler (6♦) held by Ann: 3 from each.",
    ]
    settlement = settle(record)
    words = [
        sheet_words(book, hand, book.resolved_options({}), NAMES, result.phases)
        for hand, result in zip(hands, settlement.hands)
    ]
    assert "Towser: Ben" in words[0] and "Tumbler: Ann" in words[0]
    assert "Ben forfeits a false gleek of Aces: 8 to each" in words[0]
    assert "Tumbler turned up: 6 from each to Ann." in words[1] and "Ann doubled the ruff" in words[1]
    assert "Towser turned up: 5 from each to Cat." in words[3]


# ================================================================ properties


def options_and_records(min_hands=1, max_hands=6, calls=None):
    return records(BOOK, min_hands=min_hands, max_hands=max_hands, calls=calls)


@PER_BOOK
@given(record=options_and_records(calls=None))
def test_every_phase_is_zero_sum_and_whole_or_half(record):
    for hand in settle(record).hands:
        assert list(hand.phases) == ["tiddy", "towser", "auction", "ruff", "sets", "tricks"]
        for amounts in [*hand.phases.values(), hand.total]:
            assert sum(amounts) == 0 and all((2 * F(a)).denominator == 1 for a in amounts)
        assert all(type(a) is int for a in hand.phases["auction"])  # the odd unit: never a half counter


@PER_BOOK
@given(record=options_and_records(calls=None))
def test_the_odd_unit_goes_to_eldest(record):
    for hand, result in zip(record["hands"], settle(record).hands):
        buyer, price = hand["auction"]["buyer"], hand["auction"]["price"]
        first = eldest(hand["dealer"])
        others = [result.phases["auction"][s] for s in range(3) if s != buyer]
        assert result.phases["auction"][buyer] == (-(price - 1) if price % 2 and buyer == first else -price)
        if price % 2 and buyer != first:
            assert result.phases["auction"][first] == price // 2 + 1 and sorted(others) == [price // 2, price // 2 + 1]
        else:
            assert others == [price // 2, price // 2]


@PER_BOOK
@given(record=options_and_records(calls=None))
def test_towser_and_tumbler_are_never_both_held_and_turned_up(record):
    options = record["options"]
    for hand, result in zip(record["hands"], settle(record).hands):
        for key, rank in (("towser", "5"), ("tumbler", "6")):
            assert not (hand["turned_up"] == rank and hand[key] is not None)
            if options.get("towser", True) is False:
                assert hand[key] is None
        if options.get("towser", True) is False:
            assert result.phases["towser"] == [0, 0, 0]


@PER_BOOK
@given(data=st.data())
def test_a_towser_or_tumbler_holder_of_a_card_turned_up_or_off_is_refused(data):
    record = copy.deepcopy(data.draw(options_and_records()))
    index = data.draw(st.integers(0, len(record["hands"]) - 1))
    hand = record["hands"][index]
    key, rank = data.draw(st.sampled_from((("towser", "5"), ("tumbler", "6"))))
    if data.draw(st.booleans()):
        hand["turned_up"] = rank
        for other, other_rank in (("tiddy", "4"), ("towser", "5"), ("tumbler", "6")):
            if other != key and hand["turned_up"] == other_rank:
                hand[other] = None
    else:
        record["options"] = {**record["options"], "towser": False}
    hand[key] = data.draw(st.sampled_from((0, 1, 2)))
    problems = validate(record)
    assert any(p.hand == index + 1 and p.key == key for p in problems), problems


def multiplier(hands: list, index: int) -> int:
    """M: 1, doubled by each explicit null ruff just before (Cotton's doubled ruff)."""
    m = 1
    for hand in reversed(hands[:index]):
        if hand["ruff"] is not None:
            break
        m *= 2
    return m


@PER_BOOK
@given(record=options_and_records(max_hands=8, calls=None))
def test_every_ruff_is_played_for_m_times_its_amounts(record):
    hands = record["hands"]
    for index, (hand, result) in enumerate(zip(hands, settle(record).hands)):
        m = multiplier(hands, index)
        assert m == MODELS[BOOK].opening_of(hands, index)
        if hand["ruff"] is None:
            assert result.phases["ruff"] == [0, 0, 0]
            continue
        for seat, paid in enumerate(hand["ruff"]["paid"]):
            if seat != hand["ruff"]["winner"]:
                assert paid % m == 0 and (paid // m == 1 or (paid // m >= 4 and paid // m % 2 == 0))


@PER_BOOK
@given(data=st.data())
def test_a_ruff_after_a_double_is_played_for_double(data):
    """A ruff valid in a first hand, played after a doubled one: its calls (or its amounts,
    doubled) make a valid hand that pays exactly double; the calls with the amounts as
    they were are refused."""
    record = data.draw(options_and_records(max_hands=1, calls=data.draw(st.booleans())))
    hand = record["hands"][0]
    if hand["ruff"] is None:
        return
    single = settle(record).hands[0].phases["ruff"]
    quiet = dict(copy.deepcopy(hand), ruff=None)  # the same deal, the dealer doubling the ruff
    doubled = copy.deepcopy(hand)
    doubled["ruff"]["paid"] = [2 * p for p in hand["ruff"]["paid"]]
    twice = dict(record, hands=[quiet, doubled])
    assert validate(twice) == []
    assert settle(twice).hands[1].phases["ruff"] == [2 * a for a in single]
    if "calls" in hand["ruff"]:
        undoubled = dict(record, hands=[quiet, copy.deepcopy(hand)])
        assert [(p.hand, p.key) for p in validate(undoubled)] == [(2, "ruff")]


@PER_BOOK
@given(data=st.data())
def test_a_wrong_forfeit_is_always_refused(data):
    record = copy.deepcopy(data.draw(options_and_records(max_hands=3)))
    index = data.draw(st.integers(0, len(record["hands"]) - 1))
    hand = record["hands"][index]
    buyer = hand["auction"]["buyer"]
    other = data.draw(st.sampled_from([s for s in range(3) if s != buyer]))
    forfeits = hand.setdefault("forfeits", [[], [], []])
    choice = data.draw(st.sampled_from(("not the buyer", "twice", "declared", "not a set", "shape")))
    if choice == "not the buyer":
        forfeits[other].append(data.draw(st.sampled_from(("gleek:A", "mournival:K", "gleek:J"))))
    elif choice == "twice":
        rank = data.draw(st.sampled_from("AKQJ"))
        forfeits[buyer][:] = [t for t in forfeits[buyer] if not t.endswith(rank)] + [
            f"gleek:{rank}",
            f"mournival:{rank}",
        ]
    elif choice == "declared":
        if not hand["sets"][buyer]:
            return
        rank = hand["sets"][buyer][0].split(":")[1]
        forfeits[buyer][:] = [t for t in forfeits[buyer] if not t.endswith(rank)] + [f"gleek:{rank}"]
    elif choice == "not a set":
        forfeits[buyer].append(data.draw(st.sampled_from(("gleek:10", "Gleek:A", "gleek", 4, None, ["gleek:A"]))))
    else:
        hand["forfeits"] = data.draw(st.sampled_from((None, {}, "gleek:A", [[], []], [[], [], [], []], [[], [], 7])))
    problems = validate(record)
    assert [p.key for p in problems if p.hand == index + 1] == ["forfeits"], problems
