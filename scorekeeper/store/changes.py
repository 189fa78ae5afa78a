"""Every change of a session: created (from a form, an import or a restore),
a hand saved, edited or deleted, an undo, going back, who keeps the score. Each
is one short transaction that checks the whole result with the rule book first
(``_change``); what they read is in ``reads``."""

from __future__ import annotations

import datetime
import json
import math
import time

from sqlite_utils import Database

from ..rules import BOOKS, Problem
from ..rules.record import alike_names, validate
from ..limits import MAX_HANDS, MAX_NOTE, MAX_TITLE
from .agreement import fingerprint, seat_links, without_agreement
from .common import (
    CREATION_WINDOW,
    NotFound,
    RateLimited,
    Refused,
    StorageFull,
    log_change,
    new_token,
    now,
    refuse_stale,
)
from .drafts import StaleDraft, get_draft, undo_draft_change
from .settled import settled_or_reopened
from .reads import (
    DRAFT_ACTIONS,
    Session,
    first_version,
    get_session,
    hands_at,
    keep_hands,
    last_change,
    session_version,
    taken_back,
)
from .schema import reading, writing
from .circles import hold_session


def set_scorer(db: Database, session_id: str, scorer: int | None) -> Session:
    """Who keeps the score, where the other players' OK is asked for (None: nobody
    in particular, any two OKs). A setting, not a change of the hands: no new
    version, nothing to undo; the phones see it at their next poll (``live_key``)."""
    with writing(db):
        db.execute(
            "update sessions set scorer = ?, updated_at = ? where id = ? and confirm = 1", [scorer, now(), session_id]
        )
    return get_session(db, session_id)


def _check_record(record: dict) -> None:
    problems = validate(record)
    if problems:
        raise Refused(problems)
    problems = limit_problems(record)
    if problems:
        raise Refused(problems)


def note_problems(number: int, hand: dict) -> list[Problem]:
    note = hand.get("note")
    if isinstance(note, str) and len(note) > MAX_NOTE:
        return [Problem(number, "note", f"note: at most {MAX_NOTE} characters (this one has {len(note)})")]
    return []


def limit_problems(record: dict) -> list[Problem]:
    """The app's limits on a valid record (the forms', applied to imports and restores too)."""
    if len(record["hands"]) > MAX_HANDS:
        return [Problem(None, "hands", f"hands: a session holds at most {MAX_HANDS} hands; start a new session")]
    problems = []
    title = record.get("title")
    if isinstance(title, str) and len(title) > MAX_TITLE:
        problems.append(Problem(None, "title", f"title: at most {MAX_TITLE} characters (this one has {len(title)})"))
    for number, hand in enumerate(record["hands"], 1):
        problems += note_problems(number, hand)
    return problems


def _reserve_creation(db: Database, address: str, limit: int, at: float) -> None:
    """Count this creation against ``address``'s last minute, or refuse it
    (inside the creating transaction, so a burst cannot slip past the count)."""
    db.execute("delete from creations where at <= ?", [at - CREATION_WINDOW])
    rows = db.execute("select at from creations where address = ? order by at", [address]).fetchall()
    if len(rows) >= limit:
        raise RateLimited(max(1, math.ceil(rows[-limit][0] + CREATION_WINDOW - at)), limit)
    db["creations"].insert({"address": address, "at": at})


def count_attempt(db: Database, address: str, limit: int, at: float | None = None) -> None:
    """Count one try at making a session from ``address`` (a new-session form or an
    import, whether it is then made or refused) before any work is done on it:
    ``RateLimited`` once ``limit`` were counted in the last minute. Refused work
    costs the server as much as accepted work (3,004 refused 2 MB imports in 30 s
    slowed every other request 35×), so it counts the same. Over the limit this is
    one indexed read: no write lock, no commit."""
    at = time.time() if at is None else at
    address = address or "unknown"
    rows = db.execute(
        "select at from creations where address = ? and at > ? order by at", [address, at - CREATION_WINDOW]
    ).fetchall()
    if len(rows) >= limit:
        raise RateLimited(max(1, math.ceil(rows[-limit][0] + CREATION_WINDOW - at)), limit)
    with writing(db):
        _reserve_creation(db, address, limit, at)


def create_session(
    db: Database,
    record: dict,
    first_dealer: int = 0,
    action: str = "create",
    pin_hash: str | None = None,
    creator: tuple[str, int] | None = None,
    at: float | None = None,
    scorer: int | None = None,
    owner: str | None = None,
    keep_limit: int | None = None,
    circle: tuple[str, list] | None = None,
) -> Session:
    """Store a new session from a valid ``gleek-session/1`` record (its hands too).
    ``creator`` = (client address, sessions it may create a minute): refused with
    ``RateLimited`` beyond that (the web counts every try first, ``count_attempt``,
    and passes none). ``scorer``: the seat keeping the score, where the
    other players' OK is asked for (else the record's own, if it names one).
    ``owner``: the client address that creates it, kept with it: refused with
    ``StorageFull`` once that address keeps ``keep_limit`` sessions (a hosted
    server's cap). ``circle``: (circle id, the member at each seat): the
    session is one of that circle's evenings from the start."""
    _check_record(record)
    alike = alike_names(record["players"])
    if alike:
        raise Refused(alike)
    if scorer is None:
        scorer = record.get("scorer")
    session_id, watch_id, stamp = new_token(), new_token(), now()
    owner = owner or (creator[0] or "unknown" if creator is not None else None)
    with writing(db):
        if (
            keep_limit is not None
            and owner is not None
            and db.execute("select count(*) from sessions where creator = ?", [owner]).fetchone()[0] >= keep_limit
        ):
            raise StorageFull(keep_limit)
        if creator is not None:
            _reserve_creation(db, creator[0] or "unknown", creator[1], time.time() if at is None else at)
        insert_session(db, session_id, watch_id, record, first_dealer, action, pin_hash, scorer, owner, stamp, circle)
    return get_session(db, session_id)


def insert_session(
    db: Database,
    session_id: str,
    watch_id: str,
    record: dict,
    first_dealer: int,
    action: str,
    pin_hash: str | None,
    scorer: int | None,
    owner: str | None,
    stamp: str,
    circle: tuple[str, list] | None = None,
) -> None:
    """A checked record's session, its seats, hands and first history row (inside
    the caller's write transaction)."""
    db["sessions"].insert(
        {
            "id": session_id,
            "watch_id": watch_id,
            "rulebook": record["rulebook"],
            "options": json.dumps(record["options"]),
            "title": record.get("title"),
            "played_on": record.get("played_on"),
            "stake": json.dumps(record["stake"]) if record.get("stake") else None,
            "first_dealer": record["hands"][0]["dealer"] if record["hands"] else first_dealer,
            "version": 1,
            "created_at": stamp,
            "updated_at": stamp,
            "pin_hash": pin_hash,
            "confirm": int(bool(record.get("confirm"))),
            "scorer": scorer if record.get("confirm") else None,
            "creator": owner,
        }
    )
    insert_seats(db, session_id, record["players"])
    if circle is not None:
        hold_session(db, circle[0], session_id, circle[1])
    insert_hands(db, session_id, record["hands"], stamp)
    if record.get("confirm"):
        seat_links(db, session_id)
    log_change(db, session_id, None, action, None, None, 1)


def insert_seats(db: Database, session_id: str, players, members=(None, None, None)) -> None:
    """A new session's three seats: the names as played (trimmed), and the
    circle's member at each, where it is known."""
    db["seats"].insert_all(
        {"session_id": session_id, "seat": seat, "name": name.strip(), "member_id": member}
        for seat, (name, member) in enumerate(zip(players, members))
    )


def insert_hands(db: Database, session_id: str, hands: list, stamp: str, oks: bool = True) -> None:
    """A record's hands; each one's ``agreed`` seats become OKs of that hand and
    its ``disputes`` disputes, with their reasons (unless ``oks`` is false: a
    backup that carries the OKs and disputes themselves)."""
    db["hands"].insert_all(
        {"session_id": session_id, "number": i + 1, "data": json.dumps(without_agreement(h))}
        for i, h in enumerate(hands)
    )
    if not oks:
        return
    said = [(i, h, seat, "ok", "") for i, h in enumerate(hands) for seat in h.get("agreed", ())]
    said += [(i, h, d["seat"], "dispute", d["reason"]) for i, h in enumerate(hands) for d in h.get("disputes", ())]
    db["verdicts"].insert_all(
        {
            "session_id": session_id,
            "number": i + 1,
            "seat": seat,
            "fingerprint": fingerprint(without_agreement(h)),
            "verdict": verdict,
            "reason": reason,
            "at": stamp,
        }
        for i, h, seat, verdict, reason in sorted(said, key=lambda s: (s[0], s[2]))
    )


def _first_difference(hands: list, stored: list) -> int:
    """How many of the first hands are the stored ones. A change keeps the stored
    hand objects, so comparing the lists (in C, identity first) settles the usual
    case at once; comparing 500 hands one by one in Python costs a tenth of a save."""
    n = min(len(hands), len(stored))
    if hands[:n] == stored[:n]:
        return n
    first = 0
    while hands[first] is stored[first] or hands[first] == stored[first]:
        first += 1
    return first


def _check_hands_from(session: Session, hands: list) -> None:
    """Check the hands from the first one that differs from the stored ones:
    a hand's checks depend only on the hands before it, which are unchanged."""
    if len(hands) > MAX_HANDS:
        raise Refused([f"hands: a session holds at most {MAX_HANDS} hands; start a new session"])
    first = _first_difference(hands, session.hands)
    book = BOOKS[session.rulebook]
    problems = []
    for index in range(first, len(hands)):
        problems += book.check_hand(index + 1, hands[index], session.options, hands[:index], tuple(session.players))
        if isinstance(hands[index], dict):
            problems += note_problems(index + 1, hands[index])
    if problems:
        raise Refused(problems)


def _change(db: Database, session_id: str, based_on: int | None, change, draft=None, reopen: bool = False) -> Session:
    """Apply ``change(session) -> (hands, hand_number, action, before, after)``,
    refusing stale or invalid results. Every change must say which version it was
    based on (``based_on``): one that does not is refused like a stale one, never
    applied (last writer wins is not an option).

    The session is read and the change checked before the write lock is taken
    (a long session costs milliseconds to decode and check, and every other save
    would wait behind it); the immediate transaction then only confirms that the
    version is still the one read (every change bumps it) and writes. ``draft``:
    (token, version) of the hand in progress a new hand was entered as.
    ``reopen``: the change may reopen the evening if its circle has settled it
    (else ``EveningSettled``, nothing changed: ``settled.settled_or_reopened``)."""
    with reading(db):
        session = get_session(db, session_id)
    refuse_stale(session.version, based_on)
    hands, number, action, before, after = change(session)
    _check_hands_from(session, hands)
    with writing(db):
        refuse_stale(session_version(db, session_id), session.version)
        settled_or_reopened(db, session_id, reopen)
        changed = _write_change(db, session, hands, number, action, before, after, draft)
    keep_hands(db, session_id, changed.version, changed.hands)  # committed: keep the decoded hands
    return changed


def change_within(db: Database, session_id: str, based_on: int | None, change) -> Session:
    """``_change``'s work inside a write transaction the caller holds (a restore)."""
    session = get_session(db, session_id)
    refuse_stale(session.version, based_on)
    hands, number, action, before, after = change(session)
    _check_hands_from(session, hands)
    return _write_change(db, session, hands, number, action, before, after)


def _write_change(db: Database, session: Session, hands, number, action, before, after, draft=None) -> Session:
    """Write a checked change (inside the write transaction). A hand saved from the
    hand in progress clears it, unless another phone changed it since (``StaleDraft``:
    its newer answers are never thrown away blindly); any other change keeps the
    hand in progress as the next hand."""
    session_id, version = session.id, session.version + 1
    token = draft[0] if draft else None
    if token is not None:
        current = get_draft(db, session_id)
        if current is not None and (current.token != token or (draft[1] is not None and current.version != draft[1])):
            raise StaleDraft(current, len(session.hands))
    db.execute("delete from hands where session_id = ? and number > ?", [session_id, len(hands)])
    for i in range(_first_difference(hands, session.hands), len(hands)):
        if i >= len(session.hands) or session.hands[i] != hands[i]:
            db.execute(
                "insert into hands (session_id, number, data) values (?, ?, ?) "
                "on conflict (session_id, number) do update set data = excluded.data",
                [session_id, i + 1, json.dumps(hands[i])],
            )
    db.execute("update sessions set version = ?, updated_at = ? where id = ?", [version, now(), session_id])
    log_change(db, session_id, number, action, before, after, version, draft=token)
    if token is not None:
        db.execute("delete from drafts where session_id = ?", [session_id])
    else:
        _renumber_draft(db, session, hands)
    session.hands, session.version = hands, version
    return session


def _renumber_draft(db: Database, session: Session, hands: list) -> None:
    """The hand in progress is the next hand again after a change; a dealer it had
    as proposed (the next in turn) moves with the turn."""
    draft = get_draft(db, session.id)
    if draft is None:
        return
    answers = draft.answers
    if answers.get("dealer") == str(session.next_dealer()):
        after = Session(**{**session.__dict__, "hands": hands})
        answers = dict(answers, dealer=str(after.next_dealer()))
    db.execute(
        "update drafts set number = ?, answers = ? where session_id = ?",
        [len(hands) + 1, json.dumps(answers, ensure_ascii=False), session.id],
    )


def add_hand(
    db: Database,
    session_id: str,
    hand: dict,
    based_on: int | None,
    draft: str | None = None,
    draft_version: int | None = None,
    reopen: bool = False,
) -> Session:
    """Append a hand. ``draft`` is the token of the hand in progress it was entered
    as, at ``draft_version``: it is cleared in the same transaction, remembered so
    that a repeated Save is seen, and if another phone has changed it since,
    ``StaleDraft`` (its newer answers are never thrown away blindly)."""

    def change(session):
        return session.hands + [hand], len(session.hands) + 1, "add", None, hand

    return _change(db, session_id, based_on, change, draft=(draft, draft_version) if draft else None, reopen=reopen)


def replace_hand(
    db: Database, session_id: str, number: int, hand: dict, based_on: int | None, reopen: bool = False
) -> Session:
    def change(session):
        if not 1 <= number <= len(session.hands):
            raise NotFound(f"hand {number}")
        hands = list(session.hands)
        before, hands[number - 1] = hands[number - 1], hand
        return hands, number, "edit", before, hand

    return _change(db, session_id, based_on, change, reopen=reopen)


def delete_last_hand(db: Database, session_id: str, based_on: int | None, reopen: bool = False) -> Session:
    def change(session):
        if not session.hands:
            raise Refused(["There is no hand to delete."])
        return session.hands[:-1], len(session.hands), "delete", session.hands[-1], None

    return _change(db, session_id, based_on, change, reopen=reopen)


#: How long after a change it can be undone (and the table page offers it): a
#: change older than that was seen, and maybe settled on; History still goes back.
UNDO_WINDOW = datetime.timedelta(minutes=30)

TOO_OLD_TO_UNDO = (
    "That change was made more than 30 minutes ago, so it is not undone from here: "
    "History can put the hands back as they were at any earlier version."
)


def within_undo_window(change: dict, at: datetime.datetime | None = None) -> bool:
    """Whether a history row is recent enough to undo (``at``: now)."""
    at = datetime.datetime.now(datetime.timezone.utc) if at is None else at
    try:
        made = datetime.datetime.fromisoformat(change["at"])
    except (TypeError, ValueError):
        return False
    return at - made <= UNDO_WINDOW


def undo(db: Database, session_id: str, based_on: int | None, reopen: bool = False) -> Session:
    """Take back the last add, edit or delete of a hand (an undo is itself undoable),
    within ``UNDO_WINDOW`` of it."""
    last = last_change(db, session_id)
    if last is not None and undoable(last) and not within_undo_window(last):
        raise Refused([TOO_OLD_TO_UNDO])
    if last is not None and last["action"] in DRAFT_ACTIONS:
        return undo_draft_change(db, session_id, based_on, last, reopen=reopen)

    def change(session):
        if not undoable(last):
            raise Refused(["There is nothing to undo."])
        hands = taken_back(list(session.hands), last)
        return hands, last["hand_number"], "redo" if last["action"] == "undo" else "undo", last["after"], last["before"]

    return _change(db, session_id, based_on, change, reopen=reopen)


UNDOABLE = ("add", "edit", "delete", "undo", "redo", "restore", "revert") + DRAFT_ACTIONS


def undoable(change: dict | None) -> bool:
    """Whether a history row can be taken back: a change of the hands that says
    what they were before (a session restored from a backup as a new session
    here, as an earlier release logged it, has nothing to go back to)."""
    if change is None or change["action"] not in UNDOABLE:
        return False
    return not (
        change["hand_number"] is None
        and change["before"] is None
        and change["action"] in ("restore", "revert", "undo", "redo")
    )


def go_back(db: Database, session_id: str, version: int, based_on: int | None, reopen: bool = False) -> Session:
    """Put the saved hands back as they were at ``version``, as one more change
    (so it can be undone too)."""

    def change(session):
        if not first_version(db, session.id) <= version < session.version:
            raise Refused([f"There is no earlier version {version} to go back to."])
        hands = hands_at(db, session, version)
        return hands, None, "revert", session.hands, hands

    return _change(db, session_id, based_on, change, reopen=reopen)
