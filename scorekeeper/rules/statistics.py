"""A season's statistics, each declared once (docs/season.md, "Adding a statistic").

A ``Statistic`` says what one hand gives it (``of_hand``: for each seat it counts
for, a value), how values add up over an evening's hands and then over a season's
evenings (``adds``: a sum, the most, the least, or counts by key), and how it is
shown (``shown``). ``STATISTICS`` lists them in the order they are shown; the
season (``rules/season.py``), the circle's statistics page, ``scorekeeper season``
(text and ``--json``) and the season sheet loop over it. A statistic that takes a
rule to know (who bought the stock, what a set is, who held Tiddy) reads the book's
``HandFacts`` (``RuleBook.season_facts``); anything else reads the hand's own keys.

Pure, like the rest of ``rules/``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from .core import RANKS

#: How values add up, hand by hand and evening by evening.
SUM, MOST, LEAST, BY_KEY = "sum", "most", "least", "by key"

#: How a statistic is shown: a whole number, counts by key ("A×2 K"), an amount in money
#: per currency (the season's ``Net`` field of the same key), an average in counters;
#: ``HIDDEN``: kept for another statistic (a derived one), never shown by itself.
COUNT, COUNTS, MONEY, AVERAGE, HIDDEN = "count", "counts", "money", "average", "hidden"


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What a season counts of one hand that takes the book's rules to know
    (``RuleBook.season_facts``): the stock's ``buyer`` and ``price`` (None, 0 without
    one), the ruff's ``ruff_winner`` (None without one) and whether the winner
    showed four Aces (``by_four_aces``), the ``sets`` each seat declared (three tuples of ``(kind, rank)``)
    and who ``held`` each of the book's side cards, as ``(card name, seat)``."""

    buyer: int | None = None
    price: int = 0
    ruff_winner: int | None = None
    by_four_aces: bool = False
    sets: tuple = ((), (), ())
    held: tuple = ()


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand as a statistic sees it: the ``record``'s hand (its own keys: "dealer",
    "turned_up", "agreed", …), each seat's ``totals`` for the hand (counters) and the
    book's ``facts``."""

    record: dict
    totals: list
    facts: HandFacts


@dataclass(frozen=True, slots=True)
class Statistic:
    """One statistic (see the module's docstring).

    - ``key``: its name in the JSON and in the figures (``stats.won``);
    - ``label``: its words for people (a row's head on the page, in the text and the PDF);
    - ``of_hand``: ``Hand`` → ``(seat, value)`` for each seat it counts for (with
      ``adds`` BY_KEY the value is the key counted: a rank, a card's name);
    - ``adds``: SUM (from 0), MOST or LEAST (None until a value), BY_KEY (key → count);
    - ``shown``: COUNT, COUNTS, MONEY, AVERAGE or HIDDEN;
    - ``order``: the order of a BY_KEY statistic's keys, ``order(book)``: for one
      evening its book, for a season None (a None order: the keys first met);
    - ``derived``: instead of ``of_hand``, the season's value from the other
      statistics' (key → value), e.g. the average price;
    - ``in_json``: whether ``season --json`` gives it.
    """

    key: str
    label: str
    of_hand: Callable[[Hand], Iterable[tuple[int, object]]] | None = None
    adds: str = SUM
    shown: str = COUNT
    order: Callable[[object], tuple | None] | None = None
    derived: Callable[[dict], object] | None = None
    in_json: bool = True


class Statistics:
    """The statistics, in the order they are shown. ``register`` adds one (a test's own,
    as ``BOOKS.register`` adds a book); ``unregister`` takes it away again."""

    def __init__(self, *statistics: Statistic):
        self._rows = list(statistics)

    def __iter__(self) -> Iterator[Statistic]:
        return iter(self._rows)

    def register(self, statistic: Statistic) -> None:
        self.unregister(statistic.key)
        self._rows.append(statistic)

    def unregister(self, key: str) -> None:
        self._rows = [s for s in self._rows if s.key != key]

    def counted(self) -> list[Statistic]:
        """The statistics added up from the hands (not derived)."""
        return [s for s in self._rows if s.derived is None]

    def shown(self) -> list[Statistic]:
        return [s for s in self._rows if s.shown != HIDDEN]

    def keys(self) -> str:
        """Every key, in order: what a kept evening's figures were counted with."""
        return ",".join(s.key for s in self._rows)


def _declared(kind: str) -> Callable[[Hand], list]:
    def of_hand(hand: Hand) -> list:
        return [(seat, rank) for seat, sets in enumerate(hand.facts.sets) for k, rank in sets if k == kind]

    return of_hand


def _ranks(book) -> tuple:
    return RANKS


def _side_cards(book) -> tuple | None:
    """An evening's side cards in its book's order; a season's as first met (books differ)."""
    return None if book is None else book.side_cards()


def _average_price(values: dict):
    return Fraction(values["price"], values["bought"]) if values["bought"] else None


STATISTICS = Statistics(
    Statistic("won", "Hands won", lambda hand: [(s, 1) for s, t in enumerate(hand.totals) if t > 0]),
    Statistic("best", "Best hand", lambda hand: enumerate(hand.totals), adds=MOST, shown=MONEY),
    Statistic("worst", "Worst hand", lambda hand: enumerate(hand.totals), adds=LEAST, shown=MONEY),
    Statistic("bought", "Stocks bought", lambda hand: [] if hand.facts.buyer is None else [(hand.facts.buyer, 1)]),
    Statistic(
        "price",
        "Prices paid for the stock",
        lambda hand: [] if hand.facts.buyer is None else [(hand.facts.buyer, hand.facts.price)],
        shown=HIDDEN,
        in_json=False,
    ),
    Statistic("average_price", "Average price", derived=_average_price, shown=AVERAGE, in_json=False),
    Statistic(
        "ruffs", "Ruffs won", lambda hand: [] if hand.facts.ruff_winner is None else [(hand.facts.ruff_winner, 1)]
    ),
    Statistic(
        "ruffs_by_aces",
        "… by four Aces",
        lambda hand: [(hand.facts.ruff_winner, 1)] if hand.facts.by_four_aces else [],
        in_json=False,
    ),
    Statistic("gleeks", "Gleeks declared", _declared("gleek"), adds=BY_KEY, shown=COUNTS, order=_ranks),
    Statistic("mournivals", "Mournivals declared", _declared("mournival"), adds=BY_KEY, shown=COUNTS, order=_ranks),
    Statistic(
        "held",
        "Held",
        lambda hand: [(seat, name) for name, seat in hand.facts.held],
        adds=BY_KEY,
        shown=COUNTS,
        order=_side_cards,
        in_json=False,
    ),
    Statistic("agreed", "OKs given", lambda hand: [(seat, 1) for seat in hand.record.get("agreed", ())], in_json=False),
    Statistic(
        "disputed", "Disputes", lambda hand: [(d["seat"], 1) for d in hand.record.get("disputes", ())], in_json=False
    ),
)


# ---------------------------------------------------------------- adding up


def _start(statistic: Statistic):
    return {SUM: 0, MOST: None, LEAST: None, BY_KEY: {}}[statistic.adds]


def _ordered(statistic: Statistic, counts: dict, book) -> dict:
    order = None if statistic.order is None else statistic.order(book)
    if order is None:
        return counts
    return {k: counts[k] for k in order if k in counts}


def of_evening(book, hands: Iterable[Hand], statistics: Statistics = STATISTICS) -> tuple[dict, dict, dict]:
    """Each seat's values (key → value) over one evening's hands, played by ``book``;
    counts by key as ``(key, count)`` pairs (in ``order``), never changed after."""
    counted = statistics.counted()
    seats = (
        {s.key: _start(s) for s in counted},
        {s.key: _start(s) for s in counted},
        {s.key: _start(s) for s in counted},
    )
    plan = [(s.key, s.adds, s.of_hand) for s in counted]
    for hand in hands:
        for key, adds, of_hand in plan:
            for seat, value in of_hand(hand):
                values = seats[seat]
                if adds == SUM:
                    values[key] += value
                elif adds == BY_KEY:
                    counter = values[key]
                    counter[value] = counter.get(value, 0) + 1
                elif adds == MOST:
                    if values[key] is None or value > values[key]:
                        values[key] = value
                elif values[key] is None or value < values[key]:  # LEAST
                    values[key] = value
    for values in seats:
        for statistic in counted:
            if statistic.adds == BY_KEY:
                values[statistic.key] = tuple(_ordered(statistic, values[statistic.key], book).items())
    return seats


def of_season(evenings: Iterable[dict], statistics: Statistics = STATISTICS) -> dict:
    """One player's values over the evenings played (each key → value, as ``of_evening``
    gives them, in date order): each added up as its statistic says, column by column
    in the evenings' order (the same additions as one evening at a time); counts by
    key as a dict; then the derived statistics."""
    evenings = list(evenings)
    totals = {}
    for statistic in statistics.counted():
        key, adds = statistic.key, statistic.adds
        column = [values[key] for values in evenings]
        if adds == SUM:
            totals[key] = sum(column)
        elif adds == MOST:
            totals[key] = max((v for v in column if v is not None), default=None)
        elif adds == LEAST:
            totals[key] = min((v for v in column if v is not None), default=None)
        else:
            counter: dict = {}
            for pairs in column:
                for k, n in pairs:
                    counter[k] = counter.get(k, 0) + n
            totals[key] = _ordered(statistic, counter, None)
    for statistic in statistics:
        if statistic.derived is not None:
            totals[statistic.key] = statistic.derived(totals)
    return totals


__all__ = [
    "AVERAGE",
    "BY_KEY",
    "COUNT",
    "COUNTS",
    "HIDDEN",
    "Hand",
    "HandFacts",
    "LEAST",
    "MONEY",
    "MOST",
    "STATISTICS",
    "SUM",
    "Statistic",
    "Statistics",
    "of_evening",
    "of_season",
]
