"""A circle's amounts and days as its pages say them ("4s 4d", "12 counters",
"14 Nov"), kept by value: a season's pages say the same few hundred amounts
thousands of times. Shared by the circle's pages and paying what is owed."""

from __future__ import annotations

from datetime import date
from functools import lru_cache

from ..rules.core import format_counters, signed_counters
from ..words.money import value_text

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


@lru_cache(maxsize=8192, typed=True)
def amount_text(amount, currency) -> str:
    """An exact amount as the table says it: counters (currency None), or money."""
    if currency is None:
        return f"{format_counters(amount)} counter{'s' if amount != 1 else ''}"
    return value_text(amount, {"currency": currency})


@lru_cache(maxsize=8192, typed=True)
def signed_amount(amount, currency) -> str:
    if currency is None:
        return signed_counters(amount)
    return ("+" if amount > 0 else "") + value_text(amount, {"currency": currency})


def day_text(played_on: str | None) -> str:
    """"14 Nov" (the year too when not this year's)."""
    return _day_text(played_on, date.today().year)


@lru_cache(maxsize=4096)
def _day_text(played_on: str | None, this_year: int) -> str:
    if not played_on:
        return "undated"
    try:
        d = date.fromisoformat(played_on)
    except ValueError:
        return played_on
    return f"{d.day} {MONTHS[d.month - 1]}" + ("" if d.year == this_year else f" {d.year}")
