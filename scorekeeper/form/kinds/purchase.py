"""kind "purchase": the stock's buyer and price (or nobody), typed or followed bid by
bid on the call pad (``callpad.py``)."""

from __future__ import annotations

import json

from ..checks import MAX_TYPED, SEAT_VALUES, calls, one_of, tap, typed
from ...rules.hand import NOBODY
from ..callpad import pad_shape, read_bids
from ..fields import amount_or_problem, chip_or_other, seat_of
from .kind import Kind, seat_word


def read(q, fields, reading) -> None:
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


def write(q, value, answers) -> dict:
    if value is None:
        return {q.field: NOBODY, "price": "", "price_other": "", "bids": ""}
    return {
        q.field: str(value["buyer"]),
        "price": str(value["price"]),
        "price_other": "",
        "bids": json.dumps(value["bids"]) if "bids" in value else "",
    }


def shape(q, book, options) -> dict:
    nobody = (NOBODY,) if book.auction_may_be_empty(options) else ()
    short = typed(MAX_TYPED)
    return {
        q.field: one_of(SEAT_VALUES + nobody),
        "price": short,
        "price_other": short,
        "bids": calls,
        "bid": tap,
        "bid_amount": short,
    }


def offers(q, form) -> tuple:
    chosen = form.values.get(q.field, "")
    return (
        tuple(q.buyer_choices(form.answers)),
        chosen == NOBODY,
        tuple(q.price_choices(form.answers, seat_of(chosen))),
        pad_shape(q, form),
    )


def word(q, name, value, names):
    return seat_word(value, names) if name == q.field else None


KIND = Kind("purchase", "fields/purchase.html", read, write, shape, offers, word)
