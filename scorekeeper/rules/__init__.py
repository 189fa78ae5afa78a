"""The pure domain of Gleek scoring: rule books, the session record and settle.

No Flask, no SQL, no I/O here: plain data in, counter transfers out.
"""

from collections.abc import Mapping
from importlib import import_module

from .book import RuleBook
from .core import InvalidRecord, Payment, Problem, fewest_payments


class Books(Mapping):
    """Every rule book by id, in the order registered. A book is its module's ``BOOK``,
    registered by the module's name (``register``) and imported the first time the
    book is asked for, so settling a session loads only its own book; iterating over
    the books (the rules page, the new-session form) loads them all."""

    def __init__(self):
        self._modules: dict[str, str] = {}  # id -> module (relative to this package, or absolute)
        self._books: dict[str, RuleBook] = {}

    def register(self, book_id: str, module: str) -> None:
        """The book ``book_id`` is ``module.BOOK`` (a module of this package: ``".parlett"``)."""
        self._modules[book_id] = module
        self._books.pop(book_id, None)

    def unregister(self, book_id: str) -> None:
        del self._modules[book_id]
        self._books.pop(book_id, None)

    def __getitem__(self, book_id: str) -> RuleBook:
        book = self._books.get(book_id)
        if book is None:
            book = import_module(self._modules[book_id], __name__).BOOK
            if book.id != book_id:
                raise LookupError(f"{self._modules[book_id]} is the book {book.id!r}, not {book_id!r}")
            self._books[book_id] = book
        return book

    def __contains__(self, book_id: object) -> bool:
        return isinstance(book_id, str) and book_id in self._modules

    def __iter__(self):
        return iter(self._modules)

    def __len__(self) -> int:
        return len(self._modules)

    def __repr__(self) -> str:
        return f"Books({list(self._modules)})"


#: Every rule book by id, the default first. A new book is one module + one line here.
BOOKS = Books()
BOOKS.register("parlett", ".parlett")
BOOKS.register("wits1671", ".wits1671")
BOOKS.register("modern", ".modern")
BOOKS.register("cotton1674", ".cotton1674")
DEFAULT_BOOK = "parlett"
#: What a source has that no book here does (the rules page and docs/rules.md say so).
NOT_IMPLEMENTED = (
    "The odd unit of the price “given to the box” (Cotton's other choice): money leaving the table would "
    "break the zero sum between the players, so cotton1674 gives it to eldest.",
)


def book(book_id: str) -> RuleBook:
    return BOOKS[book_id]


__all__ = [
    "BOOKS",
    "DEFAULT_BOOK",
    "NOT_IMPLEMENTED",
    "Books",
    "InvalidRecord",
    "Payment",
    "Problem",
    "RuleBook",
    "book",
    "fewest_payments",
]
