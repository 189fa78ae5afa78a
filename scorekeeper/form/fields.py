"""Reading a posted hand form: the posted values, what a reading found, and the
small readers of one value (a whole number, a seat, a chip or its Other box)."""

from __future__ import annotations

from ..rules.core import RANKS, SEATS
from ..rules.hand import NOBODY

RANK_ORDER = {rank: i for i, rank in enumerate(RANKS)}
MAX_NUMBER = 100_000  # no real stake or price comes near; stops absurd input early


class Fields:
    """Posted values: a werkzeug MultiDict or a plain dict (a list for a repeated field)."""

    def __init__(self, source):
        self.source = source

    def get(self, name: str) -> str:
        value = self.source.get(name, "")
        if isinstance(value, list):
            return value[0] if value else ""
        return value

    def getlist(self, name: str) -> list[str]:
        if hasattr(self.source, "getlist"):
            return [v for v in self.source.getlist(name) if v]
        value = self.source.get(name, [])
        return [v for v in (value if isinstance(value, list) else [value]) if v]


class Reading:
    """What parsing a form found: the partial hand, what is missing, what is wrong,
    and the values to show (the posted ones, with what the form filled in)."""

    def __init__(self, answers, values: dict):
        self.answers, self.values = answers, values
        self.hand = answers.hand
        self.unanswered: dict[str, str] = {}
        self.problems: dict[str, list[str]] = {}
        self.fixed: dict[str, str] = {}
        self.pads: dict = {}  # key -> the call pad's state (rules.calls), where the table follows the calls
        self.replays: dict = {}  # key -> the pad's replay (calls -> state), for the states a phone needs offline
        self.refused_call: tuple | None = None  # (why, the typed-amount field, what was typed): a pad's tap not taken
        self.shown: dict = {}  # key -> the showdown as tapped so far (rules.calls.Showing)

    def answer(self, question, value) -> None:
        self.hand[question.key] = value

    def missing(self, question, text: str | None = None) -> None:
        self.unanswered[question.key] = text or question.ask

    def wrong(self, question_or_key, text: str) -> None:
        key = getattr(question_or_key, "key", question_or_key)
        self.problems.setdefault(key, []).append(text)


# ------------------------------------------------------------ small readers


def whole(text: str | None):
    """A whole number from a form field, or None if it is not one."""
    text = (text or "").strip()
    if not text or not (text.isdigit() and text.isascii()) or len(text) > 7:
        return None
    return int(text)


def seat_of(text: str | None):
    value = whole(text)
    return value if value in SEATS else None


def chip_or_other(fields: Fields, name: str) -> str:
    """A number chosen by chip, or typed in the box beside the Other chip. A number
    chip wins over a forgotten box; the box counts when Other is chosen (or when
    only the box was filled, as without JavaScript)."""
    choice = fields.get(name)
    other = fields.get(f"{name}_other").strip()
    if choice == "other" or (choice == "" and other):
        return other
    return choice


def seat_value(seat) -> str:
    return NOBODY if seat is None else str(seat)


def amount_or_problem(text: str, what: str):
    """(amount, None) or (None, why) for a typed or chosen amount."""
    amount = whole(text)
    if amount is None:
        return None, f"{what} must be a whole number, not {text[:20]!r}"
    if amount > MAX_NUMBER:
        return None, f"{what}: {amount} is too large"
    return amount, None
