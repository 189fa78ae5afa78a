"""What the books with a turned-up trump card (``parlett``, ``wits1671``, ``cotton1674``)
share besides their cards: the moments of play the hand form follows, and a card's
value in a ruff."""

from __future__ import annotations

from .core import Section

#: The form's sections for a hand with a turned-up card, in the order of play.
SECTIONS = (
    Section("deal", "Deal", ""),
    Section("tiddy", "Tiddy", "the Four of trumps"),
    Section("stock", "Stock", ""),
    Section("ruff", "Ruff", ""),
    Section("sets", "Gleeks and mournivals", ""),
    Section("play", "Play", ""),
    Section("note", "", ""),
)

#: A card's value in a ruff (parlett's, Wits'): A 11, K Q J 10, others face value.
RUFF_VALUES = {"A": 11, "K": 10, "Q": 10, "J": 10, **{r: int(r) for r in ("10", "9", "8", "7", "6", "5", "4")}}
