"""A rule book's special cards, as the book's own data: one row each.

A book lists its cards of trumps that are paid for or counted (``RuleBook.cards``):
Tib, King, Queen and Tom, Tiddy, Cotton's Towser and Tumbler. Each row says

- ``rank`` and ``name`` ("4", "Tiddy"), and ``short``, its word in a compact line
  (the sheet's "honours held: Tib Ann, King Ben");
- ``held``: what it is worth **from each opponent** to whoever has it (a side
  payment, in its own phase), or None;
- ``turned_up``: what it is worth from each opponent to the dealer when it is the
  turned-up card (None: nothing is paid for it turned up);
- ``count``: what it is worth in the count of the play (the tricks phase), or None;
- ``credited``: who has it — ``played`` (whoever plays it), ``held`` (holds it after
  the stock exchange), ``dealt`` (was dealt it) or ``captured`` (takes it in a
  trick); a turned-up card is always the dealer's;
- ``option``: the session option that turns it off (None: always played);
- ``key``: the hand key that records who has it (``"honours"``: the honours object,
  under the card's rank); ``phase``: the phase that pays it;
- ``nobody``: whether it may be nobody's (discarded, or never dealt or captured).

Everything else is derived from the rows, for every book: the checks of those keys
("tiddy must be null when the Four is turned up"), the questions the hand form asks
and the answers the rules fix ("Tiddy turned up: the dealer is paid 4 from each."),
the quiet-hand preset ("no Tiddy"), the payments and their reasons, the sheet's
words and the count's break-even mark (the par). Amounts are exact (an int, or a
``Fraction`` for a half counter such as Towser's 2½).
"""

from __future__ import annotations

from typing import NamedTuple

from .core import RANK_NAMES, SUIT_SYMBOLS


class Card(NamedTuple):
    """One special card of a book (see the module's docstring)."""

    rank: str
    name: str
    short: str
    held: object
    turned_up: object
    count: object
    credited: str
    option: str | None
    key: str
    phase: str
    nobody: bool

    @property
    def called(self) -> str:
        """ "Tib (Ace)", "King": the card as the honours lines call it."""
        rank = RANK_NAMES[self.rank]
        return self.name if self.name == rank else f"{self.name} ({rank})"

    @property
    def described(self) -> str:
        """ "Tiddy (the Four of trumps)"."""
        return f"{self.name} (the {RANK_NAMES[self.rank]} of trumps)"

    def in_suit(self, trump: str | None) -> str:
        """ "Towser (5♥)": the card with its rank and the trump suit's symbol."""
        symbol = SUIT_SYMBOLS.get(trump, "") if trump != "none" else ""
        return f"{self.name} ({self.rank}{symbol})"

    @property
    def side(self) -> bool:
        """Paid for by itself (held or turned up), in a phase of its own."""
        return self.held is not None or self.turned_up is not None


def card(
    rank: str,
    name: str,
    *,
    credited: str,
    short: str | None = None,
    held=None,
    turned_up=None,
    count=None,
    option: str | None = None,
    key: str | None = None,
    phase: str | None = None,
    nobody: bool = True,
) -> Card:
    """A row of the table, with its defaults: a side card is recorded under its own
    name (``tiddy``) and paid in the phase of that name; a counted card is in the
    tricks phase."""
    if key is None:
        key = name.lower()
    if phase is None:
        phase = key if (held is not None or turned_up is not None) else "tricks"
    return Card(rank, name, short or name, held, turned_up, count, credited, option, key, phase, nobody)


#: What a card's ``credited`` means, in the words of the questions and the lines:
#: ``verb`` (the honours line: "Tib — played by"), the question for a card of its own
#: key and its label, what the lines say of whoever has it, and of nobody, and how
#: the record's key says who has it (docs/record.md), and why it may be nobody's.
class Credit(NamedTuple):
    verb: str
    ask: str
    label: str
    has: str
    nobody: str
    record: str
    null: str


CREDITS = {
    "played": Credit(
        "played",
        "Who holds {card} in the play? Tap Nobody if no one.",
        "Who holds it in the play?",
        "holds",
        "Nobody is paid for {names}.",
        "holds {card} in the play",
        "the buyer discarded it",
    ),
    "held": Credit(
        "held",
        "Who holds {card} after the stock exchange? Tap Nobody if the buyer discarded it.",
        "Who holds it after the stock exchange?",
        "holds",
        "Nobody is paid for {names}.",
        "holds {card} after the stock exchange",
        "the buyer discarded it",
    ),
    "dealt": Credit(
        "dealt",
        "Who was dealt {card}? Tap Nobody if it lay in the stock.",
        "Who was dealt it?",
        "was dealt",
        "Nobody was dealt {names} (it lay in the stock).",
        "was dealt {card}",
        "it lay in the stock",
    ),
    "captured": Credit(
        "captured",
        "Who captured {card}?",
        "{name} ({rank} of trumps) captured by",
        "captured",
        "Nobody captured {names}.",
        "captured {card}",
        "nobody captured it",
    ),
}


def names_of(cards, joiner: str = " or ") -> str:
    """ "Towser or Tumbler"; "Tib, Tom or Tiddy"."""
    names = [c.name for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + joiner + names[-1]


class Cards(tuple):
    """A book's table of special cards, with the lookups derived from it."""

    def __new__(cls, rows=()):
        table = super().__new__(cls, rows)
        table.by_rank = {c.rank: c for c in table}
        table.honours = tuple(c for c in table if c.key == "honours")  # in the honours object, by rank
        table.own_keys = tuple(c for c in table if c.key != "honours")  # each recorded under its own key
        table.honour_ranks = frozenset(c.rank for c in table.honours)
        table.honour_count = sum(c.count or 0 for c in table.honours)  # parlett's 30 for Tib, Tom, King and Queen
        # by turned-up rank: the keys of ``honours`` (every honour not turned up)
        table.honours_not_turned_up = {}
        return table

    def honour_keys(self, turned_up) -> frozenset:
        keys = self.honours_not_turned_up.get(turned_up)
        if keys is None:
            keys = self.honours_not_turned_up[turned_up] = self.honour_ranks - {turned_up}
        return keys

    def of_phase(self, phase: str) -> tuple:
        return tuple(c for c in self if c.phase == phase)

    def switched_off_by(self, option: str) -> tuple:
        return tuple(c for c in self if c.option == option)
