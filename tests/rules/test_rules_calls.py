"""Call by call (docs/rules.md, "Call by call"): each rule book's auction and vying, table-driven.

Every state of a few short call lists is checked against every word of every book
(legal or not, and the exact line when not), then the end rule, the liabilities,
the showdown (ties, four Aces, the declared mournival of Aces), a call's shapes,
the record's problem lines (one per key, in the table's words), the hand detail's
reasons, the call pad's choices and the showdown helper. Seats in these tests:
dealer 2 (Cat), so Ann (0) is eldest and Ben (1) middle, unless a test says otherwise.
"""

import copy
import doctest
import json
import subprocess
import sys

import pytest

import scorekeeper.rules.calls as calls_module
from scorekeeper.rules import BOOKS
from scorekeeper.rules.calls import (
    FOUR_ACES,
    Amounts,
    four_aces_possible,
    options_text,
    replay_bids,
    replay_ruff,
    ruff_range,
    showdown_winner,
    suit_total,
)
from scorekeeper.rules.record import settle
from support.strategies import make_record, modern_hand, parlett_hand, problems_of, wits_hand

NAMES = ("Ann", "Ben", "Cat")
PARLETT, WITS, MODERN = BOOKS["parlett"], BOOKS["wits1671"], BOOKS["modern"]
HANDS = {"parlett": parlett_hand, "wits1671": wits_hand, "modern": modern_hand}
EVERY_WORD = ("check", "open", "fold", "match", "raise", "vie", "pass", "see", "revie")


def bids(book, *calls, dealer=2):
    return replay_bids(BOOKS[book], dealer, [list(c) for c in calls], NAMES)


def ruff(book, *calls, dealer=2, opening=2):
    return replay_ruff(BOOKS[book], dealer, [list(c) for c in calls], NAMES, opening)


def lines(book, *hands, options=None):
    return problems_of(make_record(book, list(hands), options))


def test_the_module_example_runs():
    assert doctest.testmod(calls_module).failed == 0


# ================================================================ the auction: bids


@pytest.mark.parametrize(
    "book, calls, buyer, price, line",
    [
        ("parlett", [(0, 12), (1, "pass"), (2, "pass")], 0, 12, "Ann bids 12 · Ben passes · Cat passes"),
        (
            "parlett",
            [(0, 12), (1, 14), (2, "pass"), (0, 16), (1, "pass")],
            0,
            16,
            "Ann bids 12 · Ben 14 · Cat passes · Ann 16 · Ben passes",
        ),
        (
            "parlett",
            [(0, 12), (1, 14), (2, 16), (0, "pass"), (1, 18), (2, "pass")],
            1,
            18,
            "Ann bids 12 · Ben 14 · Cat 16 · Ann passes · Ben 18 · Cat passes",
        ),
        (
            "parlett",
            [(0, 12), (1, "pass"), (2, 14), (0, "pass")],
            2,
            14,
            "Ann bids 12 · Ben passes · Cat 14 · Ann passes",
        ),
        ("wits1671", [(0, 13), (1, "pass"), (2, "pass")], 0, 13, "Ann bids 13 · Ben passes · Cat passes"),
        (
            "wits1671",
            [(0, 13), (1, 14), (2, 15), (0, 16), (1, 17), (2, "pass"), (0, "pass")],
            1,
            17,
            "Ann bids 13 · Ben 14 · Cat 15 · Ann 16 · Ben 17 · Cat passes · Ann passes",
        ),
        (
            "wits1671",
            [(0, 13), (1, "pass"), (2, 14), (0, 15), (2, "pass")],
            0,
            15,
            "Ann bids 13 · Ben passes · Cat 14 · Ann 15 · Cat passes",
        ),
        ("modern", [(0, "pass"), (1, "pass"), (2, 13)], 2, 13, "Ann passes · Ben passes · Cat bids 13"),
        (
            "modern",
            [(0, "pass"), (1, 13), (2, 16), (1, "pass")],
            2,
            16,
            "Ann passes · Ben bids 13 · Cat 16 · Ben passes",
        ),
        ("modern", [(0, 20), (1, "pass"), (2, "pass")], 0, 20, "Ann bids 20 · Ben passes · Cat passes"),
        (
            "modern",
            [(0, 13), (1, 14), (2, "pass"), (0, 30), (1, "pass")],
            0,
            30,
            "Ann bids 13 · Ben 14 · Cat passes · Ann 30 · Ben passes",
        ),
    ],
)
def test_an_auction_ends_when_one_has_bid_and_both_others_passed(book, calls, buyer, price, line):
    state = bids(book, *calls)
    assert state.problem is None
    assert (state.ended, state.turn, state.buyer, state.price, state.line()) == (True, None, buyer, price, line)
    assert state.choices == [] and state.more is None
    for cut in range(len(calls)):  # never before the last call
        assert not bids(book, *calls[:cut]).ended


def test_modern_all_three_pass_nobody_buys():
    state = bids("modern", (0, "pass"), (1, "pass"), (2, "pass"))
    assert (state.ended, state.buyer, state.price) == (True, None, None)
    assert state.out == [True, True, True]
    # two passes do not end it: the dealer may still bid (and then buys at once)
    state = bids("modern", (0, "pass"), (1, "pass"))
    assert (state.ended, state.turn) == (False, 2)


# Every call in a few states: (book, calls so far, turn, the legal bids and passes).
AUCTION_STATES = [
    ("parlett", [], 0, {12}, False),
    ("parlett", [(0, 12)], 1, {14}, True),
    ("parlett", [(0, 12), (1, "pass")], 2, {14}, True),
    ("parlett", [(0, 12), (1, 14)], 2, {16}, True),
    ("parlett", [(0, 12), (1, 14), (2, "pass")], 0, {16}, True),
    ("wits1671", [], 0, {13}, False),
    ("wits1671", [(0, 13), (1, 14)], 2, {15}, True),
    ("modern", [], 0, "13+", True),
    ("modern", [(0, "pass")], 1, "13+", True),
    ("modern", [(0, "pass"), (1, 15)], 2, "16+", True),
]


@pytest.mark.parametrize("book, before, turn, legal_bids, may_pass", AUCTION_STATES)
def test_every_bid_in_each_state(book, before, turn, legal_bids, may_pass):
    state = bids(book, *before)
    assert state.turn == turn
    for amount in range(10, 22):
        legal = amount >= int(legal_bids[:-1]) if isinstance(legal_bids, str) else amount in legal_bids
        after = bids(book, *before, (turn, amount))
        assert (after.problem is None) == legal, (amount, after.problem)
    assert (bids(book, *before, (turn, "pass")).problem is None) == may_pass


@pytest.mark.parametrize(
    "book, calls, problem",
    [
        ("parlett", [(0, "pass")], "Ann is eldest and must open at 12, not pass"),
        ("parlett", [(0, 14)], "Ann is eldest and must open at 12, not 14"),
        ("parlett", [(0, 12), (1, 15)], "Ben bid 15, but bids go up by 2 (14 next)"),
        ("parlett", [(0, 12), (1, 14), (2, 18)], "Cat bid 18, but bids go up by 2 (16 next)"),
        ("parlett", [(0, 12), (1, 12)], "Ben bid 12, but bids go up by 2 (14 next)"),
        ("wits1671", [(0, 12)], "Ann is eldest and must open at 13, not 12"),
        ("wits1671", [(0, 13), (1, 15)], "Ben bid 15, but bids go up by 1 (14 next)"),
        ("modern", [(0, 12)], "Ann bid 12, but the first bid is at least 13"),
        ("modern", [(0, 14), (1, 14)], "Ben bid 14, but bids go up by at least 1 (15 or more next)"),
        ("parlett", [(1, 12)], "Ben spoke out of turn: it was Ann's turn"),
        ("parlett", [(0, 12), (2, 14)], "Cat spoke out of turn: it was Ben's turn"),
        ("parlett", [(0, 12), (1, "pass"), (2, 14), (1, 16)], "Ben is out (passed) and cannot speak again"),
        (
            "parlett",
            [(0, 12), (1, "pass"), (2, "pass"), (0, 14)],
            "the bidding was over (Ann bought at 12) before Ann's bid of 14",
        ),
        (
            "modern",
            [(0, "pass"), (1, "pass"), (2, "pass"), (0, 13)],
            "the bidding was over (all three passed) before Ann's bid of 13",
        ),
        ("parlett", [(0, 12.0)], 'Ann\'s bid must be a whole number or "pass", not 12.0'),
        ("parlett", [(0, "12")], 'Ann\'s bid must be a whole number or "pass", not "12"'),
        ("parlett", [(0, True)], 'Ann\'s bid must be a whole number or "pass", not true'),
        ("parlett", [(0, "Pass")], 'Ann\'s bid must be a whole number or "pass", not "Pass"'),
        ("parlett", [(True, 12)], "a bid's seat is 0, 1 or 2, not true"),
        ("parlett", [(0.0, 12)], "a bid's seat is 0, 1 or 2, not 0.0"),
        ("parlett", [(3, 12)], "a bid's seat is 0, 1 or 2, not 3"),
        ("parlett", [(0, 12, 1)], 'a bid is [seat, n] or [seat, "pass"], not [0, 12, 1]'),
        ("parlett", [(0,)], 'a bid is [seat, n] or [seat, "pass"], not [0]'),
    ],
)
def test_bid_problems(book, calls, problem):
    state = bids(book, *calls)
    assert state.problem == problem
    assert len(state.calls) == len(calls) - 1  # the replay stops before the call it refuses


def test_a_bid_that_is_not_a_list():
    state = replay_bids(PARLETT, 2, [[0, 12], {"seat": 1}], NAMES)
    assert state.problem == 'a bid is [seat, n] or [seat, "pass"], not {"seat": 1}'
    assert replay_bids(PARLETT, 2, "12", NAMES).problem == (
        'bids must be a list of calls such as [0, 12] or [1, "pass"], not "12"'
    )


def test_the_call_pad_for_an_auction():
    state = bids("parlett")
    assert state.choices == [([0, 12], "Bid 12")] and state.more is None
    state = bids("parlett", (0, 12), (1, 14))
    assert [tuple(c) for c in state.choices] == [([2, 16], "Bid 16"), ([2, "pass"], "Pass")]
    assert (state.highest, state.bidder, state.out) == (14, 1, [False, False, False])
    state = bids("modern", (0, "pass"), (1, 15))
    assert [c.label for c in state.choices] == ["Bid 16", "Bid 17", "Bid 18", "Bid 19", "Pass"]
    assert state.more == Amounts(2, None, 16, "Bid {n}")
    assert state.more.call(40) == [2, 40] and state.more.label_for(40) == "Bid 40"
    assert state.unfinished() == "the bids stop before the auction is over: it is Cat's turn (bid 16 or more, or pass)"
    assert bids("modern").choices[0] == ([0, 13], "Bid 13")


# ================================================================ the ruff: the end rule and the liabilities


@pytest.mark.parametrize(
    "book, calls, opening, end, showing_or_winner, owes",
    [
        # parlett: S from the hand; a fold fixes the stake then current
        ("parlett", [(0, "open"), (1, "fold"), (2, "fold")], 2, "unseen", 0, [2, 2, 2]),
        ("parlett", [(0, "open"), (1, "match"), (2, "match")], 2, "showdown", (0, 1, 2), [2, 2, 2]),
        ("parlett", [(0, "open"), (1, "raise"), (2, "fold"), (0, "match")], 2, "showdown", (0, 1), [4, 4, 4]),
        ("parlett", [(0, "check"), (1, "check"), (2, "check")], 2, "no contest", (), [0, 0, 0]),
        (
            "parlett",
            [(0, "check"), (1, "check"), (2, "open"), (0, "fold"), (1, "raise"), (2, "match")],
            2,
            "showdown",
            (1, 2),
            [2, 4, 4],
        ),
        (
            "parlett",
            [(0, "open"), (1, "raise"), (2, "raise"), (0, "raise"), (1, "fold"), (2, "fold")],
            2,
            "unseen",
            0,
            [8, 8, 8],
        ),
        ("parlett", [(0, "open"), (1, "fold"), (2, "match")], 8, "showdown", (0, 2), [8, 8, 8]),
        ("parlett", [(0, "check"), (1, "open"), (2, "raise"), (0, "fold"), (1, "fold")], 4, "unseen", 2, [6, 6, 6]),
        # wits1671: nothing to say pays 2; a pass owes the stake he last vied or saw
        ("wits1671", [(0, "vie"), (1, "see"), (2, "revie"), (0, "see"), (1, "pass")], 2, "showdown", (0, 2), [6, 4, 6]),
        ("wits1671", [(0, "pass"), (1, "pass"), (2, "pass")], 2, "showdown", (0, 1, 2), [2, 2, 2]),
        ("wits1671", [(0, "pass"), (1, "pass"), (2, "vie")], 2, "unseen", 2, [2, 2, 4]),
        ("wits1671", [(0, "vie"), (1, "pass"), (2, "pass")], 2, "unseen", 0, [4, 2, 2]),
        ("wits1671", [(0, "pass"), (1, "vie"), (2, "see")], 2, "showdown", (1, 2), [2, 4, 4]),
        ("wits1671", [(0, "vie"), (1, "revie"), (2, "pass"), (0, "pass")], 2, "unseen", 1, [4, 6, 2]),
        ("wits1671", [(0, "vie"), (1, "see"), (2, "see")], 2, "showdown", (0, 1, 2), [4, 4, 4]),
        (
            "wits1671",
            [(0, "vie"), (1, "see"), (2, "revie"), (0, "revie"), (1, "pass"), (2, "see")],
            16,
            "showdown",
            (0, 2),
            [8, 4, 8],
        ),
        # modern: the ante of 2 plus the stake last vied or seen
        ("modern", [(0, "vie", 3), (1, "see"), (2, "pass")], 2, "showdown", (0, 1), [5, 5, 2]),
        ("modern", [(0, "pass"), (1, "pass"), (2, "pass")], 2, "showdown", (0, 1, 2), [2, 2, 2]),
        ("modern", [(0, "pass"), (1, "pass"), (2, "vie", 1)], 2, "unseen", 2, [2, 2, 3]),
        ("modern", [(0, "vie", 1), (1, "vie", 5), (2, "pass"), (0, "see")], 2, "showdown", (0, 1), [7, 7, 2]),
        (
            "modern",
            [(0, "vie", 2), (1, "see"), (2, "vie", 4), (0, "pass"), (1, "see")],
            2,
            "showdown",
            (1, 2),
            [4, 6, 6],
        ),
        ("modern", [(0, "vie", 9), (1, "pass"), (2, "pass")], 2, "unseen", 0, [11, 2, 2]),
    ],
)
def test_the_end_rule_and_liabilities(book, calls, opening, end, showing_or_winner, owes):
    state = ruff(book, *calls, opening=opening)
    assert state.problem is None
    assert (state.ended, state.turn, state.end) == (True, None, end)
    if end == "unseen":
        assert (state.winner, state.showing) == (showing_or_winner, ())
    else:
        assert (state.winner, state.showing) == (None, showing_or_winner)
    assert state.owes == owes
    for winner in state.showing or (state.winner,):
        if end != "no contest":
            assert state.paid(winner) == [0 if s == winner else owes[s] for s in range(3)]
    for cut in range(len(calls)):  # it ends exactly at the last call
        assert not ruff(book, *calls[:cut], opening=opening).ended


def test_two_passes_do_not_end_the_vying():
    for book in ("wits1671", "modern"):
        state = ruff(book, (0, "pass"), (1, "pass"))
        assert (state.ended, state.turn, state.out) == (False, 2, [True, True, False])
        assert state.owes == [2, 2, 2] and state.fixed == [True, True, False]


def test_running_and_fixed_liabilities():
    state = ruff("parlett", (0, "open"), (1, "raise"), (2, "fold"))
    assert (state.stake, state.opened, state.owes, state.fixed) == (4, True, [4, 4, 4], [False, False, True])
    state = ruff("parlett", (0, "open"), (1, "raise"), (2, "fold"), (0, "raise"))
    assert (state.stake, state.owes, state.fixed) == (6, [6, 6, 4], [False, False, True])
    state = ruff("parlett", (0, "check"))
    assert (state.stake, state.opened, state.owes) == (0, False, [0, 0, 0])
    state = ruff("wits1671", (0, "vie"), (1, "pass"))
    assert (state.stake, state.owes, state.fixed) == (4, [4, 2, 4], [False, True, False])
    state = ruff("modern", (0, "vie", 3), (1, "vie", 5))
    assert (state.stake, state.owes) == (5, [7, 7, 7])  # running: the stake for those still in


# Every word in a few states: (book, calls so far, turn, the words legal now).
RUFF_STATES = [
    ("parlett", [], 0, {"check", "open"}),
    ("parlett", [(0, "check")], 1, {"check", "open"}),
    ("parlett", [(0, "check"), (1, "check")], 2, {"check", "open"}),
    ("parlett", [(0, "open")], 1, {"fold", "match", "raise"}),
    ("parlett", [(0, "check"), (1, "open")], 2, {"fold", "match", "raise"}),
    ("parlett", [(0, "check"), (1, "open"), (2, "match")], 0, {"fold", "match", "raise"}),
    ("parlett", [(0, "open"), (1, "raise"), (2, "fold")], 0, {"fold", "match", "raise"}),
    ("wits1671", [], 0, {"vie", "pass"}),
    ("wits1671", [(0, "pass")], 1, {"vie", "pass"}),
    ("wits1671", [(0, "pass"), (1, "pass")], 2, {"vie", "pass"}),
    ("wits1671", [(0, "vie")], 1, {"see", "revie", "pass"}),
    ("wits1671", [(0, "pass"), (1, "vie")], 2, {"see", "revie", "pass"}),
    ("wits1671", [(0, "vie"), (1, "see"), (2, "revie")], 0, {"see", "revie", "pass"}),
    ("modern", [], 0, {"vie", "pass"}),
    ("modern", [(0, "pass"), (1, "pass")], 2, {"vie", "pass"}),
    ("modern", [(0, "vie", 3)], 1, {"vie", "see", "pass"}),
    ("modern", [(0, "vie", 3), (1, "vie", 4), (2, "pass")], 0, {"vie", "see", "pass"}),
]


@pytest.mark.parametrize("book, before, turn, legal", RUFF_STATES)
def test_every_word_in_each_state(book, before, turn, legal):
    state = ruff(book, *before)
    assert (state.turn, state.ended) == (turn, False)
    for word in EVERY_WORD:
        call = (turn, word, state.stake + 1) if (book, word) == ("modern", "vie") else (turn, word)
        after = ruff(book, *before, call)
        assert (after.problem is None) == (word in legal), (word, after.problem)
    # and the call pad offers exactly those words
    assert {c.call[1] for c in state.choices} == legal
    # nobody else may speak now
    for seat in {0, 1, 2} - {turn}:
        word = sorted(legal)[0]
        call = (seat, word, state.stake + 1) if (book, word) == ("modern", "vie") else (seat, word)
        assert ruff(book, *before, call).problem is not None


@pytest.mark.parametrize(
    "book, calls, problem",
    [
        # a word of another book
        ("parlett", [(0, "see")], 'Ann says "see", which is not a parlett call (check, open, fold, match, raise)'),
        ("parlett", [(0, "vie")], 'Ann says "vie", which is not a parlett call (check, open, fold, match, raise)'),
        (
            "parlett",
            [(0, "open"), (1, "pass")],
            'Ben says "pass", which is not a parlett call (check, open, fold, match, raise)',
        ),
        ("wits1671", [(0, "check")], 'Ann says "check", which is not a wits1671 call (vie, pass, see, revie)'),
        (
            "wits1671",
            [(0, "vie"), (1, "match")],
            'Ben says "match", which is not a wits1671 call (vie, pass, see, revie)',
        ),
        ("modern", [(0, "revie")], 'Ann says "revie", which is not a modern call (vie, pass, see)'),
        ("modern", [(0, "open")], 'Ann says "open", which is not a modern call (vie, pass, see)'),
        ("parlett", [(0, "Open")], 'Ann says "Open", which is not a parlett call (check, open, fold, match, raise)'),
        ("parlett", [(0, 2)], "Ann says 2, which is not a parlett call (check, open, fold, match, raise)"),
        # a word of this book at the wrong moment
        ("wits1671", [(0, "vie"), (1, "vie")], "Ben cannot vie: the ruff is vied at 4 (see 4, revie to 6 or pass)"),
        ("wits1671", [(0, "see")], "Ann cannot see: nobody has vied yet (vie 4 or pass)"),
        ("wits1671", [(0, "revie")], "Ann cannot revie: nobody has vied yet (vie 4 or pass)"),
        ("parlett", [(0, "match")], "Ann cannot match: nobody has opened yet (check or open at 2)"),
        ("parlett", [(0, "fold")], "Ann cannot fold: nobody has opened yet (check or open at 2)"),
        (
            "parlett",
            [(0, "open"), (1, "check")],
            "Ben cannot check: the ruff is open at 2 (fold, match 2 or raise to 4)",
        ),
        ("parlett", [(0, "open"), (1, "open")], "Ben cannot open: the ruff is open at 2 (fold, match 2 or raise to 4)"),
        ("modern", [(0, "see")], "Ann cannot see: nobody has vied yet (vie 1 or more, or pass)"),
        # amounts
        ("modern", [(0, "vie", 0)], "Ann vies 0, but a vie must be at least 1"),
        ("modern", [(0, "vie", -3)], "Ann vies -3, but a vie must be at least 1"),
        ("modern", [(0, "vie", 3), (1, "vie", 3)], "Ben vies 3, but a vie must be more than the stake of 3"),
        ("modern", [(0, "vie")], 'Ann\'s vie needs an amount: [seat, "vie", n]'),
        ("modern", [(0, "vie", 2.0)], "Ann's vie must name a whole number of counters, not 2.0"),
        ("modern", [(0, "vie", True)], "Ann's vie must name a whole number of counters, not true"),
        ("modern", [(0, "vie", "2")], 'Ann\'s vie must name a whole number of counters, not "2"'),
        ("modern", [(0, "pass", 2)], "Ann's pass carries an amount (2), but only vie names one"),
        ("modern", [(0, "vie", 2), (1, "see", 2)], "Ben's see carries an amount (2), but only vie names one"),
        ("wits1671", [(0, "vie", 4)], "Ann's vie carries an amount (4), but no wits1671 call names one"),
        ("parlett", [(0, "open", 2)], "Ann's open carries an amount (2), but no parlett call names one"),
        # turn, out, over
        ("parlett", [(1, "check")], "Ben spoke out of turn: it was Ann's turn"),
        ("parlett", [(0, "open"), (2, "match")], "Cat spoke out of turn: it was Ben's turn"),
        (
            "parlett",
            [(0, "open"), (1, "raise"), (2, "fold"), (2, "match")],
            "Cat is out (folded at 4) and cannot speak again",
        ),
        ("wits1671", [(0, "pass"), (0, "vie")], "Ann is out (passed) and cannot speak again"),
        (
            "modern",
            [(0, "vie", 2), (1, "pass"), (2, "see"), (1, "see")],
            "the vying was over (Ann and Cat show) before Ben's see",
        ),
        (
            "parlett",
            [(0, "open"), (1, "fold"), (2, "fold"), (0, "raise")],
            "the vying was over (Ann was left alone and won unseen) before Ann's raise",
        ),
        (
            "parlett",
            [(0, "check"), (1, "check"), (2, "check"), (0, "open")],
            "the vying was over (all three checked: no contest) before Ann's open",
        ),
        (
            "wits1671",
            [(0, "pass"), (1, "pass"), (2, "pass"), (0, "vie")],
            "the vying was over (Ann, Ben and Cat show) before Ann's vie",
        ),
        # a call's shape: true/false are not seats
        ("parlett", [(True, "check")], "a call's seat is 0, 1 or 2, not true"),
        ("parlett", [(False, "check")], "a call's seat is 0, 1 or 2, not false"),
        ("parlett", [(0.0, "check")], "a call's seat is 0, 1 or 2, not 0.0"),
        ("parlett", [("0", "check")], 'a call\'s seat is 0, 1 or 2, not "0"'),
        ("parlett", [(0,)], "a call is [seat, word] with word check, open, fold, match or raise, not [0]"),
        (
            "modern",
            [(0, "vie", 2, 3)],
            'a call is [seat, "vie", n] or [seat, word] with word pass or see, not [0, "vie", 2, 3]',
        ),
    ],
)
def test_ruff_call_problems(book, calls, problem):
    state = ruff(book, *calls)
    assert state.problem == problem
    assert len(state.calls) == len(calls) - 1


def test_calls_that_are_not_a_list():
    assert replay_ruff(PARLETT, 2, {"0": "open"}, NAMES).problem == (
        'calls must be a list of calls such as [0, "open"], not {"0": "open"}'
    )
    assert (
        replay_ruff(MODERN, 2, None, NAMES).problem == 'calls must be a list of calls such as [0, "vie", 2], not null'
    )
    assert replay_ruff(WITS, 2, [[0, "vie"], "see"], NAMES).problem == (
        'a call is [seat, word] with word vie, pass, see or revie, not "see"'
    )


def test_the_call_pad_for_a_ruff():
    state = ruff("parlett", opening=4)
    assert [tuple(c) for c in state.choices] == [([0, "check"], "Check"), ([0, "open"], "Open at 4")]
    state = ruff("parlett", (0, "open"), (1, "raise"), opening=4)
    assert [c.label for c in state.choices] == ["Fold", "Match 6", "Raise to 8"]
    assert state.more is None
    state = ruff("wits1671")
    assert [tuple(c) for c in state.choices] == [([0, "vie"], "Vie 4"), ([0, "pass"], "Pass")]
    state = ruff("wits1671", (0, "vie"))
    assert [c.label for c in state.choices] == ["See 4", "Revie to 6", "Pass"]
    state = ruff("modern")
    assert [tuple(c) for c in state.choices] == [
        ([0, "vie", 1], "Vie 1"),
        ([0, "vie", 2], "Vie 2"),
        ([0, "vie", 3], "Vie 3"),
        ([0, "vie", 4], "Vie 4"),
        ([0, "pass"], "Pass"),
    ]
    assert state.more == Amounts(0, "vie", 1, "Vie {n}")
    state = ruff("modern", (0, "vie", 3))
    assert [c.label for c in state.choices] == ["Vie 4", "Vie 5", "Vie 6", "Vie 7", "See 3", "Pass"]
    assert state.more.least == 4 and state.more.call(12) == [1, "vie", 12]
    assert options_text(state.choices, state.more) == "vie 4 or more, see 3, or pass"
    assert (
        state.unfinished()
        == "the calls stop before the vying is over: it is Ben's turn (vie 4 or more, see 3, or pass)"
    )


@pytest.mark.parametrize(
    "book, calls, line",
    [
        (
            "parlett",
            [(0, "open"), (1, "raise"), (2, "fold"), (0, "match")],
            "Ann opens 2 · Ben raises to 4 · Cat folds (owes 4) · Ann matches",
        ),
        ("parlett", [(0, "check"), (1, "check"), (2, "check")], "Ann checks · Ben checks · Cat checks"),
        (
            "wits1671",
            [(0, "vie"), (1, "see"), (2, "revie"), (0, "see"), (1, "pass")],
            "Ann vies 4 · Ben sees · Cat revies to 6 · Ann sees · Ben passes (owes 4)",
        ),
        ("wits1671", [(0, "pass"), (1, "pass"), (2, "vie")], "Ann passes (owes 2) · Ben passes (owes 2) · Cat vies 4"),
        ("modern", [(0, "vie", 3), (1, "see"), (2, "pass")], "Ann vies 3 · Ben sees · Cat passes (owes 2)"),
        (
            "modern",
            [(0, "vie", 2), (1, "see"), (2, "vie", 4), (0, "pass")],
            "Ann vies 2 · Ben sees · Cat vies 4 · Ann passes (owes 4)",
        ),
    ],
)
def test_the_calls_line(book, calls, line):
    assert ruff(book, *calls).line() == line


@pytest.mark.parametrize(
    "book, calls, winner, reasons",
    [
        (
            "parlett",
            [(0, "open"), (1, "raise"), (2, "fold"), (0, "match")],
            1,
            ["Ann held out to 4: pays 4", "Cat folded at 4: pays 4"],
        ),
        (
            "parlett",
            [(0, "open"), (1, "raise"), (2, "raise"), (0, "fold"), (1, "fold")],
            2,
            ["Ann folded at 6: pays 6", "Ben folded at 6: pays 6"],
        ),
        (
            "wits1671",
            [(0, "vie"), (1, "see"), (2, "revie"), (0, "see"), (1, "pass")],
            2,
            ["Ann held out to 6: pays 6", "Ben saw 4, then passed: pays 4"],
        ),
        (
            "wits1671",
            [(0, "vie"), (1, "revie"), (2, "pass"), (0, "pass")],
            1,
            ["Ann vied 4, then passed: pays 4", "Cat had nothing to say: pays 2"],
        ),
        (
            "wits1671",
            [(0, "vie"), (1, "see"), (2, "revie"), (0, "pass"), (1, "revie"), (2, "pass")],
            1,
            ["Ann vied 4, then passed: pays 4", "Cat revied to 6, then passed: pays 6"],
        ),
        (
            "wits1671",
            [(0, "pass"), (1, "pass"), (2, "pass")],
            0,
            ["Ben had nothing to say: pays 2", "Cat had nothing to say: pays 2"],
        ),
        (
            "modern",
            [(0, "vie", 3), (1, "see"), (2, "pass")],
            0,
            ["Ben saw 3: pays 2 + 3 = 5", "Cat passed: pays the ante, 2"],
        ),
        (
            "modern",
            [(0, "vie", 1), (1, "vie", 5), (2, "pass"), (0, "see")],
            0,
            ["Ben vied 5: pays 2 + 5 = 7", "Cat passed: pays the ante, 2"],
        ),
        (
            "modern",
            [(0, "vie", 2), (1, "see"), (2, "vie", 4), (0, "pass"), (1, "see")],
            1,
            ["Ann vied 2, then passed: pays 2 + 2 = 4", "Cat vied 4: pays 2 + 4 = 6"],
        ),
    ],
)
def test_each_losers_reason(book, calls, winner, reasons):
    assert ruff(book, *calls).reasons(winner) == reasons


# ================================================================ the showdown: ruff.shown


@pytest.mark.parametrize(
    "dealer, shown, winner",
    [
        (2, [50, 50, None], 0),  # eldest before middle
        (2, [None, 50, 50], 1),  # middle before the dealer
        (2, [50, None, 50], 0),
        (0, [50, 50, 50], 1),  # dealer 0: eldest is seat 1, then 2, then 0
        (0, [50, None, 50], 2),
        (1, [50, 50, 50], 2),
        (2, [40, 41, None], 1),  # the higher total
        (2, [90, FOUR_ACES, None], 1),  # four Aces beat every total
        (2, [None, 15, FOUR_ACES], 2),
        (2, [9, 9, 9], 0),
    ],
)
def test_showdown_winner(dealer, shown, winner):
    assert showdown_winner(dealer, shown) == winner


def test_suit_totals_in_each_books_values():
    assert suit_total(PARLETT, ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]) == 90
    assert suit_total(WITS, ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]) == 90
    assert suit_total(MODERN, ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"]) == 69
    assert suit_total(PARLETT, ["K", "10", "4"]) == 24 and suit_total(MODERN, ["K", "10", "4"]) == 17
    assert suit_total(MODERN, []) == 0
    assert ruff_range(PARLETT) == ruff_range(WITS) == (15, 90) and ruff_range(MODERN) == (9, 69)
    assert PARLETT.ruff_values == {
        "A": 11,
        "K": 10,
        "Q": 10,
        "J": 10,
        "10": 10,
        "9": 9,
        "8": 8,
        "7": 7,
        "6": 6,
        "5": 5,
        "4": 4,
    }
    assert MODERN.ruff_values == {
        "A": 11,
        "K": 3,
        "Q": 3,
        "J": 3,
        "10": 10,
        "9": 9,
        "8": 8,
        "7": 7,
        "6": 6,
        "5": 5,
        "4": 4,
    }
    with pytest.raises(ValueError, match="the King is given twice, but a suit has one of each card"):
        suit_total(PARLETT, ["K", "A", "K"])
    with pytest.raises(ValueError, match=r'"3" is not a card \(A K Q J 10 9 8 7 6 5 4\)'):
        suit_total(PARLETT, ["3"])
    with pytest.raises(ValueError, match="10 is not a card"):
        suit_total(MODERN, [10])


def test_four_aces_where_the_book_allows_them():
    assert four_aces_possible(PARLETT, "9") and four_aces_possible(WITS, "K")
    assert not four_aces_possible(PARLETT, "A") and not four_aces_possible(WITS, "A")
    assert not four_aces_possible(MODERN, None)


# ================================================================ the record: problems under auction and ruff


def with_bids(hand, calls, **result):
    hand = copy.deepcopy(hand)
    hand["auction"] = {**hand["auction"], **result, "bids": [list(c) for c in calls]}
    return hand


def with_calls(hand, calls, winner, paid, shown=None):
    hand = copy.deepcopy(hand)
    hand["ruff"] = {"winner": winner, "paid": paid, "calls": [list(c) for c in calls]}
    if shown is not None:
        hand["ruff"]["shown"] = shown
    return hand


PARLETT_BIDS = [(0, 12), (1, 14), (2, "pass"), (0, 16), (1, "pass")]  # Ann buys at 16
PARLETT_CALLS = [(0, "open"), (1, "raise"), (2, "fold"), (0, "match")]  # Ann and Ben show at 4, Cat folded at 4


def good_parlett(**changes):
    hand = with_calls(
        with_bids(parlett_hand(), PARLETT_BIDS, buyer=0, price=16), PARLETT_CALLS, 1, [4, 0, 4], [40, 52, None]
    )
    hand.update(copy.deepcopy(changes))
    return hand


def test_a_hand_with_calls_is_valid_and_settles_as_without_them():
    hand = good_parlett()
    assert lines("parlett", hand) == []
    plain = copy.deepcopy(hand)
    del plain["auction"]["bids"], plain["ruff"]["calls"], plain["ruff"]["shown"]
    assert settle(make_record("parlett", [hand])).as_json() == settle(make_record("parlett", [plain])).as_json()


@pytest.mark.parametrize(
    "change, line",
    [
        (
            {"auction": {"buyer": 0, "price": 16, "bids": [[0, 12], [1, 15]]}},
            "hand 1: auction: Ben bid 15, but bids go up by 2 (14 next)",
        ),
        (
            {"auction": {"buyer": 0, "price": 16, "bids": [[0, 12], [1, 14], [2, "pass"], [0, 16]]}},
            "hand 1: auction: the bids stop before the auction is over: it is Ben's turn (bid 18 or pass)",
        ),
        (
            {"auction": {"buyer": 1, "price": 16, "bids": [list(c) for c in PARLETT_BIDS]}},
            "hand 1: auction: Ben is middle, so after bidding 14 his next bid is 18: middle never buys at 16",
        ),
        (
            {"auction": {"buyer": 2, "price": 16, "bids": [list(c) for c in PARLETT_BIDS]}},
            "hand 1: auction: the bids end with Ann buying at 16, not Cat at 16",
        ),
        (
            {"auction": {"buyer": 0, "price": 18, "bids": [list(c) for c in PARLETT_BIDS]}},
            "hand 1: auction: the bids end with Ann buying at 16, not at 18",
        ),
        (
            {"auction": {"buyer": 0, "price": 16, "bids": {}}},
            'hand 1: auction: bids must be a list of calls such as [0, 12] or [1, "pass"], not {}',
        ),
        (
            {"auction": {"buyer": 0, "price": 16, "calls": []}},
            'hand 1: auction must be {"buyer": seat, "price": n}, not {"buyer": 0, "price": 16, "calls": []}',
        ),
        (
            {"ruff": {"winner": 1, "paid": [4, 0, 4], "calls": [[0, "open"], [1, "raise"], [2, "fold"], [2, "match"]]}},
            "hand 1: ruff: Cat is out (folded at 4) and cannot speak again",
        ),
        (
            {"ruff": {"winner": 1, "paid": [6, 0, 4], "calls": [list(c) for c in PARLETT_CALLS]}},
            "hand 1: ruff: the calls leave Ann owing 4, not 6",
        ),
        (
            {"ruff": {"winner": 2, "paid": [4, 4, 0], "calls": [list(c) for c in PARLETT_CALLS]}},
            "hand 1: ruff: Cat is not at the showdown (Ann and Ben show), so cannot win the ruff",
        ),
        (
            {
                "ruff": {
                    "winner": 1,
                    "paid": [4, 0, 4],
                    "calls": [list(c) for c in PARLETT_CALLS],
                    "shown": [52, 40, None],
                }
            },
            "hand 1: ruff: the ruffs shown (Ann 52, Ben 40) give the ruff to Ann, not Ben",
        ),
        (
            {
                "ruff": {
                    "winner": 1,
                    "paid": [4, 0, 4],
                    "calls": [list(c) for c in PARLETT_CALLS],
                    "shown": [40, 40, None],
                }
            },
            "hand 1: ruff: the ruffs shown (Ann 40, Ben 40) give the ruff to Ann, not Ben",
        ),
        (
            {
                "ruff": {
                    "winner": 1,
                    "paid": [4, 0, 4],
                    "calls": [list(c) for c in PARLETT_CALLS],
                    "shown": [40, 52, 30],
                }
            },
            "hand 1: ruff: Cat is out (folded at 4) and shows no ruff, so Cat's entry must be null, not 30",
        ),
        (
            {
                "ruff": {
                    "winner": 1,
                    "paid": [4, 0, 4],
                    "calls": [list(c) for c in PARLETT_CALLS],
                    "shown": [None, 52, None],
                }
            },
            'hand 1: ruff: Ann is at the showdown, so shown needs Ann\'s ruff (a total or "aces"), not null',
        ),
        (
            {
                "ruff": {
                    "winner": 1,
                    "paid": [4, 0, 4],
                    "calls": [list(c) for c in PARLETT_CALLS],
                    "shown": [14, 52, None],
                }
            },
            "hand 1: ruff: Ann shows 14, but a ruff totals 15 to 90 (A 11, K Q J 10, others face value)",
        ),
        (
            {
                "ruff": {
                    "winner": 1,
                    "paid": [4, 0, 4],
                    "calls": [list(c) for c in PARLETT_CALLS],
                    "shown": [40, 91, None],
                }
            },
            "hand 1: ruff: Ben shows 91, but a ruff totals 15 to 90 (A 11, K Q J 10, others face value)",
        ),
        (
            {
                "ruff": {
                    "winner": 1,
                    "paid": [4, 0, 4],
                    "calls": [list(c) for c in PARLETT_CALLS],
                    "shown": [40.0, 52, None],
                }
            },
            'hand 1: ruff: Ann\'s ruff must be a whole number or "aces", not 40.0',
        ),
        (
            {
                "ruff": {
                    "winner": 1,
                    "paid": [4, 0, 4],
                    "calls": [list(c) for c in PARLETT_CALLS],
                    "shown": [True, 52, None],
                }
            },
            'hand 1: ruff: Ann\'s ruff must be a whole number or "aces", not true',
        ),
        (
            {
                "ruff": {
                    "winner": 1,
                    "paid": [4, 0, 4],
                    "calls": [list(c) for c in PARLETT_CALLS],
                    "shown": ["Aces", 52, None],
                }
            },
            'hand 1: ruff: Ann\'s ruff must be a whole number or "aces", not "Aces"',
        ),
        (
            {
                "ruff": {
                    "winner": 0,
                    "paid": [0, 4, 4],
                    "calls": [list(c) for c in PARLETT_CALLS],
                    "shown": ["aces", "aces", None],
                }
            },
            "hand 1: ruff: Ann and Ben both show four Aces, but there are only four Aces",
        ),
        (
            {"ruff": {"winner": 1, "paid": [4, 0, 4], "calls": [list(c) for c in PARLETT_CALLS], "shown": [40, 52]}},
            'hand 1: ruff: shown must be three entries, one per seat (a ruff total, or "aces", or null), not [40, 52]',
        ),
        (
            {"ruff": {"winner": 1, "paid": [4, 0, 4], "shown": [40, 52, None]}},
            "hand 1: ruff: shown is given only with the calls (ruff.calls) that end in the showdown",
        ),
        (
            {
                "ruff": {
                    "winner": 0,
                    "paid": [0, 2, 2],
                    "calls": [[0, "open"], [1, "fold"], [2, "fold"]],
                    "shown": [40, None, None],
                }
            },
            "hand 1: ruff: Ann won unseen (nobody else was left in), so nothing is shown: leave out shown",
        ),
        (
            {"ruff": {"winner": 1, "paid": [2, 0, 2], "calls": [[0, "open"], [1, "fold"], [2, "fold"]]}},
            "hand 1: ruff: the calls leave Ann alone in, so Ann wins unseen, not Ben",
        ),
        (
            {"ruff": {"winner": 1, "paid": [2, 0, 2], "calls": [[0, "check"], [1, "check"], [2, "check"]]}},
            "hand 1: ruff: all three checked, so there is no contest: ruff must be null",
        ),
        (
            {"ruff": {"winner": 1, "paid": [4, 0, 4], "calls": [list(c) for c in PARLETT_CALLS], "bets": []}},
            'hand 1: ruff must be {"winner": seat, "paid": [a, b, c]}, not {"winner": 1, "paid": [4, 0, 4], "cal…',
        ),
        (
            {"ruff": {"winner": 1, "paid": [4, 0, 4], "calls": []}},
            "hand 1: ruff: the calls stop before the vying is over: it is Ann's turn (check or open at 2)",
        ),
    ],
)
def test_problem_lines_of_a_parlett_hand(change, line):
    assert lines("parlett", good_parlett(**change)) == [line]


def test_one_line_per_key_the_first_problem_found():
    hand = good_parlett(
        auction={"buyer": 0, "price": 16, "bids": [[1, 12], [0, 15], [2, "x"]]},
        ruff={"winner": 1, "paid": [4, 0, 4], "calls": [[1, "open"], [1, "see"]], "shown": 3},
    )
    assert lines("parlett", hand) == [
        "hand 1: auction: Ben spoke out of turn: it was Ann's turn",
        "hand 1: ruff: Ben spoke out of turn: it was Ann's turn",
    ]


def test_a_wrong_result_is_reported_once_and_the_calls_still_checked():
    # the price is wrong by itself: that line, and no second one comparing it with the bids
    hand = good_parlett(auction={"buyer": 0, "price": 17, "bids": [list(c) for c in PARLETT_BIDS]})
    assert lines("parlett", hand) == ["hand 1: auction price 17 is odd: bids go up by 2 from 12"]
    # ... but wrong bids are a problem of their own
    hand["auction"]["bids"][1] = [1, 13]
    assert lines("parlett", hand) == [
        "hand 1: auction price 17 is odd: bids go up by 2 from 12",
        "hand 1: auction: Ben bid 13, but bids go up by 2 (14 next)",
    ]
    hand = good_parlett(ruff={"winner": 1, "paid": [4, 0, 3], "calls": [list(c) for c in PARLETT_CALLS]})
    assert lines("parlett", hand) == ["hand 1: ruff: Cat paid 3, but stakes go 2, 4, 6 … (raises of 2)"]


def test_a_wrong_dealer_skips_the_calls():
    hand = good_parlett(dealer=True)
    hand["auction"]["bids"] = [[2, 12]]
    assert lines("parlett", hand) == ["hand 1: dealer must be a seat (0, 1 or 2), not true"]


def test_players_names_in_the_lines():
    record = make_record(
        "parlett",
        [good_parlett(ruff={"winner": 1, "paid": [4, 0, 4], "calls": [[0, "open"], [2, "fold"]]})],
        players=["  Samuel ", "Elizabeth", "Will"],
    )
    assert problems_of(record) == ["hand 1: ruff: Will spoke out of turn: it was Elizabeth's turn"]


def test_parlett_opening_stake_comes_from_the_hands_before():
    quiet = parlett_hand(ruff=None)
    hand = good_parlett(ruff={"winner": 1, "paid": [6, 0, 6], "calls": [list(c) for c in PARLETT_CALLS]})
    assert lines("parlett", quiet, hand) == []  # S = 4: opened at 4, raised to 6
    assert lines("parlett", hand) == ["hand 1: ruff: the calls leave Ann owing 4, not 6"]
    assert lines("parlett", quiet, quiet, hand) == ["hand 3: ruff: Ann paid 6, but the opening stake this hand is 8"]
    hand["ruff"]["paid"] = [10, 0, 10]
    assert lines("parlett", quiet, quiet, hand) == []


def test_mournival_of_aces_at_the_showdown_shows_four_aces():
    # Ann holds all four Aces (and Tib): at the showdown she shows them
    aces = {"sets": [["mournival:A"], [], []], "honours": {"A": 0, "K": 0, "Q": 0, "J": 1}}
    hand = good_parlett(**aces)
    assert lines("parlett", hand) == [
        'hand 1: ruff: Ann declares a mournival of Aces, so shows four Aces ("aces"), not 40'
    ]
    hand["ruff"] = {
        "winner": 0,
        "paid": [0, 4, 4],
        "calls": [list(c) for c in PARLETT_CALLS],
        "shown": ["aces", 52, None],
    }
    assert lines("parlett", hand) == []
    # without shown the table's winner stands
    hand["ruff"] = {"winner": 1, "paid": [4, 0, 4], "calls": [list(c) for c in PARLETT_CALLS]}
    assert lines("parlett", hand) == []
    # Cat folded: her mournival asks nothing of shown; and "aces" needs no declaration
    hand = good_parlett(sets=[[], [], ["mournival:A"]], honours={"A": 2, "K": 0, "Q": 0, "J": 1})
    assert lines("parlett", hand) == []
    hand = good_parlett(
        ruff={"winner": 0, "paid": [0, 4, 4], "calls": [list(c) for c in PARLETT_CALLS], "shown": ["aces", 52, None]}
    )
    assert lines("parlett", hand) == []
    # wrong sets: the cross-check is skipped
    hand = good_parlett(sets=[["mournival:A", "gleek:A"], [], []], honours={"A": 0, "K": 0, "Q": 0, "J": 1})
    assert lines("parlett", hand) == ["hand 1: sets: Ann declares two sets of Aces"]


def test_four_aces_are_impossible_when_an_ace_is_turned_up():
    hand = good_parlett(
        turned_up="A",
        honours={"K": 0, "Q": 0, "J": 1},
        ruff={"winner": 0, "paid": [0, 4, 4], "calls": [list(c) for c in PARLETT_CALLS], "shown": ["aces", 52, None]},
    )
    assert lines("parlett", hand) == ["hand 1: ruff: Ann shows four Aces, but an Ace is turned up"]


WITS_TEXT = [(0, "vie"), (1, "see"), (2, "revie"), (0, "see"), (1, "pass")]  # the Wits Interpreter's own vying


def test_wits1671_the_texts_own_example():
    hand = wits_hand(
        ruff={"winner": 2, "paid": [6, 4, 0], "calls": [list(c) for c in WITS_TEXT], "shown": [40, None, 52]}
    )
    assert lines("wits1671", hand) == []
    hand["ruff"]["paid"] = [6, 6, 0]
    assert lines("wits1671", hand) == ["hand 1: ruff: the calls leave Ben owing 4, not 6"]
    hand["ruff"]["paid"] = [6, 4, 0]
    hand["ruff"]["calls"][1] = [1, "vie"]
    assert lines("wits1671", hand) == [
        "hand 1: ruff: Ben cannot vie: the ruff is vied at 4 (see 4, revie to 6 or pass)"
    ]


def test_wits1671_all_pass_all_show():
    hand = wits_hand(
        ruff={"winner": 1, "paid": [2, 0, 2], "calls": [[0, "pass"], [1, "pass"], [2, "pass"]], "shown": [30, 40, 40]}
    )
    assert lines("wits1671", hand) == []
    hand["ruff"]["shown"] = [40, 40, 40]
    assert lines("wits1671", hand) == [
        "hand 1: ruff: the ruffs shown (Ann 40, Ben 40, Cat 40) give the ruff to Ann, not Ben"
    ]
    hand["ruff"]["shown"] = [30, 40, None]
    assert lines("wits1671", hand) == [
        'hand 1: ruff: Cat is at the showdown, so shown needs Cat\'s ruff (a total or "aces"), not null'
    ]


def test_wits1671_bids_and_prices():
    hand = wits_hand(auction={"buyer": 0, "price": 15, "bids": [[0, 13], [1, "pass"], [2, 14], [0, 15], [2, "pass"]]})
    assert lines("wits1671", hand) == []
    hand["auction"]["bids"][2] = [2, 15]
    assert lines("wits1671", hand) == ["hand 1: auction: Cat bid 15, but bids go up by 1 (14 next)"]


MODERN_CALLS = [(0, "vie", 3), (1, "see"), (2, "pass")]


def test_modern_calls_in_a_record():
    hand = modern_hand(
        auction={"buyer": 1, "price": 14, "bids": [[0, "pass"], [1, 14], [2, "pass"]]},
        ruff={"winner": 1, "paid": [5, 0, 2], "calls": [list(c) for c in MODERN_CALLS], "shown": [30, 31, None]},
    )
    assert lines("modern", hand) == []
    hand["ruff"]["shown"] = [30, "aces", None]
    assert lines("modern", hand) == ['hand 1: ruff: Ben\'s ruff must be a whole number, not "aces"']
    hand["ruff"]["shown"] = [30, 70, None]
    assert lines("modern", hand) == [
        "hand 1: ruff: Ben shows 70, but a ruff totals 9 to 69 (A 11, K Q J 3, others face value)"
    ]
    hand["ruff"]["shown"] = [9, 9, None]
    assert lines("modern", hand) == ["hand 1: ruff: the ruffs shown (Ann 9, Ben 9) give the ruff to Ann, not Ben"]
    hand["ruff"]["shown"] = None
    assert lines("modern", hand) == [
        "hand 1: ruff: shown must be three entries, one per seat (a ruff total, or null), not null"
    ]


def test_modern_all_pass_bids_mean_no_buyer():
    hand = modern_hand(auction={"buyer": 0, "price": 13, "bids": [[0, "pass"], [1, "pass"], [2, "pass"]]})
    assert lines("modern", hand) == [
        "hand 1: auction: all three passed, so nobody bought the stock: auction must be null"
    ]
    hand["auction"]["bids"] = [[0, "pass"], [1, "pass"], [2, 13]]
    assert lines("modern", hand) == ["hand 1: auction: the bids end with Cat buying at 13, not Ann at 13"]


def test_simplified_modern_has_no_calls_to_check():
    hand = modern_hand(auction=None, ruff={"winner": 1, "paid": [2, 0, 2], "calls": [[0, "pass"]]})
    assert lines("modern", hand, options={"simplified": True}) == [
        "hand 1: ruff must be null: simplified Gleek has no ruff"
    ]


# ================================================================ the hand detail's reasons


def test_reasons_read_the_calls_out():
    hand = good_parlett()
    reasons = PARLETT.reasons(hand, {}, NAMES)
    assert reasons["auction"] == [
        "Ann bids 12 · Ben 14 · Cat passes · Ann 16 · Ben passes.",
        "Ann bought at 16, pays 8 to each.",
    ]
    assert reasons["ruff"] == [
        "Ann opens 2 · Ben raises to 4 · Cat folds (owes 4) · Ann matches.",
        "Showdown: Ann 40, Ben 52; Ben wins the ruff.",
        "Ann held out to 4: pays 4.",
        "Cat folded at 4: pays 4.",
    ]
    assert calls_module.ruff_reasons(PARLETT, hand, NAMES, opening=2) == reasons["ruff"]
    # without calls the lines are as before
    plain = parlett_hand()
    assert PARLETT.reasons(plain, {}, NAMES)["ruff"] == ["Ann pays Ben 4 for the ruff.", "Cat pays Ben 2 for the ruff."]
    assert PARLETT.reasons(plain, {}, NAMES)["auction"] == ["Ann bought at 12, pays 6 to each."]


def test_reasons_find_parlett_opening_stake():
    quiet = parlett_hand(ruff=None)
    hand = good_parlett(ruff={"winner": 0, "paid": [0, 10, 10], "calls": [list(c) for c in PARLETT_CALLS]})
    assert lines("parlett", quiet, quiet, hand) == []  # S = 8
    expected = [
        "Ann opens 8 · Ben raises to 10 · Cat folds (owes 10) · Ann matches.",
        "Showdown: Ann and Ben show; Ann wins the ruff.",
        "Ben held out to 10: pays 10.",
        "Cat folded at 10: pays 10.",
    ]
    assert calls_module.ruff_reasons(PARLETT, hand, NAMES, opening=PARLETT.ruff_opening([quiet, quiet])) == expected
    assert PARLETT.reasons(hand, {}, NAMES)["ruff"] == expected  # S read back from paid


def test_reasons_of_an_unseen_win_and_of_modern():
    hand = wits_hand(ruff={"winner": 2, "paid": [2, 2, 0], "calls": [[0, "pass"], [1, "pass"], [2, "vie"]]})
    assert WITS.reasons(hand, {}, NAMES)["ruff"] == [
        "Ann passes (owes 2) · Ben passes (owes 2) · Cat vies 4.",
        "Cat is left alone in and wins the ruff unseen.",
        "Ann had nothing to say: pays 2.",
        "Ben had nothing to say: pays 2.",
    ]
    hand = modern_hand(ruff={"winner": 0, "paid": [0, 5, 2], "calls": [list(c) for c in MODERN_CALLS]})
    assert MODERN.reasons(hand, {}, NAMES)["ruff"] == [
        "Ann vies 3 · Ben sees · Cat passes (owes 2).",
        "Showdown: Ann and Ben show; Ann wins the ruff.",
        "Ben saw 3: pays 2 + 3 = 5.",
        "Cat passed: pays the ante, 2.",
    ]


# ================================================================ modern's card-point counter


def test_card_points_from_a_count():
    counts = [{"A": 3, "K": 2, "10": 1}, {"Q": 1, "J": 1, "4": 1}, {}]
    assert MODERN.card_points_from_counts(counts) == [33 + 6 + 10, 3 + 3 + 4, 0]
    assert MODERN.card_points_text(counts[0]) == "3 × A (11) + 2 × K (3) + 1 × 10 (10) = 49"
    assert MODERN.card_points_text({}) == "no cards = 0"
    assert MODERN.card_count_problems(counts, tricks=[2, 1, 0], names=NAMES) == []


def test_card_count_problems():
    counts = [{"A": 3, "K": 3}, {"A": 2}, {"K": 2, "4": 1}]
    assert MODERN.card_count_problems(counts, tricks=[2, 1, 9], names=NAMES) == [
        "5 Aces are counted, but the pack has only 4",
        "5 Kings are counted, but the pack has only 4",
        "Ben has 2 cards counted but won 1 trick, which holds 3",
        "Cat has 3 cards counted but won 9 tricks, which hold 27",
    ]
    assert MODERN.card_count_problems([{"3": 1}, {}, {}], names=NAMES) == [
        "Ann: '3' is not a rank (A K Q J 10 9 8 7 6 5 4)"
    ]
    assert MODERN.card_count_problems([{}, {"A": -1}, {}], names=NAMES) == [
        "Ben: the number of Aces must be a whole number, not -1"
    ]
    assert MODERN.card_count_problems([{}, {}], names=NAMES) == [
        "the count must give each of the three players how many of each rank he captured"
    ]


# ================================================================ the command line


def test_settle_refuses_wrong_calls_with_one_line_each():
    record = make_record(
        "wits1671",
        [
            wits_hand(ruff={"winner": 2, "paid": [6, 4, 0], "calls": [list(c) for c in WITS_TEXT]}),
            wits_hand(auction={"buyer": 0, "price": 13, "bids": [[0, 13], [1, "pass"], [2, "pass"], [0, "pass"]]}),
            wits_hand(
                ruff={
                    "winner": 2,
                    "paid": [6, 4, 0],
                    "calls": [[0, "vie"], [1, "see"], [2, "revie"], [0, "see"], [1, "pass"], [0, "pass"]],
                }
            ),
            wits_hand(
                ruff={"winner": 2, "paid": [6, 6, 0], "calls": [list(c) for c in WITS_TEXT], "shown": [40, None, 30]}
            ),
        ],
        players=["Ann", "Ben", "Cat"],
    )
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "settle", "-"], input=json.dumps(record), capture_output=True, text=True
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr.splitlines() == [
        "hand 2: auction: the bidding was over (Ann bought at 13) before Ann's pass",
        "hand 3: ruff: the vying was over (Ann and Cat show) before Ann's pass",
        "hand 4: ruff: the ruffs shown (Ann 40, Cat 30) give the ruff to Ann, not Cat",
    ]


# ------------------------------------------------------------ what passing now costs


@pytest.mark.parametrize(
    "book, calls, line",
    [
        # wits1671: everyone is in at 2; Ann vies 4: Ben and Cat owe 2 if they pass now, 4 if they see
        (WITS, [[0, "vie"]], "Ann risks 4 · Ben: pass now 2, see 4 · Cat: pass now 2, see 4"),
        (WITS, [[0, "vie"], [1, "see"]], "Ann risks 4 · Ben risks 4 · Cat: pass now 2, see 4"),
        (WITS, [[0, "vie"], [1, "revie"]], "Ann: pass now 4, see 6 · Ben risks 6 · Cat: pass now 2, see 6"),
        (WITS, [[0, "vie"], [1, "revie"], [2, "pass"]], "Ann: pass now 4, see 6 · Ben risks 6 · Cat owes 2"),
        # parlett: a fold owes the stake itself, so passing now and matching cost the same
        (PARLETT, [[0, "open"], [1, "raise"]], "Ann risks 4 · Ben risks 4 · Cat risks 4"),
    ],
)
def test_what_each_would_owe_if_he_passed_now_and_if_he_sees(book, calls, line):
    state = replay_ruff(book, 2, calls, NAMES, opening=2)
    assert state.problem is None and state.stake_line() == line


def wits_showdown():
    state = replay_ruff(WITS, 2, [[0, "vie"], [1, "see"], [2, "pass"]], NAMES)
    assert state.end == "showdown" and state.showing == (0, 1)
    return state


@pytest.mark.parametrize(
    "cards, turned_up, problem",
    [
        ([["aces"], ["A", "K", "Q"], []], "9", "Ann shows four Aces, so Ben cannot show an Ace"),
        ([["aces"], ["aces"], []], "9", "Ann and Ben both show four Aces, but there are only four Aces"),
        ([["K", "Q", "J"], ["aces"], []], "A", "Ben shows four Aces, but an Ace is turned up"),
    ],
)
def test_an_impossible_showing_is_the_only_thing_said(cards, turned_up, problem):
    from scorekeeper.rules.calls import read_showing

    showing = read_showing(wits_showdown(), cards, turned_up=turned_up)
    assert showing.problem == problem and not showing.decided


@pytest.mark.parametrize(
    "cards, shown, complete",
    [
        ([["A"], ["K", "Q", "J"]], [11, 30, None], False),  # Ann's 11 is no best suit yet: still being tapped
        ([["A", "K"], []], [21, None, None], False),  # nothing tapped for Ben
        ([["A", "K"], ["K", "Q", "J"]], [21, 30, None], True),
        ([["aces"], ["K", "Q", "J"]], ["aces", 30, None], True),
        ([["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4"], ["4", "5", "6"]], [90, 15, None], True),
    ],
)
def test_the_winner_is_named_only_when_every_best_suit_is_complete(cards, shown, complete):
    from scorekeeper.rules.calls import read_showing

    showing = read_showing(wits_showdown(), cards + [[]])
    assert showing.problem is None and showing.shown == shown and showing.complete is complete
