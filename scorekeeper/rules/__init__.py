"""The pure domain of Gleek scoring: rule books, the session record and settle.

No Flask, no SQL, no I/O here: plain data in, counter transfers out.
"""

from collections.abc import MutableMapping
from importlib import import_module

from .book import RuleBook
from .core import PHASES, InvalidRecord, Payment, Problem, fewest_payments


class Books(MutableMapping):
    """Every rule book by id, in order. A book's module is imported the first time
    the book is asked for, so settling a session loads only its own book; iterating
    over the books (the rules page, the new-session form) loads them all. A book may
    also be registered as an object: ``BOOKS[book.id] = book``."""

    def __init__(self, modules: dict[str, str]):
        self._modules = dict(modules)  # id -> module (relative to this package)
        self._books: dict[str, RuleBook] = {}

    def __getitem__(self, book_id: str) -> RuleBook:
        book = self._books.get(book_id)
        if book is None:
            book = self._books[book_id] = import_module(self._modules[book_id], __name__).BOOK
        return book

    def __setitem__(self, book_id: str, book: RuleBook) -> None:
        self._modules.setdefault(book_id, "")
        self._books[book_id] = book

    def __delitem__(self, book_id: str) -> None:
        del self._modules[book_id]
        self._books.pop(book_id, None)

    def __contains__(self, book_id: object) -> bool:
        return isinstance(book_id, str) and book_id in self._modules

    def __iter__(self):
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __repr__(self) -> str:
        return f"Books({list(self._modules)})"


#: Every rule book by id, the default first. A new book is one module + one line here.
BOOKS = Books({"parlett": ".parlett", "wits1671": ".wits1671", "modern": ".modern"})
DEFAULT_BOOK = "parlett"


def book(book_id: str) -> RuleBook:
    return BOOKS[book_id]


__all__ = ["BOOKS", "DEFAULT_BOOK", "PHASES", "Books", "InvalidRecord", "Payment", "Problem", "RuleBook",
           "book", "fewest_payments"]
