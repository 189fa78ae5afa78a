"""The schema and its migrations (each one skips what an earlier release already
made), connections and transactions."""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from sqlite_utils import Database, Migrations

from ..words.names import member_name
from . import commits, live_changes
from ..private import private_dir, private_file


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
    db["pin_failures"].create(
        {"id": int, "session_id": str, "at": float}, pk="id", foreign_keys=[("session_id", "sessions", "id")]
    )
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
        {
            "session_id": str,
            "token": str,
            "number": int,
            "answers": str,
            "version": int,
            "started_at": str,
            "updated_at": str,
        },
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
    db["seat_links"].create(
        {"token": str, "session_id": str, "seat": int},
        pk="token",
        foreign_keys=[("session_id", "sessions", "id")],
        if_not_exists=True,
    )
    db["seat_links"].create_index(["session_id", "seat"], unique=True, if_not_exists=True)
    db["verdicts"].create(
        {
            "id": int,
            "session_id": str,
            "number": int,
            "seat": int,
            "fingerprint": str,
            "verdict": str,
            "reason": str,
            "at": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id")],
        if_not_exists=True,
    )
    db["verdicts"].create_index(["session_id", "number"], if_not_exists=True)


@migrations()
def m006_scorer_seat(db: Database) -> None:
    """Which player keeps the score (a seat, or none): his own OK does not count,
    the other two players' do."""
    _add_column(db, "sessions", "scorer", int)


@migrations()
def m007_pin_tries_by_client(db: Database) -> None:
    """Which client address made each wrong PIN try: a client is limited on its
    own tries, the session only by a ceiling (store/pins.py). Tries counted
    before this have no address; they still count toward the ceiling."""
    _add_column(db, "pin_failures", "address", str, not_null_default="")
    db["pin_failures"].create_index(["session_id", "address", "at"], if_not_exists=True)


@migrations()
def m020_session_creator(db: Database) -> None:
    """The client address that created a session (a hosted server caps how many
    one address keeps; store/expiry.py), and when sessions were last touched,
    for their expiry."""
    _add_column(db, "sessions", "creator", str)
    db["sessions"].create_index(["creator"], if_not_exists=True)
    db["sessions"].create_index(["updated_at"], if_not_exists=True)


@migrations()
def m008_draft_field_versions(db: Database) -> None:
    """Which version of the hand in progress last changed each of its answers:
    a tap from a phone a version behind takes only the answers nobody changed
    since that version, and an answer both phones changed is a conflict."""
    _add_column(db, "drafts", "field_versions", str)


@migrations()
def m010_circles_members_seats(db: Database) -> None:
    """Players become data of their own. A circle (the group that plays together)
    has links like a session's (a capability id, a watch id, an optional PIN)
    and members; each session has three seats (the name as played, and the
    member who sat there, if its circle knows him), and belongs to at most one
    circle. The names a session was created with move from its ``players`` JSON
    column into its seats, and the column goes."""
    db["circles"].create(
        {
            "id": str,
            "watch_id": str,
            "name": str,
            "pin_hash": str,
            "version": int,
            "created_at": str,
            "updated_at": str,
            "creator": str,
        },
        pk="id",
        not_null={"watch_id", "name", "version"},
        if_not_exists=True,
    )
    db["circles"].create_index(["watch_id"], unique=True, if_not_exists=True)
    db["members"].create(
        {"id": int, "circle_id": str, "name": str, "created_at": str},
        pk="id",
        foreign_keys=[("circle_id", "circles", "id")],
        not_null={"circle_id", "name"},
        if_not_exists=True,
    )
    db["members"].create_index(["circle_id", "name"], unique=True, if_not_exists=True)
    db["seats"].create(
        {"session_id": str, "seat": int, "name": str, "member_id": int},
        pk=("session_id", "seat"),
        foreign_keys=[("session_id", "sessions", "id"), ("member_id", "members", "id")],
        not_null={"name"},
        if_not_exists=True,
    )
    db["seats"].create_index(["member_id"], if_not_exists=True)
    db["circle_sessions"].create(
        {"session_id": str, "circle_id": str, "added_at": str},
        pk="session_id",
        foreign_keys=[("session_id", "sessions", "id"), ("circle_id", "circles", "id")],
        not_null={"circle_id"},
        if_not_exists=True,
    )
    db["circle_sessions"].create_index(["circle_id"], if_not_exists=True)
    db["circle_pin_failures"].create(
        {"id": int, "circle_id": str, "address": str, "at": float},
        pk="id",
        foreign_keys=[("circle_id", "circles", "id")],
        if_not_exists=True,
    )
    db["circle_pin_failures"].create_index(["circle_id", "address", "at"], if_not_exists=True)
    if "players" in db["sessions"].columns_dict:
        db.execute("""insert or ignore into seats (session_id, seat, name)
                      select s.id, p.key, trim(p.value) from sessions s, json_each(s.players) p""")
        db.execute("alter table sessions drop column players")


@migrations()
def m011_circle_payments(db: Database) -> None:
    """What a circle still owes: each evening open (its balances carried) until
    its payments are made, and each payment marked paid (by whom, when), for
    the evenings it settles."""
    _add_column(db, "circle_sessions", "closed_at", str)
    db["payments"].create(
        {
            "id": int,
            "circle_id": str,
            "payer": int,
            "payee": int,
            "amount": str,
            "unit": str,
            "evenings": str,
            "paid_by": str,
            "paid_on": str,
            "at": str,
        },
        pk="id",
        foreign_keys=[("circle_id", "circles", "id"), ("payer", "members", "id"), ("payee", "members", "id")],
        not_null={"circle_id", "payer", "payee", "amount", "unit", "evenings"},
        if_not_exists=True,
    )
    db["payments"].create_index(["circle_id"], if_not_exists=True)


@migrations()
def m012_evening_figures(db: Database) -> None:
    """Each evening's season figures as computed, kept by the session's version,
    the members at its seats and the rules' code: a cache (never a record: any
    row may go, and is made again), so that a circle of 1,000 evenings opens in a
    fresh server process without settling 30,000 hands first."""
    db["evening_figures"].create(
        {"session_id": str, "version": int, "members": str, "code": str, "data": bytes},
        pk="session_id",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null={"version", "members", "code", "data"},
        if_not_exists=True,
    )


@migrations()
def m013_member_names_composed(db: Database) -> None:
    """Members' names kept composed (NFC), as they are compared now: "José" typed with
    a combining accent was a second member who looked the same as "José". Where two
    members of a circle would then be one name, the later keeps it with " (2)" after
    it (seen apart, they can be merged or renamed): no member or seat is lost."""
    for (circle_id,) in db.execute("select id from circles").fetchall():
        taken = set()
        for member_id, name in db.execute(
            "select id, name from members where circle_id = ? order by id", [circle_id]
        ).fetchall():
            composed, number = member_name(name), 1
            while member_name(composed).casefold() in taken:
                number += 1
                suffix = f" ({number})"
                composed = member_name(name)[: MAX_MEMBER_NAME - len(suffix)].rstrip() + suffix
            taken.add(composed.casefold())
            if composed != name:
                db.execute("update members set name = ? where id = ?", [composed, member_id])


#: A member's name at most (``rules.record.MAX_NAME``; not imported: a migration keeps its own).
MAX_MEMBER_NAME = 40


@migrations()
def m014_payments_based_on(db: Database) -> None:
    """The circle's version each payment was marked from (the page its form was
    on): one payment of a debt per version, so a form posted twice (a double tap,
    a phone sending again) marks it once. Payments marked before (or restored)
    have none."""
    _add_column(db, "payments", "based_on", int)
    db.execute(
        "create unique index if not exists payments_once on payments "
        "(circle_id, based_on, payer, payee, amount, unit, evenings) where based_on is not null"
    )


@migrations()
def m015_club_nights(db: Database) -> None:
    """A club night (several tables at once) as data of its own: the night (its id
    the organizer's link, a watch id for the public standings, the book, options
    and stake of every table, the organizer's optional PIN and its tries), its
    players (present or gone since a round), its rounds (an optional end time), each round's tables (the ordinary session each
    plays, the three players in seat order) and byes. A table's session, the circle
    and its members are not foreign keys: expiry removes sessions and circles by
    their foreign keys, and a night says what went instead of holding it up."""
    db["nights"].create(
        {
            "id": str,
            "watch_id": str,
            "name": str,
            "rulebook": str,
            "options": str,
            "stake": str,
            "played_on": str,
            "pin_hash": str,
            "rounds_planned": int,
            "rank_by": str,
            "last_by_standings": int,
            "circle_id": str,
            "seed": int,
            "version": int,
            "created_at": str,
            "updated_at": str,
            "creator": str,
        },
        pk="id",
        not_null={"watch_id", "name", "rulebook", "options", "rounds_planned", "rank_by", "version"},
        if_not_exists=True,
    )
    db["nights"].create_index(["watch_id"], unique=True, if_not_exists=True)
    db["night_players"].create(
        {"id": int, "night_id": str, "name": str, "member_id": int, "left_after": int},
        pk="id",
        foreign_keys=[("night_id", "nights", "id")],
        not_null={"night_id", "name"},
        if_not_exists=True,
    )
    db["night_players"].create_index(["night_id"], if_not_exists=True)
    db["night_rounds"].create(
        {"night_id": str, "number": int, "ends_at": str, "drawn_at": str},
        pk=("night_id", "number"),
        foreign_keys=[("night_id", "nights", "id")],
        if_not_exists=True,
    )
    db["night_tables"].create(
        {"night_id": str, "round": int, "number": int, "session_id": str, "seat_0": int, "seat_1": int, "seat_2": int},
        pk=("night_id", "round", "number"),
        foreign_keys=[("night_id", "nights", "id")],
        not_null={"session_id", "seat_0", "seat_1", "seat_2"},
        if_not_exists=True,
    )
    db["night_tables"].create_index(["session_id"], if_not_exists=True)
    db["night_byes"].create(
        {"night_id": str, "round": int, "player_id": int},
        pk=("night_id", "round", "player_id"),
        foreign_keys=[("night_id", "nights", "id")],
        if_not_exists=True,
    )
    db["night_pin_failures"].create(
        {"id": int, "night_id": str, "address": str, "at": float},
        pk="id",
        foreign_keys=[("night_id", "nights", "id")],
        if_not_exists=True,
    )
    db["night_pin_failures"].create_index(["night_id", "address", "at"], if_not_exists=True)


@migrations()
def m016_night_table_results(db: Database) -> None:
    """Each club night table's result as settled (its players' balances in seat order,
    exact fractions as text, and its hand count), kept by its session's version and
    the rules' code: a cache (never a record: any row may go, and is made again), so
    that a night of 150 tables opens in a fresh server process without settling
    4,500 hands first. Its session is a foreign key, as ``evening_figures``'s is:
    expiry removes the row with the session."""
    db["table_results"].create(
        {"session_id": str, "version": int, "code": str, "hands": int, "balances": str},
        pk="session_id",
        foreign_keys=[("session_id", "sessions", "id")],
        not_null={"version", "code", "hands", "balances"},
        if_not_exists=True,
    )


def _add_column(db: Database, table: str, column: str, kind, **options) -> None:
    """A column added by a migration, unless an earlier release's migration added it."""
    if column not in db[table].columns_dict:
        db[table].add_column(column, kind, **options)


_CHECKPOINT_PAGES: dict[str, int] = {}  # database path -> its connections' wal_autocheckpoint, where not SQLite's


def leave_checkpoints(path: str | Path, pages: int) -> None:
    """The connections to the database at ``path`` checkpoint by themselves only
    once the WAL has ``pages`` pages (SQLite's default is 1,000): a replicator
    (scorekeeper/server/replica.py, Litestream) checkpoints it before, after copying
    the WAL. Theirs stay PASSIVE: they never truncate or restart the WAL under a
    reader, nor wait for anyone."""
    _CHECKPOINT_PAGES[os.path.abspath(path)] = pages


def connect(path: str | Path) -> Database:
    """One connection: foreign keys on, waits for a busy writer (another process,
    or Litestream's short write lock around its checkpoints), explicit transactions."""
    conn = sqlite3.connect(str(path), timeout=15, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("PRAGMA busy_timeout = 15000")
    pages = _CHECKPOINT_PAGES.get(os.path.abspath(path))
    if pages is not None:
        conn.execute(f"PRAGMA wal_autocheckpoint = {int(pages)}")
    db = Database(conn)
    db.path = str(path)  # which database a kept list of hands belongs to
    live_changes.install(db)
    return db


def connect_keeper(path: str | Path) -> sqlite3.Connection:
    """An idle connection usable from any thread, held open and never used for work."""
    conn = sqlite3.connect(str(path), check_same_thread=False)
    conn.execute("select 1 from sqlite_master limit 1").fetchall()
    return conn


def initialise(path: str | Path) -> None:
    """Create the database if missing (0600: SQLite gives its -wal and -shm the
    same mode), switch it to WAL, apply migrations."""
    private_dir(Path(path).parent)
    private_file(path)
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

    Writers take turns (``commits.Turn``: no sleeping in SQLite's busy handler)
    and commit without syncing inside the lock; a durable write then returns only
    once the WAL is on the disk (``commits.WalSync``, one sync shared by the
    commits made meanwhile: store/commits.py says why and why it is as safe as
    ``synchronous = FULL``).

    ``durable=False`` does not wait for the disk (in WAL mode the commit survives
    the server being killed, not the machine losing power). The hand in progress
    is written so, on every tap: it is also kept on the phone, and a tap must be
    quick (docs/engineering.md)."""
    path = getattr(db, "path", "")
    turn = commits.turn_for(path) if not db.conn.in_transaction else None
    try:
        if turn is None:  # a connection not opened by ``connect`` (or already in a transaction: BEGIN says so)
            with _transaction(db, "FULL" if durable else "NORMAL"):
                yield db
            return
        with turn:
            with _transaction(db, "NORMAL"):
                yield db
    finally:
        if not db.conn.in_transaction:  # committed (or rolled back): the front's kept polls of it forgotten
            live_changes.flush(db)
    if durable:
        commits.sync_for(path).wait()


@contextlib.contextmanager
def _transaction(db: Database, synchronous: str):
    if not db.conn.in_transaction:
        db.conn.execute(f"PRAGMA synchronous = {synchronous}")
    try:
        db.conn.execute("BEGIN IMMEDIATE")
        try:
            yield db
        except BaseException:
            db.conn.execute("ROLLBACK")
            raise
        else:
            db.conn.execute("COMMIT")
    finally:
        if not db.conn.in_transaction:
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
