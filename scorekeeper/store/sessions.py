"""Sessions and their hands: reading them (decoded, kept between requests) and
every change (saved, edited, deleted, undone), each one short transaction."""

from __future__ import annotations

import json
import math
import operator
import threading
import time
from dataclasses import dataclass

from sqlite_utils import Database

from ..rules import BOOKS, Problem
from ..rules.record import FORMAT, validate
from ..limits import MAX_HANDS, MAX_NOTE, MAX_TITLE
from .agreement import Verdict, agreement, fingerprint, seat_links, without_agreement
from .common import CREATION_WINDOW, NotFound, RateLimited, Refused, StaleEdit, StorageFull, new_token, now
from .schema import reading, writing


@dataclass
class Session:
    id: str
    watch_id: str
    rulebook: str
    options: dict
    players: list
    title: str | None
    played_on: str | None
    stake: dict | None
    first_dealer: int
    version: int
    created_at: str
    updated_at: str
    hands: list
    pin_hash: str | None = None
    confirm: bool = False
    verdicts: list = ()  # every OK and dispute (``Verdict``), oldest first
    scorer: int | None = None  # the seat that keeps the score (his OK does not count), if one does

    def record(self, with_agreement: bool = False) -> dict:
        """The session as a ``gleek-session/1`` record; ``with_agreement`` adds each
        hand's ``agreed`` seats (the export, the backups, the PDF's attachment)."""
        hands = self.hands
        if with_agreement and (self.confirm or self.verdicts):
            agreed = agreement(self)
            hands = [dict(hand, agreed=sorted(agreed[i].agreed)) for i, hand in enumerate(hands)]
        record = {
            "format": FORMAT,
            "rulebook": self.rulebook,
            "options": self.options,
            "players": self.players,
            "hands": hands,
        }
        if self.confirm:
            record["confirm"] = True
        if self.title:
            record["title"] = self.title
        if self.played_on:
            record["played_on"] = self.played_on
        if self.stake:
            record["stake"] = self.stake
        return record

    def next_dealer(self) -> int:
        if not self.hands:
            return self.first_dealer
        return (self.hands[-1]["dealer"] + 1) % 3


class _Hands:
    """The decoded hands of the sessions used lately, by (id, version): every
    change bumps the version, so a kept list is never stale. A tap or a poll then
    reads one row, not every hand. The lists and the hands in them are shared:
    nothing changes them in place (a change builds a new list).

    Each kept hand comes with the stored text it was decoded from (or None if not
    known). When the version has moved on (a save, here or in the other server
    process), the hands' texts are read again and only those that differ are
    decoded: an appended hand costs one hand, not the session, and the unchanged
    hands stay the same objects (so a settlement or a snapshot can tell, by
    ``is``, what it already did).

    ``size`` sessions are kept, ``budget`` hands in all (a hand is ~1.5 KB
    decoded: 40,000 hands are ~60 MB a server process): a club night of 50
    tables of 500 hands fits."""

    def __init__(self, size: int = 128, budget: int = 40_000):
        self.size, self.budget, self.lists, self.lock = size, budget, {}, threading.Lock()

    def get(self, db: Database, session_id: str, version: int) -> list:
        key = (getattr(db, "path", None), session_id)
        with self.lock:
            kept = self.lists.get(key)
        if kept is not None and kept[0] == version:
            return kept[1]
        texts = [data for (data,) in db.execute("select data from hands where session_id = ? order by number",
                                                [session_id])]
        hands = self._decode(texts, kept)
        self._keep(key, version, hands, texts)
        return hands

    @staticmethod
    def _decode(texts: list, kept) -> list:
        old_hands, old_texts = (kept[1], kept[2]) if kept is not None else ([], [])
        same = [i < len(old_texts) and old_texts[i] == text for i, text in enumerate(texts)]
        if same.count(False) > len(texts) // 4:
            # one JSON array decoded at once: much cheaper than a json.loads per hand
            return json.loads("[" + ",".join(texts) + "]")
        return [old_hands[i] if same[i] else json.loads(text) for i, text in enumerate(texts)]

    def put(self, db: Database, session_id: str, version: int, hands: list) -> None:
        """Keep ``hands`` (just committed) as version ``version``: a hand kept
        before as the same object keeps its text; a new one's is not known yet
        (the next version change reads it)."""
        key = (getattr(db, "path", None), session_id)
        with self.lock:
            kept = self.lists.get(key)
        old_hands, old_texts = (kept[1], kept[2]) if kept is not None else ([], [])
        self._keep(key, version, hands, texts_kept(hands, old_hands, old_texts, lambda hand: None))

    def _keep(self, key, version: int, hands: list, texts: list) -> None:
        with self.lock:
            self.lists.pop(key, None)
            self.lists[key] = (version, hands, texts)
            while len(self.lists) > 1 and (len(self.lists) > self.size or
                                           sum(len(kept[1]) for kept in self.lists.values()) > self.budget):
                self.lists.pop(next(iter(self.lists)))


_HANDS = _Hands()


def texts_kept(hands: list, old_hands: list, old_texts: list, encode) -> list:
    """The text of each of ``hands``: ``old_texts[i]`` where the hand is the very
    object ``old_hands[i]``, else ``encode(hand)``. A save appends to the same
    objects, a delete drops the last: those are settled by comparing identities in C."""
    same = list(map(operator.is_, hands, old_hands))
    if all(same):
        return old_texts[:len(hands)] + [encode(hand) for hand in hands[len(old_hands):]]
    return [old_texts[i] if i < len(same) and same[i] else encode(hand) for i, hand in enumerate(hands)]


def _session_from_row(db: Database, row: dict) -> Session:
    hands = _HANDS.get(db, row["id"], row["version"])
    return Session(
        id=row["id"],
        watch_id=row["watch_id"],
        rulebook=row["rulebook"],
        options=json.loads(row["options"]),
        players=json.loads(row["players"]),
        title=row["title"],
        played_on=row["played_on"],
        stake=json.loads(row["stake"]) if row["stake"] else None,
        first_dealer=row["first_dealer"],
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        hands=hands,
        pin_hash=row.get("pin_hash"),
        confirm=bool(row.get("confirm")),
        scorer=row.get("scorer"),
        verdicts=[Verdict(*v) for v in db.execute(
            "select id, number, seat, fingerprint, verdict, reason, at from verdicts where session_id = ? order by id",
            [row["id"]])],
    )


def get_session(db: Database, session_id: str) -> Session:
    rows = list(db.query("select * from sessions where id = ?", [session_id]))
    if not rows:
        raise NotFound(session_id)
    return _session_from_row(db, rows[0])


def get_session_by_watch_id(db: Database, watch_id: str) -> Session:
    rows = list(db.query("select * from sessions where watch_id = ?", [watch_id]))
    if not rows:
        raise NotFound(watch_id)
    return _session_from_row(db, rows[0])


def live_key(version: int, draft: int, said: int, scorer: int | None) -> str:
    """What a watching phone compares to know whether anything changed ("12-3-7-0"):
    the session's version, its hand in progress's, its last OK or dispute, and who
    keeps the score (a setting that changes the OKs needed, not the hands)."""
    return f"{version}-{draft}-{said}-{'n' if scorer is None else scorer}"


def live_version(db: Database, key: str, kind: str = "s") -> str:
    """``live_key`` of a session by any of its links, in one query."""
    where = {"s": "s.id = ?", "w": "s.watch_id = ?",
             "p": "s.id = (select session_id from seat_links where token = ?)"}[kind]
    rows = list(db.query(f"""select s.version, coalesce(d.version, 0) as draft, s.scorer,
                                    (select coalesce(max(v.id), 0) from verdicts v where v.session_id = s.id) as said
                             from sessions s left join drafts d on d.session_id = s.id
                             where {where}""", [key]))
    if not rows:
        raise NotFound(key)
    row = rows[0]
    return live_key(row["version"], row["draft"], row["said"], row["scorer"])


def set_scorer(db: Database, session_id: str, scorer: int | None) -> Session:
    """Who keeps the score, where the other players' OK is asked for (None: nobody
    in particular, any two OKs). A setting, not a change of the hands: no new
    version, nothing to undo; the phones see it at their next poll (``live_key``)."""
    with writing(db):
        db.execute("update sessions set scorer = ?, updated_at = ? where id = ? and confirm = 1",
                   [scorer, now(), session_id])
    return get_session(db, session_id)


def session_version(db: Database, key: str, by_watch_id: bool = False) -> int:
    column = "watch_id" if by_watch_id else "id"
    rows = list(db.query(f"select version from sessions where {column} = ?", [key]))
    if not rows:
        raise NotFound(key)
    return rows[0]["version"]


@dataclass
class Summary:
    """A session in a list (the home page): no hands, just how many."""

    id: str
    watch_id: str
    title: str | None
    played_on: str | None
    players: list
    rulebook: str
    updated_at: str
    hand_count: int
    in_progress: int | None = None  # the number of the hand being entered, if any


def sessions_by_ids(db: Database, ids: list[str]) -> list[Summary]:
    """Summaries of the given sessions (by scorer's or watch id), newest first."""
    if not ids:
        return []
    marks = ",".join("?" for _ in ids)
    rows = db.query(
        f"""select s.id, s.watch_id, s.title, s.played_on, s.players, s.rulebook, s.updated_at,
                   (select count(*) from hands h where h.session_id = s.id) as hand_count,
                   (select d.number from drafts d where d.session_id = s.id) as in_progress
            from sessions s where s.id in ({marks}) or s.watch_id in ({marks})
            order by s.updated_at desc""", ids + ids)
    return [Summary(**dict(row, players=json.loads(row["players"]),
                           in_progress=row["in_progress"] if row["in_progress"] == row["hand_count"] + 1 else None))
            for row in rows]


def same_session(db: Database, ids: list[str], record: dict) -> Session | None:
    """Which of the given sessions (scorer's ids) already holds exactly this record
    (its export, OKs included), if any: importing a sheet twice opens the session
    the first import made instead of making a second copy."""
    if not ids or not isinstance(record.get("players"), list):
        return None
    marks = ",".join("?" for _ in ids)
    rows = db.query(f"select id from sessions where id in ({marks}) and players = ? and rulebook = ?"
                    " order by updated_at desc",
                    ids + [json.dumps([p.strip() for p in record["players"]]), record.get("rulebook")])
    for row in rows:
        session = get_session(db, row["id"])
        if session.record(with_agreement=True) == record:
            return session
    return None


def history(db: Database, session_id: str, hand_number: int | None = None, limit: int = -1) -> list[dict]:
    """The session's changes (or one hand's), newest first, decoded."""
    where, params = "session_id = ?", [session_id]
    if hand_number is not None:
        where += " and hand_number = ?"
        params.append(hand_number)
    rows = db.query(f"select * from history where {where} order by id desc limit ?", params + [limit])
    changes = []
    for row in rows:
        before = json.loads(row["before"]) if row["before"] else None
        after = json.loads(row["after"]) if row["after"] else None
        changes.append(dict(row, before=before, after=after))
    return changes


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


def _reserve_creation(db: Database, address: str, limit: int, at: float, keep_limit: int | None = None) -> None:
    """Count this creation against ``address``'s last minute, or refuse it
    (inside the creating transaction, so a burst cannot slip past the count);
    and against the sessions it keeps (``keep_limit``, a hosted server's cap)."""
    if keep_limit is not None and db.execute("select count(*) from sessions where creator = ?",
                                             [address]).fetchone()[0] >= keep_limit:
        raise StorageFull(keep_limit)
    db.execute("delete from creations where at <= ?", [at - CREATION_WINDOW])
    rows = db.execute("select at from creations where address = ? order by at", [address]).fetchall()
    if len(rows) >= limit:
        raise RateLimited(max(1, math.ceil(rows[-limit][0] + CREATION_WINDOW - at)), limit)
    db["creations"].insert({"address": address, "at": at})


def create_session(db: Database, record: dict, first_dealer: int = 0, action: str = "create",
                   pin_hash: str | None = None, creator: tuple[str, int] | None = None,
                   at: float | None = None, scorer: int | None = None, keep_limit: int | None = None) -> Session:
    """Store a new session from a valid ``gleek-session/1`` record (its hands too).
    ``creator`` = (client address, sessions it may create a minute): refused with
    ``RateLimited`` beyond that, and with ``StorageFull`` once that address keeps
    ``keep_limit`` sessions. ``scorer``: the seat keeping the score, where the
    other players' OK is asked for."""
    _check_record(record)
    session_id, watch_id, stamp = new_token(), new_token(), now()
    with writing(db):
        if creator is not None:
            _reserve_creation(db, creator[0] or "unknown", creator[1], time.time() if at is None else at, keep_limit)
        db["sessions"].insert({
            "id": session_id,
            "watch_id": watch_id,
            "rulebook": record["rulebook"],
            "options": json.dumps(record["options"]),
            "players": json.dumps([p.strip() for p in record["players"]]),
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
            "creator": (creator[0] or "unknown") if creator is not None else None,
        })
        _insert_hands(db, session_id, record["hands"], stamp)
        if record.get("confirm"):
            seat_links(db, session_id)
        _log(db, session_id, None, action, None, None, 1)
    return get_session(db, session_id)


def _insert_hands(db: Database, session_id: str, hands: list, stamp: str, oks: bool = True) -> None:
    """A record's hands; each one's ``agreed`` seats become OKs of that hand
    (unless ``oks`` is false: a backup that carries the OKs themselves)."""
    db["hands"].insert_all(
        {"session_id": session_id, "number": i + 1, "data": json.dumps(without_agreement(h))}
        for i, h in enumerate(hands))
    if not oks:
        return
    db["verdicts"].insert_all(
        {"session_id": session_id, "number": i + 1, "seat": seat, "fingerprint": fingerprint(h),
         "verdict": "ok", "reason": "", "at": stamp}
        for i, h in enumerate(hands) for seat in h.get("agreed", ()))


def _log(db, session_id, hand_number, action, before, after, version, draft=None):
    db["history"].insert({
        "session_id": session_id,
        "hand_number": hand_number,
        "action": action,
        "before": json.dumps(before) if before is not None else None,
        "after": json.dumps(after) if after is not None else None,
        "version": version,
        "at": now(),
        "draft": draft,
    })


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
        problems += book.check_hand(index + 1, hands[index], session.options, hands[:index],
                                    tuple(session.players))
        if isinstance(hands[index], dict):
            problems += note_problems(index + 1, hands[index])
    if problems:
        raise Refused(problems)


def _change(db: Database, session_id: str, based_on: int | None, change, draft=None) -> Session:
    """Apply ``change(session) -> (hands, hand_number, action, before, after)``,
    refusing stale or invalid results. Every change must say which version it was
    based on (``based_on``): one that does not is refused like a stale one, never
    applied (last writer wins is not an option).

    The session is read and the change checked before the write lock is taken
    (a long session costs milliseconds to decode and check, and every other save
    would wait behind it); the immediate transaction then only confirms that the
    version is still the one read (every change bumps it) and writes. ``draft``:
    (token, version) of the hand in progress a new hand was entered as."""
    with reading(db):
        session = get_session(db, session_id)
    _refuse_stale(session.version, based_on)
    hands, number, action, before, after = change(session)
    _check_hands_from(session, hands)
    with writing(db):
        _refuse_stale(session_version(db, session_id), session.version)
        changed = _write_change(db, session, hands, number, action, before, after, draft)
    _HANDS.put(db, session_id, changed.version, changed.hands)  # committed: keep the decoded hands
    return changed


def _refuse_stale(current: int, based_on) -> None:
    if type(based_on) is not int or based_on != current:
        raise StaleEdit(current, missing=type(based_on) is not int)


def _change_within(db: Database, session_id: str, based_on: int | None, change) -> Session:
    """``_change``'s work inside a write transaction the caller holds (a restore)."""
    session = get_session(db, session_id)
    _refuse_stale(session.version, based_on)
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
        from .drafts import StaleDraft, get_draft  # (drafts imports this module)

        current = get_draft(db, session_id)
        if current is not None and (current.token != token or (draft[1] is not None and current.version != draft[1])):
            raise StaleDraft(current, len(session.hands))
    db.execute("delete from hands where session_id = ? and number > ?", [session_id, len(hands)])
    for i in range(_first_difference(hands, session.hands), len(hands)):
        if i >= len(session.hands) or session.hands[i] != hands[i]:
            db["hands"].upsert({"session_id": session_id, "number": i + 1, "data": json.dumps(hands[i])},
                               pk=("session_id", "number"))
    db.execute("update sessions set version = ?, updated_at = ? where id = ?",
               [version, now(), session_id])
    _log(db, session_id, number, action, before, after, version, draft=token)
    if token is not None:
        db.execute("delete from drafts where session_id = ?", [session_id])
    else:
        _renumber_draft(db, session, hands)
    session.hands, session.version = hands, version
    return session


def _renumber_draft(db: Database, session: Session, hands: list) -> None:
    """The hand in progress is the next hand again after a change; a dealer it had
    as proposed (the next in turn) moves with the turn."""
    from .drafts import get_draft

    draft = get_draft(db, session.id)
    if draft is None:
        return
    answers = draft.answers
    if answers.get("dealer") == str(session.next_dealer()):
        after = Session(**{**session.__dict__, "hands": hands})
        answers = dict(answers, dealer=str(after.next_dealer()))
    db.execute("update drafts set number = ?, answers = ? where session_id = ?",
               [len(hands) + 1, json.dumps(answers, ensure_ascii=False), session.id])


def add_hand(db: Database, session_id: str, hand: dict, based_on: int | None,
             draft: str | None = None, draft_version: int | None = None) -> Session:
    """Append a hand. ``draft`` is the token of the hand in progress it was entered
    as, at ``draft_version``: it is cleared in the same transaction, remembered so
    that a repeated Save is seen, and if another phone has changed it since,
    ``StaleDraft`` (its newer answers are never thrown away blindly)."""
    def change(session):
        return session.hands + [hand], len(session.hands) + 1, "add", None, hand
    return _change(db, session_id, based_on, change, draft=(draft, draft_version) if draft else None)


def replace_hand(db: Database, session_id: str, number: int, hand: dict,
                 based_on: int | None) -> Session:
    def change(session):
        if not 1 <= number <= len(session.hands):
            raise NotFound(f"hand {number}")
        hands = list(session.hands)
        before, hands[number - 1] = hands[number - 1], hand
        return hands, number, "edit", before, hand
    return _change(db, session_id, based_on, change)


def delete_last_hand(db: Database, session_id: str, based_on: int | None) -> Session:
    def change(session):
        if not session.hands:
            raise Refused(["There is no hand to delete."])
        return session.hands[:-1], len(session.hands), "delete", session.hands[-1], None
    return _change(db, session_id, based_on, change)


def last_change(db: Database, session_id: str) -> dict | None:
    rows = history(db, session_id, limit=1)
    return rows[0] if rows else None


def undo(db: Database, session_id: str, based_on: int | None) -> Session:
    """Take back the last add, edit or delete of a hand (an undo is itself undoable)."""
    last = last_change(db, session_id)
    if last is not None and last["action"] in DRAFT_ACTIONS:
        from .drafts import _undo_draft_change

        return _undo_draft_change(db, session_id, based_on, last)

    def change(session):
        if not undoable(last):
            raise Refused(["There is nothing to undo."])
        hands = taken_back(list(session.hands), last)
        return hands, last["hand_number"], "redo" if last["action"] == "undo" else "undo", last["after"], last["before"]
    return _change(db, session_id, based_on, change)


def taken_back(hands: list, change: dict) -> list:
    """The hands as they were before ``change`` (a history row) was made."""
    number, before, after = change["hand_number"], change["before"], change["after"]
    if change["action"] in DRAFT_ACTIONS:  # the hand in progress: no saved hand changed
        return hands
    if number is None:         # a restore or going back: every hand at once
        return list(before)
    if after is None:          # a delete: put the hand back
        hands.insert(number - 1, before)
    elif before is None:       # an add: take it away
        del hands[number - 1]
    else:                      # an edit: restore what it replaced
        hands[number - 1] = before
    return hands


#: A discarded hand in progress, and one brought back by undoing that.
DRAFT_ACTIONS = ("discard", "undiscard")
UNDOABLE = ("add", "edit", "delete", "undo", "redo", "restore", "revert") + DRAFT_ACTIONS


def undoable(change: dict | None) -> bool:
    """Whether a history row can be taken back: a change of the hands that says
    what they were before (a session restored from a backup as a new session
    here, as an earlier release logged it, has nothing to go back to)."""
    if change is None or change["action"] not in UNDOABLE:
        return False
    return not (change["hand_number"] is None and change["before"] is None
                and change["action"] in ("restore", "revert", "undo", "redo"))


def go_back(db: Database, session_id: str, version: int, based_on: int | None) -> Session:
    """Put the saved hands back as they were at ``version``, as one more change
    (so it can be undone too)."""
    def change(session):
        if not 1 <= version < session.version:
            raise Refused([f"There is no earlier version {version} to go back to."])
        hands = hands_at(db, session, version)
        return hands, None, "revert", session.hands, hands
    return _change(db, session_id, based_on, change)


def hands_at(db: Database, session: Session, version: int) -> list:
    """The saved hands as they were at ``version`` (the changes since, taken back)."""
    hands = list(session.hands)
    for row in history(db, session.id):
        if row["version"] > session.version:
            continue  # saved by another request since ``session`` was read: not in its hands
        if row["version"] <= version or row["action"] in ("create", "import"):
            break
        hands = taken_back(hands, row)
    return hands
