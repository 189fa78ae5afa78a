"""A club night's kept figures (migration m016): each table's result as settled, by
its session's version and the rules' code, and the night's ratings, by what they
were computed from. Caches, never records: any row may go, and is made again
(web/night_results.py decides what is still good)."""

from __future__ import annotations

import contextlib
from fractions import Fraction
from typing import Iterable, NamedTuple

from sqlite_utils import Database

from .schema import writing


class KeptResult(NamedTuple):
    """A table's result as kept: the session's version it was settled at, the rules'
    code that settled it, its hand count and its players' balances in seat order."""

    session_id: str
    version: int
    code: str
    hands: int
    balances: tuple[Fraction, ...]


def _balances_text(balances: Iterable[Fraction | int]) -> str:
    """Exact balances as text, one a seat ("21/2 -5 -11/2"): Fraction reads it back exactly."""
    return " ".join(str(Fraction(b)) for b in balances)


def kept_results(db: Database, night_id: str) -> dict[str, KeptResult]:
    """Every kept result of the night's tables by session id, in one query."""
    rows = db.execute(
        "select r.session_id, r.version, r.code, r.hands, r.balances from table_results r "
        "join night_tables t on t.session_id = r.session_id where t.night_id = ?",
        [night_id],
    )
    return {
        sid: KeptResult(sid, version, code, hands, tuple(Fraction(b) for b in balances.split()))
        for sid, version, code, hands, balances in rows
    }


def keep_results(db: Database, results: Iterable[KeptResult]) -> None:
    """Tables' results kept (each replacing its table's older one). A cache: written
    without waiting for the disk, and inside a write transaction already under way
    (if any) it goes with that one."""
    rows = [(r.session_id, r.version, r.code, r.hands, _balances_text(r.balances)) for r in results]
    if not rows:
        return
    with contextlib.nullcontext() if db.conn.in_transaction else writing(db, durable=False):
        # a session deleted meanwhile keeps no row: its foreign key would refuse it
        db.conn.executemany(
            "insert or replace into table_results (session_id, version, code, hands, balances) "
            "select ?1, ?2, ?3, ?4, ?5 where exists (select 1 from sessions where id = ?1)",
            rows,
        )


def forget_results(db: Database) -> None:
    """Every kept table result gone (what a deploy of new rules amounts to)."""
    with writing(db, durable=False):
        db.execute("delete from table_results")
