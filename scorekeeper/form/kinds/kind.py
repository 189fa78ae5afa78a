"""What a kind of question is made of (one module per kind in this package)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable


def _offers_nothing(q, form) -> tuple:
    return ()


def _no_words(q, name: str, value: str, names) -> str | None:
    return None


@dataclass(frozen=True)
class Kind:
    """A kind of question: ``name`` as the book's questions say it (``q.kind``);
    ``template``: the partial that draws it (``templates/fields/<kind>.html``);

    - ``read(q, fields, reading)``: the posted strings → the question's record value
      in ``reading`` (or what is unanswered, or wrong);
    - ``write(q, value, answers)``: a record value → the form's fields (the inverse);
    - ``shape(q, book, options)``: each field the question posts → its check
      (``check(value)`` is None for a value of the field's shape, else why not);
    - ``offers(q, form)``: what its fields offer given the answers so far (a
      section's sig: the fields are drawn again only when it changes);
    - ``word(q, name, value, names)``: one posted value of field ``name`` in the
      table's words (a player's name, a chip's label), or None for the plain value.
    """

    name: str
    template: str
    read: Callable
    write: Callable
    shape: Callable
    offers: Callable = _offers_nothing
    word: Callable = _no_words


def seat_word(value: str, names) -> str | None:
    """A seat's posted value as the player's name."""
    return names[int(value)] if value in ("0", "1", "2") else None
