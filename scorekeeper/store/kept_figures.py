"""A circle's evenings' figures kept in the database (``evening_figures``, migration m012).

Each evening's ``rules.season.EveningFigures`` is kept as one row by (session id,
version, the members at its seats) and the code that made it (``kept_code``: the
rules' code, the bytes' format and the statistics counted), so that a restarted
server reads 1,000 evenings back instead of settling them again; a row of other
code is never read back (the caller computes it again). The rows are a cache:
losing one costs a recomputation.

Here: what each figure is keyed by (``evening_versions``, ``evenings_state``), the
rows' bytes (``encode``/``decode``) and the three statements that read and write them.
"""

from __future__ import annotations

import copyreg
import hashlib
import io
import pickle
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from sqlite_utils import Database

from ..rules.season import EveningFigures
from ..rules.statistics import STATISTICS
from .schema import writing


class EveningVersion(NamedTuple):
    """What an evening's figures are kept by: its session, the session's version and
    the members at its seats (``"12,,14"``: member ids by seat, empty for a guest)."""

    session_id: str
    version: int
    members: str


class EveningsState(NamedTuple):
    """A circle's evenings in one aggregate: how many, the sum of their versions and the
    last change (every change of a session bumps its version, never back)."""

    count: int
    versions: int
    last_change: str | None


class KeptRow(NamedTuple):
    """One row of ``evening_figures``: the key it was kept by, the code that made it, its bytes."""

    session_id: str
    version: int
    members: str
    code: str
    data: bytes


def evening_versions(db: Database, circle_id: str) -> tuple[EveningVersion, ...]:
    """Each evening's ``EveningVersion``, in the circle's order (``circles.evenings``:
    the season lists undated evenings in the order given, and names them by their
    number in that order, "Evening 3")."""
    rows = db.execute(
        "select s.id, s.version, (select group_concat(coalesce(member_id, ''), ',') from "
        "(select member_id from seats where session_id = s.id order by seat)) "
        "from circle_sessions x join sessions s on s.id = x.session_id where x.circle_id = ? "
        "order by coalesce(s.played_on, substr(x.added_at, 1, 10)), x.added_at, x.rowid",
        [circle_id],
    ).fetchall()
    return tuple(EveningVersion(*row) for row in rows)


def evenings_state(db: Database, circle_id: str) -> EveningsState:
    count, versions, last_change = db.execute(
        "select count(*), coalesce(sum(s.version), 0), max(s.updated_at) from circle_sessions x "
        "join sessions s on s.id = x.session_id where x.circle_id = ?",
        [circle_id],
    ).fetchone()
    return EveningsState(count, versions, last_change)


def kept_rows_of(db: Database, session_ids) -> list[KeptRow]:
    """The kept rows of these evenings (a new hand, a new evening: a few rows, not the circle's 1,000)."""
    session_ids = list(session_ids)
    return [
        KeptRow(*row)
        for row in db.execute(
            "select session_id, version, members, code, data from evening_figures "
            f"where session_id in ({','.join('?' * len(session_ids))})",
            session_ids,
        )
    ]


def kept_rows_of_circle(db: Database, circle_id: str) -> list[KeptRow]:
    """Every kept row of the circle's evenings."""
    return [
        KeptRow(*row)
        for row in db.execute(
            "select f.session_id, f.version, f.members, f.code, f.data from evening_figures f "
            "join circle_sessions x on x.session_id = f.session_id where x.circle_id = ?",
            [circle_id],
        )
    ]


def keep_rows(db: Database, rows: list[KeptRow]) -> None:
    """Each row kept, replacing its evening's row. Not waiting for the disk (a cache);
    inside a write transaction already (a payment being marked reads what is owed in
    its own) it goes with that one."""
    statement = (
        "insert or replace into evening_figures (session_id, version, members, code, data) values (?, ?, ?, ?, ?)"
    )
    if db.conn.in_transaction:
        db.conn.executemany(statement, rows)
        return
    with writing(db, durable=False):
        db.conn.executemany(statement, rows)


# ---------------------------------------------------------------- the rows' code and bytes

#: The shape of ``encode``'s bytes: kept in each row's code (with the statistics' keys),
#: so rows of an older shape are computed again, never misread.
FORMAT = "p2"


@lru_cache(maxsize=1)
def rules_code() -> str:
    """What the rules' code is (a hash of ``rules/``): figures kept by an older
    release's rules are computed again, never shown."""
    digest = hashlib.sha256()
    for path in sorted((Path(__file__).resolve().parent.parent / "rules").glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def kept_code() -> str:
    """What a kept evening's figures were made by: the rules' code, ``encode``'s format
    and the statistics counted (a statistic added or taken away computes them again)."""
    return f"{rules_code()}{FORMAT}:{STATISTICS.keys()}"


@lru_cache(maxsize=16384)
def _shared_fraction(numerator: int, denominator: int) -> Fraction:
    """One Fraction per value read back, shared by every evening that has it (a
    Fraction cannot change): 1,000 evenings' money is a few hundred values, each
    made (and normalised) once."""
    return Fraction(numerator, denominator)


def _fraction_as_ints(value: Fraction) -> tuple:
    return _shared_fraction, (value.numerator, value.denominator)


#: How ``encode`` pickles: as pickle does, but a Fraction as its two ints (pickle's own
#: way writes its text, which was most of a cold page to parse back).
_PICKLING = {**copyreg.dispatch_table, Fraction: _fraction_as_ints}


def encode(figures: EveningFigures) -> bytes:
    """An ``EveningFigures`` as pickle bytes (the records as they are, each Fraction
    as its numerator and denominator). Only this app's own database holds them."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _PICKLING
    pickler.dump(figures)
    return out.getvalue()


def decode(data: bytes) -> EveningFigures:
    """``encode``'s bytes back into the ``EveningFigures`` they were made from (equal
    to it, Fractions and all)."""
    return pickle.loads(data)
