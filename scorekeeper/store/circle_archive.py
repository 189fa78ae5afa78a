"""A whole circle as one JSON document (``gleek-circle/1``): its name, its
members, every evening's ``gleek-session/1`` record (OKs and disputes in it,
as an export) with the member at each seat, the payments marked, which
evenings are settled and its club nights (``nights``: each table names its
evening, ``night_archive.circle_night_data``). Exported from the circle's page, carried by the season
sheet PDF, imported as a new circle (new links: an archive is for moving a
circle, a backup for putting one back). docs/record.md describes it."""

from __future__ import annotations

import json
from fractions import Fraction

from sqlite_utils import Database

from ..rules.core import describe, key_name
from ..words.names import member_name
from ..rules.record import real_date, validate
from .changes import insert_session, limit_problems
from .circles import (
    Circle,
    MAX_MEMBERS,
    check_circles_kept,
    check_sessions_kept,
    circle_name_problem,
    evenings,
    get_circle,
    members_problems,
    name_problem,
)
from .common import Refused, new_token, now
from .night_archive import circle_night_data, circle_nights_problems, insert_circle_nights
from .nights import get_night, nights_of_circle
from .payments import AMOUNT, DATE, UNIT, closed_evenings, payments
from .reads import PLAYERS, get_session
from .schema import writing

FORMAT = "gleek-circle/1"
KEYS = ("format", "name", "members", "evenings")
OPTIONAL_KEYS = ("payments", "nights")
MAX_EVENINGS = 2000


def archive_data(db: Database, circle: Circle) -> dict:
    index = {m.id: i for i, m in enumerate(circle.members)}
    held = evenings(db, circle.id)
    closed = closed_evenings(db, circle.id)
    position = {e.session_id: i for i, e in enumerate(held)}
    data = {
        "format": FORMAT,
        "name": circle.name,
        "members": [m.name for m in circle.members],
        "evenings": [
            dict(
                {
                    "members": [index.get(m) for m in e.members],
                    "record": get_session(db, e.session_id).record(with_agreement=True),
                },
                **({"settled": True} if e.session_id in closed else {}),
            )
            for e in held
        ],
    }
    paid = [
        {
            "payer": index[p.payer],
            "payee": index[p.payee],
            "amount": str(p.amount),
            "unit": p.unit,
            "evenings": sorted(position[s] for s in p.evenings if s in position),
            "paid_by": p.paid_by,
            "paid_on": p.paid_on,
        }
        for p in payments(db, circle.id)
    ]
    if paid:
        data["payments"] = paid
    return with_nights(db, circle, data, position, index)


def with_nights(db: Database, circle: Circle, data: dict, position: dict, index: dict) -> dict:
    """``data`` with the circle's club nights (``nights``), if it has any."""
    nights = [
        circle_night_data(db, get_night(db, n["id"]), position, index)
        for n in reversed(nights_of_circle(db, circle.id))
    ]  # oldest first
    if nights:
        data["nights"] = nights
    return data


def archive(db: Database, circle: Circle) -> str:
    """``archive_data`` as JSON text, each evening's hands taken as stored (they are
    JSON already) where the record adds nothing to them (no OKs asked, none given):
    a circle of 1,000 evenings is written without decoding its 30,000 hands."""
    data = archive_data_without_hands(db, circle)

    def dumps(value) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    evenings = []
    for item, (session_id, record, plain) in zip(data["evenings"], data.pop("_records")):
        if plain:
            texts = [
                t for (t,) in db.execute("select data from hands where session_id = ? order by number", [session_id])
            ]
            body = dumps(record)[:-1] + ("," if record else "") + '"hands":[' + ",".join(texts) + "]}"
        else:
            body = dumps(get_session(db, session_id).record(with_agreement=True))
        evenings.append(dumps(item)[:-1] + ',"record":' + body + "}")
    head = dumps({k: v for k, v in data.items() if k != "evenings" and k != "payments"})
    text = head[:-1] + ',"evenings":[' + ",".join(evenings) + "]"
    if "payments" in data:
        text += ',"payments":' + dumps(data["payments"])
    return text + "}"


def archive_data_without_hands(db: Database, circle: Circle) -> dict:
    """``archive_data`` with each evening's record left out (under ``_records``:
    (session id, the record without its hands, whether its hands are as stored))."""
    index = {m.id: i for i, m in enumerate(circle.members)}
    held = evenings(db, circle.id)
    closed = closed_evenings(db, circle.id)
    position = {e.session_id: i for i, e in enumerate(held)}
    items, records = [], []
    for e in held:
        items.append(
            dict(
                {"members": [index.get(m) for m in e.members]}, **({"settled": True} if e.session_id in closed else {})
            )
        )
        row = next(
            db.query(
                f"select s.*, {PLAYERS} as players, (select count(*) from verdicts v "
                "where v.session_id = s.id) as said from sessions s where s.id = ?",
                [e.session_id],
            )
        )
        plain = not row["confirm"] and not row["said"]
        if plain:
            record = {
                "format": "gleek-session/1",
                "rulebook": row["rulebook"],
                "options": json.loads(row["options"]),
                "players": json.loads(row["players"]),
            }
            for key in ("title", "played_on"):
                if row[key]:
                    record[key] = row[key]
            if row["stake"]:
                record["stake"] = json.loads(row["stake"])
            records.append((e.session_id, record, True))
        else:
            records.append((e.session_id, None, False))
    data = {
        "format": FORMAT,
        "name": circle.name,
        "members": [m.name for m in circle.members],
        "evenings": items,
        "_records": records,
    }
    paid = [
        {
            "payer": index[p.payer],
            "payee": index[p.payee],
            "amount": str(p.amount),
            "unit": p.unit,
            "evenings": sorted(position[s] for s in p.evenings if s in position),
            "paid_by": p.paid_by,
            "paid_on": p.paid_on,
        }
        for p in payments(db, circle.id)
    ]
    if paid:
        data["payments"] = paid
    return with_nights(db, circle, data, position, index)


def archive_problems(data) -> list[str]:
    """Everything wrong with an archive; empty if it can be imported."""
    if not isinstance(data, dict):
        return [f"a circle's archive is a JSON object, not {describe(data)}"]
    problems = [f"{key} is missing" for key in KEYS if key not in data]
    problems += [f"{key_name(k)} is not a key of a circle's archive" for k in data if k not in KEYS + OPTIONAL_KEYS]
    if data.get("format", FORMAT) != FORMAT:
        problems.append(f'format must be "{FORMAT}", not {describe(data.get("format"))}')
    if "name" in data:
        wrong = circle_name_problem(data["name"])
        if wrong:
            problems.append(f"name: {wrong.text}")
    members = data.get("members")
    count = 0
    if "members" in data:
        if not isinstance(members, list) or len(members) > MAX_MEMBERS:
            problems.append(f"members must be a list of at most {MAX_MEMBERS} names")
        else:
            problems += [f"members: {p.text}" for p in members_problems(members)]
            count = len(members)
    items = data.get("evenings")
    if "evenings" in data:
        if not isinstance(items, list) or len(items) > MAX_EVENINGS:
            problems.append(f"evenings must be a list of at most {MAX_EVENINGS} evenings")
            items = []
        for i, e in enumerate(items):
            where = f"evenings[{i}]"
            if (
                not isinstance(e, dict)
                or not {"members", "record"} <= set(e)
                or not set(e) <= {"members", "record", "settled"}
            ):
                problems.append(f"{where}: must be an object with members and record (and settled)")
                continue
            m = e["members"]
            if (
                not isinstance(m, list)
                or len(m) != 3
                or not all(x is None or (type(x) is int and 0 <= x < count) for x in m)
                or len([x for x in m if x is not None]) != len({x for x in m if x is not None})
            ):
                problems.append(
                    f"{where}: members must be three different members (their places in members) or null, one per seat"
                )
            wrong = [str(p) for p in validate(e["record"])] or [str(p) for p in limit_problems(e["record"])]
            problems += [f"{where}: record: {p}" for p in wrong[:5]]
            if "settled" in e and e["settled"] is not True:
                problems.append(f"{where}: settled must be true, or left out")
            if len(problems) > 40:
                problems.append("… (more problems not listed)")
                return problems
    if "nights" in data:
        problems += circle_nights_problems(data["nights"], items or [], count)
    if "payments" in data:
        paid = data["payments"]
        if not isinstance(paid, list) or len(paid) > 100_000:
            problems.append("payments must be a list")
            paid = []
        keys = ["amount", "evenings", "paid_by", "paid_on", "payee", "payer", "unit"]
        for i, p in enumerate(paid):
            if isinstance(p, dict) and "paid_by" in p:  # who marked it: a member's name, checked as one
                wrong = name_problem(p["paid_by"], "paid_by", "paid_by (who marked it paid)")
                if wrong:
                    problems.append(f"payments[{i}]: {wrong.text}")
                    continue
            ok = (
                isinstance(p, dict)
                and sorted(p) == keys
                # one member may be both: a merge before it was refused for that made some (it settles nothing)
                and all(type(p[k]) is int and 0 <= p[k] < count for k in ("payer", "payee"))
                and isinstance(p["amount"], str)
                and AMOUNT.match(p["amount"])
                and Fraction(p["amount"]) > 0
                and isinstance(p["unit"], str)
                and UNIT.match(p["unit"])
                and isinstance(p["evenings"], list)
                and p["evenings"]
                and all(type(x) is int and 0 <= x < len(items or ()) for x in p["evenings"])
                and isinstance(p["paid_on"], str)
                and DATE.match(p["paid_on"])
                and real_date(p["paid_on"])
            )
            if not ok:
                problems.append(
                    f"payments[{i}]: must be a payment between two members, an exact amount above 0 "
                    "in counters or a currency, for some of the evenings, with who marked it and the day"
                )
    return problems


def import_archive(
    db: Database, data: dict, owner: str | None = None, keep_limit: int | None = None, sessions_limit: int | None = None
) -> Circle:
    """A new circle from an archive: new links for it and for each evening; all or nothing.
    ``StorageFull`` once ``owner`` keeps ``keep_limit`` circles (``check_circles_kept``), or
    where its evenings would take ``owner`` past ``sessions_limit`` sessions (``check_sessions_kept``)."""
    problems = archive_problems(data)
    if problems:
        raise Refused(problems)
    circle_id, watch_id, stamp = new_token(), new_token(), now()
    with writing(db):
        check_circles_kept(db, owner, keep_limit)
        check_sessions_kept(db, owner, sessions_limit, len(data["evenings"]))
        db["circles"].insert(
            {
                "id": circle_id,
                "watch_id": watch_id,
                "name": data["name"].strip(),
                "pin_hash": None,
                "version": 1,
                "created_at": stamp,
                "updated_at": stamp,
                "creator": owner,
            }
        )
        ids = [
            db["members"].insert({"circle_id": circle_id, "name": member_name(n), "created_at": stamp}).last_pk
            for n in data["members"]
        ]
        session_ids = []
        for e in data["evenings"]:
            session_id = new_token()
            insert_session(
                db, session_id, new_token(), e["record"], 0, "import", None, e["record"].get("scorer"), owner, stamp
            )
            for seat, m in enumerate(e["members"]):
                db.execute(
                    "update seats set member_id = ? where session_id = ? and seat = ?",
                    [None if m is None else ids[m], session_id, seat],
                )
            db["circle_sessions"].insert(
                {
                    "session_id": session_id,
                    "circle_id": circle_id,
                    "added_at": stamp,
                    "closed_at": stamp if e.get("settled") else None,
                }
            )
            session_ids.append(session_id)
        for p in data.get("payments", ()):
            db["payments"].insert(
                {
                    "circle_id": circle_id,
                    "payer": ids[p["payer"]],
                    "payee": ids[p["payee"]],
                    "amount": p["amount"],
                    "unit": p["unit"],
                    "evenings": json.dumps(sorted(session_ids[i] for i in p["evenings"])),
                    "paid_by": member_name(p["paid_by"]),
                    "paid_on": p["paid_on"],
                    "at": stamp,
                }
            )
        insert_circle_nights(db, data.get("nights", ()), circle_id, session_ids, ids, owner, stamp)
    return get_circle(db, circle_id)
