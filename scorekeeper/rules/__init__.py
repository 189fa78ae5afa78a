"""The pure domain of Gleek scoring: rule books, the session record and settle.

No Flask, no SQL, no I/O here: plain data in, counter transfers out.
"""

from .book import RuleBook
from .core import PHASES, InvalidRecord, Payment, Problem, fewest_payments
from .modern import BOOK as MODERN
from .parlett import BOOK as PARLETT
from .wits1671 import BOOK as WITS1671

#: Every rule book by id, the default first. A new book is one module + one line here.
BOOKS: dict[str, RuleBook] = {book.id: book for book in (PARLETT, WITS1671, MODERN)}
DEFAULT_BOOK = PARLETT.id


def book(book_id: str) -> RuleBook:
    return BOOKS[book_id]


__all__ = ["BOOKS", "DEFAULT_BOOK", "PHASES", "InvalidRecord", "Payment", "Problem", "RuleBook",
           "book", "fewest_payments"]
