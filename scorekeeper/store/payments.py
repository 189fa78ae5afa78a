"""What a circle owes: each evening stays open (its balances carried to the
next) until it is settled; each payment is marked paid (by whom, on which
day) for the evenings it settles ("Ben pays Ann £1 3s 4d, for 14 Nov and
21 Nov"). An amount is exact (a ``Fraction`` as text) in one unit: a currency
(``d`` for old pence, ``GBP``, …) or ``counters`` where there is no stake.

What is still owed is computed (the season's ``owed``) from the open
evenings' settlements and the payments made for them; nothing here stores a
balance. Marking a payment paid closes the evenings it was for once their
payments settle them exactly (``close_settled``, given by the caller who
computed what is left)."""

from __future__ import annotations

import contextlib
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from sqlite_utils import Database

from ..rules import Problem
from ..rules.core import describe, is_text
from .circles import _bump, circle_version, get_circle
from .common import NotFound, Refused, StaleEdit, is_token, now
from .schema import writing

UNIT = re.compile(r"(counters|d|[A-Z]{3})\Z")
AMOUNT = re.compile(r"[0-9]{1,12}(/[0-9]{1,12})?\Z")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")


@dataclass(frozen=True)
class Payment:
    id: int
    payer: int  # member ids
    payee: int
    amount: Fraction  # > 0, in ``unit``
    unit: str
    evenings: tuple  # the session ids it was for
    paid_by: str  # who marked it paid (a member's name as it was then)
    paid_on: str  # the day it was paid (YYYY-MM-DD)
    at: str


def _payment(row) -> Payment:
    return Payment(
        row["id"],
        row["payer"],
        row["payee"],
        Fraction(row["amount"]),
        row["unit"],
        tuple(json.loads(row["evenings"])),
        row["paid_by"] or "",
        row["paid_on"] or "",
        row["at"],
    )


def payments(db: Database, circle_id: str) -> list[Payment]:
    return [_payment(r) for r in db.query("select * from payments where circle_id = ? order by id", [circle_id])]


def open_evening_ids(db: Database, circle_id: str) -> list[str]:
    return [
        r[0]
        for r in db.execute(
            "select session_id from circle_sessions where circle_id = ? and closed_at is null", [circle_id]
        )
    ]


def closed_evenings(db: Database, circle_id: str) -> dict:
    """session id -> when it was closed, for the closed evenings."""
    return dict(
        db.execute(
            "select session_id, closed_at from circle_sessions where circle_id = ? and closed_at is not null",
            [circle_id],
        ).fetchall()
    )


def amount_of(text) -> Fraction | None:
    """An exact amount as a form or a backup writes it ("5", "41/4"), if it is one above 0."""
    if not isinstance(text, str) or not AMOUNT.match(text) or re.search(r"/0+\Z", text):
        return None
    amount = Fraction(text)
    return amount if amount > 0 else None


class Due(NamedTuple):
    """A payment owed, as it is marked paid: ``payer`` pays ``payee`` (member ids)
    ``amount`` (> 0) in ``unit``, for ``evenings`` (session ids)."""

    payer: int
    payee: int
    amount: Fraction
    unit: str
    evenings: tuple


class Paying:
    """Payments being marked, inside ``paying``'s one write transaction: what is
    owed is read inside it, so two phones cannot both mark the same debt."""

    def __init__(self, db: Database, circle_id: str, based_on: int | None):
        self.db, self.circle_id, self.based_on = db, circle_id, based_on
        self.circle = get_circle(db, circle_id)
        self.marked: list[Payment] = []
        self.closed: list[str] = []

    def marked_already(self, due: Due) -> Payment | None:
        """The payment of ``due`` marked from the same version of the circle (the same
        form, posted again), if one."""
        if self.based_on is None:
            return None
        rows = list(
            self.db.query(
                "select * from payments where circle_id = ? and based_on = ? and payer = ? and payee = ? and amount = ? "
                "and unit = ? and evenings = ?",
                [self.circle_id, self.based_on, *_due_key(due)],
            )
        )
        return _payment(rows[0]) if rows else None

    def record(self, due: Due, paid_by: str, paid_on: str) -> Payment:
        """``due`` marked paid (by whom, on which day), for evenings each one of the circle's open ones."""
        problems = []
        if not DATE.match(paid_on or ""):
            problems.append(Problem(None, "paid_on", "Enter the day it was paid."))
        if not paid_by or len(paid_by) > 40 or not is_text(paid_by):
            problems.append(Problem(None, "paid_by", "Say who marks it paid."))
        if due.amount <= 0 or not UNIT.match(due.unit or ""):
            problems.append(Problem(None, "amount", "That payment is not one still owed."))
        if problems:
            raise Refused(problems)
        if self.circle.member(due.payer) is None or self.circle.member(due.payee) is None or due.payer == due.payee:
            raise NotFound(due.payer)
        evenings = tuple(sorted(due.evenings))
        if not evenings or not set(evenings) <= set(open_evening_ids(self.db, self.circle_id)):
            raise Refused([Problem(None, "evenings", "Those evenings are settled already: nothing was marked.")])
        stamp = now()
        payment_id = (
            self.db["payments"]
            .insert(
                {
                    "circle_id": self.circle_id,
                    "payer": due.payer,
                    "payee": due.payee,
                    "amount": str(due.amount),
                    "unit": due.unit,
                    "evenings": json.dumps(evenings),
                    "paid_by": paid_by,
                    "paid_on": paid_on,
                    "at": stamp,
                    "based_on": self.based_on,
                }
            )
            .last_pk
        )
        payment = Payment(payment_id, due.payer, due.payee, due.amount, due.unit, evenings, paid_by, paid_on, stamp)
        self.marked.append(payment)
        return payment

    def close(self, session_ids) -> list[str]:
        """These open evenings are settled (their payments made): closed. Those it closed."""
        ids = sorted(set(session_ids) & set(open_evening_ids(self.db, self.circle_id)))
        if ids:
            self.db.execute(
                f"update circle_sessions set closed_at = ? where circle_id = ? and closed_at is null "
                f"and session_id in ({','.join('?' * len(ids))})",
                [now(), self.circle_id, *ids],
            )
            self.closed += ids
        return ids


def _due_key(due: Due) -> list:
    """A payment's columns that say which debt it paid, as stored."""
    return [due.payer, due.payee, str(due.amount), due.unit, json.dumps(sorted(due.evenings))]


@contextlib.contextmanager
def paying(db: Database, circle_id: str, based_on: int | None, exact: bool = True):
    """One write transaction (``BEGIN IMMEDIATE``) in which the caller reads what
    is still owed and marks payments (``Paying``), based on the circle's version
    ``based_on`` (the one the page showed; each payment keeps it: one payment of a
    debt per version). ``exact``: ``StaleEdit`` if the version moved on (another
    phone marked a payment, or this one did a moment ago: a double tap), nothing
    marked; else the caller checks that what it marks is still owed. The circle's
    version is bumped once, if anything changed; anything raised inside takes every
    mark back. ``based_on`` None: no check (the store's own callers)."""
    with writing(db):
        current = circle_version(db, circle_id)
        if exact and based_on is not None and based_on != current:
            raise StaleEdit(current)
        till = Paying(db, circle_id, based_on)
        yield till
        if till.marked or till.closed:
            _bump(db, circle_id)


def record_payment(
    db: Database,
    circle_id: str,
    payer: int,
    payee: int,
    amount: Fraction,
    unit: str,
    evenings: list,
    paid_by: str,
    paid_on: str,
    based_on: int | None = None,
) -> Payment:
    """A payment marked paid, for ``evenings`` (each one of the circle's open evenings)."""
    with paying(db, circle_id, based_on) as till:
        return till.record(Due(payer, payee, amount, unit, tuple(evenings)), paid_by, paid_on)


def payment_for(db: Database, circle_id: str, due: Due) -> Payment | None:
    """The last payment marked for exactly ``due`` (the same members, amount, unit and evenings), if one."""
    rows = list(
        db.query(
            "select * from payments where circle_id = ? and payer = ? and payee = ? and amount = ? and unit = ? "
            "and evenings = ? order by id desc limit 1",
            [circle_id, *_due_key(due)],
        )
    )
    return _payment(rows[0]) if rows else None


def get_payment(db: Database, circle_id: str, payment_id: int) -> Payment:
    rows = list(db.query("select * from payments where id = ? and circle_id = ?", [payment_id, circle_id]))
    if not rows:
        raise NotFound(payment_id)
    return _payment(rows[0])


def undo_payment(db: Database, circle_id: str, payment_id: int, evening: str | None = None) -> Payment:
    """Take a payment back (marked by mistake): the evenings it closed open again.
    ``evening``: only a payment marked for that evening alone (its Settle up page's).
    ``NotFound`` if there is no such payment (taken back already: a double tap)."""
    with writing(db):
        rows = list(db.query("select * from payments where id = ? and circle_id = ?", [payment_id, circle_id]))
        if not rows or (evening is not None and json.loads(rows[0]["evenings"]) != [evening]):
            raise NotFound(payment_id)
        marks = json.loads(rows[0]["evenings"])
        db.execute("delete from payments where id = ?", [payment_id])
        db.execute(
            f"update circle_sessions set closed_at = null where circle_id = ? and session_id in "
            f"({','.join('?' * len(marks))})",
            [circle_id, *marks],
        )
        _bump(db, circle_id)
    return _payment(rows[0])


def close_evenings(db: Database, circle_id: str, session_ids) -> None:
    """These evenings are settled: closed (their payments made)."""
    ids = list(session_ids)
    if not ids:
        return
    with writing(db):
        db.execute(
            f"update circle_sessions set closed_at = ? where circle_id = ? and closed_at is null and "
            f"session_id in ({','.join('?' * len(ids))})",
            [now(), circle_id, *ids],
        )
        _bump(db, circle_id)


def reopen_evening(db: Database, circle_id: str, session_id: str) -> None:
    with writing(db):
        db.execute(
            "update circle_sessions set closed_at = null where circle_id = ? and session_id = ?",
            [circle_id, session_id],
        )
        _bump(db, circle_id)


# ------------------------------------------------------------------ backups


def payments_snapshot(db: Database, circle_id: str, index: dict) -> list:
    """The circle's payments and closed evenings for its backup (members by their place)."""
    items = [
        {
            "payer": index[p.payer],
            "payee": index[p.payee],
            "amount": str(p.amount),
            "unit": p.unit,
            "evenings": list(p.evenings),
            "paid_by": p.paid_by,
            "paid_on": p.paid_on,
            "at": p.at,
        }
        for p in payments(db, circle_id)
    ]
    closed = closed_evenings(db, circle_id)
    if closed:
        items.append({"closed": dict(sorted(closed.items()))})
    return items


PAYMENT_KEYS = ("payer", "payee", "amount", "unit", "evenings", "paid_by", "paid_on", "at")


def payments_backup_problems(items, members: int | None, evenings: set) -> list[str]:
    if not isinstance(items, list) or len(items) > 100_000:
        return [f"payments must be a list, not {describe(items)}"]
    problems = []
    for i, p in enumerate(items):
        wrong = None
        if isinstance(p, dict) and list(p) == ["closed"]:
            closed = p["closed"]
            if not isinstance(closed, dict) or not all(
                k in evenings and isinstance(v, str) and len(v) <= 40 for k, v in closed.items()
            ):
                wrong = "closed must map the circle's evenings to when they were closed"
        elif not isinstance(p, dict) or sorted(p) != sorted(PAYMENT_KEYS):
            wrong = f"must be an object with {', '.join(PAYMENT_KEYS)}, not {describe(p)}"
        # payer and payee may be one member: a merge before it was refused for that made some
        # (it settles nothing); a backup must restore what the app holds
        elif not all(type(p[k]) is int and 0 <= p[k] < (members or 0) for k in ("payer", "payee")):
            wrong = "payer and payee must be members (their places in members)"
        elif not isinstance(p["amount"], str) or not AMOUNT.match(p["amount"]) or Fraction(p["amount"]) <= 0:
            wrong = f'amount must be an exact amount above 0 ("5", "41/4"), not {describe(p["amount"])}'
        elif not isinstance(p["unit"], str) or not UNIT.match(p["unit"]):
            wrong = f"unit must be counters, d or a currency code, not {describe(p['unit'])}"
        elif (
            not isinstance(p["evenings"], list)
            or not p["evenings"]
            or not all(is_token(e) and e in evenings for e in p["evenings"])
        ):
            wrong = "evenings must be some of the circle's evenings"
        elif not all(isinstance(p[k], str) and len(p[k]) <= 40 and is_text(p[k]) for k in ("paid_by", "paid_on", "at")):
            wrong = "paid_by, paid_on and at must be short text"
        if wrong:
            problems.append(f"payments[{i}]: {wrong}")
            if len(problems) >= 20:
                break
    return problems


def restore_payments(db: Database, circle_id: str, items: list, member_ids: list) -> None:
    for p in items:
        if "closed" in p:
            for sid, at in p["closed"].items():
                db.execute(
                    "update circle_sessions set closed_at = ? where circle_id = ? and session_id = ?",
                    [at, circle_id, sid],
                )
            continue
        db["payments"].insert(
            {
                "circle_id": circle_id,
                "payer": member_ids[p["payer"]],
                "payee": member_ids[p["payee"]],
                "amount": p["amount"],
                "unit": p["unit"],
                "evenings": json.dumps(p["evenings"]),
                "paid_by": p["paid_by"],
                "paid_on": p["paid_on"],
                "at": p["at"],
            }
        )


def forget_payments(db: Database, circle_id: str) -> None:
    db.execute("delete from payments where circle_id = ?", [circle_id])
