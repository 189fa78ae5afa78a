"""The table PIN: the tries counted and checked in one transaction.

Wrong tries are counted per client address *and* per session. A client gets
``PIN_TRIES`` tries in any ``PIN_WINDOW`` seconds, whatever the others do: one
guesser no longer locks everyone out (five wrong PINs from anyone used to keep the
scorer's second phone out of the table). The session as a whole gets
``SESSION_PIN_TRIES`` in any ``SESSION_PIN_WINDOW``: a guesser who changes address
still checks at most 100 of a PIN's 10,000 values (4 digits; more with 5 to 8)
a day, a 1 % chance. Past that ceiling every new device waits, as before (the
devices already unlocked, the scorer's own first of all, stay unlocked).
"""

from __future__ import annotations

import math
from typing import NamedTuple

from sqlite_utils import Database

from .schema import writing


PIN_TRIES = 5                     # a client's tries ...
PIN_WINDOW = 15 * 60              # ... in any 15 minutes
SESSION_PIN_TRIES = 100           # every client's tries together ...
SESSION_PIN_WINDOW = 24 * 60 * 60  # ... in any 24 hours


class PinTry(NamedTuple):
    """A reserved try (``id``), or a refusal: ``id`` None, ``wait`` seconds until
    the next try, ``table_wide`` if it is the session's ceiling, not this client's."""

    id: int | None
    wait: int = 0
    table_wide: bool = False


#: Where each kind of PIN counts its tries: a session's, a circle's (the same rules).
TRIES = {"session": ("pin_failures", "session_id"), "circle": ("circle_pin_failures", "circle_id")}


def reserve_pin_try(db: Database, session_id: str, address: str, at: float, kind: str = "session") -> PinTry:
    """Count a PIN try from ``address`` before checking it, or refuse it once this
    client had PIN_TRIES in PIN_WINDOW seconds, or the session SESSION_PIN_TRIES
    in SESSION_PIN_WINDOW.

    The count and the reservation are one short transaction, so a burst of
    parallel tries cannot all see "fewer than 5" and all be checked. The slow hash
    check happens after it, outside any transaction (holding SQLite's write lock
    through a deliberately slow check would hold up every save). A reserved try
    counts as a wrong one until ``forget_pin_try`` says it was right."""
    address = address or "unknown"
    table, column = TRIES[kind]
    with writing(db):
        db.execute(f"delete from {table} where at <= ?", [at - SESSION_PIN_WINDOW])
        mine = [row[0] for row in db.execute(
            f"select at from {table} where {column} = ? and address = ? and at > ? order by at",
            [session_id, address, at - PIN_WINDOW])]
        if len(mine) >= PIN_TRIES:
            return PinTry(None, max(1, math.ceil(mine[-PIN_TRIES] + PIN_WINDOW - at)))
        everyone = [row[0] for row in db.execute(
            f"select at from {table} where {column} = ? order by at", [session_id])]
        if len(everyone) >= SESSION_PIN_TRIES:
            return PinTry(None, max(1, math.ceil(everyone[-SESSION_PIN_TRIES] + SESSION_PIN_WINDOW - at)), True)
        return PinTry(db[table].insert({column: session_id, "address": address, "at": at}).last_pk)


def forget_pin_try(db: Database, try_id: int, kind: str = "session") -> None:
    """The reserved try was the right PIN: it does not count against the table (or circle)."""
    with writing(db):
        db.execute(f"delete from {TRIES[kind][0]} where id = ?", [try_id])
