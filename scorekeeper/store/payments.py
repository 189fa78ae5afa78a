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

import json
import re
from dataclasses import dataclass
from fractions import Fraction

from sqlite_utils import Database

from ..rules import Problem
from ..rules.core import describe, is_text
from .circles import _bump, get_circle
from .common import NotFound, Refused, is_token, now
from .schema import writing

UNIT = re.compile(r"(counters|d|[A-Z]{3})\Z")
AMOUNT = re.compile(r"[0-9]{1,12}(/[0-9]{1,12})?\Z")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")


@dataclass(frozen=True)
class Payment:
    id: int
    payer: int            # member ids
    payee: int
    amount: Fraction      # > 0, in ``unit``
    unit: str
    evenings: tuple       # the session ids it was for
    paid_by: str          # who marked it paid (a member's name as it was then)
    paid_on: str          # the day it was paid (YYYY-MM-DD)
    at: str


def _payment(row) -> Payment:
    return Payment(row["id"], row["payer"], row["payee"], Fraction(row["amount"]), row["unit"],
                   tuple(json.loads(row["evenings"])), row["paid_by"] or "", row["paid_on"] or "", row["at"])


def payments(db: Database, circle_id: str) -> list[Payment]:
    return [_payment(r) for r in db.query("select * from payments where circle_id = ? order by id", [circle_id])]


def open_evening_ids(db: Database, circle_id: str) -> list[str]:
    return [r[0] for r in db.execute(
        "select session_id from circle_sessions where circle_id = ? and closed_at is null", [circle_id])]


def closed_evenings(db: Database, circle_id: str) -> dict:
    """session id -> when it was closed, for the closed evenings."""
    return dict(db.execute("select session_id, closed_at from circle_sessions "
                           "where circle_id = ? and closed_at is not null", [circle_id]).fetchall())


def record_payment(db: Database, circle_id: str, payer: int, payee: int, amount: Fraction, unit: str,
                   evenings: list, paid_by: str, paid_on: str, based_on: int | None = None) -> Payment:
    """A payment marked paid, for ``evenings`` (each one of the circle's open evenings)."""
    problems = []
    if not DATE.match(paid_on or ""):
        problems.append(Problem(None, "paid_on", "Enter the day it was paid."))
    if not paid_by or len(paid_by) > 40 or not is_text(paid_by):
        problems.append(Problem(None, "paid_by", "Say who marks it paid."))
    if amount <= 0 or not UNIT.match(unit or ""):
        problems.append(Problem(None, "amount", "That payment is not one still owed."))
    if problems:
        raise Refused(problems)
    with writing(db):
        circle = get_circle(db, circle_id)
        if circle.member(payer) is None or circle.member(payee) is None or payer == payee:
            raise NotFound(payer)
        open_ids = set(open_evening_ids(db, circle_id))
        if not evenings or not set(evenings) <= open_ids:
            raise Refused([Problem(None, "evenings", "Those evenings are settled already: nothing was marked.")])
        stamp = now()
        payment_id = db["payments"].insert({
            "circle_id": circle_id, "payer": payer, "payee": payee,
            "amount": str(amount), "unit": unit, "evenings": json.dumps(sorted(evenings)),
            "paid_by": paid_by, "paid_on": paid_on, "at": stamp}).last_pk
        _bump(db, circle_id, based_on)
    return Payment(payment_id, payer, payee, amount, unit, tuple(sorted(evenings)), paid_by, paid_on, stamp)


def undo_payment(db: Database, circle_id: str, payment_id: int) -> None:
    """Take a payment back (marked by mistake): the evenings it closed open again."""
    with writing(db):
        rows = list(db.query("select * from payments where id = ? and circle_id = ?", [payment_id, circle_id]))
        if not rows:
            raise NotFound(payment_id)
        marks = json.loads(rows[0]["evenings"])
        db.execute("delete from payments where id = ?", [payment_id])
        db.execute(f"update circle_sessions set closed_at = null where circle_id = ? and session_id in "
                   f"({','.join('?' * len(marks))})", [circle_id, *marks])
        _bump(db, circle_id)


def close_evenings(db: Database, circle_id: str, session_ids) -> None:
    """These evenings are settled: closed (their payments made)."""
    ids = list(session_ids)
    if not ids:
        return
    with writing(db):
        db.execute(f"update circle_sessions set closed_at = ? where circle_id = ? and closed_at is null and "
                   f"session_id in ({','.join('?' * len(ids))})", [now(), circle_id, *ids])
        _bump(db, circle_id)


def reopen_evening(db: Database, circle_id: str, session_id: str) -> None:
    with writing(db):
        db.execute("update circle_sessions set closed_at = null where circle_id = ? and session_id = ?",
                   [circle_id, session_id])
        _bump(db, circle_id)


# ------------------------------------------------------------------ backups

def payments_snapshot(db: Database, circle_id: str, index: dict) -> list:
    """The circle's payments and closed evenings for its backup (members by their place)."""
    items = [{"payer": index[p.payer], "payee": index[p.payee], "amount": str(p.amount), "unit": p.unit,
              "evenings": list(p.evenings), "paid_by": p.paid_by, "paid_on": p.paid_on, "at": p.at}
             for p in payments(db, circle_id)]
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
            if not isinstance(closed, dict) or not all(k in evenings and isinstance(v, str) and len(v) <= 40
                                                       for k, v in closed.items()):
                wrong = "closed must map the circle's evenings to when they were closed"
        elif not isinstance(p, dict) or sorted(p) != sorted(PAYMENT_KEYS):
            wrong = f"must be an object with {', '.join(PAYMENT_KEYS)}, not {describe(p)}"
        elif not all(type(p[k]) is int and 0 <= p[k] < (members or 0) for k in ("payer", "payee")) \
                or p["payer"] == p["payee"]:
            wrong = "payer and payee must be two members (their places in members)"
        elif not isinstance(p["amount"], str) or not AMOUNT.match(p["amount"]) or Fraction(p["amount"]) <= 0:
            wrong = f"amount must be an exact amount above 0 (\"5\", \"41/4\"), not {describe(p['amount'])}"
        elif not isinstance(p["unit"], str) or not UNIT.match(p["unit"]):
            wrong = f"unit must be counters, d or a currency code, not {describe(p['unit'])}"
        elif not isinstance(p["evenings"], list) or not p["evenings"] or not all(
                is_token(e) and e in evenings for e in p["evenings"]):
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
                db.execute("update circle_sessions set closed_at = ? where circle_id = ? and session_id = ?",
                           [at, circle_id, sid])
            continue
        db["payments"].insert({"circle_id": circle_id, "payer": member_ids[p["payer"]],
                               "payee": member_ids[p["payee"]], "amount": p["amount"], "unit": p["unit"],
                               "evenings": json.dumps(p["evenings"]), "paid_by": p["paid_by"],
                               "paid_on": p["paid_on"], "at": p["at"]})


def forget_payments(db: Database, circle_id: str) -> None:
    db.execute("delete from payments where circle_id = ?", [circle_id])
