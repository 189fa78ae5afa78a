"""Club nights: several tables of Gleek at once, round after round.

A night has links like a circle's: its id (``/n/o/<id>``, the organizer's, which
changes it, with an optional PIN) and its watch id (``/n/<watch id>``, the public
standings, read-only). Its players are present or gone (``left_after``: the rounds
drawn when they left); each round drawn seats them at tables of three (the seating
is ``club.seating``'s) and each table plays one ordinary session, with the night's
rule book, options and stake, its players in the drawn seat order (the first seat
deals first), an evening of the night's circle if it has one. A round is redrawn,
or two of its players swapped, only while no hand is saved at its tables: the
sessions keep their links, their seats change.

Every change of a night bumps its ``version``; the standings are computed from the
tables' sessions and kept by their versions (``web/nights.py``)."""

from __future__ import annotations

import hashlib
import json
import secrets
from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from sqlite_utils import Database

from ..club import seating
from ..club.seating import MAX_PLAYERS, MAX_ROUNDS, Round, SeatingError, Table, name_key
from ..limits import MAX_TITLE
from ..words.names import member_name
from ..rules import BOOKS, Problem
from ..rules.core import is_text
from ..rules.record import FORMAT, MAX_NAME, validate
from .agreement import seat_links
from .changes import insert_session, log_change
from .circles import MAX_CIRCLE_NAME, Circle, check_sessions_kept, get_circle, likely_members, name_problem, new_member
from .common import NotFound, Refused, StaleEdit, new_token, now
from .schema import writing

RANK_BY = ("placings", "counters")


@dataclass(frozen=True)
class NightPlayer:
    id: int
    name: str
    member_id: int | None
    left_after: int | None  # the rounds drawn when the player left; None: present

    @property
    def present(self) -> bool:
        return self.left_after is None


@dataclass(frozen=True)
class NightTable:
    """One table of one round: its session and its three players (ids) in seat order."""

    round: int
    number: int
    session_id: str
    seats: tuple[int, int, int]
    watch_id: str | None  # None: the session is gone (removed since it was drawn)
    version: int | None
    hand_count: int

    @property
    def session_gone(self) -> bool:
        return self.watch_id is None


@dataclass(frozen=True)
class NightRound:
    number: int
    ends_at: str | None
    tables: tuple[NightTable, ...]
    byes: tuple[int, ...]

    @property
    def started(self) -> bool:
        """A hand is saved at one of its tables: its seating is what was played."""
        return any(t.hand_count for t in self.tables)

    def players(self) -> set[int]:
        return {p for t in self.tables for p in t.seats} | set(self.byes)


@dataclass
class Night:
    id: str
    watch_id: str
    name: str
    rulebook: str
    options: dict
    stake: dict | None
    played_on: str | None
    pin_hash: str | None
    rounds_planned: int
    rank_by: str
    last_by_standings: bool
    circle_id: str | None
    seed: int
    version: int
    created_at: str
    updated_at: str
    players: list[NightPlayer] = field(default_factory=list)
    rounds: list[NightRound] = field(default_factory=list)

    def player(self, player_id: int) -> NightPlayer | None:
        return next((p for p in self.players if p.id == player_id), None)

    def name_of(self, player_id: int) -> str:
        return self.player(player_id).name

    @property
    def present(self) -> list[NightPlayer]:
        return [p for p in self.players if p.present]

    def round(self, number: int) -> NightRound | None:
        return next((r for r in self.rounds if r.number == number), None)

    def seating_round(self, number: int) -> Round:
        """A drawn round as ``club.seating`` has it (names)."""
        drawn = self.round(number)
        return Round(
            tuple(Table(tuple(self.name_of(p) for p in t.seats)) for t in drawn.tables),
            tuple(self.name_of(p) for p in drawn.byes),
        )


# ------------------------------------------------------------------ checks


def night_name_problem(name) -> Problem | None:
    if not isinstance(name, str) or not name.strip():
        return Problem(None, "name", "Give the night a name, such as “Club night”.")
    if len(name.strip()) > MAX_CIRCLE_NAME:
        return Problem(None, "name", f"A night's name is at most {MAX_CIRCLE_NAME} characters.")
    if not is_text(name) or not name.strip().isprintable():
        return Problem(None, "name", "A night's name must be plain text.")
    return None


def players_problems(names: list) -> list[Problem]:
    """4 to 60 players, each a plain name of 40 characters at most, each named once."""
    for name in names:
        if not isinstance(name, str) or not is_text(name) or not name.strip().isprintable():
            return [Problem(None, "players", "A player's name must be plain text.")]
        if len(name.strip()) > MAX_NAME:
            return [
                Problem(
                    None,
                    "players",
                    f"A player's name is at most {MAX_NAME} characters ({name.strip()[:20]}… has {len(name.strip())}).",
                )
            ]
    seen: dict[str, str] = {}
    for name in (member_name(n) for n in names):
        first = seen.get(name_key(name))
        seen.setdefault(name_key(name), name)
        if first is not None:
            return [
                Problem(
                    None,
                    "players",
                    f"{name} is named twice: each player once."
                    if first == name
                    else f"{first} and {name} are one name: each player once.",
                )
            ]
    try:
        seating.check_players(names)
    except SeatingError as refused:
        text = str(refused).removeprefix("players: ")
        return [Problem(None, "players", text[:1].upper() + text[1:] + ".")]
    return []


def table_record(
    rulebook: str, options: dict, stake: dict | None, players, title: str | None = None, played_on: str | None = None
) -> dict:
    """An ordinary session's record for one table (no hands yet)."""
    record = {"format": FORMAT, "rulebook": rulebook, "options": options, "players": list(players), "hands": []}
    if stake:
        record["stake"] = stake
    if title:
        record["title"] = title[:MAX_TITLE]
    if played_on:
        record["played_on"] = played_on
    return record


# ------------------------------------------------------------------ reads


def _night_from_row(db: Database, row: dict) -> Night:
    players = [
        NightPlayer(r["id"], r["name"], r["member_id"], r["left_after"])
        for r in db.query(
            "select id, name, member_id, left_after from night_players where night_id = ? order by id", [row["id"]]
        )
    ]
    tables: dict[int, list[NightTable]] = {}
    for r in db.query(
        """select t.round, t.number, t.session_id, t.seat_0, t.seat_1, t.seat_2, s.watch_id, s.version,
                      (select count(*) from hands h where h.session_id = t.session_id) as hand_count
               from night_tables t left join sessions s on s.id = t.session_id
               where t.night_id = ? order by t.round, t.number""",
        [row["id"]],
    ):
        tables.setdefault(r["round"], []).append(
            NightTable(
                r["round"],
                r["number"],
                r["session_id"],
                (r["seat_0"], r["seat_1"], r["seat_2"]),
                r["watch_id"],
                r["version"],
                r["hand_count"],
            )
        )
    byes: dict[int, list[int]] = {}
    for number, player_id in db.execute(
        "select round, player_id from night_byes where night_id = ? order by round, player_id", [row["id"]]
    ).fetchall():
        byes.setdefault(number, []).append(player_id)
    rounds = [
        NightRound(r["number"], r["ends_at"], tuple(tables.get(r["number"], ())), tuple(byes.get(r["number"], ())))
        for r in db.query("select number, ends_at from night_rounds where night_id = ? order by number", [row["id"]])
    ]
    return Night(
        id=row["id"],
        watch_id=row["watch_id"],
        name=row["name"],
        rulebook=row["rulebook"],
        options=json.loads(row["options"]),
        stake=json.loads(row["stake"]) if row["stake"] else None,
        played_on=row["played_on"],
        pin_hash=row["pin_hash"],
        rounds_planned=row["rounds_planned"],
        rank_by=row["rank_by"],
        last_by_standings=bool(row["last_by_standings"]),
        circle_id=row["circle_id"],
        seed=row["seed"],
        version=row["version"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        players=players,
        rounds=rounds,
    )


def get_night(db: Database, night_id: str) -> Night:
    rows = list(db.query("select * from nights where id = ?", [night_id]))
    if not rows:
        raise NotFound(night_id)
    return _night_from_row(db, rows[0])


def get_night_by_watch_id(db: Database, watch_id: str) -> Night:
    rows = list(db.query("select * from nights where watch_id = ?", [watch_id]))
    if not rows:
        raise NotFound(watch_id)
    return _night_from_row(db, rows[0])


def night_live_key(db: Database, watch_id: str) -> str:
    """What a standings screen compares to know whether anything changed, in one
    query: the night's version and a digest of every table session's version
    ("7-3f09c2a1b4de"; short whatever the tables, so it fits a poll's URL)."""
    rows = db.execute(
        """select n.version, (select group_concat(coalesce(s.version, 0), '-') from
                                (select t.session_id from night_tables t where t.night_id = n.id
                                 order by t.round, t.number) x left join sessions s on s.id = x.session_id)
           from nights n where n.watch_id = ?""",
        [watch_id],
    ).fetchall()
    if not rows:
        raise NotFound(watch_id)
    version, sessions = rows[0]
    return f"{version}-{hashlib.blake2s((sessions or '').encode(), digest_size=6).hexdigest()}"


@dataclass(frozen=True)
class TableOfNight:
    """Where a session plays in a club night: the night's id, the round and table."""

    night_id: str
    round: int
    table: int


def night_table_of(db: Database, session_id: str) -> TableOfNight | None:
    """The night, round and table a session plays (None: an ordinary session)."""
    row = db.execute("select night_id, round, number from night_tables where session_id = ?", [session_id]).fetchone()
    return TableOfNight(*row) if row else None


def night_version(db: Database, night_id: str) -> int:
    """The night's version (a round drawn, redrawn or swapped bumps it)."""
    row = db.execute("select version from nights where id = ?", [night_id]).fetchone()
    if row is None:
        raise NotFound(night_id)
    return row[0]


def nights_by_ids(db: Database, ids: list[str]) -> list[dict]:
    """The nights (by organizer's id) for the home page: id, name, date, players
    present and rounds drawn; newest change first."""
    if not ids:
        return []
    marks = ",".join("?" for _ in ids)
    return list(
        db.query(
            f"""select n.id, n.name, n.played_on, n.rounds_planned,
                   (select count(*) from night_players p where p.night_id = n.id and p.left_after is null) as players,
                   (select count(*) from night_rounds r where r.night_id = n.id) as rounds_drawn
            from nights n where n.id in ({marks}) order by n.updated_at desc, n.rowid desc""",
            ids,
        )
    )


def nights_of_circle(db: Database, circle_id: str) -> list[dict]:
    """The circle's nights (id, name, played on), newest first: its page links them."""
    return list(
        db.query(
            "select id, watch_id, name, played_on from nights where circle_id = ? order by created_at desc, rowid desc",
            [circle_id],
        )
    )


# ------------------------------------------------------------------ changes


def _bump(db: Database, night_id: str, based_on: int | None = None) -> None:
    rows = db.execute("select version from nights where id = ?", [night_id]).fetchall()
    if not rows:
        raise NotFound(night_id)
    if based_on is not None and based_on != rows[0][0]:
        raise StaleEdit(rows[0][0])
    db.execute("update nights set version = version + 1, updated_at = ? where id = ?", [now(), night_id])


def create_night(
    db: Database,
    name: str,
    players: list,
    rulebook: str,
    options: dict,
    stake: dict | None,
    rounds: int,
    rank_by: str = "placings",
    last_by_standings: bool = False,
    played_on: str | None = None,
    circle_id: str | None = None,
    pin_hash: str | None = None,
    owner: str | None = None,
) -> Night:
    """A new night. ``players``: names, or (name, member id) pairs for a circle's
    members. ``Refused``, nothing saved, for a name that will not do, 3 players or
    fewer, more than 60, a name twice, rounds out of 1..30, or settings no table's
    record would take."""
    entries = [(p, None) if isinstance(p, str) else tuple(p) for p in players]
    names = [n.strip() if isinstance(n, str) else n for n, _ in entries]
    problems = [p for p in (night_name_problem(name),) if p] + players_problems(names)
    if not isinstance(rounds, int) or not 1 <= rounds <= MAX_ROUNDS:
        problems.append(Problem(None, "rounds", f"A night has 1 to {MAX_ROUNDS} rounds."))
    if rank_by not in RANK_BY:
        problems.append(Problem(None, "rank_by", "Rank the players by placings or by counters."))
    if rulebook not in BOOKS:
        problems.append(Problem(None, "rulebook", "Choose a rule book."))
    else:
        problems += validate(table_record(rulebook, options, stake, ["A", "B", "C"], played_on=played_on))
    if problems:
        raise Refused(problems)
    night_id, watch_id, stamp = new_token(), new_token(), now()
    with writing(db):
        if circle_id is not None:
            circle = get_circle(db, circle_id)
            if any(m is not None and circle.member(m) is None for _, m in entries):
                raise Refused([Problem(None, "players", "Tick members of the circle.")])
        db["nights"].insert(
            {
                "id": night_id,
                "watch_id": watch_id,
                "name": name.strip(),
                "rulebook": rulebook,
                "options": json.dumps(options),
                "stake": json.dumps(stake) if stake else None,
                "played_on": played_on,
                "pin_hash": pin_hash,
                "rounds_planned": rounds,
                "rank_by": rank_by,
                "last_by_standings": int(bool(last_by_standings)),
                "circle_id": circle_id,
                "seed": secrets.randbelow(2**31),
                "version": 1,
                "created_at": stamp,
                "updated_at": stamp,
                "creator": owner,
            }
        )
        db["night_players"].insert_all(
            {"night_id": night_id, "name": n, "member_id": m} for n, (_, m) in zip(names, entries)
        )
    return get_night(db, night_id)


def _played_rounds(night: Night, before: int) -> list[Round]:
    return [night.seating_round(r.number) for r in night.rounds if r.number < before]


def drawn_round(night: Night, number: int, seed: int, ranked: list[str] | None = None) -> Round:
    """The seating of round ``number`` for the players present: the night's own
    schedule while the rounds so far are its first ones (a Kirkman schedule where
    there is one: every pair meets once), else drawn after the rounds played,
    which count (who has met, who has sat out). ``ranked``: the present players in
    standings order, for a last round seated by the standings."""
    names = [p.name for p in night.present]
    played = _played_rounds(night, number)
    if ranked is not None:
        sat_out = Counter(name for r in played for name in r.byes)
        return seating.seat_by_standings(ranked, sat_out)
    planned = max(night.rounds_planned, number)
    schedule = seating.draw(names, planned, seed)
    if list(schedule.rounds[: len(played)]) == played:
        return schedule.rounds[number - 1]
    return seating.draw(names, planned - len(played), seed, played=played).rounds[len(played)]


def _ids_of(night: Night, drawn: Round) -> tuple[list[tuple[int, int, int]], list[int]]:
    by_name = {p.name: p.id for p in night.present}
    return ([tuple(by_name[n] for n in t.seats) for t in drawn.tables], [by_name[n] for n in drawn.byes])


def draw_round(
    db: Database,
    night_id: str,
    number: int,
    ranked: list[str] | None = None,
    owner: str | None = None,
    keep_limit: int | None = None,
) -> Night:
    """Round ``number`` drawn and its tables' sessions made (one write). Refused
    unless it is the next round, within the rounds planned, for 4 players or more."""
    night = get_night(db, night_id)
    _check_drawable(night, number)
    drawn = drawn_round(night, number, night.seed, ranked)  # a long schedule takes a second: not in the write
    with writing(db):
        current = get_night(db, night_id)
        if current.version != night.version:  # changed meanwhile (rare): checked and drawn again
            _check_drawable(current, number)
            night, drawn = current, drawn_round(current, number, current.seed, ranked)
        tables, byes = _ids_of(night, drawn)
        check_sessions_kept(db, owner, keep_limit, len(tables))
        stamp = now()
        db["night_rounds"].insert({"night_id": night_id, "number": number, "drawn_at": stamp})
        for table_number, seats in enumerate(tables, 1):
            session_id = new_token()
            record = table_record(
                night.rulebook,
                night.options,
                night.stake,
                [night.name_of(p) for p in seats],
                f"{night.name} · round {number} · table {table_number}",
                night.played_on,
            )
            circle = None
            if night.circle_id is not None:
                circle = (night.circle_id, [night.player(p).member_id for p in seats])
            # no PIN: the organizer's PIN guards the night, the table's link is its phone's
            insert_session(db, session_id, new_token(), record, 0, "create", None, None, owner, stamp, circle)
            seat_links(db, session_id)  # each player's own link: where he sits next, the standings
            db["night_tables"].insert(
                {
                    "night_id": night_id,
                    "round": number,
                    "number": table_number,
                    "session_id": session_id,
                    "seat_0": seats[0],
                    "seat_1": seats[1],
                    "seat_2": seats[2],
                }
            )
        db["night_byes"].insert_all({"night_id": night_id, "round": number, "player_id": p} for p in byes)
        _bump(db, night_id)
    return get_night(db, night_id)


def _check_drawable(night: Night, number: int) -> None:
    if night.round(number) is not None:
        raise Refused([Problem(None, "round", f"Round {number} is drawn already.")])
    if number != len(night.rounds) + 1:
        raise Refused([Problem(None, "round", f"Round {len(night.rounds) + 1} is the next to draw.")])
    if number > night.rounds_planned:
        raise Refused([Problem(None, "round", f"All {night.rounds_planned} rounds are drawn: the night is complete.")])
    if len(night.present) < seating.MIN_PLAYERS:
        raise Refused(
            [
                Problem(
                    None,
                    "round",
                    f"A round needs {seating.MIN_PLAYERS} players at least; {len(night.present)} are here.",
                )
            ]
        )


def _check_reseatable(night: Night, number: int) -> NightRound:
    drawn = night.round(number)
    if drawn is None:
        raise NotFound(number)
    gone = [t.number for t in drawn.tables if t.session_gone]
    if gone:
        raise Refused(
            [
                Problem(
                    None,
                    "round",
                    f"Table {gone[0]} of round {number} has no session any more (it was "
                    "deleted): its seats cannot change.",
                )
            ]
        )
    if drawn.started:
        table = next(t for t in drawn.tables if t.hand_count)
        raise Refused(
            [
                Problem(
                    None,
                    "round",
                    f"Round {number} has begun: a hand is saved at table {table.number}, "
                    "so its seats stay as they are.",
                )
            ]
        )
    return drawn


def _reseat(
    db: Database, night: Night, drawn: NightRound, tables: list, byes: list, based_on: int | None = None
) -> None:
    """Inside a write: the round's sessions take the new seats (each session a new
    version, kept in its history), and its byes. ``StaleEdit`` (all of it undone)
    if the night is no longer at version ``based_on``."""
    for table, seats in zip(drawn.tables, tables):
        if tuple(seats) == table.seats:
            continue
        for seat, player_id in enumerate(seats):
            player = night.player(player_id)
            db.execute(
                "update seats set name = ?, member_id = ? where session_id = ? and seat = ?",
                [player.name, player.member_id if night.circle_id else None, table.session_id, seat],
            )
        db.execute(
            "update night_tables set seat_0 = ?, seat_1 = ?, seat_2 = ? where night_id = ? and round = ? "
            "and number = ?",
            [*seats, night.id, drawn.number, table.number],
        )
        db.execute("update sessions set version = version + 1, updated_at = ? where id = ?", [now(), table.session_id])
        version = db.execute("select version from sessions where id = ?", [table.session_id]).fetchone()[0]
        log_change(
            db,
            table.session_id,
            None,
            "seats",
            [night.name_of(p) for p in table.seats],
            [night.name_of(p) for p in seats],
            version,
        )
    db.execute("delete from night_byes where night_id = ? and round = ?", [night.id, drawn.number])
    db["night_byes"].insert_all({"night_id": night.id, "round": drawn.number, "player_id": p} for p in byes)
    _bump(db, night.id, based_on)


def redraw_round(
    db: Database, night_id: str, number: int, seed: int | None = None, based_on: int | None = None
) -> Night:
    """Round ``number`` drawn again (the same players, the same sessions, new seats);
    refused once a hand is saved at one of its tables. ``based_on``: the night's
    version the organizer saw (a second tap of the button finds it changed:
    ``StaleEdit``, nothing drawn again)."""
    seed = secrets.randbelow(2**31) if seed is None else seed
    night = get_night(db, night_id)
    fresh = _redrawn(night, _check_reseatable(night, number), seed)  # not in the write: a draw takes time
    with writing(db):
        current = get_night(db, night_id)
        drawn = _check_reseatable(current, number)  # a hand saved meanwhile is seen here
        if current.version != night.version:  # changed meanwhile (rare): drawn again
            night, fresh = current, _redrawn(current, drawn, seed)
        if number == 1:  # a new first round is a new schedule: the rounds after it follow it
            db.execute("update nights set seed = ? where id = ?", [seed, night_id])
        by_name = {night.name_of(p): p for p in drawn.players()}
        tables = [tuple(by_name[n] for n in t.seats) for t in fresh.tables]
        _reseat(db, night, drawn, tables, [by_name[n] for n in fresh.byes], based_on)
    return get_night(db, night_id)


def _redrawn(night: Night, drawn: NightRound, seed: int) -> Round:
    """Round ``drawn`` seated afresh: a first round as the first of a new schedule
    (``seed``'s), a later one after the rounds before it."""
    names = [night.name_of(p) for p in sorted(drawn.players())]
    if drawn.number == 1:
        return seating.draw(names, max(night.rounds_planned, 1), seed).rounds[0]
    return seating.draw(names, 1, seed, played=_played_rounds(night, drawn.number)).rounds[-1]


def swap_players(db: Database, night_id: str, number: int, one: int, other: int, based_on: int | None = None) -> Night:
    """Two players of round ``number`` change places (a seat, or a bye); refused
    once a hand is saved at one of its tables. ``based_on`` as for ``redraw_round``
    (a second tap would swap them back)."""
    with writing(db):
        night = get_night(db, night_id)
        drawn = _check_reseatable(night, number)
        outside = [night.player(p) for p in (one, other) if p not in drawn.players()]
        if one == other or None in outside:
            raise Refused([Problem(None, "swap", f"Choose two different players of round {number} to swap.")])
        if outside:  # a late arrival, or a player who left before the round was drawn
            raise Refused(
                [
                    Problem(
                        None,
                        "swap",
                        f"{outside[0].name} is not in round {number}: swap two of "
                        "its players (at its tables or sitting out).",
                    )
                ]
            )

        def swapped(p):
            return other if p == one else one if p == other else p

        tables = [tuple(swapped(p) for p in t.seats) for t in drawn.tables]
        _reseat(db, night, drawn, tables, [swapped(p) for p in drawn.byes], based_on)
    return get_night(db, night_id)


class Arrival(NamedTuple):
    """A late arrival as added: the night's player, and whether the name joined the
    night's circle as a new member just now."""

    player: NightPlayer
    joined: bool


def add_player(db: Database, night_id: str, name: str) -> Arrival:
    """A late arrival, seated from the next round drawn (one who left and comes back
    is present again). On a circle's night the arrival is a member, as the night's
    other players are (the tables are the circle's evenings): a name of a member
    (trimmed, composed, any case, as the circle matches names) is that member, a new
    name joins the circle as a new member, in the same write."""
    problem = name_problem(name, "players", "A player's name")
    if problem:
        raise Refused([problem])
    name = member_name(name)
    with writing(db):
        night = get_night(db, night_id)
        same = next((p for p in night.players if name_key(p.name) == name_key(name)), None)
        if same is not None and same.present:
            raise Refused([Problem(None, "players", f"{same.name} is here already: each player once.")])
        if len(night.present) >= MAX_PLAYERS:
            raise Refused([Problem(None, "players", f"A club night seats at most {MAX_PLAYERS} players.")])
        joined = False
        if same is not None:
            db.execute("update night_players set left_after = null where id = ?", [same.id])
            player_id = same.id
        else:
            member_id = None
            circle = _circle_of(db, night)
            if circle is not None:
                member_id = likely_members(circle, [name])[0]
                if member_id is None:
                    member_id, joined = new_member(db, circle, name, "players").id, True
                else:  # the member as the circle names him
                    name = circle.member(member_id).name
                    if any(p.member_id == member_id and p.present for p in night.players):
                        raise Refused([Problem(None, "players", f"{name} is here already: each player once.")])
            player_id = db["night_players"].insert({"night_id": night_id, "name": name, "member_id": member_id}).last_pk
        _bump(db, night_id)
    return Arrival(get_night(db, night_id).player(player_id), joined)


def _circle_of(db: Database, night: Night) -> Circle | None:
    """The night's circle, if it has one still (expiry may have removed it)."""
    if night.circle_id is None:
        return None
    try:
        return get_circle(db, night.circle_id)
    except NotFound:
        return None


def drop_player(db: Database, night_id: str, player_id: int) -> NightPlayer:
    """A leaver: seated no more from the next round drawn (the rounds played keep
    him; the standings too)."""
    with writing(db):
        night = get_night(db, night_id)
        player = night.player(player_id)
        if player is None or not player.present:
            raise Refused([Problem(None, "players", "Choose a player who is here.")])
        if len(night.present) <= seating.MIN_PLAYERS:
            raise Refused(
                [
                    Problem(
                        None,
                        "players",
                        f"A club night needs {seating.MIN_PLAYERS} players at least: "
                        f"{player.name} is one of the last {len(night.present)}.",
                    )
                ]
            )
        db.execute("update night_players set left_after = ? where id = ?", [len(night.rounds), player_id])
        _bump(db, night_id)
    return get_night(db, night_id).player(player_id)


def set_round_end(db: Database, night_id: str, number: int, ends_at: str | None) -> None:
    """When round ``number`` ends (an ISO time, UTC), or no end time."""
    with writing(db):
        if not db.execute(
            "select 1 from night_rounds where night_id = ? and number = ?", [night_id, number]
        ).fetchall():
            raise NotFound(number)
        db.execute("update night_rounds set ends_at = ? where night_id = ? and number = ?", [ends_at, night_id, number])
        _bump(db, night_id)


def set_rank_by(db: Database, night_id: str, rank_by: str) -> None:
    if rank_by not in RANK_BY:
        raise Refused([Problem(None, "rank_by", "Rank the players by placings or by counters.")])
    with writing(db):
        db.execute("update nights set rank_by = ? where id = ?", [rank_by, night_id])
        _bump(db, night_id)


def set_night_pin(db: Database, night_id: str, pin_hash: str | None) -> None:
    with writing(db):
        db.execute("update nights set pin_hash = ? where id = ?", [pin_hash, night_id])
        _bump(db, night_id)


def rename_night(db: Database, night_id: str, name: str, based_on: int | None = None) -> Night:
    """The night's new name (the tables drawn from now on carry it in their titles).
    The name it has already changes nothing (a second tap); ``based_on`` as for
    ``redraw_round``."""
    problem = night_name_problem(name)
    if problem:
        raise Refused([problem])
    with writing(db):
        rows = db.execute("select name from nights where id = ?", [night_id]).fetchall()
        if not rows:
            raise NotFound(night_id)
        if rows[0][0] != name.strip():
            db.execute("update nights set name = ? where id = ?", [name.strip(), night_id])
            _bump(db, night_id, based_on)
    return get_night(db, night_id)


def delete_night(db: Database, night_id: str) -> int:
    """The night gone: its players, rounds, tables, byes and PIN tries. Its tables'
    sessions are ordinary sessions and stay (a circle's evenings stay in its
    season); the number of them is returned. ``NotFound`` if it is gone already."""
    with writing(db):
        if not db.execute("select 1 from nights where id = ?", [night_id]).fetchall():
            raise NotFound(night_id)
        tables = db.execute("select count(*) from night_tables where night_id = ?", [night_id]).fetchone()[0]
        for table in ("night_byes", "night_tables", "night_rounds", "night_players", "night_pin_failures"):
            db.execute(f"delete from {table} where night_id = ?", [night_id])
        db.execute("delete from nights where id = ?", [night_id])
    return tables
