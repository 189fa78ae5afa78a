"""Properties of call by call (docs/rules.md, "Call by call") over random call lists of every
rule book, checked against the tests' own re-statement of the calls (tests/strategies.py:
``TableAuction``, ``TableRuff``, ``calls_agree``), not against the engine's.

- random legal call lists, drawn from the call pad's own choices, always end, and soon;
- the engine and the re-statement agree on every legal list: whose turn, the legal
  calls, how it ends, who shows, and each liability — which satisfy each book's
  ruff payments (docs/rules.md) (parlett S + 2k, wits1671 even ≥ 2, modern whole ≥ 2, cotton1674
  M × (1 or even ≥ 4));
- records whose hands carry their calls validate and settle exactly as without them;
- any single change to a legal list or to its result is reported at its hand and key,
  in one line, exactly when the re-statement finds it wrong;
- the prices no bidding reaches (parlett, Wits) are exactly those the engine refuses.
"""

from __future__ import annotations

import copy
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import BOOKS
from scorekeeper.rules import calls as calls_module
from scorekeeper.rules.calls import replay_bids, replay_ruff
from scorekeeper.rules.record import settle, validate
from support.books import MODELS
from support.profiles import examples
from support.strategies import (
    BOOK_IDS,
    TableAuction,
    TableRuff,
    calls_agree,
    eldest,
    legal_bids,
    legal_ruff_calls,
    records,
    seats,
    without_calls,
)

PER_BOOK = settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
FEWER = settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ("Ann", "Ben", "Cat")


def book_opening(book: str, draw) -> int:
    """A hand's opening stake S (parlett) or multiplier M (cotton1674) worth testing."""
    return draw(st.sampled_from(MODELS[book].openings))


# ================================================================ legal lists end


@pytest.mark.parametrize("book", BOOK_IDS)
@PER_BOOK
@given(data=st.data())
def test_calls_drawn_from_the_call_pad_always_end(book, data):
    """Whatever the players choose among the legal calls, the vying ends, and within
    3 calls more than 3 a raise (each raise is answered by at most the two others)."""
    dealer, opening = data.draw(seats), book_opening(book, data.draw)
    calls, raises = [], 0
    state = replay_ruff(BOOKS[book], dealer, calls, NAMES, opening)
    while not state.ended:
        choices = state.choices
        assert choices and state.turn is not None and state.problem is None
        if raises >= data.draw(st.integers(0, 6), label="raises allowed"):
            quiet = [c for c in choices if c.call[1] in ("check", "fold", "match", "see", "pass")]
            choices = quiet or choices
        call = data.draw(st.sampled_from(choices)).call
        raises += call[1] in ("open", "raise", "vie", "revie")
        calls.append(call)
        state = replay_ruff(BOOKS[book], dealer, calls, NAMES, opening)
        assert state.problem is None
        assert len(calls) <= 3 + 3 * raises
    assert state.choices == [] and state.turn is None


@pytest.mark.parametrize("book", BOOK_IDS)
@PER_BOOK
@given(data=st.data())
def test_bids_drawn_from_the_call_pad_always_end(book, data):
    dealer, calls = data.draw(seats), []
    state = replay_bids(BOOKS[book], dealer, calls, NAMES)
    while not state.ended:
        choices = state.choices
        if len(calls) > 8:
            choices = [c for c in choices if c.call[1] == "pass"] or choices
        calls.append(data.draw(st.sampled_from(choices)).call)
        state = replay_bids(BOOKS[book], dealer, calls, NAMES)
        assert state.problem is None
        assert len(calls) <= 3 + sum(type(c[1]) is int for c in calls)
    if MODELS[book].eldest_opens:
        assert state.buyer is not None  # eldest must open: always a buyer


# ================================================================ the engine agrees with the re-statement


@pytest.mark.parametrize("book", BOOK_IDS)
@PER_BOOK
@given(data=st.data())
def test_the_engine_replays_legal_ruff_calls_as_the_table_does(book, data):
    dealer, opening = data.draw(seats), book_opening(book, data.draw)
    calls, table = data.draw(legal_ruff_calls(book, dealer, opening))
    for cut in range(len(calls)):  # every state on the way
        partial = TableRuff(book, dealer, opening, pad=True)  # the pad also offers the dealer's double
        for call in calls[:cut]:
            assert partial.play(call)
        state = replay_ruff(BOOKS[book], dealer, calls[:cut], NAMES, opening)
        assert (state.ended, state.turn, state.stake) == (False, partial.turn, partial.stake)
        assert state.owes == [partial.owes(s) for s in range(3)]
        assert state.out == [s in partial.owed for s in range(3)]
        offered = [c.call for c in state.choices]
        if MODELS[book].named:  # the pad offers a few vies; any larger one is legal too
            assert state.more.least == partial.stake + 1
            assert [c for c in offered if c[1] != "vie"] == [c for c in partial.legal() if c[1] != "vie"]
        else:
            assert sorted(map(str, offered)) == sorted(map(str, partial.legal()))
    state = replay_ruff(BOOKS[book], dealer, calls, NAMES, opening)
    assert state.problem is None and state.ended
    assert (state.end, state.showing, state.winner) == (table.end, table.showing, table.winner)
    owes = [table.owes(s) for s in range(3)]
    assert state.owes == owes
    if state.end != "no contest":
        for winner in state.showing or (state.winner,):
            paid = state.paid(winner)
            assert paid[winner] == 0
            for seat in {0, 1, 2} - {winner}:
                assert paid[seat] == owes[seat]
                assert MODELS[book].stake_ok(paid[seat], opening), (paid, calls)
                assert BOOKS[book].ruff_stake_problem(paid[seat], opening) is None
            assert len(state.reasons(winner)) == 2


@pytest.mark.parametrize("book", BOOK_IDS)
@PER_BOOK
@given(data=st.data())
def test_the_engine_replays_legal_bids_as_the_table_does(book, data):
    dealer = data.draw(seats)
    bids, result = data.draw(legal_bids(book, dealer))
    state = replay_bids(BOOKS[book], dealer, bids, NAMES)
    assert state.problem is None and state.ended
    assert (state.buyer, state.price) == (result or (None, None))
    if result is not None:
        assert BOOKS[book].unreachable_price(result[0], dealer, result[1]) is None
        assert result[1] >= BOOKS[book].min_price(result[0], dealer)


def candidate_bids(table: TableAuction) -> list:
    least = table.least()
    amounts = [least - 2, least - 1, least, least + 1, least + 3, 12.0, True, "12", None, "pass", "Pass"]
    return [[seat, amount] for seat in (0, 1, 2) for amount in amounts] + [[table.turn], [table.turn, 12, 1], "pass"]


def candidate_ruff_calls(table: TableRuff) -> list:
    words = ("check", "open", "fold", "match", "raise", "vie", "pass", "see", "revie", "double", "Vie", 4)
    stake = table.stake
    calls = [[seat, word] for seat in (0, 1, 2, True) for word in words]
    calls += [
        [table.turn, word, n]
        for word in ("vie", "see", "pass", "open")
        for n in (stake - 1, stake, stake + 1, stake + 5, 2.0, True)
    ]
    return calls + [[table.turn], "open", [table.turn, "vie", 2, 3]]


@pytest.mark.parametrize("book", BOOK_IDS)
@PER_BOOK
@given(data=st.data())
def test_every_call_in_every_state_is_taken_exactly_when_the_table_takes_it(book, data):
    """Differential: along a random legal auction and vying, each candidate call (legal
    or not: wrong seat, word, amount or shape) is refused by the engine exactly when
    the re-statement refuses it."""
    dealer, opening = data.draw(seats), book_opening(book, data.draw)
    bids, _ = data.draw(legal_bids(book, dealer))
    for cut in range(len(bids) + 1):
        table = TableAuction(book, dealer)
        for call in bids[:cut]:
            table.play(call)
        for candidate in candidate_bids(table):
            engine = replay_bids(BOOKS[book], dealer, bids[:cut] + [candidate], NAMES)
            assert (engine.problem is None) == copy.deepcopy(table).play(candidate), (bids[:cut], candidate)
    calls, _ = data.draw(legal_ruff_calls(book, dealer, opening))
    for cut in range(len(calls) + 1):
        table = TableRuff(book, dealer, opening, pad=True)  # as the call pad takes them
        for call in calls[:cut]:
            table.play(call)
        for candidate in candidate_ruff_calls(table):
            engine = replay_ruff(BOOKS[book], dealer, calls[:cut] + [candidate], NAMES, opening)
            assert (engine.problem is None) == copy.deepcopy(table).play(candidate), (calls[:cut], candidate)


# ================================================================ records with calls


@pytest.mark.parametrize("book", BOOK_IDS)
@FEWER
@given(data=st.data())
def test_records_with_calls_validate_and_settle_as_without_them(book, data):
    record = data.draw(records(book, max_hands=5, calls=data.draw(st.sampled_from((True, None)))))
    assert validate(record) == []
    plain = dict(record, hands=[without_calls(h) for h in record["hands"]])
    assert validate(plain) == []
    assert settle(record).as_json() == settle(plain).as_json()
    options, names = record["options"], [n.strip() for n in record["players"]]
    for index, hand in enumerate(record["hands"]):
        reasons = BOOKS[book].reasons(hand, options, names)
        if hand["ruff"] is not None and "calls" in hand["ruff"]:  # S read back from paid is the hand's S
            opening = BOOKS[book].ruff_opening(record["hands"][:index])
            assert reasons["ruff"] == calls_module.ruff_reasons(BOOKS[book], hand, names, opening)
        plain_reasons = BOOKS[book].reasons(plain["hands"][index], options, names)
        for phase in ("tiddy", "sets", "tricks"):
            assert reasons[phase] == plain_reasons[phase]


def mutate_list(draw, calls: list, book: str, key: str) -> None:
    """One change to a list of calls, in place."""
    words = (
        ["pass", 12, 13, 14, 15, 16, 20] if key == "auction" else sorted({w for m in MODELS.values() for w in m.words})
    )
    choice = draw(st.sampled_from(("delete", "duplicate", "swap", "seat", "word", "truncate", "append", "amount")))
    i = draw(st.integers(0, len(calls) - 1))
    if choice == "delete":
        del calls[i]
    elif choice == "duplicate":
        calls.insert(i, list(calls[i]))
    elif choice == "swap" and len(calls) > 1:
        j = min(i + 1, len(calls) - 1) if i + 1 < len(calls) else i - 1
        calls[i], calls[j] = calls[j], calls[i]
    elif choice == "seat":
        calls[i] = [draw(st.sampled_from([s for s in (0, 1, 2) if s != calls[i][0]] + [True, 3])), *calls[i][1:]]
    elif choice == "word":
        calls[i] = [calls[i][0], draw(st.sampled_from(words))]
        if MODELS[book].named and key == "ruff" and calls[i][1] == "vie":
            calls[i].append(draw(st.integers(0, 8)))
    elif choice == "truncate":
        calls.pop()
    elif choice == "append":
        calls.append([draw(seats), draw(st.sampled_from(words))])
    else:  # an amount: a bid, or a modern vie
        amounts = [j for j, c in enumerate(calls) if type(c[-1]) is int]
        if amounts:
            j = draw(st.sampled_from(amounts))
            calls[j] = [*calls[j][:-1], calls[j][-1] + draw(st.sampled_from((-2, -1, 1, 2, 3)))]
        else:
            calls.append(list(calls[-1]))


def mutate_result(draw, hand: dict, key: str) -> None:
    """One change to a hand's buyer, price, winner, paid or shown, in place."""
    if key == "auction":
        field = draw(st.sampled_from(("buyer", "price")))
        if field == "buyer":
            hand["auction"]["buyer"] = draw(st.sampled_from([s for s in (0, 1, 2) if s != hand["auction"]["buyer"]]))
        else:
            hand["auction"]["price"] += draw(st.sampled_from((-2, -1, 1, 2, 4)))
        return
    ruff = hand["ruff"]
    fields = ["winner", "paid"] + (["shown"] if "shown" in ruff else [])
    field = draw(st.sampled_from(fields))
    if field == "winner":
        ruff["winner"] = draw(st.sampled_from([s for s in (0, 1, 2) if s != ruff["winner"]]))
    elif field == "paid":
        seat = draw(seats)
        ruff["paid"][seat] += draw(st.sampled_from((-2, -1, 1, 2)))
    else:
        seat = draw(seats)
        ruff["shown"][seat] = draw(st.sampled_from((None, "aces", 9, 14, 15, 40, 55, 69, 90, 91, 55.0, True)))


@pytest.mark.parametrize("book", BOOK_IDS)
@pytest.mark.parametrize("what", ("bids", "ruff calls", "result"))
@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_single_change_is_reported_at_its_hand_and_key(book, what, data):
    record = copy.deepcopy(data.draw(records(book, min_hands=1, max_hands=3, calls=True)))
    hands = record["hands"]
    keys = [
        (i, k)
        for i, h in enumerate(hands)
        for k, inner in (("auction", "bids"), ("ruff", "calls"))
        if isinstance(h[k], dict) and inner in h[k] and (what == "result" or (what == "bids") == (k == "auction"))
    ]
    if not keys:
        return  # e.g. modern simplified, or a parlett evening of no contests
    index, key = data.draw(st.sampled_from(keys))
    hand = hands[index]
    if what == "result":
        mutate_result(data.draw, hand, key)
    else:
        mutate_list(data.draw, hand[key]["bids" if key == "auction" else "calls"], book, key)
    opening = MODELS[book].opening_of(hands, index)
    problems = validate(record)
    assert all(p.hand == index + 1 for p in problems), problems
    if calls_agree(book, hand, opening):
        assert problems == [], (hand, problems)
    else:
        at_key = [p for p in problems if p.key == key]
        assert len(at_key) == 1, (hand, problems)
        assert str(at_key[0]).startswith(f"hand {index + 1}: {key}")
    # at most one line per key per hand, whatever was changed
    assert max(Counter((p.hand, p.key) for p in problems).values(), default=0) == (1 if problems else 0)


@pytest.mark.parametrize("book", BOOK_IDS)
@FEWER
@given(data=st.data())
def test_a_value_of_another_json_type_in_the_calls_is_refused(book, data):
    record = copy.deepcopy(data.draw(records(book, min_hands=1, max_hands=2, calls=True)))
    spots = []
    for i, hand in enumerate(record["hands"]):
        for key, inner in (("auction", "bids"), ("ruff", "calls"), ("ruff", "shown")):
            if isinstance(hand[key], dict) and inner in hand[key]:
                spots.append((i, key, [hand[key], inner]))
                spots += [(i, key, [hand[key][inner], j]) for j, v in enumerate(hand[key][inner]) if v is not None]
                spots += [(i, key, [c, j]) for c in hand[key][inner] if isinstance(c, list) for j in range(len(c))]
    if not spots:
        return
    index, key, (container, where) = data.draw(st.sampled_from(spots))
    value = container[where]
    replacements = [r for r in (True, 1, 1.0, "1", [1], {"a": 1}) if type(r) is not type(value)]
    container[where] = data.draw(st.sampled_from(replacements))
    problems = validate(record)
    assert [p.hand for p in problems] == [index + 1], problems
    assert problems[0].key == key


# ================================================================ prices no bidding reaches


def reachable_prices(book: str, dealer: int, up_to: int) -> set:
    """Every (buyer, price) a legal auction reaches, by trying every list of bids."""
    found = set()

    def explore(table: TableAuction):
        if table.over:
            if table.result:
                found.add(table.result)
            return
        moves = [[table.turn, "pass"]] if table.may_pass() else []
        if table.least() <= up_to:
            moves.append([table.turn, table.least()])
        for move in moves:
            nxt = copy.deepcopy(table)
            if nxt.play(move):
                explore(nxt)

    explore(TableAuction(book, dealer))
    return found


@pytest.mark.parametrize("book", [b for b in BOOK_IDS if MODELS[b].eldest_opens and MODELS[b].exact])
@pytest.mark.parametrize("dealer", (0, 1, 2))
def test_the_prices_refused_are_exactly_those_no_bidding_reaches(book, dealer):
    engine = BOOKS[book]
    top = 30
    reached = reachable_prices(book, dealer, top)
    for buyer in (0, 1, 2):
        for price in range(engine.opening_price, top + 1, engine.price_step):
            accepted = (
                price >= engine.min_price(buyer, dealer) and engine.unreachable_price(buyer, dealer, price) is None
            )
            assert accepted == ((buyer, price) in reached), (buyer, price)
    assert (eldest(dealer), engine.opening_price + engine.price_step) not in reached
