"""A circle in a backup (``flask backup`` writes one ``circle-<id>.json`` beside
the sessions' files) and restoring it, in the same transaction as the sessions
it holds: checked as strictly as a session's backup, all or nothing.

The file holds the circle's links (id, watch id, the PIN's hash, never the PIN),
its members' names in the order they joined, and for each session it holds the
member at each seat (an index into the names, or null); the names as played
are the sessions' own (their records). What it owes (``payments``) is kept too."""

from __future__ import annotations

from sqlite_utils import Database

from ..words.names import member_name
from ..rules.core import describe, is_text, key_name
from .circles import MAX_MEMBERS, circle_name_problem, evenings, get_circle, members_problems
from .common import is_pin_hash, is_token, now
from .payments import forget_payments, payments_backup_problems, payments_snapshot, restore_payments

CIRCLE_KEYS = ("circle", "members", "evenings")
OPTIONAL_CIRCLE_KEYS = ("payments",)
CIRCLE_FIELDS = ("id", "watch_id", "name", "pin_hash", "version", "created_at")


def is_circle_backup(data) -> bool:
    return isinstance(data, dict) and "circle" in data and "record" not in data


def circle_snapshot(db: Database, circle_id: str) -> dict:
    circle = get_circle(db, circle_id)
    index = {m.id: i for i, m in enumerate(circle.members)}
    data = {
        "circle": {
            "id": circle.id,
            "watch_id": circle.watch_id,
            "name": circle.name,
            "pin_hash": circle.pin_hash,
            "version": circle.version,
            "created_at": circle.created_at,
        },
        "members": [m.name for m in circle.members],
        "evenings": [
            {"session_id": e.session_id, "members": [index.get(m) for m in e.members], "added_at": e.added_at}
            for e in evenings(db, circle_id)
        ],
    }
    paid = payments_snapshot(db, circle_id, index)
    if paid:
        data["payments"] = paid
    return data


def all_circle_ids(db: Database) -> list[str]:
    return [r[0] for r in db.execute("select id from circles order by created_at, id")]


def circle_backup_problems(data) -> list[str]:
    """Every problem with a circle's backup (parsed from JSON); empty if it can be restored."""
    if not isinstance(data, dict):
        return [f"a circle's backup is a JSON object, not {describe(data)}"]
    problems = [f"{key} is missing" for key in CIRCLE_KEYS if key not in data]
    problems += [
        f"{key_name(key)} is not a key of a circle's backup"
        for key in data
        if key not in CIRCLE_KEYS and key not in OPTIONAL_CIRCLE_KEYS
    ]
    circle = data.get("circle")
    if "circle" in data:
        if not isinstance(circle, dict) or sorted(circle) != sorted(CIRCLE_FIELDS):
            problems.append(f"circle must be an object with {', '.join(CIRCLE_FIELDS)}, not {describe(circle)}")
            circle = None
    if circle is not None:
        for key in ("id", "watch_id"):
            if not is_token(circle[key]):
                problems.append(
                    f'circle: {key} must be an id as the app makes them (24 letters, digits, "-" or "_"), '
                    f"not {describe(circle[key])}"
                )
        if circle["id"] == circle["watch_id"]:
            problems.append("circle: watch_id is the same as id: the members' link would be the manage link")
        wrong = circle_name_problem(circle["name"])
        if wrong:
            problems.append(f"circle: name: {wrong.text}")
        if circle["pin_hash"] is not None and not is_pin_hash(circle["pin_hash"]):
            problems.append(
                f"circle: pin_hash must be a PIN hash as the app makes them, or null, "
                f"not {describe(circle['pin_hash'])}"
            )
        if type(circle["version"]) is not int or circle["version"] < 1:
            problems.append(f"circle: version must be a whole number of at least 1, not {describe(circle['version'])}")
        if not isinstance(circle["created_at"], str) or len(circle["created_at"]) > 40:
            problems.append(f"circle: created_at must be a time stamp, not {describe(circle['created_at'])}")
    members = data.get("members")
    count = None
    if "members" in data:
        if not isinstance(members, list) or len(members) > MAX_MEMBERS:
            problems.append(f"members must be a list of at most {MAX_MEMBERS} names, not {describe(members)}")
        else:
            problems += [f"members: {p.text}" for p in members_problems(members) if "three members" not in p.text]
            count = len(members)
    if "evenings" in data:
        problems += _evenings_problems(data["evenings"], count)
    if "payments" in data:
        problems += payments_backup_problems(
            data["payments"], count, {e.get("session_id") for e in data.get("evenings") or () if isinstance(e, dict)}
        )
    return problems


def _evenings_problems(items, count: int | None) -> list[str]:
    if not isinstance(items, list) or len(items) > 100_000:
        return [f"evenings must be a list of the circle's sessions, not {describe(items)}"]
    problems, seen = [], set()
    for i, e in enumerate(items):
        if not isinstance(e, dict) or sorted(e) != ["added_at", "members", "session_id"]:
            problems.append(
                f"evenings[{i}]: must be an object with session_id, members and added_at, not {describe(e)}"
            )
        elif not isinstance(e["added_at"], str) or len(e["added_at"]) > 40 or not is_text(e["added_at"]):
            problems.append(f"evenings[{i}]: added_at must be a time stamp, not {describe(e['added_at'])}")
        elif not is_token(e["session_id"]):
            problems.append(
                f"evenings[{i}]: session_id must be an id as the app makes them, not {describe(e['session_id'])}"
            )
        elif e["session_id"] in seen:
            problems.append(f"evenings[{i}]: session {e['session_id']} is listed twice")
        elif (
            not isinstance(e["members"], list)
            or len(e["members"]) != 3
            or not all(
                m is None or (type(m) is int and 0 <= m < (count if count is not None else MAX_MEMBERS))
                for m in e["members"]
            )
            or len({m for m in e["members"] if m is not None}) != len([m for m in e["members"] if m is not None])
        ):
            problems.append(
                f"evenings[{i}]: members must be three different members (their places in members) "
                f"or null, one per seat, not {describe(e['members'])}"
            )
        else:
            seen.add(e["session_id"])
        if len(problems) >= 20:
            problems.append("evenings: … (more problems not listed)")
            break
    return problems


def circle_clashes(db: Database, label: str, data: dict, restored_sessions: set) -> list[str]:
    """Inside the restoring transaction: what in the database stops this circle
    being restored (its sessions restored with it, or already here)."""
    circle = data["circle"]
    cid, wid = circle["id"], circle["watch_id"]
    problems = []
    rows = db.execute(
        "select id, watch_id from circles where id in (?, ?) or watch_id in (?, ?)", [cid, wid, cid, wid]
    ).fetchall()
    if any(r[0] != cid for r in rows) or any(r[0] == cid and r[1] != wid for r in rows):
        problems.append(f"{label}: circle {cid}'s links are another circle's here")
    if db.execute(
        "select 1 from sessions where id in (?, ?) or watch_id in (?, ?) union all "
        "select 1 from seat_links where token in (?, ?)",
        [cid, wid, cid, wid, cid, wid],
    ).fetchall():
        problems.append(f"{label}: circle {cid}'s links are a session's links here")
    for e in data["evenings"]:
        sid = e["session_id"]
        if sid not in restored_sessions and not db.execute("select 1 from sessions where id = ?", [sid]).fetchall():
            problems.append(f"{label}: session {sid} is neither here nor restored with the circle")
            continue
        held = db.execute("select circle_id from circle_sessions where session_id = ?", [sid]).fetchall()
        if held and held[0][0] != cid:
            problems.append(f"{label}: session {sid} is an evening of another circle here")
    return problems


def restore_circle(db: Database, data: dict) -> str | None:
    """Inside the restoring transaction: the circle as backed up (over an existing
    copy of itself: its members, evenings and payments replaced by the backup's)."""
    circle = data["circle"]
    cid = circle["id"]
    over = bool(db.execute("select 1 from circles where id = ?", [cid]).fetchall())
    if over:
        db.execute(
            "update seats set member_id = null where session_id in "
            "(select session_id from circle_sessions where circle_id = ?)",
            [cid],
        )
        forget_payments(db, cid)
        db.execute("delete from circle_sessions where circle_id = ?", [cid])
        db.execute("delete from members where circle_id = ?", [cid])
        # never back to a version this circle had: what is kept by its version would be taken for it
        db.execute(
            "update circles set name = ?, pin_hash = ?, version = max(version + 1, ?), updated_at = ? where id = ?",
            [circle["name"], circle["pin_hash"], circle["version"], now(), cid],
        )
    else:
        db["circles"].insert(
            {
                "id": cid,
                "watch_id": circle["watch_id"],
                "name": circle["name"],
                "pin_hash": circle["pin_hash"],
                "version": circle["version"],
                "created_at": circle["created_at"],
                "updated_at": now(),
            }
        )
    ids = [
        db["members"].insert({"circle_id": cid, "name": member_name(name), "created_at": now()}).last_pk
        for name in data["members"]
    ]
    for e in data["evenings"]:
        for seat, m in enumerate(e["members"]):
            db.execute(
                "update seats set member_id = ? where session_id = ? and seat = ?",
                [None if m is None else ids[m], e["session_id"], seat],
            )
        db["circle_sessions"].insert({"session_id": e["session_id"], "circle_id": cid, "added_at": e["added_at"]})
    if data.get("payments"):
        restore_payments(db, cid, data["payments"], ids)
    return f"restored over the existing circle {cid}: its members, evenings and payments" if over else None
