"""Each kind of question (``rules.hand``): how its answer is posted and read.

A reader turns posted strings into the question's record value (or says it is
unanswered, or wrong); ``writers.py`` turns a record value back into the strings
the form shows; the call pad's readers are in ``callpad.py``. Nothing here knows a book or a hand key's rule: a kind knows only
how its answer is posted (its fields), and the question supplies the words.

Field names (what a form posts) per kind, with ``f`` the question's ``field``:

    seat      f = "0" | "1" | "2" | "nobody"
    choice    f = one of the question's values
    purchase  f (buyer) = seat | "nobody";  price = n, or "other" + price_other;  bids (the call pad)
    ruff      f (winner) = seat | "nobody";  paid_<seat> = n, or "other" + paid_<seat>_other;
              ruff_calls, shown_<seat> (the call pad and the showdown)
    sets      sets = "none" | "some";  set_<seat> = "gleek:K", … (repeated)
    forfeits  f_<seat> = "gleek:A", … (repeated; none posted: the key is left out)
    counts    <key>_<seat> = n;  <key>_auto = "<seat>:<n>" (the count the form filled in)
    honours   f_<rank> = seat | "discarded"
    points    <key>_<seat> = n (typed);  count_<seat>_<rank> = n (the card counter)
    text      f = text
"""

from __future__ import annotations

from ..rules.core import RANK_PLURALS, SEATS, parse_set
from ..rules.hand import NOBODY
from .callpad import read_bids, read_ruff_calls
from .fields import (DISCARDED, RANK_ORDER, Fields, Reading, amount_or_problem, chip_or_other, seat_of,
                     seat_value, whole)

def read_seat(q, fields: Fields, reading: Reading) -> None:
    raw = fields.get(q.field)
    if raw == "":
        reading.missing(q)
    elif raw == NOBODY and q.nobody:
        reading.answer(q, None)
    elif seat_of(raw) is not None:
        reading.answer(q, seat_of(raw))
    else:
        reading.wrong(q, "Choose one of the players.")


def read_choice(q, fields: Fields, reading: Reading) -> None:
    raw = fields.get(q.field)
    if raw == "":
        reading.missing(q)
    elif raw in q.values:
        reading.answer(q, raw)
    else:
        reading.wrong(q, f"Choose one: {', '.join(c.label for c in q.choices(reading.answers))}.")


def read_purchase(q, fields: Fields, reading: Reading) -> None:
    if read_bids(q, fields, reading):
        return
    buyer = fields.get(q.field)
    may_be_empty = any(c.value is None for c in q.buyer_choices(reading.answers))
    if buyer == NOBODY and may_be_empty:
        reading.answer(q, None)
    elif buyer == "":
        reading.missing(q)
    elif seat_of(buyer) is None:
        reading.wrong(q, "Choose the buyer.")
    else:
        text = chip_or_other(fields, "price")
        if text == "":
            reading.missing(q, q.ask_price)
            return
        price, why = amount_or_problem(text, "The price")
        if why:
            reading.wrong(q, why)
        else:
            reading.answer(q, {"buyer": seat_of(buyer), "price": price})


def read_ruff(q, fields: Fields, reading: Reading) -> None:
    if read_ruff_calls(q, fields, reading):
        return
    winner = fields.get(q.field)
    may_be_empty = any(c.value is None for c in q.winner_choices(reading.answers))
    if winner == NOBODY and may_be_empty:
        reading.answer(q, None)
        return
    if winner == "":
        reading.missing(q)
        return
    if seat_of(winner) is None:
        reading.wrong(q, "Choose the winner.")
        return
    won, names = seat_of(winner), reading.answers.names
    paid, missing, bad = [0, 0, 0], [], False
    for seat in SEATS:
        if seat == won:
            continue
        text = chip_or_other(fields, f"paid_{seat}")
        if text == "":
            missing.append(names[seat])
            continue
        amount, why = amount_or_problem(text, f"What {names[seat]} paid")
        if why:
            reading.wrong(q, why)
            bad = True
        else:
            paid[seat] = amount
    if missing:
        reading.missing(q, q.ask_paid.format(who=" and ".join(missing)))
    elif not bad:
        reading.answer(q, {"winner": won, "paid": paid})


def read_sets(q, fields: Fields, reading: Reading) -> None:
    state = fields.get(q.field)
    declared = [one_set_per_rank(fields.getlist(f"set_{seat}")) for seat in SEATS]
    if state == "none":
        reading.answer(q, [[], [], []])
        reading.values.update({f"set_{seat}": [] for seat in SEATS})
    elif state == "some" or any(declared):
        reading.values[q.field] = "some"
        if any(declared):
            reading.answer(q, declared)
        else:
            reading.missing(q, q.ask_some)
    else:
        reading.missing(q)


def read_forfeits(q, fields: Fields, reading: Reading) -> None:
    """An optional answer: the sets each seat forfeits (the form shows the buyer's
    chips only; the rule book says it if another seat's are posted)."""
    called = [one_set_per_rank(fields.getlist(f"{q.field}_{seat}")) for seat in SEATS]
    if any(called):
        reading.answer(q, called)


def one_set_per_rank(declared: list[str]) -> list[str]:
    """The declared sets in rank order, one per rank. Both chips of one rank lit
    (gleek and mournival) is not a set anybody holds: it is kept as posted, so the
    rule book's check says so ("declares two sets of Aces") instead of dropping one."""
    unique = list(dict.fromkeys(declared))
    return sorted(unique, key=lambda t: RANK_ORDER.get((parse_set(t) or ("", ""))[1], 99))


def read_counts(q, fields: Fields, reading: Reading) -> None:
    """A count for each seat; the last fills itself in as the total less the others."""
    names = [f"{q.field}_{seat}" for seat in SEATS]
    raw = [fields.get(n) for n in names]
    auto = fields.get(f"{q.field}_auto")
    auto_seat, _, auto_value = auto.partition(":")
    if auto and seat_of(auto_seat) is not None and raw[int(auto_seat)] == auto_value:
        raw[int(auto_seat)] = ""  # still the form's own guess: fill it in again
    counts = [whole(r) if r != "" else None for r in raw]
    reading.values[f"{q.field}_auto"] = ""
    if any(r != "" and (c is None or c > q.total) for r, c in zip(raw, counts)):
        reading.wrong(q, f"Choose 0 to {q.total}.")
        return
    given = [c for c in counts if c is not None]
    if sum(given) > q.total:
        reading.wrong(q, f"{q.title} add up to {sum(given)} already: more than {q.total}.")
        return
    if len(given) == 2:
        seat = counts.index(None)
        counts[seat] = q.total - sum(given)
        reading.values[names[seat]] = str(counts[seat])
        reading.values[f"{q.field}_auto"] = f"{seat}:{counts[seat]}"
    if None in counts:
        reading.missing(q)
    else:
        reading.answer(q, counts)


def read_honours(q, fields: Fields, reading: Reading) -> None:
    if q.needs not in reading.hand:
        reading.missing(q, q.ask_first)
        return
    honours, missing = {}, False
    for line in q.lines(reading.answers):
        if line.fixed:
            continue
        raw = fields.get(f"{q.field}_{line.rank}")
        allowed = {seat_value(c.value): c.value for c in line.choices}
        if raw == "":
            missing = True
        elif raw == NOBODY and None in allowed.values():
            honours[line.rank] = None
        elif raw == DISCARDED and None in allowed.values():
            honours[line.rank] = None
        elif raw in allowed:
            honours[line.rank] = allowed[raw]
        else:
            reading.wrong(q, "Choose a player.")
            return
    if missing:
        reading.missing(q)
    else:
        reading.answer(q, honours)


def read_points(q, fields: Fields, reading: Reading) -> None:
    if q.counter:
        read_counts_of_cards(q, fields, reading)
    points, missing = [], False
    for seat in SEATS:
        text = fields.get(f"{q.field}_{seat}").strip()
        if text == "":
            missing = True
            points.append(None)
            continue
        amount, why = amount_or_problem(text, f"{reading.answers.names[seat]}'s {q.title.lower()}")
        if why:
            reading.wrong(q, why)
        points.append(amount)
    if missing:
        reading.missing(q)
    elif q.key not in reading.problems:
        reading.answer(q, points)


def read_counts_of_cards(q, fields: Fields, reading: Reading) -> None:
    """The counter: how many of each rank each player captured. A player whose
    cards are counted gets his points filled in (in the typed box), and the counts
    are checked (3 cards a trick, at most 4 of a rank)."""
    counts, counted = [{}, {}, {}], []
    for seat in SEATS:
        given = {rank: fields.get(f"count_{seat}_{rank}").strip() for rank in q.counter}
        if not any(given.values()):
            continue
        counted.append(seat)
        for rank, text in given.items():
            n = whole(text)
            if text and (n is None or n > 4):
                reading.wrong(q, f"{reading.answers.who(seat)}: count 0 to 4 {RANK_PLURALS[rank]}.")
                return
            if n:
                counts[seat][rank] = n
    if not counted:
        return
    tricks = reading.hand.get("tricks")
    if tricks is not None:  # a player not counted yet is not held to 3 cards a trick
        tricks = [tricks[s] if s in counted else 0 for s in SEATS]
    for problem in q.count_problems(reading.answers, counts, tricks):
        reading.wrong(q, problem[:1].upper() + problem[1:] + ".")
    points = q.from_counts(reading.answers, counts)
    for seat in counted:
        reading.values[f"{q.field}_{seat}"] = str(points[seat])
    reading.values[f"{q.field}_counted"] = ",".join(map(str, counted))


def read_text(q, fields: Fields, reading: Reading) -> None:
    text = fields.get(q.field).strip()
    if len(text) > q.limit:
        reading.wrong(q, f"At most {q.limit} characters.")
    elif text:
        reading.answer(q, text)


READERS = {"seat": read_seat, "choice": read_choice, "purchase": read_purchase, "ruff": read_ruff,
           "sets": read_sets, "forfeits": read_forfeits, "counts": read_counts, "honours": read_honours,
           "points": read_points, "text": read_text}
