"""The hand on the table, stored as it is entered (at most one per session)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlite_utils import Database

from .common import Refused, new_token, now
from .schema import writing
from .changes import log_change, refuse_stale
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
    return Draft(row["token"], row["number"], json.loads(row["answers"]), row["version"],
                 row["started_at"], row["updated_at"])


def draft_version(db: Database, session_id: str) -> int:
    rows = list(db.query("select version from drafts where session_id = ?", [session_id]))
    return rows[0]["version"] if rows else 0


def _hand_count(db: Database, session_id: str) -> int:
    return next(db.query("select count(*) as n from hands where session_id = ?", [session_id]))["n"]


def keep_draft(db: Database, session_id: str, number: int, answers: dict, based_on: int) -> Draft:
    """Store the answers so far of hand ``number`` (the next hand), if the stored
    hand in progress is still version ``based_on`` (0: none yet); else ``StaleDraft``.

    The usual tap is one conditional UPDATE (its own transaction, not waiting for
    the disk: see ``writing``); the first tap of a hand inserts the row."""
    text, stamp = json.dumps(answers, ensure_ascii=False), now()
    db.conn.execute("PRAGMA synchronous = NORMAL")
    try:
        if based_on > 0:
            cursor = db.conn.execute(
                "update drafts set answers = ?, version = version + 1, updated_at = ? "
                "where session_id = ? and version = ? and number = ?",
                [text, stamp, session_id, based_on, number])
            if cursor.rowcount == 1:
                token, started = next(db.conn.execute(
                    "select token, started_at from drafts where session_id = ?", [session_id]))
                return Draft(token, number, answers, based_on + 1, started, stamp)
        with writing(db, durable=False):
            current, hands = get_draft(db, session_id), _hand_count(db, session_id)
            if current is not None or based_on != 0 or number != hands + 1:
                raise StaleDraft(current, hands)
            draft = Draft(new_token(), number, answers, 1, stamp, stamp)
            db["drafts"].insert({"session_id": session_id, "token": draft.token, "number": number,
                                 "answers": text, "version": 1, "started_at": stamp, "updated_at": stamp})
            return draft
    finally:
        db.conn.execute("PRAGMA synchronous = FULL")


def discard_draft(db: Database, session_id: str, based_on: int) -> Session:
    """Throw the hand in progress away, as a change that can be undone."""
    with writing(db):
        current = get_draft(db, session_id)
        if current is None or current.version != based_on:
            raise StaleDraft(current, _hand_count(db, session_id))
        version = _bump(db, session_id)
        db.execute("delete from drafts where session_id = ?", [session_id])
        log_change(db, session_id, current.number, "discard", _draft_json(current), None, version)
    return get_session(db, session_id)


def undo_draft_change(db: Database, session_id: str, based_on: int | None, last: dict) -> Session:
    with writing(db):
        session = get_session(db, session_id)
        refuse_stale(session.version, based_on)
        if last["action"] == "discard":   # bring the hand in progress back
            if get_draft(db, session_id) is not None:
                raise Refused(["Another hand is being entered: cancel it first, then undo."])
            kept = last["before"]
            if kept["number"] != len(session.hands) + 1:
                raise Refused([f"Hand {kept['number']} can't come back: the session has changed since."])
            stamp = now()
            db["drafts"].insert({"session_id": session_id, "token": kept["token"], "number": kept["number"],
                                 "answers": json.dumps(kept["answers"], ensure_ascii=False), "version": 1,
                                 "started_at": stamp, "updated_at": stamp})
            action, before, after = "undiscard", None, kept
        else:                             # discard it again
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
    rows = list(db.query("select hand_number from history where session_id = ? and draft = ? and action = 'add'",
                         [session_id, token]))
    return rows[0]["hand_number"] if rows else None
