"""Answers → the strings the hand form shows, kind by kind (to edit a stored
hand, or to apply a preset): the inverse of ``kinds.py``'s readers."""

from __future__ import annotations

import json

from ..rules.core import SEATS
from ..rules.hand import NOBODY
from .fields import DISCARDED, seat_value

def seat_fields(q, value, answers) -> dict:
    return {q.field: seat_value(value)}


def choice_fields(q, value, answers) -> dict:
    return {q.field: value}


def purchase_fields(q, value, answers) -> dict:
    if value is None:
        return {q.field: NOBODY, "price": "", "price_other": "", "bids": ""}
    return {q.field: str(value["buyer"]), "price": str(value["price"]), "price_other": "",
            "bids": json.dumps(value["bids"]) if "bids" in value else ""}


def ruff_fields(q, value, answers) -> dict:
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


def sets_fields(q, value, answers) -> dict:
    fields = {q.field: "some" if any(value) else "none"}
    fields.update({f"set_{seat}": list(value[seat]) for seat in SEATS})
    return fields


def forfeits_fields(q, value, answers) -> dict:
    return {f"{q.field}_{seat}": list(value[seat]) for seat in SEATS}


def counts_fields(q, value, answers) -> dict:
    fields = {f"{q.field}_{seat}": str(value[seat]) for seat in SEATS}
    dealer = answers.dealer if answers.dealer is not None else 2
    # the dealer's count fills itself in again when another player's count changes
    fields[f"{q.field}_auto"] = f"{dealer}:{value[dealer]}"
    return fields


def honours_fields(q, value, answers) -> dict:
    return {f"{q.field}_{rank}": DISCARDED if seat is None else str(seat) for rank, seat in value.items()}


def points_fields(q, value, answers) -> dict:
    return {f"{q.field}_{seat}": str(value[seat]) for seat in SEATS}


def text_fields(q, value, answers) -> dict:
    return {q.field: value or ""}


WRITERS = {"seat": seat_fields, "choice": choice_fields, "purchase": purchase_fields, "ruff": ruff_fields,
           "sets": sets_fields, "forfeits": forfeits_fields, "counts": counts_fields, "honours": honours_fields,
           "points": points_fields, "text": text_fields}


def fields_of(book, hand: dict, answers) -> dict:
    """A hand (or some of its answers) as the form's values, question by question."""
    values = {}
    for q in book.questions:
        if q.key in hand and not q.fixed(answers):
            values.update(WRITERS[q.kind](q, hand[q.key], answers))
    return values
