"""The shared core: seats, exact amounts, fewest payments, the record's
top-level checks and the hand checks every rule book shares (docs/rules.md)."""

import datetime
import json
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import InvalidRecord, Payment, Problem, fewest_payments
from scorekeeper.rules.core import (
    add,
    as_number,
    eldest,
    from_each,
    is_int,
    is_seat,
    left,
    middle,
    nothing,
    parse_set,
    seats_from_eldest,
    to_each,
)
from scorekeeper.rules.record import dump, load, parse, real_date, settle, to_json_text, validate
from support.books import MODELS
from support.profiles import examples
from support.strategies import (
    BOOK_IDS,
    HAND_BUILDERS,
    make_record,
    modern_hand,
    parlett_hand,
    problems_of,
    wits_hand,
)

F = Fraction


# ================================================================ seats


def test_seats_clockwise_from_the_dealer():
    assert [left(s) for s in (0, 1, 2)] == [1, 2, 0]
    assert [eldest(d) for d in (0, 1, 2)] == [1, 2, 0]
    assert [middle(d) for d in (0, 1, 2)] == [2, 0, 1]
    assert seats_from_eldest(0) == (1, 2, 0)
    assert seats_from_eldest(2) == (0, 1, 2)


def test_json_types_bool_and_float_are_not_ints():
    assert is_int(12) and is_int(0) and is_int(-3)
    assert not is_int(True) and not is_int(False)
    assert not is_int(12.0) and not is_int("12") and not is_int(None)
    assert all(is_seat(s) for s in (0, 1, 2))
    assert not is_seat(True) and not is_seat(False)
    assert not is_seat(3) and not is_seat(-1) and not is_seat(1.0) and not is_seat("1")


# ================================================================ amounts


def test_from_each_and_to_each():
    assert from_each(1, 2) == [-2, 4, -2]
    assert to_each(0, 7) == [-14, 7, 7]
    assert to_each(2, F(13, 2)) == [F(13, 2), F(13, 2), -13]
    # exact amounts: plain ints for whole amounts, Fractions where halves occur, never floats
    assert all(type(v) is int for v in from_each(0, 3))
    assert all(type(v) in (int, Fraction) for v in to_each(1, F(1, 2)))


def test_add_is_exact_with_halves():
    assert add() == [0, 0, 0]
    assert add(nothing(), nothing()) == [0, 0, 0]
    total = add(to_each(0, F(13, 2)), from_each(1, 2), [F(-1, 2), 0, F(1, 2)])
    assert total == [F(-31, 2), F(21, 2), 5]
    assert sum(total) == 0
    assert all(type(v) in (int, Fraction) for v in total)
    assert [type(v) for v in total] == [Fraction, Fraction, int]
    # amounts that are not whole or half still add exactly (the general path)
    assert add([F(1, 3), F(-1, 3), 0], [F(1, 6), 0, F(-1, 6)]) == [F(1, 2), F(-1, 3), F(-1, 6)]


def test_as_number_whole_as_int_half_as_float():
    assert as_number(F(7)) == 7 and type(as_number(F(7))) is int
    assert as_number(F(-14, 2)) == -7 and type(as_number(F(-14, 2))) is int
    assert as_number(F(13, 2)) == 6.5 and type(as_number(F(13, 2))) is float
    assert as_number(F(-13, 2)) == -6.5
    assert as_number(0) == 0 and type(as_number(0)) is int


def test_a_problem_is_a_named_record():
    import copy
    import pickle

    problem = Problem(2, "ruff", "ruff: x")
    assert (problem.hand, problem.key, str(problem)) == (2, "ruff", "hand 2: ruff: x")
    assert problem == Problem(hand=2, key="ruff", text="ruff: x") and Problem._fields == ("hand", "key", "text")
    assert pickle.loads(pickle.dumps(problem)) == problem and copy.deepcopy(problem) == problem
    with pytest.raises(AttributeError):
        problem.hand = 3


# ================================================================ fewest payments


def pays(payments):
    return [(p.payer, p.payee, p.amount) for p in payments]


def test_fewest_payments_none_when_all_square():
    assert fewest_payments([0, 0, 0]) == []
    assert fewest_payments([F(0), F(0), F(0)]) == []


def test_fewest_payments_one_when_a_player_is_square():
    assert pays(fewest_payments([5, -5, 0])) == [(1, 0, 5)]
    assert pays(fewest_payments([0, F(-13, 2), F(13, 2)])) == [(1, 2, F(13, 2))]


def test_fewest_payments_two_largest_first():
    # docs/record.md's example output
    assert pays(fewest_payments([3, 7, -10])) == [(2, 1, 7), (2, 0, 3)]
    assert pays(fewest_payments([-3, -7, 10])) == [(1, 2, 7), (0, 2, 3)]
    assert pays(fewest_payments([4, -1, -3])) == [(2, 0, 3), (1, 0, 1)]


def test_fewest_payments_ties_by_from_then_to():
    assert pays(fewest_payments([-5, -5, 10])) == [(0, 2, 5), (1, 2, 5)]
    assert pays(fewest_payments([5, 5, -10])) == [(2, 0, 5), (2, 1, 5)]
    assert pays(fewest_payments([-5, 10, -5])) == [(0, 1, 5), (2, 1, 5)]


def test_fewest_payments_with_halves():
    payments = fewest_payments([F(-1, 2), F(7, 2), -3])
    assert pays(payments) == [(2, 1, 3), (0, 1, F(1, 2))]
    assert [p.as_json() for p in payments] == [{"from": 2, "to": 1, "amount": 3}, {"from": 0, "to": 1, "amount": 0.5}]
    assert type(payments[0].as_json()["amount"]) is int


def test_payment_json():
    assert Payment(2, 0, F(13, 2)).as_json() == {"from": 2, "to": 0, "amount": 6.5}


# ================================================================ sets text


@pytest.mark.parametrize(
    "text, parsed",
    [
        ("gleek:A", ("gleek", "A")),
        ("mournival:10", ("mournival", "10")),
        ("gleek:4", ("gleek", "4")),
    ],
)
def test_parse_set(text, parsed):
    assert parse_set(text) == parsed


@pytest.mark.parametrize(
    "text",
    [
        "Gleek:A",
        "gleek:a",
        "gleek:3",
        "gleek:1",
        "gleek A",
        " gleek:A",
        "gleek:A ",
        "gleek:A\n",
        "mournival:",
        "",
        7,
        None,
        ["gleek:A"],
    ],
)
def test_parse_set_refuses(text):
    assert parse_set(text) is None


# ================================================================ problems


def test_problem_lines():
    assert str(Problem(3, "tricks", "tricks add up to 11, not 12")) == "hand 3: tricks add up to 11, not 12"
    assert str(Problem(None, "players", "players: seat 1 has no name")) == "players: seat 1 has no name"


def test_hand_problems_carry_their_key():
    record = make_record("parlett", [parlett_hand(), parlett_hand(tricks=[5, 4, 2])])
    [problem] = validate(record)
    assert (problem.hand, problem.key) == (2, "tricks")
    assert str(problem) == "hand 2: tricks add up to 11, not 12"


# ================================================================ top level


def valid():
    return make_record("parlett", [parlett_hand()])


def test_the_worked_example_is_valid_and_settles_exactly():
    record = valid()
    assert validate(record) == []
    assert settle(record).as_json() == {
        "rulebook": "parlett",
        "players": ["Ann", "Ben", "Cat"],
        "hands": [
            {
                "hand": 1,
                "dealer": 2,
                "phases": {
                    "tiddy": [0, 0, 0],
                    "auction": [-12, 6, 6],
                    "ruff": [-4, 6, -2],
                    "sets": [5, -4, -1],
                    "tricks": [14, -1, -13],
                },
                "total": [3, 7, -10],
            }
        ],
        "balances": [3, 7, -10],
        "payments": [{"from": 2, "to": 1, "amount": 7}, {"from": 2, "to": 0, "amount": 3}],
    }


def test_no_hands_is_a_valid_session_with_nothing_to_pay():
    record = make_record("modern", [])
    assert validate(record) == []
    assert settle(record).as_json() == {
        "rulebook": "modern",
        "players": ["Ann", "Ben", "Cat"],
        "hands": [],
        "balances": [0, 0, 0],
        "payments": [],
    }


def test_record_must_be_an_object():
    assert problems_of([1, 2]) == ["record: a session record is a JSON object, not [1, 2]"]
    assert problems_of("x") == ['record: a session record is a JSON object, not "x"']
    assert problems_of(None) == ["record: a session record is a JSON object, not null"]


@pytest.mark.parametrize("key", ["format", "rulebook", "options", "players", "hands"])
def test_required_top_level_keys(key):
    record = valid()
    del record[key]
    assert f"{key} is missing" in problems_of(record)


def test_unknown_top_level_keys():
    record = valid()
    record["colour"] = "red"
    record["hand"] = []
    assert problems_of(record) == [
        'colour: "colour" is not a key of a session record',
        'hand: "hand" is not a key of a session record',
    ]


def test_unknown_key_with_a_line_break_stays_on_one_line():
    record = valid()
    record["a\nb"] = 1
    assert problems_of(record) == ['"a\\nb": "a\\nb" is not a key of a session record']


def test_format():
    record = valid()
    record["format"] = "gleek-session/2"
    assert problems_of(record) == ['format must be "gleek-session/1", not "gleek-session/2"']


def test_unknown_rulebook_skips_the_hands():
    record = make_record("whist", [parlett_hand(tricks=[1, 1, 1])])
    every = ", ".join(BOOK_IDS)  # parlett, wits1671, modern, …
    assert problems_of(record) == [f'rulebook must be one of {every}, not "whist"']
    record["rulebook"] = None
    assert problems_of(record) == [f"rulebook must be one of {every}, not null"]


@pytest.mark.parametrize(
    "book, options, line",
    [
        ("parlett", {"tiddy": False}, 'options: "tiddy" is not an option of parlett (options: none)'),
        ("parlett", {"simplified": True}, 'options: "simplified" is not an option of parlett (options: none)'),
        ("wits1671", {"simplified": True}, 'options: "simplified" is not an option of wits1671 (options: tiddy)'),
        ("modern", {"tiddy": False}, 'options: "tiddy" is not an option of modern (options: simplified)'),
        ("wits1671", {"tiddy": "no"}, 'options: tiddy must be true or false, not "no"'),
        ("wits1671", {"tiddy": 0}, "options: tiddy must be true or false, not 0"),
        ("modern", {"simplified": None}, "options: simplified must be true or false, not null"),
        ("modern", [], "options must be an object, not []"),
    ],
)
def test_options_per_book(book, options, line):
    record = make_record(book, [], options)
    assert problems_of(record) == [line]


@pytest.mark.parametrize(
    "book, options",
    [
        ("parlett", {}),
        ("wits1671", {}),
        ("wits1671", {"tiddy": True}),
        ("wits1671", {"tiddy": False}),
        ("modern", {}),
        ("modern", {"simplified": False}),
        ("modern", {"simplified": True}),
    ],
)
def test_options_allowed(book, options):
    assert problems_of(make_record(book, [], options)) == []


def test_wrong_options_check_the_hands_with_the_defaults():
    # Tiddy is on by default, so a Tiddy holder is fine; the bad option is reported once.
    record = make_record("wits1671", [wits_hand(tiddy=1)], {"tiddy": "off"})
    assert problems_of(record) == ['options: tiddy must be true or false, not "off"']


@pytest.mark.parametrize(
    "players, lines",
    [
        (["Ann", " Ann ", "Cat"], ['players: two players are both called "Ann"']),
        (["Ann ", " Ann", "Cat"], ['players: two players are both called "Ann"']),
        (["Ann", "Ben", "Ann"], ['players: two players are both called "Ann"']),
        (["Ann", "", "Cat"], ["players: seat 1 has no name"]),
        (["Ann", "Ben", "   "], ["players: seat 2 has no name"]),
        (["Ann", "Ben", "x" * 41], ["players: seat 2's name is 41 characters long; at most 40"]),
        ([" " + "y" * 42, "Ben", "Cat"], ["players: seat 0's name is 42 characters long; at most 40"]),
        (["Ann", 7, "Cat"], ["players: seat 1's name must be text, not 7"]),
        ([None, "Ben", "Cat"], ["players: seat 0's name must be text, not null"]),
        (["Ann", "Ben"], ['players must be a list of three names in seat order, not ["Ann", "Ben"]']),
        (
            ["Ann", "Ben", "Cat", "Dan"],
            ['players must be a list of three names in seat order, not ["Ann", "Ben", "Cat", "Dan"]'],
        ),
        ("Ann, Ben, Cat", ['players must be a list of three names in seat order, not "Ann, Ben, Cat"']),
    ],
)
def test_players(players, lines):
    record = make_record("parlett", [], players=players)
    assert problems_of(record) == lines


def test_names_are_trimmed_and_case_matters():
    record = make_record("parlett", [parlett_hand()], players=[" Ann", "ann ", "x" * 40])
    assert problems_of(record) == []
    assert settle(record).as_json()["players"] == ["Ann", "ann", "x" * 40]
    record["players"] = ["  " + "z" * 40 + "  ", "Ben", "Cat"]
    assert problems_of(record) == []


def test_bad_players_name_seats_in_hand_problems():
    # dealer 2: eldest is seat 0, so seat 1 buying at 12 is wrong
    hand = parlett_hand(auction={"buyer": 1, "price": 12})
    record = make_record("parlett", [hand], players=["Ann", "Ann", "Cat"])
    assert problems_of(record) == [
        'players: two players are both called "Ann"',
        "hand 1: auction: seat 1 is not eldest, so bought at 14 or more, not 12 (eldest opens at 12)",
    ]
    record["players"] = ["Ann", "Ben", "Cat"]
    assert problems_of(record) == [
        "hand 1: auction: Ben is not eldest, so bought at 14 or more, not 12 (eldest opens at 12)"
    ]


@given(
    st.dates(min_value=datetime.date(1, 1, 1)) | st.tuples(st.integers(0, 9999), st.integers(0, 99), st.integers(0, 99))
)
@settings(max_examples=examples(400), deadline=None)
def test_real_dates_are_the_calendars(value):
    """The hand-counted calendar of ``real_date`` agrees with ``datetime.date``."""
    text = value.isoformat() if isinstance(value, datetime.date) else "%04d-%02d-%02d" % value
    try:
        datetime.date.fromisoformat(text)
        expected = True
    except ValueError:
        expected = False
    assert real_date(text) == expected, text


@pytest.mark.parametrize(
    "played_on, lines",
    [
        ("2026-02-28", []),
        ("2024-02-29", []),
        ("1671-03-25", []),
        ("2026-02-30", ["played_on: 2026-02-30 is not a real date"]),
        ("2025-02-29", ["played_on: 2025-02-29 is not a real date"]),
        ("2026-13-01", ["played_on: 2026-13-01 is not a real date"]),
        ("2026-04-31", ["played_on: 2026-04-31 is not a real date"]),
        ("2026-2-3", ['played_on must be a date "YYYY-MM-DD", not "2026-2-3"']),
        ("03/02/2026", ['played_on must be a date "YYYY-MM-DD", not "03/02/2026"']),
        ("2026-02-01\n", ['played_on must be a date "YYYY-MM-DD", not "2026-02-01\\n"']),
        ("2026-02-01T10:00", ['played_on must be a date "YYYY-MM-DD", not "2026-02-01T10:00"']),
        (20260203, ['played_on must be a date "YYYY-MM-DD", not 20260203']),
        (None, ['played_on must be a date "YYYY-MM-DD", not null']),
    ],
)
def test_played_on_is_a_real_calendar_date(played_on, lines):
    assert problems_of(make_record("parlett", [], played_on=played_on)) == lines


def test_title_is_text():
    assert problems_of(make_record("parlett", [], title="Twelfth Night")) == []
    assert problems_of(make_record("parlett", [], title=7)) == ["title must be text, not 7"]


PER = 'stake: per_counter must be a decimal string above 0 such as "0.25", not '
CUR = 'stake: currency must be "d" (old pence) or a three-letter code such as "EUR", not '


@pytest.mark.parametrize(
    "stake, lines",
    [
        ({"per_counter": "0.25", "currency": "d"}, []),
        ({"per_counter": "1", "currency": "EUR"}, []),
        ({"per_counter": "0.05", "currency": "EUR"}, []),
        ({"per_counter": "0", "currency": "d"}, [PER + '"0"']),
        ({"per_counter": "0.000", "currency": "d"}, [PER + '"0.000"']),
        ({"per_counter": "0.00", "currency": "d"}, [PER + '"0.00"']),
        ({"per_counter": "-1", "currency": "d"}, [PER + '"-1"']),
        ({"per_counter": ".5", "currency": "d"}, [PER + '".5"']),
        ({"per_counter": "1e3", "currency": "d"}, [PER + '"1e3"']),
        ({"per_counter": "0.25\n", "currency": "d"}, [PER + '"0.25\\n"']),
        ({"per_counter": 0.25, "currency": "d"}, [PER + "0.25"]),
        ({"per_counter": 1, "currency": "d"}, [PER + "1"]),
        ({"per_counter": "1", "currency": "eur"}, [CUR + '"eur"']),
        ({"per_counter": "1", "currency": "EURO"}, [CUR + '"EURO"']),
        ({"per_counter": "1", "currency": "EUR\n"}, [CUR + '"EUR\\n"']),
        ({"per_counter": "1", "currency": "D"}, [CUR + '"D"']),
        ({"per_counter": "0", "currency": "£"}, [PER + '"0"', CUR + '"£"']),
        (
            {"per_counter": "0.25"},
            ['stake must be {"per_counter": "0.25", "currency": "d"}, not {"per_counter": "0.25"}'],
        ),
        ("0.25", ['stake must be {"per_counter": "0.25", "currency": "d"}, not "0.25"']),
    ],
)
def test_stake(stake, lines):
    assert problems_of(make_record("parlett", [], stake=stake)) == lines


@pytest.mark.parametrize("per_counter", ["9" * 5000, "0." + "0" * 5000 + "1", "0" * 5000])
def test_a_stake_of_thousands_of_digits_is_checked_without_raising(per_counter):
    # Fraction("9" * 5000) raises ValueError (Python's 4,300-digit limit): validation
    # must answer with a problem line, or none, never an exception.
    lines = problems_of(make_record("parlett", [], stake={"per_counter": per_counter, "currency": "EUR"}))
    assert all(line.startswith("stake: per_counter ") for line in lines)
    if per_counter.strip("0.") == "":
        assert len(lines) == 1


def test_hands_must_be_a_list_of_objects():
    assert problems_of(make_record("parlett", {})) == ["hands must be a list, not {}"]
    assert problems_of(make_record("parlett", [parlett_hand(), 7])) == [
        "hand 2: is not a hand (an object with dealer, trump, …), but 7"
    ]


# ================================================================ every book: keys and types


@pytest.mark.parametrize("book", BOOK_IDS)
def test_every_required_hand_key(book):
    for key in MODELS[book].keys:
        hand = HAND_BUILDERS[book]()
        del hand[key]
        lines = problems_of(make_record(book, [hand]))
        assert f"hand 1: {key} is missing" in lines, (key, lines)
        assert all(line.startswith("hand 1: ") for line in lines)


@pytest.mark.parametrize(
    "book, key",
    [
        ("parlett", "colour"),
        ("parlett", "card_points"),
        ("parlett", "tib"),
        ("parlett", "last_trick"),
        ("wits1671", "card_points"),
        ("modern", "honours"),
        ("modern", "turned_up"),
        ("modern", "notes"),
    ],
)
def test_unknown_hand_keys_including_another_books(book, key):
    hand = HAND_BUILDERS[book]()
    hand[key] = 1
    assert problems_of(make_record(book, [hand])) == [f"hand 1: {key} is not part of a {book} hand"]


@pytest.mark.parametrize("book", BOOK_IDS)
def test_note_is_optional_text(book):
    assert problems_of(make_record(book, [HAND_BUILDERS[book](note="re-dealt once")])) == []
    assert problems_of(make_record(book, [HAND_BUILDERS[book](note=5)])) == ["hand 1: note must be text, not 5"]


@pytest.mark.parametrize("book", BOOK_IDS)
@pytest.mark.parametrize(
    "dealer, shown",
    [(3, "3"), (-1, "-1"), (True, "true"), (False, "false"), (1.0, "1.0"), ("1", '"1"'), (None, "null")],
)
def test_dealer_is_a_seat(book, dealer, shown):
    # buyer 0 at the opening price is eldest only if dealer is 2: the eldest check
    # needs the dealer, so with a wrong dealer it is skipped, not reported too.
    hand = HAND_BUILDERS[book](dealer=dealer)
    assert problems_of(make_record(book, [hand])) == [f"hand 1: dealer must be a seat (0, 1 or 2), not {shown}"]


@pytest.mark.parametrize(
    "book, trump, suits",
    [
        ("parlett", "none", "clubs, diamonds, hearts, spades"),
        ("wits1671", "Hearts", "clubs, diamonds, hearts, spades"),
        ("modern", "stars", "clubs, diamonds, hearts, spades, none"),
        ("modern", None, "clubs, diamonds, hearts, spades, none"),
    ],
)
def test_trump(book, trump, suits):
    hand = HAND_BUILDERS[book](trump=trump)
    assert problems_of(make_record(book, [hand])) == [f"hand 1: trump must be one of {suits}, not {json.dumps(trump)}"]


# ================================================================ every book: tricks


@pytest.mark.parametrize("book", BOOK_IDS)
@pytest.mark.parametrize(
    "tricks, line",
    [
        ([5, 4, 2], "tricks add up to 11, not 12"),
        ([5, 4, 4], "tricks add up to 13, not 12"),
        ([13, -1, 0], "tricks cannot be negative ([13, -1, 0])"),
        ([6, 6], "tricks must be three whole numbers, one per seat, not [6, 6]"),
        ([5.0, 4, 3], "tricks must be three whole numbers, one per seat, not [5.0, 4, 3]"),
        ([True, 8, 3], "tricks must be three whole numbers, one per seat, not [true, 8, 3]"),
        ("543", 'tricks must be three whole numbers, one per seat, not "543"'),
    ],
)
def test_tricks(book, tricks, line):
    # Every check that needs tricks (Tib's holder, card points, tib/tom/last
    # trick winners) is skipped, so this is the only line.
    hand = HAND_BUILDERS[book](tricks=tricks)
    assert problems_of(make_record(book, [hand])) == [f"hand 1: {line}"]


# ================================================================ every book: sets


@pytest.mark.parametrize(
    "book, ranks", [("parlett", "A K Q J"), ("wits1671", "A K Q J"), ("modern", "A K Q J 10 9 8 7 6 5 4")]
)
@pytest.mark.parametrize("text", ["Gleek:K", "gleek:k", "pair:K", "gleek:3", "gleek:K\n"])
def test_a_set_is_gleek_or_mournival_of_a_rank_of_the_book(book, ranks, text):
    hand = HAND_BUILDERS[book](sets=[[text], [], []])
    assert problems_of(make_record(book, [hand])) == [
        f'hand 1: sets: Ann declares {json.dumps(text)}; a set is "gleek:R" or "mournival:R" with R one of {ranks}'
    ]


@pytest.mark.parametrize("book", [b for b in BOOK_IDS if "10" not in MODELS[b].set_ranks])
def test_numeral_sets_only_in_modern(book):
    hand = HAND_BUILDERS[book](sets=[[], ["gleek:10"], []])
    assert problems_of(make_record(book, [hand])) == [
        'hand 1: sets: Ben declares "gleek:10"; a set is "gleek:R" or "mournival:R" with R one of A K Q J'
    ]
    modern = modern_hand(sets=[[], ["gleek:10"], []])
    assert problems_of(make_record("modern", [modern])) == []


@pytest.mark.parametrize("book", BOOK_IDS)
@pytest.mark.parametrize(
    "sets, line",
    [
        ([[], [], 7], "sets must be three lists, one per seat, not [[], [], 7]"),
        ([[], []], "sets must be three lists, one per seat, not [[], []]"),
        ({}, "sets must be three lists, one per seat, not {}"),
        ([[7], [], []], "sets: Ann declares 7; a set is"),
        ([["gleek:K", "gleek:K"], [], []], "sets: Ann declares two sets of Kings"),
        ([[], ["gleek:Q", "mournival:Q"], []], "sets: Ben declares two sets of Queens"),
        ([["gleek:K"], ["gleek:K"], []], "sets declare 6 Kings, but only 4 are in play"),
        ([["gleek:J"], [], ["gleek:J"]], "sets declare 6 Jacks, but only 4 are in play"),
    ],
)
def test_sets_shape_and_counts(book, sets, line):
    hand = HAND_BUILDERS[book](sets=sets)
    lines = problems_of(make_record(book, [hand]))
    assert len(lines) == 1 and lines[0].startswith(f"hand 1: {line}"), lines


@pytest.mark.parametrize("book", [b for b in BOOK_IDS if MODELS[b].turned_up])
def test_a_seat_holds_twelve_cards(book):
    honours = {"A": 0, "K": 0, "Q": 0, "J": 1}
    sets = [["mournival:A", "mournival:K", "gleek:Q"], [], []]  # 11 cards: fine
    assert problems_of(make_record(book, [HAND_BUILDERS[book](honours=honours, sets=sets)])) == []
    sets = [["mournival:A", "mournival:K", "mournival:Q"], [], []]  # 12 cards: fine
    assert problems_of(make_record(book, [HAND_BUILDERS[book](honours=honours, sets=sets)])) == []
    sets = [["mournival:A", "mournival:K", "gleek:Q", "gleek:J"], [], []]  # 14 cards
    assert problems_of(make_record(book, [HAND_BUILDERS[book](honours=honours, sets=sets)])) == [
        "hand 1: sets: Ann declares sets of 14 cards but holds only 12"
    ]


# ================================================================ the command line


def run_settle(stdin):
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", "settle", "-"], input=stdin, capture_output=True, text=True
    )


def test_cli_prints_every_problem_one_per_line():
    hands = [parlett_hand(dealer=True), parlett_hand(tricks=[5, 4, 2], honours={"A": 0, "K": 0, "Q": 0})]
    record = make_record("parlett", hands, players=["Ann", "Ben", "Ann"], played_on="2026-02-30", extra=1)
    result = run_settle(json.dumps(record))
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        'extra: "extra" is not a key of a session record',
        'players: two players are both called "Ann"',
        "played_on: 2026-02-30 is not a real date",
        "hand 1: dealer must be a seat (0, 1 or 2), not true",
        "hand 2: tricks add up to 11, not 12",
        "hand 2: honours: who played Tom (Jack)? (J missing)",
    ]


def test_cli_output_of_halves():
    record = make_record("wits1671", [wits_hand(auction={"buyer": 1, "price": 17})])
    result = run_settle(json.dumps(record))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["hands"][0]["phases"]["auction"] == [8.5, -17, 8.5]
    assert type(out["hands"][0]["phases"]["auction"][0]) is float
    assert type(out["hands"][0]["phases"]["auction"][1]) is int


# ================================================================ load and dump


def test_astronomical_odd_price_is_settled_exactly():
    """No rule bounds a price: an odd price of 10**400 + 1 is valid, and its half
    counters (beyond any float) are written out exactly in settle's JSON."""
    record = make_record("wits1671", [wits_hand(auction={"buyer": 0, "price": 10**400 + 1})])
    assert validate(record) == []
    text = to_json_text(settle(record).as_json())
    half = str(10**400 // 2)  # 10**400 + 1 halved: 5000…0.5
    assert f'"auction":[-{10**400 + 1},{half}.5,{half}.5]' in text
    assert json.loads(text)["hands"][0]["phases"]["auction"][0] == -(10**400 + 1)


def test_load_dump_round_trip():
    record = make_record(
        "wits1671",
        [wits_hand(note="Ann’s deal — ½ a counter short")],
        {"tiddy": False},
        title="Twelfth Night",
        played_on="1671-01-06",
        stake={"per_counter": "0.25", "currency": "d"},
        players=["Ann ", "Ben", "Cat"],
    )
    text = dump(record)
    assert text.endswith("\n")
    assert load(text) == record
    assert load(text.encode()) == record


@pytest.mark.parametrize("text", ['{"format": NaN}', '{"a": Infinity}', "{", "", b"\xff\xfe\x00"])
def test_load_refuses_what_is_not_json(text):
    with pytest.raises(InvalidRecord) as refused:
        load(text)
    [problem] = refused.value.problems
    assert str(problem).startswith("record: not valid JSON")


def test_load_refuses_an_invalid_record_with_every_problem():
    record = make_record("parlett", [parlett_hand(tricks=[5, 4, 2])], title=3)
    with pytest.raises(InvalidRecord) as refused:
        load(json.dumps(record))
    assert [str(p) for p in refused.value.problems] == [
        "title must be text, not 3",
        "hand 1: tricks add up to 11, not 12",
    ]
    assert parse(json.dumps(record)) == record


def test_a_name_with_a_line_break_never_splits_a_problem_line():
    record = make_record(
        "parlett", [parlett_hand(dealer=1, auction={"buyer": 0, "price": 12})], players=["A\nB", "C", "D"]
    )
    problems = [str(p) for p in validate(record)]
    assert problems == ['hand 1: auction: "A\\nB" is not eldest, so bought at 14 or more, not 12 (eldest opens at 12)']
    assert all("\n" not in p for p in problems)
