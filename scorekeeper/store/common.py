"""What every part of the store shares: its errors, time stamps and ids, and the
history row each change of a session writes."""

from __future__ import annotations

import datetime
import json
import re
import secrets


from ..rules import Problem
from ..rules.core import describe, is_text


class StaleEdit(Exception):
    """The edit was based on an older version of the session than the stored one."""

    def __init__(self, current: int, missing: bool = False):
        self.current, self.missing = current, missing
        super().__init__(
            "This change did not say which version of the session it was based on, so it was not "
            "made; here is the session as it is now. Check it and make your change again."
            if missing
            else "Someone else changed this session a moment ago; here it is as it is now. "
            "Check it and make your change again."
        )


def refuse_stale(current: int, based_on) -> None:
    if type(based_on) is not int or based_on != current:
        raise StaleEdit(current, missing=type(based_on) is not int)


class NotFound(Exception):
    pass


class EveningSettled(Exception):
    """A change to an evening its circle has settled (``evening``: a
    ``payments.SettledEvening``), not made: the change must say it reopens the
    evening (``reopen``), so that a settled evening never changes unnoticed."""

    def __init__(self, evening):
        self.evening = evening
        super().__init__(settled_question(evening.payments))


def settled_question(payments: int) -> str:
    """What a change to a settled evening asks first."""
    marked = "payments were marked" if payments else "nothing was owed"
    return (
        f"This evening is settled: {marked}. Change it anyway? It will be reopened and the difference "
        f"shown under What is owed."
    )


class RateLimited(Exception):
    """Too many new sessions (or tries at one) from one client address;
    ``retry_after`` seconds to wait."""

    def __init__(self, retry_after: int, limit: int):
        self.retry_after, self.limit = retry_after, limit
        super().__init__(
            f"Too many new sessions from this address (at most {limit} a minute, imports and "
            f"refused tries included). Try again in {retry_after} seconds."
        )


class StorageFull(Exception):
    """One client address already keeps the most sessions (or circles) it may (a hosted server's cap)."""

    def __init__(self, limit: int, what: str = "sessions", message: str | None = None):
        self.limit, self.what = limit, what
        if message is not None:
            super().__init__(message)
        elif what == "circles":  # a circle is kept as long as the server: its evenings are its season
            super().__init__(
                f"This address already keeps {limit} circles here, the most one address may. "
                f"Add your evenings to one of your circles."
            )
        else:
            super().__init__(
                f"This address already keeps {limit} sessions here, the most one address may. "
                f"A session nobody has changed for a long time is removed by itself; "
                f"until then, go on with one of yours."
            )


class Refused(Exception):
    """A change the rules or the limits do not allow. ``problems`` says why, as
    ``rules.Problem``s (each keeps its hand and key); ``lines()`` as text."""

    def __init__(self, problems):
        self.problems = [p if isinstance(p, Problem) else Problem(None, "session", str(p)) for p in problems]
        super().__init__("; ".join(self.lines()))

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def log_change(db, session_id, hand_number, action, before, after, version, draft=None):
    """A change's row in the session's history (what the hands were before and after it)."""
    # plain SQL, as for a hand (changes._write_change): sqlite-utils' insert() works out
    # its statement from the row each time, a third of a millisecond on every save
    db.execute(
        "insert into history (session_id, hand_number, action, before, after, version, at, draft) "
        "values (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            session_id,
            hand_number,
            action,
            json.dumps(before) if before is not None else None,
            json.dumps(after) if after is not None else None,
            version,
            now(),
            draft,
        ],
    )


def new_token() -> str:
    """An unguessable id: 144 bits of randomness, URL-safe."""
    return secrets.token_urlsafe(18)


TOKEN = re.compile(r"[A-Za-z0-9_-]{24}\Z")  # what new_token makes: 18 bytes in base64url


def is_token(value) -> bool:
    """An id as the app makes them (a session id or watch id)."""
    return isinstance(value, str) and TOKEN.match(value) is not None


#: How the app hashes a table PIN (werkzeug's generate_password_hash): a restored
#: hash is checked on every unlock, so only the app's own cost is accepted, never
#: one that costs minutes or gigabytes a try (nor a cheaper one).
PIN_METHOD = "scrypt:32768:8:1"
PIN_HASH = re.compile(re.escape(PIN_METHOD) + r"\$[A-Za-z0-9]{16}\$[0-9a-f]{128}\Z")


def is_pin_hash(value) -> bool:
    return isinstance(value, str) and PIN_HASH.match(value) is not None


def id_label(value) -> str:
    """A session id for a message: as it is if the app made it, else quoted and escaped."""
    return value if is_token(value) else describe(value)


def printable(value) -> str:
    """Any value as one printable, encodable line (for problem lines)."""
    return value if isinstance(value, str) and value.isprintable() and is_text(value) else describe(value)


CREATION_WINDOW = 60  # seconds: the sessions one client address may create are counted per minute
