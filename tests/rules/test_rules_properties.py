"""Properties of the rules engine over random valid records of every rule book
(tests/support/strategies.py), and over random corruptions of them.

The valid-record properties check the engine against a small independent
re-statement of docs/rules.md (``support.books``: each book, and ``expected_phases``), plus settle's invariants:
zero-sum phases and hands, balances that are the sums of the hands, at most two
payments that settle them, a lossless dump/load, and JSON amounts that are whole
or halves. The corruption properties check that a record with one field made
wrong is always refused with at least one problem, and that validation never
raises.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import subprocess
import sys
import tempfile
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.__main__ import main
from scorekeeper.rules import BOOKS
from scorekeeper.rules.record import dump, load, settle, validate
from support.books import HONOUR_POINTS, HONOURS, MODELS, RANKS, SUITS, eldest, expected_phases
from support.profiles import examples
from support.strategies import BOOK_IDS, records

# Modest, so the whole file runs in well under half a minute on 2 cores: a test
# parametrized by rule book runs 100 examples per book, one parametrized by
# corruption 20 per corruption, the others 150-200.
PER_BOOK = settings(max_examples=examples(100), deadline=None, suppress_health_check=[HealthCheck.too_slow])
SETTINGS = settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
PER_CORRUPTION = settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.too_slow])

TOP_KEYS = ("format", "rulebook", "options", "players", "hands")


# ================================================================ valid records


@pytest.mark.parametrize("book", BOOK_IDS)
@PER_BOOK
@given(data=st.data())
def test_random_valid_records_validate_and_settle_by_the_book(book, data):
    """validate() finds nothing; every phase is the rule book's amount, zero-sum and
    exact; totals are the sums of the phases and balances the sums of the totals."""
    record = data.draw(records(book))
    assert validate(record) == []
    result = settle(record)
    options = record["options"]
    balance = [Fraction(0)] * 3
    for hand, got in zip(record["hands"], result.hands):
        expected = expected_phases(book, options, hand)
        assert got.phases == expected
        for amounts in [*got.phases.values(), got.total]:
            assert sum(amounts) == 0
            assert all(type(a) in (int, Fraction) and (2 * a).denominator == 1 for a in amounts)
        assert got.total == [sum(p[s] for p in got.phases.values()) for s in range(3)]
        if MODELS[book].count == "par":
            # 12 tricks of 3 cards and 30 for the honours: 66, less any discarded honour
            discarded = sum(HONOUR_POINTS[r] for r, s in hand["honours"].items() if s is None)
            assert sum(BOOKS[book].points(hand)) == 66 - discarded == 3 * BOOKS[book].par(hand)
            if not MODELS[book].honours_nullable:
                assert discarded == 0 and BOOKS[book].par(hand) == 22
        balance = [b + t for b, t in zip(balance, got.total)]
    assert result.balances == balance
    assert result.running[-1:] == ([balance] if record["hands"] else [])
    assert len(result.hands) == len(record["hands"])


@FEWER
@given(record=records())
def test_payments_settle_the_balances(record):
    result = settle(record)
    payments = result.payments
    balances = list(result.balances)
    assert len(payments) <= 2
    assert len(payments) == {0: 0, 1: 0, 2: 1, 3: 2}[sum(1 for b in balances if b != 0)]
    for p in payments:
        assert balances[p.payer] < 0 < balances[p.payee]
        assert p.amount > 0 and (2 * p.amount).denominator == 1
    assert [(-p.amount, p.payer, p.payee) for p in payments] == sorted((-p.amount, p.payer, p.payee) for p in payments)
    for p in payments:
        balances[p.payer] += p.amount
        balances[p.payee] -= p.amount
    assert balances == [0, 0, 0]


@FEWER
@given(record=records())
def test_dump_load_round_trip(record):
    text = dump(record)
    again = load(text)
    assert again == record
    assert dump(again) == text
    assert settle(again).as_json() == settle(record).as_json()


def is_amount(value) -> bool:
    """A JSON amount: an int, or a float that is a whole number and a half."""
    if type(value) is int:
        return True
    return type(value) is float and not value.is_integer() and (2 * value).is_integer()


def output_amounts(out: dict):
    for hand in out["hands"]:
        for amounts in hand["phases"].values():
            yield from amounts
        yield from hand["total"]
    yield from out["balances"]
    for payment in out["payments"]:
        yield payment["amount"]


def settle_in_process(record) -> tuple[int, str, str]:
    """``python -m scorekeeper settle FILE``'s own ``main``, without a new interpreter."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "session.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(dump(record))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["settle", path])
    return status, out.getvalue(), err.getvalue()


@FEWER
@given(record=records())
def test_cli_output_amounts_are_whole_or_halves(record):
    status, out, err = settle_in_process(record)
    assert (status, err) == (0, "")
    result = json.loads(out)
    assert result == settle(record).as_json()
    assert result["players"] == [n.strip() for n in record["players"]]
    assert all(is_amount(a) for a in output_amounts(result))
    for hand in result["hands"]:
        assert sum(hand["total"]) == 0
        assert all(sum(amounts) == 0 for amounts in hand["phases"].values())


@settings(max_examples=examples(8), deadline=None)
@given(record=records(max_hands=3))
def test_cli_subprocess(record):
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "settle", "-"],
        input=dump(record),
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert json.loads(result.stdout) == settle(record).as_json()


# ================================================================ corruptions

SEAT_LIKE_WRONG = (3, -1, 7, True, False, 1.0, 0.0, "0", "1", [0], {"seat": 0})
NOT_TEXT = (7, 1.5, True, None, [], {})


def pick(draw, options):
    return draw(st.sampled_from(list(options)))


def other_seat_with(tricks, want_zero: bool):
    return [s for s in range(3) if (tricks[s] == 0) == want_zero]


# Each corruption changes a valid record so that it is ALWAYS invalid, and
# returns the 1-based hand it broke (None for the top level).


def c_drop_top_key(draw, record, book):
    del record[pick(draw, TOP_KEYS)]


def c_unknown_top_key(draw, record, book):
    key = draw(
        st.text(st.characters(whitelist_categories=("Ll", "Lu", "Nd", "Pc")), min_size=1, max_size=12).filter(
            lambda k: k not in TOP_KEYS + ("title", "played_on", "stake")
        )
    )
    record[key] = draw(st.one_of(st.none(), st.integers(), st.text(max_size=5)))


def c_format(draw, record, book):
    record["format"] = pick(draw, ("gleek-session/2", "", "GLEEK-SESSION/1", "gleek-session/1 ", 1, None, {}))


def c_rulebook(draw, record, book):
    record["rulebook"] = pick(draw, ("whist", "Parlett", "modern ", "", 0, None, ["parlett"]))


def c_options(draw, record, book):
    names = sorted(MODELS[book].option_names)
    choice = draw(st.integers(0, 2))
    if choice == 0 or not names:
        others = [n for n in ("colour", "Tiddy", "towser", "simplified", "tiddy") if n not in names]
        record["options"] = {**record["options"], pick(draw, others): True}
    elif choice == 1:
        record["options"] = {pick(draw, names): pick(draw, (0, 1, "true", "false", None, [], 1.0))}
    else:
        record["options"] = pick(draw, ([], "tiddy", None, 0, True))


def c_players(draw, record, book):
    players = record["players"]
    choice = draw(st.integers(0, 7))
    seat = draw(st.integers(0, 2))
    if choice == 0:
        other = (seat + 1) % 3
        players[seat] = " " + players[other].strip() + "  "
    elif choice == 1:
        players[seat] = pick(draw, ("", " ", "\t \t"))
    elif choice == 2:
        players[seat] = "x" * draw(st.integers(41, 80))
    elif choice == 3:
        players[seat] = pick(draw, NOT_TEXT)
    elif choice == 4:
        del players[seat]
    elif choice == 5:
        players.append("Zachary the Fourth")
    elif choice == 6:
        record["players"] = ", ".join(players)
    else:
        record["players"] = {str(s): n for s, n in enumerate(players)}


def c_played_on(draw, record, book):
    record["played_on"] = pick(
        draw,
        (
            "2026-02-30",
            "2025-02-29",
            "2026-13-01",
            "2026-00-10",
            "2026-2-3",
            "26-02-03",
            "2026-02-03\n",
            "2026/02/03",
            "",
            20260203,
            None,
        ),
    )


def c_title(draw, record, book):
    record["title"] = pick(draw, NOT_TEXT)


def c_stake(draw, record, book):
    stake = dict(record.get("stake") or {"per_counter": "1", "currency": "d"})
    choice = draw(st.integers(0, 3))
    if choice == 0:
        stake["per_counter"] = pick(draw, ("0", "0.0", "-1", ".5", "1.", "1e2", "one", 0.25, 1, None, " 1"))
    elif choice == 1:
        stake["currency"] = pick(draw, ("", "eur", "EURO", "€", "D", "EU", 978, None))
    elif choice == 2:
        del stake[pick(draw, ("per_counter", "currency"))]
    else:
        stake["symbol"] = "£"
    record["stake"] = stake


def c_hands(draw, record, book):
    record["hands"] = pick(draw, ({}, "hands", 3, None, True))


def hand_of(draw, record):
    index = draw(st.integers(0, len(record["hands"]) - 1))
    return index, record["hands"][index]


def c_not_a_hand(draw, record, book):
    index, _ = hand_of(draw, record)
    record["hands"][index] = pick(draw, (None, 0, "hand", [], ["dealer", 0], True))
    return index + 1


def c_drop_hand_key(draw, record, book):
    index, hand = hand_of(draw, record)
    del hand[pick(draw, MODELS[book].keys)]
    return index + 1


def c_unknown_hand_key(draw, record, book):
    index, hand = hand_of(draw, record)
    known = set(MODELS[book].keys) | set(MODELS[book].optional_keys) | {"note"}
    others = {k for m in MODELS.values() for k in m.keys + m.optional_keys} - known
    key = draw(
        st.one_of(
            st.sampled_from(sorted(others | {"colour", "Note", "notes", "hand"})),
            st.text(st.characters(whitelist_categories=("Ll", "Nd")), min_size=1, max_size=8).filter(
                lambda k: k not in known
            ),
        )
    )
    hand[key] = draw(st.one_of(st.none(), st.integers(0, 2)))
    return index + 1


def c_seat(draw, record, book):
    index, hand = hand_of(draw, record)
    hand[pick(draw, MODELS[book].seat_keys)] = pick(draw, SEAT_LIKE_WRONG)
    return index + 1


def c_trump(draw, record, book):
    index, hand = hand_of(draw, record)
    wrong = ["stars", "Hearts", "", None, 1, ["hearts"], "no trumps"] + (
        ["none"] if "none" not in MODELS[book].trumps else []
    )
    hand["trump"] = pick(draw, wrong)
    return index + 1


def c_turned_up(draw, record, book):
    index, hand = hand_of(draw, record)
    if not MODELS[book].turned_up:
        hand["turned_up"] = pick(draw, RANKS)  # not a key of a modern hand
    else:
        hand["turned_up"] = pick(draw, ("3", "1", "a", "k", "", "10 ", 4, 10, None, ["A"]))
    return index + 1


def c_tricks(draw, record, book):
    index, hand = hand_of(draw, record)
    tricks = hand["tricks"]
    choice = draw(st.integers(0, 5))
    seat = draw(st.integers(0, 2))
    if choice == 0:
        tricks[seat] += draw(st.integers(-12, 12).filter(lambda d: d != 0))
    elif choice == 1:
        tricks[seat] = float(tricks[seat])
    elif choice == 2:
        tricks[seat] = str(tricks[seat])
    elif choice == 3:
        del tricks[seat]
    elif choice == 4:
        tricks.append(0)
    else:
        hand["tricks"] = "".join(str(t) for t in tricks)
    return index + 1


def c_auction(draw, record, book, rules=False):
    """Types and shape of the auction; with ``rules``, its price rules instead."""
    index, hand = hand_of(draw, record)
    m = MODELS[book]
    opening = m.opening
    simplified = m.off(record["options"], "auction")
    auction = copy.deepcopy(hand["auction"]) or {"buyer": 0, "price": 20}
    if rules:
        choices = ["below"]
        if m.even:
            choices.append("odd")
        if m.eldest_opens:
            choices += ["null", "not eldest"]
        if m.eldest_opens and m.exact:
            choices.append("unreachable")
        if simplified:
            choices.append("simplified")
    else:
        choices = ["float", "bool", "buyer", "extra", "missing", "shape"]
    choice = pick(draw, choices)
    if choice == "below":
        auction["price"] = opening - draw(st.integers(1, 30))
    elif choice == "float":
        auction["price"] = float(auction["price"])
    elif choice == "bool":
        auction["price"] = True
    elif choice == "buyer":
        auction["buyer"] = pick(draw, SEAT_LIKE_WRONG)
    elif choice == "extra":
        auction["bids"] = [opening]
    elif choice == "missing":
        del auction[pick(draw, ("buyer", "price"))]
    elif choice == "shape":
        auction = pick(draw, ([auction["buyer"], auction["price"]], auction["price"], "Ann", True))
    elif choice == "odd":
        auction["price"] += 1
    elif choice == "null":
        auction = None
    elif choice == "not eldest":
        # eldest may buy at the opening bid; anybody else paid at least one step more
        auction = {"buyer": pick(draw, [s for s in range(3) if s != eldest(hand["dealer"])]), "price": opening}
    elif choice == "unreachable":
        # no bidding reaches these: eldest one step above the opening, middle two
        step = m.step
        position = pick(draw, (0, 1))
        auction = {"buyer": (hand["dealer"] + 1 + position) % 3, "price": opening + (position + 1) * step}
    # "simplified": any auction at all is wrong, which the dict already is
    hand["auction"] = auction
    return index + 1


def c_auction_price(draw, record, book):
    return c_auction(draw, record, book, rules=True)


def c_ruff(draw, record, book, rules=False):
    """Types and shape of the ruff; with ``rules``, what a loser may pay instead."""
    m = MODELS[book]
    if rules and m.doubles:
        hands = record["hands"]
        if len(hands) >= 2 and draw(st.booleans()):
            # null ruffs (always valid here) just before the last: S (or M) doubles for each
            for quiet in hands[len(hands) - 1 - draw(st.integers(1, len(hands) - 1)) : -1]:
                quiet["ruff"] = None
        # the hand with the highest opening stake, the one most worth testing
        stakes = [m.opening_of(hands, i) for i in range(len(hands))]
        index = max(range(len(stakes)), key=lambda i: stakes[i])
        hand = record["hands"][index]
    else:
        index, hand = hand_of(draw, record)
    simplified = m.off(record["options"], "ruff")
    opening = m.opening_of(record["hands"], index)
    ruff = copy.deepcopy(hand["ruff"]) or {"winner": 0, "paid": [0, 2, 2]}
    winner = ruff["winner"]
    loser = pick(draw, [s for s in range(3) if s != winner])
    if rules:
        choices = ["amount"]
        if m.ruff_null is None and not simplified:
            choices.append("null")
    else:
        choices = ["float", "winner pays", "winner", "short", "extra", "shape"]
    choice = pick(draw, choices)
    if choice == "amount":  # an amount no loser of this book pays at this hand's stake
        paid = ruff["paid"][loser]
        wrong = [
            a
            for a in (paid + 1, paid - 1, paid + 3, opening - 1, opening + 1, 3 * opening, 1, 0, -1, -2)
            if not m.stake_ok(a, opening)
        ]
        ruff["paid"][loser] = pick(draw, wrong)
    elif choice == "float":
        ruff["paid"][loser] = float(ruff["paid"][loser])
    elif choice == "winner pays":
        ruff["paid"][winner] = draw(st.integers(1, 20))
    elif choice == "winner":
        ruff["winner"] = pick(draw, SEAT_LIKE_WRONG)
    elif choice == "short":
        ruff["paid"] = ruff["paid"][:2]
    elif choice == "extra":
        ruff["stake"] = 2
    elif choice == "shape":
        ruff = pick(draw, (ruff["paid"], winner, "Ben", True))
    elif choice == "null":
        ruff = None
    if simplified and ruff is None:
        ruff = {"winner": 0, "paid": [0, 2, 2]}
    hand["ruff"] = ruff
    return index + 1


def c_ruff_stake(draw, record, book):
    return c_ruff(draw, record, book, rules=True)


def c_sets(draw, record, book):
    index, hand = hand_of(draw, record)
    ranks = MODELS[book].set_ranks
    seat = draw(st.integers(0, 2))
    choice = draw(st.integers(0, 5))
    if choice == 0:
        hand["sets"] = pick(draw, ("gleek:A", [[], []], [[], [], [], []], {}, None, [[], [], "gleek:K"]))
    elif choice == 1:
        bad = ["gleek:3", "Gleek:A", "gleek:a", "gleek:A\n", "three:K", "gleek", 5, None, ["gleek:A"]]
        if "10" not in ranks:
            bad += ["gleek:10", "mournival:4"]
        hand["sets"][seat].append(pick(draw, bad))
    elif choice in (2, 3):
        # two sets of one rank: by one seat (choice 2) or two seats (6+ cards of 4)
        rank = pick(draw, ranks)
        for declared in hand["sets"]:
            declared[:] = [t for t in declared if not t.endswith(":" + rank)]
        other = seat if choice == 2 else (seat + 1) % 3
        hand["sets"][seat].append("gleek:" + rank)
        hand["sets"][other].append(pick(draw, ("gleek:", "mournival:")) + rank)
    elif choice == 4:
        # five sets: at least 15 cards, more than any seat holds
        pool = [r for r in ranks if all(not t.endswith(":" + r) for s in hand["sets"] for t in s)]
        if len(ranks) > 4 and len(pool) >= 5:
            hand["sets"][seat] += ["gleek:" + r for r in pool[:5]]
        else:
            hand["sets"] = [["gleek:A", "gleek:A"], [], []]
    else:
        hand["sets"] = [list(s) for s in hand["sets"]]
        hand["sets"][seat] = pick(draw, ("gleek:A", None, 3, {"gleek": "A"}))
    return index + 1


def c_honours(draw, record, book):
    index, hand = hand_of(draw, record)
    if not MODELS[book].turned_up:
        hand["honours"] = {"A": 0}
        return index + 1
    honours = hand["honours"]
    zero = other_seat_with(hand["tricks"], want_zero=True)
    choices = ["drop", "extra", "value", "shape"]
    if not MODELS[book].honours_nullable:
        choices.append("null")
    if zero and "A" in honours:
        choices.append("tib without a trick")
    choice = pick(draw, choices)
    if choice == "drop":
        del honours[pick(draw, sorted(honours))]
    elif choice == "extra":
        extra = hand["turned_up"] if hand["turned_up"] in HONOURS else pick(draw, ("10", "4", "Tib", "a"))
        honours[extra] = draw(st.integers(0, 2))
    elif choice == "value":
        honours[pick(draw, sorted(honours))] = pick(draw, SEAT_LIKE_WRONG)
    elif choice == "shape":
        hand["honours"] = pick(draw, (list(honours.values()), None, "A", 0))
    elif choice == "null":
        honours[pick(draw, sorted(honours))] = None
    else:
        honours["A"] = pick(draw, zero)
    return index + 1


def c_tiddy_must_be_null(draw, record, book):
    """Tiddy (or another card paid for by itself) given a holder where nobody may
    have it: turned up, its option off, or no trumps (Kiss)."""
    index, hand = hand_of(draw, record)
    m = MODELS[book]
    card = pick(draw, m.side_cards)
    if not m.turned_up:
        hand["trump"] = "none"
    elif card.option and record["options"].get(card.option, True) is False and draw(st.booleans()):
        pass  # off: no holder at all
    else:
        hand["turned_up"] = card.rank
        for other in m.side_cards:  # another card of that rank is no longer anybody's
            if other is not card:
                hand[other.key] = None if other.rank == card.rank else hand[other.key]
    hand[card.key] = draw(st.integers(0, 2))
    return index + 1


def c_card_points(draw, record, book):
    index, hand = hand_of(draw, record)
    if MODELS[book].count != "pairwise":
        hand["card_points"] = [80, 70, 60]
        return index + 1
    points = hand["card_points"]
    seat = draw(st.integers(0, 2))
    choice = draw(st.integers(0, 5))
    if choice == 0:
        points[seat] += draw(st.integers(253, 1000))  # the sum passes 252
    elif choice == 1:
        hand["card_points"] = [0, 0, 0]  # under 192
    elif choice == 2:
        points[seat] = -draw(st.integers(1, 50))
    elif choice == 3:
        points[seat] = float(points[seat])
    elif choice == 4:
        del points[seat]
    else:
        hand["card_points"] = sum(points)
    return index + 1


def c_captures(draw, record, book):
    index, hand = hand_of(draw, record)
    if MODELS[book].count != "pairwise":
        hand[pick(draw, ("tib", "tom", "last_trick"))] = 0
        return index + 1
    zero = other_seat_with(hand["tricks"], want_zero=True)
    if hand["trump"] == "none" and draw(st.booleans()):
        hand[pick(draw, ("tib", "tom"))] = pick(draw, other_seat_with(hand["tricks"], want_zero=False))
    elif zero:
        hand[pick(draw, ("tib", "tom", "last_trick"))] = pick(draw, zero)
    else:
        hand["last_trick"] = None
    return index + 1


def c_aces_without_tib(draw, record, book):
    """A mournival of Aces declared by a seat that does not hold Tib (the Ace of
    trumps): honours give it to another seat (or A is turned up: 3 in play), or,
    in modern, tib is another seat or null though that seat is not the buyer."""
    index, hand = hand_of(draw, record)
    if not MODELS[book].turned_up:
        if hand["trump"] == "none":
            hand["trump"] = pick(draw, SUITS)
        buyer = hand["auction"]["buyer"] if hand["auction"] else None
        seat = pick(draw, [s for s in range(3) if s != buyer])
        hand["tib"] = pick(draw, [None] + [s for s in range(3) if s != seat])
    else:
        if MODELS[book].honours_nullable and "A" in hand["honours"] and draw(st.booleans()):
            hand["honours"]["A"] = None  # Tib discarded: nobody can hold all four Aces
        holder = hand["honours"].get("A")
        seat = pick(draw, [s for s in range(3) if s != holder])
    for declared in hand["sets"]:
        declared[:] = [t for t in declared if not t.endswith(":A")]
    hand["sets"][seat].append("mournival:A")
    return index + 1


def c_note(draw, record, book):
    index, hand = hand_of(draw, record)
    hand["note"] = pick(draw, NOT_TEXT)
    return index + 1


TOP_CORRUPTIONS = (
    c_drop_top_key,
    c_unknown_top_key,
    c_format,
    c_rulebook,
    c_options,
    c_players,
    c_played_on,
    c_title,
    c_stake,
    c_hands,
)
HAND_CORRUPTIONS = (
    c_not_a_hand,
    c_drop_hand_key,
    c_unknown_hand_key,
    c_seat,
    c_trump,
    c_turned_up,
    c_tricks,
    c_auction,
    c_auction_price,
    c_ruff,
    c_ruff_stake,
    c_sets,
    c_honours,
    c_tiddy_must_be_null,
    c_card_points,
    c_captures,
    c_aces_without_tib,
    c_note,
)


def assert_refused(record, broken_hand):
    problems = validate(record)
    assert problems, record
    for p in problems:
        line = str(p)
        assert "\n" not in line and line.strip() == line
        if p.hand is None:
            assert line.startswith(p.key), line
        else:
            assert line.startswith(f"hand {p.hand}: ")
            assert p.key == "hand" or p.text.startswith(p.key), line
    if broken_hand is None:
        assert any(p.hand is None for p in problems), problems
    else:
        assert any(p.hand == broken_hand for p in problems), problems
    return problems


@pytest.mark.parametrize("corruption", TOP_CORRUPTIONS + HAND_CORRUPTIONS, ids=lambda c: c.__name__[2:])
@PER_CORRUPTION
@given(data=st.data())
def test_a_corrupted_field_is_always_refused(corruption, data):
    book = data.draw(st.sampled_from(BOOK_IDS), label="book")
    record = copy.deepcopy(data.draw(records(book, min_hands=1, max_hands=3)))
    broken = corruption(data.draw, record, book)
    problems = assert_refused(record, broken)
    # and the command line refuses it the same way, one problem a line
    status, out, err = settle_in_process(record)
    assert (status, out) == (1, "")
    assert err.splitlines() == [str(p) for p in problems]


# ---------------------------------------------------------------- a value of the wrong JSON type


def json_class(value) -> str:
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list", dict: "dict", type(None): "null"}[
        type(value)
    ]


REPLACEMENTS = {"bool": True, "int": 1, "float": 1.0, "str": "1", "list": [1], "dict": {"a": 1}, "null": None}


def paths(value, prefix=()):
    """Every (path, value) below ``value``, the value itself included."""
    yield prefix, value
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from paths(inner, prefix + (key,))
    elif isinstance(value, list):
        for i, inner in enumerate(value):
            yield from paths(inner, prefix + (i,))


def may_be_null(book, path) -> bool:
    """Where null is a valid value: nullable hand keys and (wits1671) honours."""
    return bool(path) and (path[-1] in MODELS[book].nullable_keys or (len(path) >= 2 and path[-2] == "honours"))


@pytest.mark.parametrize("book", BOOK_IDS)
@PER_BOOK
@given(data=st.data())
def test_a_value_of_another_json_type_is_always_refused(book, data):
    record = copy.deepcopy(data.draw(records(book, max_hands=3)))
    # a null may stand for a seat or an object, so only non-null values are swapped,
    # and never for null where null is allowed.
    candidates = [(p, v) for p, v in paths(record) if v is not None]
    path, value = data.draw(st.sampled_from(candidates), label="path")
    kinds = sorted(k for k in REPLACEMENTS if k != json_class(value) and not (k == "null" and may_be_null(book, path)))
    replacement = copy.deepcopy(REPLACEMENTS[data.draw(st.sampled_from(kinds), label="kind")])
    if not path:
        record = replacement
    else:
        target = record
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = replacement
    hand = path[1] + 1 if len(path) >= 2 and path[0] == "hands" else None
    if not path:
        assert [str(p) for p in validate(record)][0].startswith("record: ")
    else:
        assert_refused(record, hand)


# ---------------------------------------------------------------- anything at all

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-20, 20),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
        st.sampled_from(("parlett", "gleek:A", "hearts", "A", "4", "none")),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(
                (
                    "dealer",
                    "trump",
                    "tiddy",
                    "auction",
                    "ruff",
                    "sets",
                    "tricks",
                    "honours",
                    "buyer",
                    "price",
                    "winner",
                    "paid",
                    "A",
                    "x",
                )
            ),
            inner,
            max_size=5,
        ),
    ),
    max_leaves=20,
)


@SETTINGS
@given(data=st.data())
def test_validate_never_raises_on_any_json(data):
    record = data.draw(records(max_hands=2))
    where = data.draw(st.sampled_from(["record", "hand", "hands"]))
    junk = data.draw(json_values)
    if where == "record":
        record = junk
    elif where == "hands":
        record["hands"] = [junk]
    else:
        record["hands"].append(junk if isinstance(junk, dict) else {"dealer": junk})
    problems = validate(record)
    assert all(isinstance(str(p), str) for p in problems)
