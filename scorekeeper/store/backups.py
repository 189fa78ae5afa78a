"""A session as a backup (``snapshot``, ``full_snapshot``) and restoring backups:
input like any other, checked as strictly as an import, restored all or nothing."""

from __future__ import annotations

import json
import re

from sqlite_utils import Database

from ..rules.core import SEATS
from ..rules.core import is_text
from ..rules.record import validate
from ..limits import MAX_HANDS, MAX_NOTE, MAX_REASON
from .agreement import seat_links, without_agreement
from .common import Refused, is_token, new_token, now
from .drafts import get_draft
from .schema import writing
from .changes import change_within, insert_hands, limit_problems, log_change
from .reads import Session, get_session, session_version


def all_session_ids(db: Database) -> list[str]:
    return [r["id"] for r in db.query("select id from sessions order by created_at")]


def snapshot(session: Session) -> dict:
    """A session as a backup: its ``gleek-session/1`` record plus its two links
    (and its table PIN's hash, never the PIN)."""
    return {"session_id": session.id, "watch_id": session.watch_id,
            "first_dealer": session.first_dealer, "version": session.version,
            "pin_hash": session.pin_hash, "record": session.record(with_agreement=True)}


def full_snapshot(db: Database, session: Session) -> dict:
    """``snapshot`` and what only the database holds, for ``flask backup``: the
    players' own links, every OK and dispute (with its reason) and the hand in
    progress, so a restored session is the session, not only its record."""
    data = snapshot(session)
    links = seat_links(db, session.id, make=False)
    if links:
        data["seat_links"] = links
    if session.scorer is not None:
        data["scorer"] = session.scorer
    if session.verdicts:
        data["verdicts"] = [{"number": v.number, "seat": v.seat, "fingerprint": v.fingerprint,
                             "verdict": v.verdict, "reason": v.reason, "at": v.at} for v in session.verdicts]
    draft = get_draft(db, session.id)
    if draft is not None and draft.number == len(session.hands) + 1:
        data["in_progress"] = {"number": draft.number, "answers": draft.answers,
                               "started_at": draft.started_at, "updated_at": draft.updated_at}
    return data


BACKUP_KEYS = ("session_id", "watch_id", "first_dealer", "version", "record")
OPTIONAL_BACKUP_KEYS = ("pin_hash", "seat_links", "scorer", "verdicts", "in_progress")
VERDICT_KEYS = ("number", "seat", "fingerprint", "verdict", "reason", "at")
FINGERPRINT = re.compile(r"[0-9a-f]{18}\Z")
MAX_ANSWERS = 400  # fields of a hand in progress (a modern hand with its card counter posts ~120)
MAX_STAMP = 40     # characters of a time stamp ("2026-12-01T23:40:00+00:00")
# What werkzeug's generate_password_hash makes, with its cost parameters capped:
# a restored hash is checked on every unlock, so it must not cost minutes or gigabytes.
PIN_HASH = re.compile(r"(?:scrypt:(?P<n>[0-9]{1,7}):(?P<r>[0-9]{1,2}):(?P<p>[0-9]{1,2})"
                      r"|pbkdf2:sha256:(?P<iterations>[0-9]{1,7}))\$[A-Za-z0-9]{1,64}\$[0-9a-f]{64,128}\Z")


def is_pin_hash(value) -> bool:
    match = PIN_HASH.match(value) if isinstance(value, str) else None
    if match is None:
        return False
    if match["iterations"] is not None:
        return 1 <= int(match["iterations"]) <= 2_000_000
    n, r, p = int(match["n"]), int(match["r"]), int(match["p"])
    return 2 <= n <= 2 ** 17 and n & (n - 1) == 0 and 1 <= r <= 16 and 1 <= p <= 4


def backup_problems(backup) -> list[str]:
    """Every problem with a backup (parsed from JSON), checked as strictly as an
    import: the ids look like the app's own, the record passes the same validation
    and limits, the PIN hash has the app's shape. Empty if it can be restored."""
    from ..rules.core import describe, is_seat, key_name

    if not isinstance(backup, dict):
        return [f"a backup is a JSON object, not {describe(backup)}"]
    problems = [f"{key} is missing" for key in BACKUP_KEYS if key not in backup]
    problems += [f"{key_name(key)} is not a key of a backup" for key in backup
                 if key not in BACKUP_KEYS and key not in OPTIONAL_BACKUP_KEYS]
    for key in ("session_id", "watch_id"):
        if key in backup and not is_token(backup[key]):
            problems.append(f'{key} must be an id as the app makes them (24 letters, digits, "-" or "_"), '
                            f"not {describe(backup[key])}")
    if is_token(backup.get("session_id")) and backup.get("watch_id") == backup["session_id"]:
        problems.append("watch_id is the same as session_id: the watch link would be the scorer's link")
    if "first_dealer" in backup and not is_seat(backup["first_dealer"]):
        problems.append(f"first_dealer must be a seat (0, 1 or 2), not {describe(backup['first_dealer'])}")
    version = backup.get("version", 1)
    if type(version) is not int or version < 1:
        problems.append(f"version must be a whole number of at least 1, not {describe(version)}")
    pin_hash = backup.get("pin_hash")
    if pin_hash is not None and not is_pin_hash(pin_hash):
        problems.append(f"pin_hash must be a PIN hash as the app makes them, or null, not {describe(pin_hash)}")
    record_problems = []
    if "record" in backup:
        record_problems = [str(p) for p in validate(backup["record"])]
        if not record_problems:
            record_problems = [str(p) for p in limit_problems(backup["record"])]
        problems += [p if p.startswith("record:") else f"record: {p}" for p in record_problems]
    hands = len(backup["record"]["hands"]) if "record" in backup and not record_problems else None
    return problems + _database_part_problems(backup, hands)


def _database_part_problems(backup: dict, hands: int | None) -> list[str]:
    """The parts of a backup only the database holds (``full_snapshot``), checked
    like everything else: the players' links are ids as the app makes them, each
    OK or dispute names a hand and a seat, the hand in progress is the next hand
    and its answers are short text. (``hands``: the record's hands, if it is valid.)"""
    from ..rules.core import describe

    from ..rules.core import is_seat

    problems = []
    if "scorer" in backup and not is_seat(backup["scorer"]):
        problems.append(f"scorer must be the seat keeping the score (0, 1 or 2), not {describe(backup['scorer'])}")
    if "seat_links" in backup:
        links = backup["seat_links"]
        if (not isinstance(links, list) or len(links) != len(SEATS) or not all(map(is_token, links))
                or len(set(links)) != len(SEATS)):
            problems.append("seat_links must be three different ids as the app makes them, one per seat, "
                            f"not {describe(links)}")
        elif {backup.get("session_id"), backup.get("watch_id")} & set(links):
            problems.append("seat_links holds the session's own link: a player's link would be the scorer's "
                            "or the watch link")
    if "verdicts" in backup:
        verdicts = backup["verdicts"]
        if not isinstance(verdicts, list) or len(verdicts) > len(SEATS) * MAX_HANDS * 4:
            problems.append(f"verdicts must be a list of the players' OKs and disputes, not {describe(verdicts)}")
            verdicts = []
        for i, v in enumerate(verdicts):
            wrong = _verdict_problem(v, hands)
            if wrong:
                problems.append(f"verdicts[{i}]: {wrong}")
                if len(problems) >= 20:
                    problems.append("verdicts: … (more problems not listed)")
                    break
    if "in_progress" in backup:
        wrong = _in_progress_problem(backup["in_progress"], hands)
        if wrong:
            problems.append(f"in_progress: {wrong}")
    return problems


def _verdict_problem(v, hands: int | None) -> str | None:
    from ..rules.core import describe, is_seat

    if not isinstance(v, dict) or sorted(v) != sorted(VERDICT_KEYS):
        return f"must be an object with {', '.join(VERDICT_KEYS)}, not {describe(v)}"
    if type(v["number"]) is not int or v["number"] < 1 or (hands is not None and v["number"] > hands):
        return f"number must be the number of one of the session's hands, not {describe(v['number'])}"
    if not is_seat(v["seat"]):
        return f"seat must be a seat (0, 1 or 2), not {describe(v['seat'])}"
    if not isinstance(v["fingerprint"], str) or not FINGERPRINT.match(v["fingerprint"]):
        return f"fingerprint must be 18 hexadecimal digits, not {describe(v['fingerprint'])}"
    if v["verdict"] not in ("ok", "dispute"):
        return f'verdict must be "ok" or "dispute", not {describe(v["verdict"])}'
    if not isinstance(v["reason"], str) or len(v["reason"]) > MAX_REASON or not is_text(v["reason"]):
        return f"reason must be text of at most {MAX_REASON} characters, not {describe(v['reason'])}"
    if not isinstance(v["at"], str) or len(v["at"]) > MAX_STAMP or not is_text(v["at"]):
        return f"at must be a time stamp, not {describe(v['at'])}"
    return None


def _in_progress_problem(draft, hands: int | None) -> str | None:
    from ..rules.core import describe

    keys = ("number", "answers", "started_at", "updated_at")
    if not isinstance(draft, dict) or sorted(draft) != sorted(keys):
        return f"must be an object with {', '.join(keys)}, not {describe(draft)}"
    if type(draft["number"]) is not int or (hands is not None and draft["number"] != hands + 1):
        return f"number must be the next hand's ({'?' if hands is None else hands + 1}), not {describe(draft['number'])}"
    answers = draft["answers"]
    if not isinstance(answers, dict) or len(answers) > MAX_ANSWERS:
        return f"answers must be the form's answers (at most {MAX_ANSWERS}), not {describe(answers)}"
    for key, value in answers.items():
        if len(key) > 64 or not is_text(key) or not isinstance(value, str) or len(value) > MAX_NOTE * 2 \
                or not is_text(value):
            return f"answers: {describe(key)} must be short text with a short text answer, not {describe(value)}"
    for key in ("started_at", "updated_at"):
        if not isinstance(draft[key], str) or len(draft[key]) > MAX_STAMP or not is_text(draft[key]):
            return f"{key} must be a time stamp, not {describe(draft[key])}"
    return None


def restore_all(db: Database, backups: list[tuple[str, dict]]) -> list[Session]:
    """Put sessions back from ``(label, snapshot)`` pairs, each already free of
    ``backup_problems``: the same links, the backed-up hands and PIN. All or
    nothing, in one transaction; ``Refused`` names each clash by its label. An
    existing session is only replaced by a backup of itself (the same watch link,
    players, rule book and options), as one more change that can be undone."""
    problems, by_id, by_watch = [], {}, {}
    for label, backup in backups:
        sid, wid = backup["session_id"], backup["watch_id"]
        if sid in by_id or sid in by_watch:
            problems.append(f"{label}: session_id {sid} is also restored from {by_id.get(sid) or by_watch[sid]}")
        elif wid in by_watch or wid in by_id:
            problems.append(f"{label}: watch_id {wid} is also the watch link of {by_watch.get(wid) or by_id[wid]}")
        by_id.setdefault(sid, label)
        by_watch.setdefault(wid, label)
    links = {}
    for label, backup in backups:
        for token in backup.get("seat_links", ()):
            if token in links or token in by_id or token in by_watch:
                problems.append(f"{label}: seat link {token} is also a link of {links.get(token) or label}")
            links.setdefault(token, label)
    if problems:
        raise Refused(problems)
    with writing(db):
        for label, backup in backups:
            problems += _restore_clashes(db, label, backup)
        if problems:
            raise Refused(problems)
        for _, backup in backups:
            _restore_one(db, backup)
    return [get_session(db, backup["session_id"]) for _, backup in backups]


def _restore_clashes(db: Database, label: str, backup: dict) -> list[str]:
    sid, wid, record = backup["session_id"], backup["watch_id"], backup["record"]
    rows = list(db.query("select id, watch_id, rulebook, options, players from sessions "
                         "where id in (?, ?) or watch_id in (?, ?)", [sid, wid, sid, wid]))
    same = [r for r in rows if r["id"] == sid]
    if same and same[0]["watch_id"] != wid:
        return [f"{label}: session_id {sid} is an existing session whose watch link is not this backup's watch_id"]
    if any(r["id"] != sid for r in rows):
        return [f"{label}: watch_id {wid} is already the watch link of another session"]
    if same and (same[0]["rulebook"], json.loads(same[0]["options"]), json.loads(same[0]["players"])) != (
            record["rulebook"], record["options"], [p.strip() for p in record["players"]]):
        return [f"{label}: session_id {sid} is an existing session with other players, rule book or options"]
    tokens = list(backup.get("seat_links", ()))
    if tokens and not same:
        marks = ",".join("?" for _ in tokens)
        taken = list(db.query(f"select token from seat_links where token in ({marks}) union "
                              f"select id from sessions where id in ({marks}) or watch_id in ({marks})",
                              tokens * 3))
        if taken:
            return [f"{label}: seat link {taken[0]['token']} is already a link of another session"]
    return []


def _restore_one(db: Database, backup: dict) -> None:
    record, sid = backup["record"], backup["session_id"]
    pin_hash = backup.get("pin_hash")
    if list(db.query("select 1 from sessions where id = ?", [sid])):
        hands = [without_agreement(h) for h in record["hands"]]

        def change(session):
            return hands, None, "restore", session.hands, hands
        session = change_within(db, sid, session_version(db, sid), change)
        if pin_hash:
            db.execute("update sessions set pin_hash = ? where id = ?", [pin_hash, session.id])
        return
    stamp = now()
    db["sessions"].insert({
        "id": sid, "watch_id": backup["watch_id"],
        "rulebook": record["rulebook"], "options": json.dumps(record["options"]),
        "players": json.dumps([p.strip() for p in record["players"]]),
        "title": record.get("title"), "played_on": record.get("played_on"),
        "stake": json.dumps(record["stake"]) if record.get("stake") else None,
        "first_dealer": backup["first_dealer"], "version": 1,
        "created_at": stamp, "updated_at": stamp, "pin_hash": pin_hash,
        "confirm": int(bool(record.get("confirm"))), "scorer": backup.get("scorer"),
    })
    insert_hands(db, sid, record["hands"], stamp, oks="verdicts" not in backup)
    db["verdicts"].insert_all({"session_id": sid, **v} for v in backup.get("verdicts", ()))
    db["seat_links"].insert_all({"token": token, "session_id": sid, "seat": seat}
                                for seat, token in enumerate(backup.get("seat_links", ())))
    if record.get("confirm"):
        seat_links(db, sid)  # the backup's, or new ones
    draft = backup.get("in_progress")
    if draft:
        db["drafts"].insert({"session_id": sid, "token": new_token(), "number": draft["number"],
                             "answers": json.dumps(draft["answers"], ensure_ascii=False), "version": 1,
                             "started_at": draft["started_at"], "updated_at": draft["updated_at"]})
    log_change(db, sid, None, "restored", None, None, 1)  # a new session here: like an import, not undoable
