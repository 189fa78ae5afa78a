"""The shared core of every rule book: seats, ranks, exact amounts, problems.

Everything here is pure: plain data in, counter transfers out. Amounts are
exact, never floats: an ``int`` for a whole amount and a ``fractions.Fraction``
only for a half counter (the finest amount there is), which keeps the common
case plain integer arithmetic; ``fractions`` is only imported once a half counter
occurs (``settle`` of a session without one never pays for it). A *transfer* is a
list of three amounts, one per seat, adding up to 0.
"""

from __future__ import annotations

import json
from typing import NamedTuple

SEATS = (0, 1, 2)
SUITS = ("clubs", "diamonds", "hearts", "spades")
RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
RANK_SET = frozenset(RANKS)
TRICKS_IN_A_HAND = 12
CARDS_IN_A_HAND = 12  # dealt to each player (modern's buyer may keep 13)

RANK_NAMES = {
    "A": "Ace",
    "K": "King",
    "Q": "Queen",
    "J": "Jack",
    "10": "Ten",
    "9": "Nine",
    "8": "Eight",
    "7": "Seven",
    "6": "Six",
    "5": "Five",
    "4": "Four",
}
RANK_PLURALS = {r: ("Sixes" if r == "6" else RANK_NAMES[r] + "s") for r in RANKS}
SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠", "none": "Kiss"}

Transfer = list  # three Fractions, summing to 0


# ---------------------------------------------------------------- seats


def left(seat: int) -> int:
    """The next seat clockwise."""
    return (seat + 1) % 3


def eldest(dealer: int) -> int:
    return (dealer + 1) % 3


def middle(dealer: int) -> int:
    return (dealer + 2) % 3


def seats_from_eldest(dealer: int) -> tuple[int, int, int]:
    """Eldest, middle, dealer: the order in which ties are broken."""
    return (eldest(dealer), middle(dealer), dealer)


def is_int(value: object) -> bool:
    """A JSON integer: ``True`` and ``12.0`` are not."""
    return type(value) is int


def is_seat(value: object) -> bool:
    return is_int(value) and value in SEATS


# ---------------------------------------------------------------- amounts

_Fraction = None


def fraction(numerator, denominator=1):
    """``fractions.Fraction(numerator, denominator)``, importing ``fractions`` (and the
    ``decimal`` it loads, ~3 ms) the first time an amount is not whole."""
    global _Fraction
    if _Fraction is None:
        from fractions import Fraction as _Fraction  # fractions and decimal (~3 ms): the first amount not whole
    return _Fraction(numerator, denominator)


def nothing() -> Transfer:
    return [0, 0, 0]


def half(amount: int):
    """Half of a whole amount, exactly: an int when even, a half counter when odd."""
    return amount // 2 if amount % 2 == 0 else fraction(amount, 2)


def from_halves(halves: int):
    """An amount counted in half counters, as an exact amount: an int when whole."""
    return halves // 2 if halves % 2 == 0 else fraction(halves, 2)


def from_each(scorer: int, amount) -> Transfer:
    """Each of the other two pays ``amount`` to ``scorer``."""
    if type(amount) is not int and not hasattr(amount, "denominator"):
        amount = fraction(amount)  # a float or Decimal given by a caller: exactly
    transfer = [-amount, -amount, -amount]
    transfer[scorer] = 2 * amount
    return transfer


def to_each(payer: int, amount) -> Transfer:
    """``payer`` pays ``amount`` to each of the other two."""
    if type(amount) is not int and not hasattr(amount, "denominator"):
        amount = fraction(amount)
    return from_each(payer, -amount)


def add(*transfers) -> Transfer:
    """Seat by seat sum: plain ints while every amount is whole (nearly always), else
    counted in half counters, else (never in Gleek) the general exact path."""
    a = b = c = 0
    for x, y, z in transfers:
        if type(x) is not int or type(y) is not int or type(z) is not int:
            halves = halves_sum(transfers)
            return _add_exactly(transfers) if halves is None else [from_halves(h) for h in halves]
        a += x
        b += y
        c += z
    return [a, b, c]


def halves_sum(transfers) -> list[int] | None:
    """The seat by seat sum in half counters (ints: twice the amount), or None if some
    amount is neither whole nor half."""
    a = b = c = 0  # whole amounts
    ha = hb = hc = 0  # half counters, from the transfers with halves in them
    for t in transfers:
        x, y, z = t
        if type(x) is int and type(y) is int and type(z) is int:
            a += x
            b += y
            c += z
        else:
            halves = _halves(t)
            if halves is None:
                return None
            ha, hb, hc = ha + halves[0], hb + halves[1], hc + halves[2]
    return [2 * a + ha, 2 * b + hb, 2 * c + hc]


def _halves(transfer) -> list[int] | None:
    """One transfer in half counters, or None if an amount is neither whole nor half."""
    halves = []
    for value in transfer:
        if type(value) is int:
            halves.append(2 * value)
        elif getattr(value, "denominator", 0) in (1, 2):
            halves.append(value.numerator * (2 // value.denominator))
        else:
            return None
    return halves


def _add_exactly(transfers) -> Transfer:
    total = [fraction(0)] * 3
    for t in transfers:
        for s in SEATS:
            total[s] += fraction(t[s])
    return total


def as_number(amount) -> int | float:
    """A JSON number for an exact amount: whole amounts as ints, halves as x.5."""
    if type(amount) is int:
        return amount
    if not hasattr(amount, "denominator"):
        amount = fraction(amount)
    if amount.denominator == 1:
        return amount.numerator
    if abs(amount.numerator) <= 2**53:
        return float(amount)  # only halves occur, which a float of this size holds exactly
    return amount  # too large for a float: record.to_json_text writes it out exactly


def halves_text(halves: int) -> str:
    """An amount counted in half counters as a JSON number, exactly: ``7``, ``-6.5``."""
    if halves % 2 == 0:
        return str(halves // 2)
    return ("-" if halves < 0 else "") + f"{abs(halves) // 2}.5"


def number_text(amount) -> str:
    """An exact amount as a JSON number: ``7``, ``-6.5`` (a half counter written out
    exactly, however large)."""
    if type(amount) is int:
        return str(amount)
    if amount.denominator == 1:
        return str(amount.numerator)
    if amount.denominator == 2:
        return ("-" if amount.numerator < 0 else "") + f"{abs(amount.numerator) // 2}.5"
    return repr(float(amount))  # never in Gleek: only halves occur


def format_counters(amount) -> str:
    """``7``, ``6½``, ``−1½``, ``−1,237½``: an amount as players say it (thousands
    grouped, so a big balance reads at a glance)."""
    if type(amount) is not int and getattr(amount, "denominator", None) == 1:
        amount = amount.numerator  # a whole Fraction (most of a night's standings): no arithmetic on it
    if type(amount) is int:
        return f"−{-amount:,}" if amount < 0 else f"{amount:,}"
    amount = fraction(amount)
    sign = "−" if amount < 0 else ""
    amount = abs(amount)
    whole, part = divmod(amount, 1)
    if part == 0:
        return f"{sign}{whole:,}"
    if part == fraction(1, 2):
        return f"{sign}{f'{whole:,}' if whole else ''}½"
    return f"{sign}{float(amount):g}"


def signed_counters(amount) -> str:
    amount = amount if type(amount) is int else fraction(amount)
    return ("+" if amount > 0 else "") + format_counters(amount)


# ---------------------------------------------------------------- settlement


class Payment(NamedTuple):
    """``payer`` pays ``amount`` to ``payee`` (seats)."""

    payer: int
    payee: int
    amount: object

    def as_json(self) -> dict:
        return {"from": self.payer, "to": self.payee, "amount": as_number(self.amount)}


def fewest_payments(balances) -> list[Payment]:
    """The fewest transfers (at most 2 for three players) that settle ``balances``.

    Each goes from a player who is down to one who is up; largest first, ties by
    payer then payee.
    """
    exact = [b if type(b) is int or hasattr(b, "denominator") else fraction(b) for b in balances]
    owed = {s: -b for s, b in enumerate(exact) if b < 0}
    due = {s: b for s, b in enumerate(exact) if b > 0}
    payments = []
    while owed and due:
        payer = max(owed, key=lambda s: (owed[s], -s))
        payee = max(due, key=lambda s: (due[s], -s))
        amount = min(owed[payer], due[payee])
        payments.append(Payment(payer, payee, amount))
        for book, seat in ((owed, payer), (due, payee)):
            book[seat] -= amount
            if book[seat] == 0:
                del book[seat]
    return sorted(payments, key=lambda p: (-p.amount, p.payer, p.payee))


# ---------------------------------------------------------------- problems


class Problem(NamedTuple):
    """One thing wrong with a record, worded for a person at a card table.

    ``hand`` is 1-based (``None`` outside the hands); ``key`` is the record key
    the problem is about, so a form can show it beside the right field.
    """

    hand: int | None
    key: str | None
    text: str

    def __str__(self) -> str:
        return f"hand {self.hand}: {self.text}" if self.hand else self.text


class InvalidRecord(ValueError):
    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class HandCheck:
    """Collects the problems of one hand, remembering which keys are wrong so
    that a check needing a wrong value is skipped rather than reported twice."""

    __slots__ = ("number", "hand", "names", "problems", "bad")

    def __init__(self, number: int, hand: dict, names: tuple):
        self.number, self.hand, self.names = number, hand, names
        self.problems: list = []
        self.bad: set = set()

    def fail(self, key: str, text: str) -> None:
        self.problems.append(Problem(self.number, key, text))
        self.bad.add(key)

    def good(self, *keys: str) -> bool:
        hand, bad = self.hand, self.bad
        for key in keys:
            if key not in hand or key in bad:
                return False
        return True

    def who(self, seat: int) -> str:
        return self.names[seat]

    def seat(self, key: str, value: object, nullable: bool = False) -> bool:
        """Check that ``value`` is a seat (or null where allowed)."""
        if (type(value) is int and 0 <= value <= 2) or (value is None and nullable):
            return True
        allowed = "0, 1 or 2" + (", or null" if nullable else "")
        self.fail(key, f"{key} must be a seat ({allowed}), not {describe(value)}")
        return False

    def three_counts(self, key: str) -> bool:
        """Check that the hand's ``key`` is three whole numbers ≥ 0, one per seat."""
        value = self.hand[key]
        if not (
            isinstance(value, list)
            and len(value) == 3
            and type(value[0]) is int
            and type(value[1]) is int
            and type(value[2]) is int
        ):
            self.fail(key, f"{key} must be three whole numbers, one per seat, not {describe(value)}")
            return False
        if value[0] < 0 or value[1] < 0 or value[2] < 0:
            self.fail(key, f"{key} cannot be negative ({describe(value)})")
            return False
        return True


def describe(value: object) -> str:
    """A short, safe rendering of a JSON value for a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if not text.isprintable():
        # a problem line is one printable line that always encodes: anything else
        # (a lone surrogate, a line separator, bidi controls) is shown escaped
        text = "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in text)
    return text if len(text) <= 40 else text[:37] + "…"


def is_text(value: str) -> bool:
    """Text that can be written as UTF-8: ``json.loads`` accepts a lone surrogate
    (``"\\ud800"``), which then fails every later encode (a file, SQLite, a page)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def key_name(key: object) -> str:
    """A record key as a problem line names it: quoted only if it would not print on one line."""
    return key if isinstance(key, str) and key.isprintable() else describe(key)


#: Every set there is, "gleek:A" … "mournival:4", as (kind, rank): a set's text is one of these exactly.
SETS = {f"{kind}:{rank}": (kind, rank) for kind in ("gleek", "mournival") for rank in RANKS}


def parse_set(text: str) -> tuple[str, str] | None:
    """``"gleek:A"`` → ``("gleek", "A")``; ``None`` if it is not a set."""
    return SETS.get(text) if isinstance(text, str) else None


def set_cards(kind: str) -> int:
    return 4 if kind == "mournival" else 3


class Decision(NamedTuple):
    """A rule the sources leave open, decided for the app (shown on the rules page)."""

    title: str
    text: str
    source: str


class Option(NamedTuple):
    """A session option of a rule book (e.g. wits1671's Tiddy on/off)."""

    name: str
    default: object
    label: str
    help: str


class PhaseRule(NamedTuple):
    """A phase's rule in plain words, for the rules page."""

    phase: str
    text: str


class Word(NamedTuple):
    """One word of a rule book's vying (docs/rules.md, "Call by call"), as the book declares
    it for ``rules/calls.py``: ``action`` is what it does (check, open, call, raise or drop);
    ``label`` its button on the call pad ("Raise to {n}"), ``says`` how the calls line
    reads it ("raises to {n}"; a drop's {n} is what he owes), ``did`` how a loser's
    reason recalls it ("saw {n}")."""

    word: str
    action: str
    label: str
    says: str
    did: str


class Vying(NamedTuple):
    """A rule book's vying (the ruff, call by call), read by ``rules/calls.py``:
    ``before`` / ``after`` the words until somebody opens and from then on;
    ``opens_at`` the stake an opening makes (a number, ``"S"`` for the hand's opening
    stake, or ``"named"`` when the caller names it); ``raise_by`` what a raise adds (or
    ``"named"``); ``first_stake`` the stake before anybody opens; ``ante`` what every
    loser pays on top; ``fold_owes_stake``: a player who drops owes the stake then
    current (else the stake he last put in); ``all_quiet``: when all three speak without
    opening, ``"no contest"`` or ``"showdown"``; ``unopened`` / ``opened_as`` the state in
    words for a call made at the wrong moment; ``stories`` a loser's reason: dropped, dropped
    without ever putting anything in, held out to the end.
    ``scaled``: every amount is multiplied by the hand's opening value (cotton1674's M, the
    ruff played for double); ``double``: a ``Word`` the dealer may say on the call pad once
    eldest and middle have passed (the ruff is played for at the next deal: ``ruff: null``);
    it is never a word of a record's calls."""

    before: tuple
    after: tuple
    opens_at: object
    raise_by: object
    first_stake: object
    ante: object
    fold_owes_stake: bool
    all_quiet: str
    unopened: str
    opened_as: str
    stories: object
    scaled: bool = False
    double: Word | None = None


class Section(NamedTuple):
    """A moment of play on the hand form: its id, its heading and a short aside (``hand.py``)."""

    id: str
    title: str
    aside: str
