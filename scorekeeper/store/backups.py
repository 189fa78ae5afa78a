"""A session as a backup (``snapshot``, ``full_snapshot``) and restoring backups:
input like any other, checked as strictly as an import, restored all or nothing."""

from __future__ import annotations

import json
import re

from sqlite_utils import Database

from ..form import answers as shapes
from ..rules import BOOKS
from ..rules.core import SEATS, describe, is_seat, is_text, key_name
from ..rules.record import validate
from ..limits import MAX_HANDS, MAX_REASON
from .agreement import fingerprint, seat_links, without_agreement
from .common import Refused, is_pin_hash, is_token, new_token, now
from .drafts import get_draft
from .schema import writing
from .changes import change_within, insert_hands, insert_seats, limit_problems, log_change
from .reads import PLAYERS, Session, get_session, session_version
from .circle_backups import circle_clashes, restore_circle
from .night_backups import night_clashes, restore_night


def all_session_ids(db: Database) -> list[str]:
    return [r["id"] for r in db.query("select id from sessions order by created_at")]


def snapshot(session: Session) -> dict:
    """A session as a backup: its ``gleek-session/1`` record plus its two links
    (and its table PIN's hash, never the PIN)."""
    return {
        "session_id": session.id,
        "watch_id": session.watch_id,
        "first_dealer": session.first_dealer,
        "version": session.version,
        "pin_hash": session.pin_hash,
        "record": session.record(with_agreement=True),
    }


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
        data["verdicts"] = [
            {
                "number": v.number,
                "seat": v.seat,
                "fingerprint": v.fingerprint,
                "verdict": v.verdict,
                "reason": v.reason,
                "at": v.at,
            }
            for v in session.verdicts
        ]
    draft = get_draft(db, session.id)
    if draft is not None and draft.number == len(session.hands) + 1:
        data["in_progress"] = {
            "number": draft.number,
            "answers": draft.answers,
            "started_at": draft.started_at,
            "updated_at": draft.updated_at,
        }
    return data


BACKUP_KEYS = ("session_id", "watch_id", "first_dealer", "version", "record")
OPTIONAL_BACKUP_KEYS = ("pin_hash", "seat_links", "scorer", "verdicts", "in_progress")
VERDICT_KEYS = ("number", "seat", "fingerprint", "verdict", "reason", "at")
FINGERPRINT = re.compile(r"[0-9a-f]{18}\Z")
MAX_STAMP = 40  # characters of a time stamp ("2026-12-01T23:40:00+00:00")


def backup_problems(backup) -> list[str]:
    """Every problem with a backup (parsed from JSON), checked as strictly as an
    import: the ids look like the app's own, the record passes the same validation
    and limits, the PIN hash has the app's shape. Empty if it can be restored."""
    if not isinstance(backup, dict):
        return [f"a backup is a JSON object, not {describe(backup)}"]
    problems = [f"{key} is missing" for key in BACKUP_KEYS if key not in backup]
    problems += [
        f"{key_name(key)} is not a key of a backup"
        for key in backup
        if key not in BACKUP_KEYS and key not in OPTIONAL_BACKUP_KEYS
    ]
    for key in ("session_id", "watch_id"):
        if key in backup and not is_token(backup[key]):
            problems.append(
                f'{key} must be an id as the app makes them (24 letters, digits, "-" or "_"), '
                f"not {describe(backup[key])}"
            )
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
    record = backup["record"] if "record" in backup and not record_problems else None
    return problems + _database_part_problems(backup, record)


def _database_part_problems(backup: dict, record: dict | None) -> list[str]:
    """The parts of a backup only the database holds (``full_snapshot``), checked
    like everything else: the players' links are ids as the app makes them, each
    OK or dispute names a hand and a seat, the hand in progress is the next hand
    and its answers are the hand form's, in their shapes (``answers``: the very
    check a tap passes). (``record``: the backup's record, if it is valid.)"""
    hands = len(record["hands"]) if record is not None else None
    problems = []
    if "scorer" in backup and not is_seat(backup["scorer"]):
        problems.append(f"scorer must be the seat keeping the score (0, 1 or 2), not {describe(backup['scorer'])}")
    elif record is not None and "scorer" in backup and record.get("scorer", backup["scorer"]) != backup["scorer"]:
        problems.append(
            f"scorer is {backup['scorer']}, but the record says {describe(record['scorer'])}: "
            "who keeps the score must be the same in both"
        )
    if "seat_links" in backup:
        links = backup["seat_links"]
        if (
            not isinstance(links, list)
            or len(links) != len(SEATS)
            or not all(map(is_token, links))
            or len(set(links)) != len(SEATS)
        ):
            problems.append(
                f"seat_links must be three different ids as the app makes them, one per seat, not {describe(links)}"
            )
        elif {backup.get("session_id"), backup.get("watch_id")} & set(links):
            problems.append(
                "seat_links holds the session's own link: a player's link would be the scorer's or the watch link"
            )
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
        problems += [f"in_progress: {wrong}" for wrong in in_progress_problems(backup["in_progress"], record)]
    return problems


def _verdict_problem(v, hands: int | None) -> str | None:
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


def in_progress_problems(draft, record: dict | None) -> list[str]:
    """What is wrong with a backup's hand in progress (``record``: the backup's
    record, if it is valid): the next hand's number, the form's answers in the
    shapes a tap may store (``answers.problems``), its two time stamps."""
    keys = ("number", "answers", "started_at", "updated_at")
    if not isinstance(draft, dict) or sorted(draft) != sorted(keys):
        return [f"must be an object with {', '.join(keys)}, not {describe(draft)}"]
    hands = len(record["hands"]) if record is not None else None
    if type(draft["number"]) is not int or (hands is not None and draft["number"] != hands + 1):
        return [
            f"number must be the next hand's ({'?' if hands is None else hands + 1}), not {describe(draft['number'])}"
        ]
    problems = []
    if not isinstance(draft["answers"], dict):
        problems.append(f"answers must be the hand form's answers, not {describe(draft['answers'])}")
    elif record is not None:
        problems += [
            f"answers: {wrong}"
            for wrong in shapes.problems(BOOKS[record["rulebook"]], record["options"], draft["answers"])
        ]
    for key in ("started_at", "updated_at"):
        if not isinstance(draft[key], str) or len(draft[key]) > MAX_STAMP or not is_text(draft[key]):
            problems.append(f"{key} must be a time stamp, not {describe(draft[key])}")
    return problems


def readable_in_progress(data: dict, session: Session) -> list[str]:
    """Leave out of a snapshot's hand in progress the answers a restore would not
    read (stored by an older release): the question keys left out."""
    draft = data.get("in_progress")
    if not draft:
        return []
    kept, left_out = shapes.readable(BOOKS[session.rulebook], session.options, draft["answers"])
    data["in_progress"] = dict(draft, answers=kept)
    return left_out or sorted(set(draft["answers"]) - set(kept))


def restore_all(
    db: Database,
    backups: list[tuple[str, dict]],
    circles: list[tuple[str, dict]] = (),
    nights: list[tuple[str, dict]] = (),
) -> tuple[list[Session], list[str]]:
    """Put sessions back from ``(label, snapshot)`` pairs, each already free of
    ``backup_problems``: the same links, the backed-up hands and PIN. All or
    nothing, in one transaction; ``Refused`` names each clash by its label. No
    id of a backup may be any link of another session (the scorer's, the watch
    link, a player's), here or in the same restore. An existing session is only
    replaced by a backup of itself (the same watch link, players, rule book and
    options), as one more change that can be undone; with the sessions, one line
    per such file saying what was restored there and what the session kept.
    ``circles``: ``(label, circle backup)`` pairs (``circle_backups``), restored
    in the same transaction once their sessions are; ``nights``: ``(label, night
    backup)`` pairs (``night_backups``), restored last (their circles' members)."""
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
                problems.append(
                    f"{label}: seat link {token} is also a link of "
                    f"{links.get(token) or by_id.get(token) or by_watch.get(token)}"
                )
            links.setdefault(token, label)
    circle_ids = {}
    for label, data in circles:
        for token in (data["circle"]["id"], data["circle"]["watch_id"]):
            if token in circle_ids or token in by_id or token in by_watch or token in links:
                problems.append(
                    f"{label}: circle link {token} is also a link of "
                    f"{circle_ids.get(token) or by_id.get(token) or by_watch.get(token) or links[token]}"
                )
            circle_ids.setdefault(token, label)
    night_ids = {}
    for label, data in nights:
        for token in (data["night"]["id"], data["night"]["watch_id"]):
            if token in night_ids or token in circle_ids or token in by_id or token in by_watch or token in links:
                problems.append(
                    f"{label}: night link {token} is also a link of "
                    f"{night_ids.get(token) or circle_ids.get(token) or by_id.get(token) or by_watch.get(token) or links[token]}"
                )
            night_ids.setdefault(token, label)
    if problems:
        raise Refused(problems)
    notes = []
    with writing(db):
        for label, backup in backups:
            problems += _restore_clashes(db, label, backup)
        restored = {backup["session_id"] for _, backup in backups}
        for label, data in circles:
            problems += circle_clashes(db, label, data, restored)
        for label, data in nights:
            problems += night_clashes(db, label, data)
        if problems:
            raise Refused(problems)
        for label, backup in backups:
            note = _restore_one(db, backup)
            if note:
                notes.append(f"{label}: {note}")
        for label, data in circles:
            note = restore_circle(db, data)
            if note:
                notes.append(f"{label}: {note}")
        for label, data in nights:
            note = restore_night(db, data)
            if note:
                notes.append(f"{label}: {note}")
    return [get_session(db, backup["session_id"]) for _, backup in backups], notes


def _restore_clashes(db: Database, label: str, backup: dict) -> list[str]:
    sid, wid, record = backup["session_id"], backup["watch_id"], backup["record"]
    rows = list(
        db.query(
            f"select s.id, s.watch_id, s.rulebook, s.options, {PLAYERS} as players from sessions s "
            "where s.id in (?, ?) or s.watch_id in (?, ?)",
            [sid, wid, sid, wid],
        )
    )
    same = [r for r in rows if r["id"] == sid]
    if same and same[0]["watch_id"] != wid:
        return [f"{label}: session_id {sid} is an existing session whose watch link is not this backup's watch_id"]
    if any(r["id"] != sid for r in rows):
        return [f"{label}: watch_id {wid} is already the watch link of another session"]
    if same and (same[0]["rulebook"], json.loads(same[0]["options"]), json.loads(same[0]["players"])) != (
        record["rulebook"],
        record["options"],
        [p.strip() for p in record["players"]],
    ):
        return [f"{label}: session_id {sid} is an existing session with other players, rule book or options"]
    for key, token in (("session_id", sid), ("watch_id", wid)):
        if list(db.query("select 1 from seat_links where token = ? and session_id != ?", [token, sid])):
            return [f"{label}: {key} {token} is already a player's link of another session"]
    for token in backup.get("seat_links", ()):
        if list(
            db.query(
                "select 1 from seat_links where token = ? and session_id != ? union all "
                "select 1 from sessions where (id = ? or watch_id = ?) and id != ?",
                [token, sid, token, token, sid],
            )
        ):
            return [f"{label}: seat link {token} is already a link of another session"]
    return []


def _restore_one(db: Database, backup: dict) -> str | None:
    """Restore one backup; over an existing session, the line saying what was
    restored there and what the session kept as it is."""
    record, sid = backup["record"], backup["session_id"]
    pin_hash = backup.get("pin_hash")
    if list(db.query("select 1 from sessions where id = ?", [sid])):
        return _restore_over(db, backup)
    stamp = now()
    db["sessions"].insert(
        {
            "id": sid,
            "watch_id": backup["watch_id"],
            "rulebook": record["rulebook"],
            "options": json.dumps(record["options"]),
            "title": record.get("title"),
            "played_on": record.get("played_on"),
            "stake": json.dumps(record["stake"]) if record.get("stake") else None,
            "first_dealer": backup["first_dealer"],
            "version": backup["version"],
            "created_at": stamp,
            "updated_at": stamp,
            "pin_hash": pin_hash,
            "confirm": int(bool(record.get("confirm"))),
            "scorer": backup.get("scorer", record.get("scorer")),
        }
    )
    insert_seats(db, sid, record["players"])
    insert_hands(db, sid, record["hands"], stamp, oks="verdicts" not in backup)
    db["verdicts"].insert_all({"session_id": sid, **v} for v in backup.get("verdicts", ()))
    db["seat_links"].insert_all(
        {"token": token, "session_id": sid, "seat": seat} for seat, token in enumerate(backup.get("seat_links", ()))
    )
    if record.get("confirm"):
        seat_links(db, sid)  # the backup's, or new ones
    draft = backup.get("in_progress")
    if draft:
        db["drafts"].insert(
            {
                "session_id": sid,
                "token": new_token(),
                "number": draft["number"],
                "answers": json.dumps(draft["answers"], ensure_ascii=False),
                "version": 1,
                "started_at": draft["started_at"],
                "updated_at": draft["updated_at"],
            }
        )
    # a new session here, at the backup's version (a backup of it is then the same file):
    # like an import, not undoable, and nothing before it to go back to
    log_change(db, sid, None, "restored", None, None, backup["version"])


def _restore_over(db: Database, backup: dict) -> str:
    """A backup of an existing session, over it: its hands as one more change
    (undone from the table page), its PIN, who keeps the score, the OKs and
    disputes it holds that the session has not, its hand in progress if the
    session has none; what the session keeps instead is said."""
    record, sid = backup["record"], backup["session_id"]
    before = get_session(db, sid)
    hands = [without_agreement(h) for h in record["hands"]]

    def change(session):
        return hands, None, "restore", session.hands, hands

    session = change_within(db, sid, session_version(db, sid), change)
    done, kept = ["its hands (one change: Undo on the table page takes it back)"], []
    if backup.get("pin_hash") and backup["pin_hash"] != before.pin_hash:
        db.execute("update sessions set pin_hash = ? where id = ?", [backup["pin_hash"], sid])
        done.append("its table PIN")
    scorer = backup.get("scorer", record.get("scorer"))
    if before.confirm and scorer != before.scorer:
        db.execute("update sessions set scorer = ? where id = ?", [scorer, sid])
        done.append("who keeps the score")
    had = {(v.number, v.seat, v.fingerprint, v.verdict, v.reason, v.at) for v in before.verdicts}
    if "verdicts" in backup:
        missing = [v for v in backup["verdicts"] if tuple(v[k] for k in VERDICT_KEYS) not in had]
    else:  # the record's own OKs and disputes
        missing = [
            {
                "number": i + 1,
                "seat": seat,
                "fingerprint": fingerprint(h),
                "verdict": verdict,
                "reason": reason,
                "at": now(),
            }
            for i, h in enumerate(record["hands"])
            for seat, verdict, reason in [(s, "ok", "") for s in h.get("agreed", ())]
            + [(d["seat"], "dispute", d["reason"]) for d in h.get("disputes", ())]
            if (i + 1, seat, fingerprint(h), verdict) not in {x[:4] for x in had}
        ]
    if missing:
        db["verdicts"].insert_all({"session_id": sid, **v} for v in missing)
        done.append(f"{len(missing)} of the players' OKs and disputes")
    draft, current = backup.get("in_progress"), get_draft(db, sid)
    if draft and current is None and draft["number"] == len(hands) + 1:
        db["drafts"].insert(
            {
                "session_id": sid,
                "token": new_token(),
                "number": draft["number"],
                "answers": json.dumps(draft["answers"], ensure_ascii=False),
                "version": 1,
                "started_at": draft["started_at"],
                "updated_at": draft["updated_at"],
            }
        )
        done.append(f"hand {draft['number']} in progress")
    elif draft:
        kept.append(
            f"its own hand {current.number} in progress (the backup's hand {draft['number']} was not restored)"
            if current is not None
            else f"no hand in progress (the backup's hand {draft['number']} does not follow its hands)"
        )
    links = seat_links(db, sid, make=False)
    if backup.get("seat_links") and links != backup["seat_links"]:
        kept.append("its own players' links")
    if any((record.get(key) or None) != (getattr(before, key) or None) for key in ("title", "played_on", "stake")):
        kept.append("its own title, date and stake")
    line = f"restored over the existing session {session.id}: " + ", ".join(done)
    return line + ("; the session keeps " + "; ".join(kept) if kept else "")
