"""Circles: the group that plays together ("Thursday Gleek"), its members, and
the sessions it holds, each seat of each mapped to a member.

A circle has links like a session's: its id (``/c/<id>``, which can change it),
its watch id (``/cw/<watch id>``, the members' read-only link) and an optional
PIN (its tries counted per client as a session's, ``pins``). A member is
renamed without touching history (each seat keeps the name as played), two
members are merged into one, a member is added any time. A session belongs to
at most one circle; its seats say who sat where.

Every change of a circle bumps its ``version`` (the season's figures are cached
by it and by each session's version)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import NamedTuple

from sqlite_utils import Database

from ..rules import Problem
from ..rules.core import is_text
from ..words.names import member_name
from ..rules.record import MAX_NAME, name_key
from ..words.wording import amount_text
from .common import NotFound, Refused, StaleEdit, StorageFull, new_token, now
from .schema import writing

MAX_CIRCLE_NAME = 80
MAX_MEMBERS = 60  # the regulars, their guests, and the guests' guests


@dataclass(frozen=True)
class Member:
    id: int
    name: str


@dataclass(frozen=True)
class Seat:
    """One seat of a session: the name as played, and the member who sat there (or None)."""

    seat: int
    name: str
    member_id: int | None


@dataclass(frozen=True)
class Evening:
    """A session a circle holds, as its pages list it (no hands: how many)."""

    session_id: str
    watch_id: str
    title: str | None
    played_on: str | None
    rulebook: str
    version: int
    hand_count: int
    seats: tuple  # three ``Seat``s
    added_at: str
    updated_at: str

    @property
    def members(self) -> tuple:
        return tuple(seat.member_id for seat in self.seats)

    @property
    def players(self) -> list:
        return [seat.name for seat in self.seats]


@dataclass
class Circle:
    id: str
    watch_id: str
    name: str
    version: int
    created_at: str
    updated_at: str
    pin_hash: str | None = None
    members: list = field(default_factory=list)  # ``Member``s, in the order they joined

    def member(self, member_id) -> Member | None:
        return next((m for m in self.members if m.id == member_id), None)

    def names(self) -> dict:
        """member id -> the member's name now."""
        return {m.id: m.name for m in self.members}


# ------------------------------------------------------------------ checks


def name_problem(name, key: str = "name", what: str = "A member's name") -> Problem | None:
    if not isinstance(name, str) or not name.strip():
        return Problem(None, key, f"{what} cannot be empty.")
    name = name.strip()
    if not is_text(name) or not name.isprintable():  # first: the length's message quotes the name
        return Problem(None, key, f"{what} must be plain text.")
    name = member_name(name)
    if len(name) > MAX_NAME:
        return Problem(None, key, f"{what} is at most {MAX_NAME} characters ({name[:20]}… has {len(name)}).")
    return None


def circle_name_problem(name) -> Problem | None:
    if not isinstance(name, str) or not name.strip():
        return Problem(None, "circle", "Give the circle a name, such as “Thursday Gleek”.")
    if len(name.strip()) > MAX_CIRCLE_NAME:
        return Problem(None, "circle", f"A circle's name is at most {MAX_CIRCLE_NAME} characters.")
    if not is_text(name) or not name.strip().isprintable():
        return Problem(None, "circle", "A circle's name must be plain text.")
    return None


def _same_name(a: str, b: str) -> bool:
    return name_key(a) == name_key(b)  # as a new session's players are compared


def members_problems(names: list) -> list[Problem]:
    """A new circle's members: three at least (a session needs three players),
    each named once."""
    problems = [p for p in (name_problem(n, "members") for n in names) if p]
    names = [member_name(n) for n in names if isinstance(n, str) and n.strip()]
    if not problems and len(names) < 3:
        problems.append(Problem(None, "members", "A circle needs three members at least: Gleek is a game for three."))
    if len(names) > MAX_MEMBERS:
        problems.append(Problem(None, "members", f"A circle has at most {MAX_MEMBERS} members."))
    seen = []
    for name in names:
        if any(_same_name(name, other) for other in seen):
            problems.append(Problem(None, "members", f"{name} is named twice: each member once."))
        seen.append(name)
    return problems


# ------------------------------------------------------------------ reads


def _circle_from_row(db: Database, row: dict) -> Circle:
    members = [
        Member(r["id"], r["name"])
        for r in db.query("select id, name from members where circle_id = ? order by id", [row["id"]])
    ]
    return Circle(
        id=row["id"],
        watch_id=row["watch_id"],
        name=row["name"],
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        pin_hash=row["pin_hash"],
        members=members,
    )


def get_circle(db: Database, circle_id: str) -> Circle:
    rows = list(db.query("select * from circles where id = ?", [circle_id]))
    if not rows:
        raise NotFound(circle_id)
    return _circle_from_row(db, rows[0])


def get_circle_by_watch_id(db: Database, watch_id: str) -> Circle:
    rows = list(db.query("select * from circles where watch_id = ?", [watch_id]))
    if not rows:
        raise NotFound(watch_id)
    return _circle_from_row(db, rows[0])


def circle_version(db: Database, circle_id: str) -> int:
    rows = db.execute("select version from circles where id = ?", [circle_id]).fetchall()
    if not rows:
        raise NotFound(circle_id)
    return rows[0][0]


def circles_by_ids(db: Database, ids: list[str]) -> list[dict]:
    """The circles (by id or watch id) for a home page list: id, watch_id, name,
    how many members and evenings; newest change first."""
    if not ids:
        return []
    marks = ",".join("?" for _ in ids)
    return list(
        db.query(
            f"""select c.id, c.watch_id, c.name, c.updated_at,
                   (select count(*) from members m where m.circle_id = c.id) as member_count,
                   (select count(*) from circle_sessions x where x.circle_id = c.id) as evening_count
            from circles c where c.id in ({marks}) or c.watch_id in ({marks}) order by c.updated_at desc""",
            ids + ids,
        )
    )


def seats_of(db: Database, session_id: str) -> list[Seat]:
    return [
        Seat(r["seat"], r["name"], r["member_id"])
        for r in db.query("select seat, name, member_id from seats where session_id = ? order by seat", [session_id])
    ]


def circle_of_session(db: Database, session_id: str) -> str | None:
    """The id of the circle holding the session, if one does."""
    rows = db.execute("select circle_id from circle_sessions where session_id = ?", [session_id]).fetchall()
    return rows[0][0] if rows else None


def evenings(db: Database, circle_id: str) -> list[Evening]:
    """The sessions the circle holds, oldest evening first (by date played, then
    when they came into the circle)."""
    rows = list(
        db.query(
            """select s.id, s.watch_id, s.title, s.played_on, s.rulebook, s.version, s.updated_at, x.added_at,
                  (select count(*) from hands h where h.session_id = s.id) as hand_count,
                  (select json_group_array(json_array(seat, name, member_id)) from
                     (select seat, name, member_id from seats where session_id = s.id order by seat)) as seats
           from circle_sessions x join sessions s on s.id = x.session_id
           where x.circle_id = ? order by coalesce(s.played_on, substr(x.added_at, 1, 10)), x.added_at, x.rowid""",
            [circle_id],
        )
    )
    return [
        Evening(
            session_id=r["id"],
            watch_id=r["watch_id"],
            title=r["title"],
            played_on=r["played_on"],
            rulebook=r["rulebook"],
            version=r["version"],
            hand_count=r["hand_count"],
            seats=tuple(Seat(*s) for s in json.loads(r["seats"])),
            added_at=r["added_at"],
            updated_at=r["updated_at"],
        )
        for r in rows
    ]


class NightTableOf(NamedTuple):
    """The club night an evening was a table of: its name, the round and the table."""

    name: str
    round: int
    table: int


class EveningLink(NamedTuple):
    """An evening as the season pages name and link it (``night``: the club night's
    table it was, or None)."""

    session_id: str
    watch_id: str
    played_on: str | None
    title: str | None
    night: NightTableOf | None = None


def evening_links(db: Database, circle_id: str) -> list[EveningLink]:
    """Each evening's ids, date, title and club night's table in one light query (the
    season pages' links and names), in the order of ``evenings``."""
    return [
        EveningLink(*row[:4], NightTableOf(*row[4:]) if row[4] is not None else None)
        for row in db.execute(
            "select s.id, s.watch_id, s.played_on, s.title, n.name, t.round, t.number from circle_sessions x "
            "join sessions s on s.id = x.session_id left join night_tables t on t.session_id = s.id "
            "left join nights n on n.id = t.night_id where x.circle_id = ? "
            "order by coalesce(s.played_on, substr(x.added_at, 1, 10)), x.added_at, x.rowid",
            [circle_id],
        ).fetchall()
    ]


def session_versions(db: Database, circle_id: str) -> list[tuple[str, int]]:
    """(session id, version) of each evening, in one indexed query: what the
    season's cache compares."""
    return [
        (r[0], r[1])
        for r in db.execute(
            "select s.id, s.version from circle_sessions x join sessions s on s.id = x.session_id "
            "where x.circle_id = ? order by s.id",
            [circle_id],
        )
    ]


# ------------------------------------------------------------------ changes


def _bump(db: Database, circle_id: str, based_on: int | None = None) -> None:
    """One more version of the circle (inside the write transaction); a change
    based on an older one is refused."""
    current = circle_version(db, circle_id)
    if based_on is not None and based_on != current:
        raise StaleEdit(current)
    db.execute("update circles set version = version + 1, updated_at = ? where id = ?", [now(), circle_id])


def check_circles_kept(db: Database, owner: str | None, keep_limit: int | None) -> None:
    """Inside the creating transaction: ``StorageFull`` once ``owner`` (a client
    address) keeps ``keep_limit`` circles (a hosted server's cap: a circle, and
    every evening it holds, is never expired)."""
    if (
        keep_limit is not None
        and owner is not None
        and db.execute("select count(*) from circles where creator = ?", [owner]).fetchone()[0] >= keep_limit
    ):
        raise StorageFull(keep_limit, "circles")


def check_sessions_kept(db: Database, owner: str | None, keep_limit: int | None, adding: int) -> None:
    """Inside the creating transaction: ``StorageFull`` where ``adding`` new sessions
    (an archive's evenings) would take ``owner`` past the ``keep_limit`` sessions one
    address may keep (each evening is a session: an archive is not a way round the cap)."""
    if keep_limit is None or owner is None:
        return
    kept = db.execute("select count(*) from sessions where creator = ?", [owner]).fetchone()[0]
    if kept + adding > keep_limit:
        room = max(0, keep_limit - kept)
        raise StorageFull(
            keep_limit,
            message=(
                f"This archive holds {adding:,} evening{'s' * (adding != 1)}, each a session here; this address keeps "
                f"{kept:,} session{'s' * (kept != 1)} and may keep {keep_limit:,}, so there is room for {room:,} more. "
                "Nothing was imported."
            ),
        )


def create_circle(
    db: Database,
    name: str,
    member_names: list,
    pin_hash: str | None = None,
    owner: str | None = None,
    keep_limit: int | None = None,
) -> Circle:
    """A new circle with its members (``Refused``, nothing saved, if the names will not do).
    ``owner``: the client address making it, kept with it: ``StorageFull`` once that
    address keeps ``keep_limit`` circles."""
    problems = [p for p in (circle_name_problem(name),) if p] + members_problems(member_names)
    if problems:
        raise Refused(problems)
    circle_id, watch_id, stamp = new_token(), new_token(), now()
    with writing(db):
        check_circles_kept(db, owner, keep_limit)
        db["circles"].insert(
            {
                "id": circle_id,
                "watch_id": watch_id,
                "name": name.strip(),
                "pin_hash": pin_hash,
                "version": 1,
                "created_at": stamp,
                "updated_at": stamp,
                "creator": owner,
            }
        )
        db["members"].insert_all(
            {"circle_id": circle_id, "name": member_name(n), "created_at": stamp} for n in member_names if n.strip()
        )
    return get_circle(db, circle_id)


def _check_new_name(circle: Circle, name: str, but: int | None = None) -> str:
    problem = name_problem(name)
    if problem:
        raise Refused([problem])
    name = member_name(name)
    for m in circle.members:
        if m.id != but and _same_name(member_name(m.name), name):
            raise Refused(
                [
                    Problem(
                        None,
                        "name",
                        f"{m.name} is already a member: if they are one person, merge the two names instead.",
                    )
                ]
            )
    return name


def add_member(db: Database, circle_id: str, name: str) -> Member:
    with writing(db):
        return new_member(db, get_circle(db, circle_id), name)


def new_member(db: Database, circle: Circle, name: str, key: str = "name") -> Member:
    """Inside a write: ``name`` a new member of the circle (one more version of it);
    ``Refused`` for a name that will not do, a member's name already, or a full circle."""
    if len(circle.members) >= MAX_MEMBERS:
        raise Refused([Problem(None, key, f"A circle has at most {MAX_MEMBERS} members.")])
    name = _check_new_name(circle, name)
    member_id = db["members"].insert({"circle_id": circle.id, "name": name, "created_at": now()}).last_pk
    _bump(db, circle.id)
    return Member(member_id, name)


def rename_member(db: Database, circle_id: str, member_id: int, name: str) -> tuple[str, str]:
    """A member's new name (every seat keeps the name as played: history is as
    it was). (old name, new name)."""
    with writing(db):
        circle = get_circle(db, circle_id)
        member = circle.member(member_id)
        if member is None:
            raise NotFound(member_id)
        name = _check_new_name(circle, name, but=member_id)
        db.execute("update members set name = ? where id = ?", [name, member_id])
        _bump(db, circle_id)
    return member.name, name


def merge_members(db: Database, circle_id: str, keep_id: int, merged_id: int) -> tuple[str, str]:
    """Two names of one person ("Anne" and "Ann"): every seat of ``merged_id``
    becomes ``keep_id``'s and ``merged_id`` goes. Refused where both sat at one
    session (then they are two people). (kept name, merged name)."""
    with writing(db):
        circle = get_circle(db, circle_id)
        keep, merged = circle.member(keep_id), circle.member(merged_id)
        if keep is None or merged is None:
            raise NotFound(keep_id if keep is None else merged_id)
        if keep_id == merged_id:
            raise Refused([Problem(None, "merge", "Choose two different members to merge.")])
        both = db.execute(
            "select s.played_on, s.title from sessions s where s.id in "
            "(select session_id from seats where member_id = ? intersect "
            " select session_id from seats where member_id = ?) order by s.played_on limit 1",
            [keep_id, merged_id],
        ).fetchall()
        if both:
            when = both[0][0] or both[0][1] or "one evening"
            raise Refused(
                [
                    Problem(
                        None,
                        "merge",
                        f"{keep.name} and {merged.name} both played on {when}: "
                        "they are two people, not two names of one.",
                    )
                ]
            )
        between = payment_between(db, circle, keep_id, merged_id)
        if between:
            raise Refused(
                [
                    Problem(
                        None,
                        "merge",
                        f"{between}: they are two people, not two names of one (if that "
                        "payment was marked by mistake, take it back first).",
                    )
                ]
            )
        db.execute("update seats set member_id = ? where member_id = ?", [keep_id, merged_id])
        db.execute("update payments set payer = ? where payer = ?", [keep_id, merged_id])
        db.execute("update payments set payee = ? where payee = ?", [keep_id, merged_id])
        db.execute("delete from members where id = ?", [merged_id])
        _bump(db, circle_id)
    return keep.name, merged.name


def payment_between(db: Database, circle: Circle, one: int, other: int) -> str | None:
    """The first payment marked between two members, in words ("Dan paid Ben 2s 11d on
    2026-11-28, marked by Ann"), if one was: merged, it would be a member paying himself
    (which no export, import, backup or restore takes)."""
    rows = db.execute(
        "select payer, payee, amount, unit, paid_on, paid_by from payments where circle_id = ? and "
        "((payer = ? and payee = ?) or (payer = ? and payee = ?)) order by id limit 1",
        [circle.id, one, other, other, one],
    ).fetchall()
    if not rows:
        return None
    payer, payee, amount, unit, paid_on, paid_by = rows[0]
    names = circle.names()
    return (
        f"{names[payer]} paid {names[payee]} "
        f"{amount_text(Fraction(amount), None if unit == 'counters' else unit)} on {paid_on}, marked by {paid_by}"
    )


def seat_members_problems(circle: Circle, member_ids) -> list[Problem]:
    """Three different members of the circle, one per seat."""
    ids = list(member_ids)
    if len(ids) != 3 or any(circle.member(m) is None for m in ids):
        return [Problem(None, "seats", "Choose a member of the circle for each of the three seats.")]
    if len(set(ids)) != 3:
        return [
            Problem(
                None,
                "seats",
                "Three different members, one per seat: "
                f"{circle.member(next(m for m in ids if ids.count(m) > 1)).name} "
                "cannot sit twice.",
            )
        ]
    return []


def hold_session(db: Database, circle_id: str, session_id: str, member_ids) -> None:
    """Inside a write transaction: the circle now holds the session, each seat
    its member."""
    for seat, member in enumerate(member_ids):
        db.execute("update seats set member_id = ? where session_id = ? and seat = ?", [member, session_id, seat])
    db["circle_sessions"].insert({"session_id": session_id, "circle_id": circle_id, "added_at": now()})
    _bump(db, circle_id)


def attach_session(db: Database, circle_id: str, session_id: str, member_ids) -> None:
    """An existing session comes into the circle, each seat mapped to a member
    (an id, or a name: a new member of that name, made in the same transaction).
    Refused, nothing saved, if another circle (or this one) already holds it."""
    with writing(db):
        circle = get_circle(db, circle_id)
        member_ids = list(member_ids)
        for seat, wanted in enumerate(member_ids):
            if isinstance(wanted, str):
                member_ids[seat] = add_member_now(db, circle, wanted).id
        problems = seat_members_problems(circle, member_ids)
        if problems:
            raise Refused(problems)
        if not db.execute("select 1 from sessions where id = ?", [session_id]).fetchall():
            raise NotFound(session_id)
        held = circle_of_session(db, session_id)
        if held == circle_id:
            raise Refused([Problem(None, "session", "This session is already one of the circle's evenings.")])
        if held is not None:
            raise Refused([Problem(None, "session", "This session is already an evening of another circle.")])
        hold_session(db, circle_id, session_id, list(member_ids))


def add_member_now(db: Database, circle: Circle, name: str) -> Member:
    """Inside the caller's write transaction: a new member of that name (``Refused`` for a
    name that will not do or is a member's already), added to ``circle`` as read."""
    if len(circle.members) >= MAX_MEMBERS:
        raise Refused([Problem(None, "name", f"A circle has at most {MAX_MEMBERS} members.")])
    name = _check_new_name(circle, name)
    member = Member(db["members"].insert({"circle_id": circle.id, "name": name, "created_at": now()}).last_pk, name)
    circle.members.append(member)
    return member


def detach_session(db: Database, circle_id: str, session_id: str) -> None:
    """The session leaves the circle (it stays a session of its own; its seats forget their members)."""
    with writing(db):
        if circle_of_session(db, session_id) != circle_id:
            raise NotFound(session_id)
        if db.execute(
            "select 1 from payments where circle_id = ? and evenings like ?", [circle_id, f'%"{session_id}"%']
        ).fetchall():
            raise Refused([Problem(None, "session", "Payments were marked for this evening: take them back first.")])
        db.execute("delete from circle_sessions where session_id = ?", [session_id])
        db.execute("update seats set member_id = null where session_id = ?", [session_id])
        _bump(db, circle_id)


def set_circle_pin(db: Database, circle_id: str, pin_hash: str | None) -> None:
    with writing(db):
        db.execute("update circles set pin_hash = ? where id = ?", [pin_hash, circle_id])
        _bump(db, circle_id)


def likely_members(circle: Circle, names) -> list[int | None]:
    """For each name as played, the member of that name (trimmed, composed, any case), if one."""
    return [
        next((m.id for m in circle.members if _same_name(member_name(m.name), member_name(n))), None) for n in names
    ]
