"""kind "ruff": the ruff's winner and what each loser paid (or nobody), typed or
followed call by call on the call pad, with the showdown's cards (``callpad.py``)."""

from __future__ import annotations

import json

from ..checks import FOUR_ACES, MAX_TYPED, SEAT_VALUES, calls, chips, one_of, tap, typed
from ...rules.core import SEATS
from ...rules.hand import NOBODY
from ..callpad import pad_shape, read_ruff_calls
from ..fields import amount_or_problem, chip_or_other, seat_of
from .kind import Kind, seat_word


def read(q, fields, reading) -> None:
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


def write(q, value, answers) -> dict:
    if value is None:
        return {q.field: NOBODY, "ruff_calls": ""}
    fields = {q.field: str(value["winner"]), "ruff_calls": json.dumps(value["calls"]) if "calls" in value else ""}
    for seat, total in enumerate(value.get("shown") or ()):
        if total is not None:  # the cards tapped are not kept, the totals are
            fields[f"shown_total_{seat}"] = str(total)
    for seat in SEATS:
        if seat != value["winner"]:
            fields[f"paid_{seat}"] = str(value["paid"][seat])
            fields[f"paid_{seat}_other"] = ""
    return fields


def shape(q, book, options) -> dict:
    nobody = (NOBODY,) if book.ruff_may_be_empty(options) else ()
    cards, short = tuple(q.ruff_ranks()) + (FOUR_ACES,), typed(MAX_TYPED)
    fields = {q.field: one_of(SEAT_VALUES + nobody), "ruff_calls": calls, "ruff_call": tap, "ruff_amount": short}
    for seat in SEATS:
        fields.update(
            {
                f"paid_{seat}": short,
                f"paid_{seat}_other": short,
                f"shown_{seat}": chips(cards, len(cards)),
                f"shown_total_{seat}": short,
            }
        )
    return fields


def offers(q, form) -> tuple:
    answers = form.answers
    return (
        q.winner_label(answers),
        tuple(q.winner_choices(answers)),
        seat_of(form.values.get(q.field, "")),
        tuple(q.paid_choices(answers)),
        pad_shape(q, form),
    )


def word(q, name, value, names):
    return seat_word(value, names) if name == q.field else None


KIND = Kind("ruff", "fields/ruff.html", read, write, shape, offers, word)
