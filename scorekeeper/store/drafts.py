"""The hand on the table, stored as it is entered (at most one per session)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from sqlite_utils import Database

from .common import Refused, log_change, new_token, now, refuse_stale
from .schema import writing
from .settled import settled_or_reopened
from .reads import Session, get_session, session_version


@dataclass
class Draft:
    """The hand on the table: the answers given so far, as the form posted them."""

    token: str
    number: int
    answers: dict
    version: int
    started_at: str
    updated_at: str
    #: the version that last changed each answer (a field not named: before any of these)
    field_versions: dict = field(default_factory=dict)


def same_answer(a, b) -> bool:
    """Two answers of one field alike (nothing chosen: "" or [], or not posted)."""
    return (a or "") == (b or "")


def changed_fields(before: dict, after: dict) -> list[str]:
    return [name for name in set(before) | set(after) if not same_answer(before.get(name), after.get(name))]


class StaleDraft(Exception):
    """The hand in progress was changed (or saved, or cancelled) from another phone."""

    def __init__(self, current: "Draft | None", hands: int):
        self.current, self.hands = current, hands
        super().__init__("The hand in progress changed on another phone.")


def get_draft(db: Database, session_id: str) -> Draft | None:
    rows = list(db.query("select * from drafts where session_id = ?", [session_id]))
    if not rows:
        return None
    row = rows[0]
    return Draft(
        row["token"],
        row["number"],
        json.loads(row["answers"]),
        row["version"],
        row["started_at"],
        row["updated_at"],
        json.loads(row.get("field_versions") or "{}"),
    )


def draft_version(db: Database, session_id: str) -> int:
    rows = list(db.query("select version from drafts where session_id = ?", [session_id]))
    return rows[0]["version"] if rows else 0


def _hand_count(db: Database, session_id: str) -> int:
    return next(db.query("select count(*) as n from hands where session_id = ?", [session_id]))["n"]


def keep_draft(db: Database, session_id: str, number: int, answers: dict, based_on: int) -> Draft:
    """Store the answers so far of hand ``number`` (the next hand), if the stored
    hand in progress is still version ``based_on`` (0: none yet); else ``StaleDraft``.

    Each answer remembers the version that last changed it (``field_versions``),
    so a tap from a phone a version behind can be merged field by field.

    The usual tap reads the row and writes it back with one conditional UPDATE
    (its own transaction, not waiting for the disk: see ``writing``; the
    condition on the version makes the pair safe without a lock); the first tap
    of a hand inserts the row."""
    text, stamp = json.dumps(answers, ensure_ascii=False), now()
    db.conn.execute("PRAGMA synchronous = NORMAL")
    try:
        if based_on > 0:
            row = db.conn.execute(
                "select answers, field_versions, token, started_at from drafts "
                "where session_id = ? and version = ? and number = ?",
                [session_id, based_on, number],
            ).fetchone()
            if row is not None:
                versions = json.loads(row[1] or "{}")
                versions.update(dict.fromkeys(changed_fields(json.loads(row[0]), answers), based_on + 1))
                cursor = db.conn.execute(
                    "update drafts set answers = ?, field_versions = ?, version = version + 1, updated_at = ? "
                    "where session_id = ? and version = ? and number = ?",
                    [text, json.dumps(versions), stamp, session_id, based_on, number],
                )
                if cursor.rowcount == 1:
                    return Draft(row[2], number, answers, based_on + 1, row[3], stamp, versions)
        with writing(db, durable=False):
            current, hands = get_draft(db, session_id), _hand_count(db, session_id)
            if current is not None or based_on != 0 or number != hands + 1:
                raise StaleDraft(current, hands)
            versions = dict.fromkeys(changed_fields({}, answers), 1)
            draft = Draft(new_token(), number, answers, 1, stamp, stamp, versions)
            db["drafts"].insert(
                {
                    "session_id": session_id,
                    "token": draft.token,
                    "number": number,
                    "answers": text,
                    "version": 1,
                    "started_at": stamp,
                    "updated_at": stamp,
                    "field_versions": json.dumps(versions),
                }
            )
            return draft
    finally:
        db.conn.execute("PRAGMA synchronous = FULL")


def discard_draft(db: Database, session_id: str, based_on: int, reopen: bool = False) -> Session:
    """Throw the hand in progress away, as a change that can be undone (of a
    settled evening, only if it says it ``reopen``s it: ``EveningSettled``)."""
    with writing(db):
        current = get_draft(db, session_id)
        if current is None or current.version != based_on:
            raise StaleDraft(current, _hand_count(db, session_id))
        settled_or_reopened(db, session_id, reopen)
        version = _bump(db, session_id)
        db.execute("delete from drafts where session_id = ?", [session_id])
        log_change(db, session_id, current.number, "discard", _draft_json(current), None, version)
    return get_session(db, session_id)


def undo_draft_change(db: Database, session_id: str, based_on: int | None, last: dict, reopen: bool = False) -> Session:
    with writing(db):
        session = get_session(db, session_id)
        refuse_stale(session.version, based_on)
        settled_or_reopened(db, session_id, reopen)
        if last["action"] == "discard":  # bring the hand in progress back
            if get_draft(db, session_id) is not None:
                raise Refused(["Another hand is being entered: cancel it first, then undo."])
            kept = last["before"]
            if kept["number"] != len(session.hands) + 1:
                raise Refused([f"Hand {kept['number']} can't come back: the session has changed since."])
            stamp = now()
            db["drafts"].insert(
                {
                    "session_id": session_id,
                    "token": kept["token"],
                    "number": kept["number"],
                    "answers": json.dumps(kept["answers"], ensure_ascii=False),
                    "version": 1,
                    "started_at": stamp,
                    "updated_at": stamp,
                }
            )
            action, before, after = "undiscard", None, kept
        else:  # discard it again
            current = get_draft(db, session_id)
            if current is None:
                raise Refused(["There is no hand in progress to cancel."])
            db.execute("delete from drafts where session_id = ?", [session_id])
            action, before, after = "discard", _draft_json(current), None
        version = _bump(db, session_id)
        log_change(db, session_id, last["hand_number"], action, before, after, version)
    return get_session(db, session_id)


def _draft_json(draft: Draft) -> dict:
    return {"token": draft.token, "number": draft.number, "answers": draft.answers}


def _bump(db: Database, session_id: str) -> int:
    """The session's next version (inside a write transaction)."""
    version = session_version(db, session_id) + 1
    db.execute("update sessions set version = ?, updated_at = ? where id = ?", [version, now(), session_id])
    return version


def saved_from(db: Database, session_id: str, token: str) -> int | None:
    """The hand saved from hand-in-progress ``token``, if one was (a Save repeated
    after its answer was lost must not store the hand twice)."""
    rows = list(
        db.query(
            "select hand_number from history where session_id = ? and draft = ? and action = 'add'", [session_id, token]
        )
    )
    return rows[0]["hand_number"] if rows else None
