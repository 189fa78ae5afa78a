"""Persistence, in one place: the schema, its migrations, and every write.

Every write is one short ``BEGIN IMMEDIATE`` transaction that re-validates the
whole session record with the domain before it commits, so the database never
holds a hand the rules refuse, and balances (always computed from the hands,
never stored) can never disagree with them. Every change bumps the session's
``version`` and is kept in ``history``.
"""

from __future__ import annotations

import contextlib
import datetime
import hashlib
import json
import math
import operator
import re
import secrets
import sqlite3
import threading
import time
from collections import namedtuple
from dataclasses import dataclass
from pathlib import Path

from sqlite_utils import Database, Migrations

from .rules import BOOKS, Problem
from .rules.core import SEATS
from .rules.core import is_text
from .rules.record import FORMAT, validate

# The app's own limits, the same for the forms, an import and a restore (the
# record format itself allows any length: ``settle`` accepts what the spec does).
from .limits import MAX_HANDS, MAX_NOTE, MAX_REASON, MAX_TITLE  # noqa: E402
CREATION_WINDOW = 60  # seconds: the sessions one client address may create are counted per minute

migrations = Migrations("scorekeeper")


@migrations()
def m001_sessions_hands_history(db: Database) -> None:
    db["sessions"].create(
        {
            "id": str,
            "watch_id": str,
            "rulebook": str,
            "options": str,
            "players": str,
            "title": str,
            "played_on": str,
            "stake": str,
            "first_dealer": int,
            "version": int,
            "created_at": str,
            "updated_at": str,
        },
        pk="id",
        not_null={"watch_id", "rulebook", "options", "players", "first_dealer", "version"},
    )
    db["sessions"].create_index(["watch_id"], unique=True)
    db["hands"].create(
        {"session_id": str, "number": int, "data": str},
        pk=("session_id", "number"),
        foreign_keys=[("session_id", "sessions", "id")],
        not_null={"data"},
    )
    db["history"].create(
        {
            "id": int,
            "session_id": str,
            "hand_number": int,
            "action": str,
            "before": str,
            "after": str,
            "version": int,
            "at": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
    )
    db["history"].create_index(["session_id", "hand_number"])


@migrations()
def m002_table_pin(db: Database) -> None:
    db["sessions"].add_column("pin_hash", str)
    db["pin_failures"].create({"id": int, "session_id": str, "at": float}, pk="id",
                              foreign_keys=[("session_id", "sessions", "id")])
    db["pin_failures"].create_index(["session_id", "at"])


@migrations()
def m003_session_creations(db: Database) -> None:
    """When each client address created a session (the last minute's, for the rate limit)."""
    db["creations"].create({"id": int, "address": str, "at": float}, pk="id", if_not_exists=True)
    db["creations"].create_index(["address", "at"], if_not_exists=True)


@migrations()
def m004_hands_in_progress(db: Database) -> None:
    """The hand on the table, stored as it is entered (at most one per session),
    and which hand in progress each saved hand came from.

    A database from the release before this one may already have both (the
    same change was its third migration, ``m003_hands_in_progress``), so each
    step here is skipped when it is already done."""
    db["drafts"].create(
        {"session_id": str, "token": str, "number": int, "answers": str, "version": int,
         "started_at": str, "updated_at": str},
        pk="session_id",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null={"token", "number", "answers", "version"},
        if_not_exists=True,
    )
    _add_column(db, "history", "draft", str)


@migrations()
def m005_players_agree(db: Database) -> None:
    """Each hand needs the other players' OK (a session option): a link per seat,
    and every OK or dispute, tied to the hand as it was when it was given."""
    _add_column(db, "sessions", "confirm", int, not_null_default=0)
    db["seat_links"].create({"token": str, "session_id": str, "seat": int}, pk="token",
                            foreign_keys=[("session_id", "sessions", "id")], if_not_exists=True)
    db["seat_links"].create_index(["session_id", "seat"], unique=True, if_not_exists=True)
    db["verdicts"].create({"id": int, "session_id": str, "number": int, "seat": int, "fingerprint": str,
                           "verdict": str, "reason": str, "at": str}, pk="id",
                          foreign_keys=[("session_id", "sessions", "id")], if_not_exists=True)
    db["verdicts"].create_index(["session_id", "number"], if_not_exists=True)


@migrations()
def m006_scorer_seat(db: Database) -> None:
    """Which player keeps the score (a seat, or none): his own OK does not count,
    the other two players' do."""
    _add_column(db, "sessions", "scorer", int)


def _add_column(db: Database, table: str, column: str, kind, **options) -> None:
    """A column added by a migration, unless an earlier release's migration added it."""
    if column not in db[table].columns_dict:
        db[table].add_column(column, kind, **options)


class StaleEdit(Exception):
    """The edit was based on an older version of the session than the stored one."""

    def __init__(self, current: int, missing: bool = False):
        self.current, self.missing = current, missing
        super().__init__(
            "This change did not say which version of the session it was based on, so it was not "
            "made; here is the session as it is now. Check it and make your change again." if missing else
            "Someone else changed this session a moment ago; here it is as it is now. "
            "Check it and make your change again.")


class NotFound(Exception):
    pass


class RateLimited(Exception):
    """Too many new sessions from one client address; ``retry_after`` seconds to wait."""

    def __init__(self, retry_after: int, limit: int):
        self.retry_after, self.limit = retry_after, limit
        super().__init__(f"Too many new sessions from this address (at most {limit} a minute). "
                         f"Try again in {retry_after} seconds.")


class Refused(Exception):
    """A change the rules or the limits do not allow. ``problems`` says why, as
    ``rules.Problem``s (each keeps its hand and key); ``lines()`` as text."""

    def __init__(self, problems):
        self.problems = [p if isinstance(p, Problem) else Problem(None, "session", str(p)) for p in problems]
        super().__init__("; ".join(self.lines()))

    def lines(self) -> list[str]:
        return [str(p) for p in self.problems]


def now() -> str:
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def new_token() -> str:
    """An unguessable id: 144 bits of randomness, URL-safe."""
    return secrets.token_urlsafe(18)


TOKEN = re.compile(r"[A-Za-z0-9_-]{24}\Z")  # what new_token makes: 18 bytes in base64url


def is_token(value) -> bool:
    """An id as the app makes them (a session id or watch id)."""
    return isinstance(value, str) and TOKEN.match(value) is not None


def id_label(value) -> str:
    """A session id for a message: as it is if the app made it, else quoted and escaped."""
    from .rules.core import describe

    return value if is_token(value) else describe(value)


def printable(value) -> str:
    """Any value as one printable, encodable line (for problem lines)."""
    from .rules.core import describe

    return value if isinstance(value, str) and value.isprintable() and is_text(value) else describe(value)


# ------------------------------------------------------------ connections

def connect(path: str | Path) -> Database:
    """One connection: foreign keys on, waits for a busy writer, explicit transactions."""
    conn = sqlite3.connect(str(path), timeout=15, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA busy_timeout = 15000")
    db = Database(conn)
    db.path = str(path)  # which database a kept list of hands belongs to
    return db


def connect_keeper(path: str | Path) -> sqlite3.Connection:
    """An idle connection usable from any thread, held open and never used for work."""
    conn = sqlite3.connect(str(path), check_same_thread=False)
    conn.execute("select 1 from sqlite_master limit 1").fetchall()
    return conn


def initialise(path: str | Path) -> None:
    """Create the database if missing, switch it to WAL, apply migrations."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    db = connect(path)
    try:
        db.conn.execute("PRAGMA journal_mode = WAL")
        migrations.apply(db)
    finally:
        db.close()


@contextlib.contextmanager
def writing(db: Database, durable: bool = True):
    """A short write transaction taken at once (``BEGIN IMMEDIATE``), so a
    read-then-write never fails with "database is locked" halfway.

    ``durable=False`` commits without waiting for the disk (``synchronous =
    NORMAL``: in WAL mode the commit survives the server being killed, not the
    machine losing power). The hand in progress is written so, on every tap: it
    is also kept on the phone, and a tap must be quick (docs/engineering.md)."""
    if not durable:
        db.conn.execute("PRAGMA synchronous = NORMAL")
    db.conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.conn.execute("ROLLBACK")
        raise
    else:
        db.conn.execute("COMMIT")
    finally:
        if not durable:
            db.conn.execute("PRAGMA synchronous = FULL")


@contextlib.contextmanager
def reading(db: Database):
    """A read transaction: several queries see one committed state (WAL: no lock
    that holds up writers)."""
    db.conn.execute("BEGIN")
    try:
        yield db
    finally:
        db.conn.execute("COMMIT")


# ------------------------------------------------------------ reading

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


def live_version(db: Database, key: str, kind: str = "s") -> str:
    """What a watching phone compares to know whether anything changed: the
    session's version, its hand in progress's, and its last OK or dispute ("12-3-7")."""
    where = {"s": "s.id = ?", "w": "s.watch_id = ?",
             "p": "s.id = (select session_id from seat_links where token = ?)"}[kind]
    rows = list(db.query(f"""select s.version, coalesce(d.version, 0) as draft,
                                    (select coalesce(max(v.id), 0) from verdicts v where v.session_id = s.id) as said
                             from sessions s left join drafts d on d.session_id = s.id
                             where {where}""", [key]))
    if not rows:
        raise NotFound(key)
    return f"{rows[0]['version']}-{rows[0]['draft']}-{rows[0]['said']}"


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


# ------------------------------------------------------------ writing

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


def create_session(db: Database, record: dict, first_dealer: int = 0, action: str = "create",
                   pin_hash: str | None = None, creator: tuple[str, int] | None = None,
                   at: float | None = None, scorer: int | None = None) -> Session:
    """Store a new session from a valid ``gleek-session/1`` record (its hands too).
    ``creator`` = (client address, sessions it may create a minute): refused with
    ``RateLimited`` beyond that. ``scorer``: the seat keeping the score, where the
    other players' OK is asked for."""
    _check_record(record)
    session_id, watch_id, stamp = new_token(), new_token(), now()
    with writing(db):
        if creator is not None:
            _reserve_creation(db, creator[0] or "unknown", creator[1], time.time() if at is None else at)
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
        return _undo_draft_change(db, session_id, based_on, last)

    def change(session):
        if last is None or last["action"] not in UNDOABLE:
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


# ------------------------------------------------------------ the hand in progress

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
        _log(db, session_id, current.number, "discard", _draft_json(current), None, version)
    return get_session(db, session_id)


def _undo_draft_change(db: Database, session_id: str, based_on: int | None, last: dict) -> Session:
    with writing(db):
        session = get_session(db, session_id)
        _refuse_stale(session.version, based_on)
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
        _log(db, session_id, last["hand_number"], action, before, after, version)
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


# ------------------------------------------------------------ the players' OK

#: One player's OK or dispute of a hand, as the hand was when it was given.
Verdict = namedtuple("Verdict", "id number seat fingerprint verdict reason at")
#: Where a hand stands: the seats that agreed, the disputes (seat -> reason).
Agreement = namedtuple("Agreement", "agreed disputed")


def without_agreement(hand: dict) -> dict:
    return {k: v for k, v in hand.items() if k != "agreed"} if "agreed" in hand else hand


def fingerprint(hand: dict) -> str:
    """The hand as it was agreed to: an edit changes it, so an OK given before an
    edit no longer counts (and comes back if the edit is undone)."""
    text = json.dumps(without_agreement(hand), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode(), digest_size=9).hexdigest()


def agreement(session: Session, numbers=None) -> dict:
    """Each hand's (or the hands ``numbers``'s) agreement as it stands: every
    player's latest OK or dispute of the hand as it is now (index: hand number − 1)."""
    wanted = range(1, len(session.hands) + 1) if numbers is None else numbers
    prints = {n: fingerprint(session.hands[n - 1]) for n in wanted}
    latest = {}
    for verdict in session.verdicts:
        if prints.get(verdict.number) == verdict.fingerprint:
            latest[(verdict.number, verdict.seat)] = verdict
    out = {}
    for n in prints:
        said = [latest[(n, s)] for s in SEATS if (n, s) in latest]
        out[n - 1] = Agreement(frozenset(v.seat for v in said if v.verdict == "ok"),
                               {v.seat: v.reason for v in said if v.verdict == "dispute"})
    return out


class StaleVerdict(Exception):
    """The hand was changed (or is gone) since the player looked at it."""


def give_verdict(db: Database, session_id: str, number: int, seat: int, seen: str, verdict: str,
                 reason: str = "") -> None:
    """Record an OK or a dispute of hand ``number`` by ``seat``, for the hand as it
    was seen (``seen``, its fingerprint): ``StaleVerdict`` if it has changed since."""
    with writing(db):
        rows = list(db.query("select data from hands where session_id = ? and number = ?", [session_id, number]))
        if not rows or fingerprint(json.loads(rows[0]["data"])) != seen:
            raise StaleVerdict(number)
        db["verdicts"].insert({"session_id": session_id, "number": number, "seat": seat, "fingerprint": seen,
                               "verdict": verdict, "reason": reason, "at": now()})


def seat_links(db: Database, session_id: str) -> list[str]:
    """The three players' own links (made the first time they are asked for)."""
    rows = {r["seat"]: r["token"] for r in db.query("select seat, token from seat_links where session_id = ?",
                                                      [session_id])}
    for seat in SEATS:
        if seat not in rows:
            rows[seat] = new_token()
            db["seat_links"].insert({"token": rows[seat], "session_id": session_id, "seat": seat})
    return [rows[s] for s in SEATS]


def session_by_seat_link(db: Database, token: str) -> tuple[Session, int]:
    rows = list(db.query("select session_id, seat from seat_links where token = ?", [token]))
    if not rows:
        raise NotFound(token)
    return get_session(db, rows[0]["session_id"]), rows[0]["seat"]


def session_id_of(db: Database, key: str, kind: str) -> str:
    """The session a link (scorer's, watch or a player's) belongs to."""
    if kind == "s":
        return key
    table, column = ("sessions", "watch_id") if kind == "w" else ("seat_links", "token")
    rows = list(db.query(f"select {'id' if kind == 'w' else 'session_id'} as sid from {table} "
                         f"where {column} = ?", [key]))
    if not rows:
        raise NotFound(key)
    return rows[0]["sid"]


# ------------------------------------------------------------ backups

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
    links = {r["seat"]: r["token"] for r in db.query("select seat, token from seat_links where session_id = ?",
                                                       [session.id])}
    if len(links) == len(SEATS):
        data["seat_links"] = [links[seat] for seat in SEATS]
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
    from .rules.core import describe, is_seat, key_name

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
    from .rules.core import describe

    from .rules.core import is_seat

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
    from .rules.core import describe, is_seat

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
    from .rules.core import describe

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
        session = _change_within(db, sid, session_version(db, sid), change)
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
    _insert_hands(db, sid, record["hands"], stamp, oks="verdicts" not in backup)
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
    _log(db, sid, None, "restore", None, None, 1)


# ------------------------------------------------------------ the table PIN

PIN_TRIES = 5
PIN_WINDOW = 15 * 60  # seconds


def reserve_pin_try(db: Database, session_id: str, at: float) -> tuple[int | None, int]:
    """Count a PIN try before checking it: ``(try id, 0)``, or ``(None, seconds to
    wait)`` once PIN_TRIES tries in any PIN_WINDOW seconds have been counted.

    The count and the reservation are one short transaction, so a burst of
    parallel tries cannot all see "fewer than 5" and all be checked. The slow hash
    check happens after it, outside any transaction (holding SQLite's write lock
    through a deliberately slow check would hold up every save). A reserved try
    counts as a wrong one until ``forget_pin_try`` says it was right."""
    with writing(db):
        db.execute("delete from pin_failures where at <= ?", [at - PIN_WINDOW])
        rows = db.execute("select at from pin_failures where session_id = ? order by at",
                          [session_id]).fetchall()
        if len(rows) >= PIN_TRIES:
            return None, max(1, math.ceil(rows[-PIN_TRIES][0] + PIN_WINDOW - at))
        return db["pin_failures"].insert({"session_id": session_id, "at": at}).last_pk, 0


def forget_pin_try(db: Database, try_id: int) -> None:
    """The reserved try was the right PIN: it does not count against the table."""
    with writing(db):
        db.execute("delete from pin_failures where id = ?", [try_id])
