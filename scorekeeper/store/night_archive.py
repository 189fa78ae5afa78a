"""A whole club night as one JSON document (``gleek-night/1``): its settings, its
players, every round's tables (the players in seat order, by their place in
``players``, and the table's ``gleek-session/1`` record with its OKs and
disputes, or null where the table's session was deleted) and byes, the rounds'
end times, what the standings rank by and the schedule's seed. The night's
sheet PDF carries it (``night.json``); importing it (or the sheet) makes a new
night with new links, its tables new sessions: the same standings. No link of the
night or of its tables is in it: a sheet printed from the public standings gives
nothing away. Imported on the home page, a circle's night comes back without its
circle (``circle`` names it, so the page can say so); imported from a circle's page,
it is a night of that circle (``import_circle_night``), its players the members of
their names. docs/club-night.md describes it."""

from __future__ import annotations

import dataclasses
import datetime
import json
from typing import NamedTuple

from sqlite_utils import Database

from ..club.seating import MAX_PLAYERS, MAX_ROUNDS, name_key
from ..rules import BOOKS, Problem
from ..rules.core import describe, is_text, key_name
from ..rules.record import validate
from .changes import insert_session, limit_problems
from .circles import add_member_now, circle_of_session, get_circle, hold_session, likely_members
from .common import NotFound, Refused, StorageFull, new_token, now
from .nights import RANK_BY, Night, _bump as _bump_night, get_night, night_name_problem, players_problems, table_record
from .reads import get_session
from .schema import writing

FORMAT = "gleek-night/1"
KEYS = (
    "format",
    "name",
    "rulebook",
    "options",
    "rounds_planned",
    "rank_by",
    "last_by_standings",
    "seed",
    "players",
    "rounds",
)
OPTIONAL_KEYS = ("stake", "played_on", "circle")
ROUND_KEYS = ("number", "ends_at", "tables", "byes")
MAX_STAMP = 40  # characters of an end time ("2026-12-04T21:30:00+00:00")
MAX_SEED = 2**31


def night_data(db: Database, night: Night) -> dict:
    """The night as a ``gleek-night/1`` document (each table's record read from its session)."""
    place = {p.id: i for i, p in enumerate(night.players)}
    data = {"format": FORMAT, "name": night.name, "rulebook": night.rulebook, "options": night.options}
    if night.stake:
        data["stake"] = night.stake
    if night.played_on:
        data["played_on"] = night.played_on
    data.update(
        {
            "rounds_planned": night.rounds_planned,
            "rank_by": night.rank_by,
            "last_by_standings": night.last_by_standings,
            "seed": night.seed,
        }
    )
    if night.circle_id is not None:
        try:
            data["circle"] = get_circle(db, night.circle_id).name
        except NotFound:  # the circle was removed since: the night stays
            pass
    data["players"] = [{"name": p.name, "left_after": p.left_after} for p in night.players]
    data["rounds"] = [
        {
            "number": r.number,
            "ends_at": r.ends_at,
            "tables": [
                {
                    "seats": [place[p] for p in t.seats],
                    "record": None if t.session_gone else get_session(db, t.session_id).record(with_agreement=True),
                }
                for t in r.tables
            ],
            "byes": [place[p] for p in r.byes],
        }
        for r in night.rounds
    ]
    return data


def night_text(db: Database, night: Night) -> str:
    """``night_data`` as JSON text (UTF-8 names kept as they are)."""
    return json.dumps(night_data(db, night), ensure_ascii=False, separators=(",", ":"))


def is_night_document(data) -> bool:
    """A parsed JSON document that says it is a night's (``gleek-night/1``)."""
    return isinstance(data, dict) and data.get("format") == FORMAT


def _players_problems(players) -> tuple[list[str], list[str]]:
    """(problems, the players' names) of a document's ``players``."""
    if not isinstance(players, list) or not players or len(players) > 2 * MAX_PLAYERS:
        return [
            f"players must be a list of the night's players (at most {2 * MAX_PLAYERS}), not {describe(players)}"
        ], []
    problems, names = [], []
    for i, p in enumerate(players):
        if not isinstance(p, dict) or sorted(p) != ["left_after", "name"]:
            problems.append(f"players[{i}]: must be an object with name and left_after, not {describe(p)}")
            continue
        if not isinstance(p["name"], str) or not is_text(p["name"]) or not p["name"].strip():
            problems.append(f"players[{i}]: name must be a player's name, not {describe(p['name'])}")
            continue
        left = p["left_after"]
        if left is not None and (type(left) is not int or not 0 <= left <= MAX_ROUNDS):
            problems.append(
                f"players[{i}]: left_after must be the rounds drawn when the player left, or null, not {describe(left)}"
            )
        names.append(p["name"].strip())
    if problems:
        return problems, []
    present = [p["name"].strip() for p in players if p["left_after"] is None]
    problems += [f"players: {p.text}" for p in players_problems(present)]
    seen = {}
    for name in names:
        if name_key(name) in seen:
            problems.append(f"players: {seen[name_key(name)]} and {name} are one name: each player once")
            break
        seen[name_key(name)] = name
    return problems, names


def _table_problems(where: str, table, names: list[str], rulebook: str | None) -> list[str]:
    if not isinstance(table, dict) or sorted(table) != ["record", "seats"]:
        return [f"{where}: must be an object with seats and record, not {describe(table)}"]
    seats = table["seats"]
    if (
        not isinstance(seats, list)
        or len(seats) != 3
        or not all(type(s) is int and 0 <= s < len(names) for s in seats)
        or len(set(seats)) != 3
    ):
        return [
            f"{where}: seats must be three different players of the night (their places in players), "
            f"not {describe(seats)}"
        ]
    record = table["record"]
    if record is None:  # the table's session was deleted before the night was saved
        return []
    wrong = [str(p) for p in validate(record)] or [str(p) for p in limit_problems(record)]
    if wrong:
        return [f"{where}: its session's record: {p}" for p in wrong[:5]]
    seated = [names[s] for s in seats]
    if [p.strip() for p in record["players"]] != seated:
        return [
            f"{where}: its session's players are {', '.join(record['players'])}, not the players seated "
            f"there ({', '.join(seated)})"
        ]
    if rulebook is not None and record["rulebook"] != rulebook:
        return [f"{where}: its session is played by {record['rulebook']}, not by the night's rule book ({rulebook})"]
    return []


def _round_problems(i: int, drawn, names: list[str], rulebook: str | None) -> list[str]:
    where = f"round {i + 1}"
    if not isinstance(drawn, dict) or sorted(drawn) != sorted(ROUND_KEYS):
        return [f"{where}: must be an object with {', '.join(ROUND_KEYS)}, not {describe(drawn)}"]
    problems = []
    if drawn["number"] != i + 1 or type(drawn["number"]) is not int:
        problems.append(f"{where}: number must be {i + 1} (the rounds in order), not {describe(drawn['number'])}")
    ends_at = drawn["ends_at"]
    if ends_at is not None and not _is_time(ends_at):
        problems.append(f"{where}: ends_at must be a time (ISO 8601) or null, not {describe(ends_at)}")
    tables, byes = drawn["tables"], drawn["byes"]
    if not isinstance(tables, list) or not 1 <= len(tables) <= MAX_PLAYERS // 3:
        return problems + [f"{where}: tables must be a list of 1 to {MAX_PLAYERS // 3} tables"]
    if not isinstance(byes, list) or not all(type(b) is int and 0 <= b < len(names) for b in byes):
        return problems + [
            f"{where}: byes must be players of the night (their places in players), not {describe(byes)}"
        ]
    seated: dict[int, str] = {}
    for j, table in enumerate(tables):
        wrong = _table_problems(f"{where}, table {j + 1}", table, names, rulebook)
        problems += wrong
        if wrong:
            continue
        for s in table["seats"]:
            if s in seated:
                problems.append(
                    f"{where}: {names[s]} is seated at {seated[s]} and at table {j + 1}: each player once a round"
                )
            seated.setdefault(s, f"table {j + 1}")
    for b in byes:
        if b in seated:
            problems.append(f"{where}: {names[b]} is seated at {seated[b]} and sits out too: each player once a round")
        seated.setdefault(b, "a bye")
    return problems


def _is_time(value) -> bool:
    if not isinstance(value, str) or len(value) > MAX_STAMP or not is_text(value):
        return False
    try:
        datetime.datetime.fromisoformat(value)
    except ValueError:
        return False
    return True


def night_problems(data) -> list[str]:
    """Everything wrong with a night's document; empty if it can be imported."""
    if not isinstance(data, dict):
        return [f"a club night's record is a JSON object, not {describe(data)}"]
    problems = [f"{key} is missing" for key in KEYS if key not in data]
    problems += [f"{key_name(k)} is not a key of a club night's record" for k in data if k not in KEYS + OPTIONAL_KEYS]
    if data.get("format", FORMAT) != FORMAT:
        problems.append(f'format must be "{FORMAT}", not {describe(data.get("format"))}')
    if problems:
        return problems
    wrong = night_name_problem(data["name"])
    if wrong:
        problems.append(f"name: {wrong.text}")
    if "circle" in data and (
        not isinstance(data["circle"], str) or not is_text(data["circle"]) or len(data["circle"]) > 200
    ):
        problems.append(f"circle must be the name of the night's circle, not {describe(data['circle'])}")
    rulebook = data["rulebook"] if isinstance(data["rulebook"], str) and data["rulebook"] in BOOKS else None
    if rulebook is None:
        problems.append(f"rulebook must be one of {', '.join(BOOKS)}, not {describe(data['rulebook'])}")
    else:
        settings = validate(
            table_record(rulebook, data["options"], data.get("stake"), ["A", "B", "C"], played_on=data.get("played_on"))
        )
        problems += [str(p) for p in settings]
    planned = data["rounds_planned"]
    if type(planned) is not int or not 1 <= planned <= MAX_ROUNDS:
        problems.append(f"rounds_planned must be 1 to {MAX_ROUNDS}, not {describe(planned)}")
        planned = MAX_ROUNDS
    if data["rank_by"] not in RANK_BY:
        problems.append(f"rank_by must be placings or counters, not {describe(data['rank_by'])}")
    if type(data["last_by_standings"]) is not bool:
        problems.append(f"last_by_standings must be true or false, not {describe(data['last_by_standings'])}")
    if type(data["seed"]) is not int or not 0 <= data["seed"] < MAX_SEED:
        problems.append(f"seed must be a whole number from 0 to {MAX_SEED - 1}, not {describe(data['seed'])}")
    wrong, names = _players_problems(data["players"])
    problems += wrong
    rounds = data["rounds"]
    if not isinstance(rounds, list) or len(rounds) > planned:
        return problems + [f"rounds must be a list of at most {planned} rounds (rounds_planned)"]
    if wrong:
        return problems
    for i, drawn in enumerate(rounds):
        problems += _round_problems(i, drawn, names, rulebook)
        if len(problems) > 40:
            return problems[:40] + ["… (more problems not listed)"]
    return problems


def _check_tables_kept(db: Database, owner: str | None, keep_limit: int | None, adding: int) -> None:
    """``StorageFull`` where the night's tables (each a session here) would take ``owner``
    past the ``keep_limit`` sessions one address may keep."""
    if keep_limit is None or owner is None:
        return
    kept = db.execute("select count(*) from sessions where creator = ?", [owner]).fetchone()[0]
    if kept + adding > keep_limit:
        room = max(0, keep_limit - kept)
        raise StorageFull(
            keep_limit,
            message=(
                f"This club night has {adding:,} table{'s' * (adding != 1)}, each a session here; this address keeps "
                f"{kept:,} session{'s' * (kept != 1)} and may keep {keep_limit:,}, so there is room for {room:,} more. "
                "Nothing was imported."
            ),
        )


def import_night(db: Database, data: dict, owner: str | None = None, keep_limit: int | None = None) -> Night:
    """A new night from its document: new links for it and for each table's session,
    its players, rounds, seats, byes and end times as they were; all or nothing.
    ``Refused`` with every problem; ``StorageFull`` where its tables would take
    ``owner`` past ``keep_limit`` sessions. Never a circle's night (``import_circle_night``)."""
    problems = night_problems(data)
    if problems:
        raise Refused(problems)
    with writing(db):
        night_id = _insert_night(db, data, owner, keep_limit)
    return get_night(db, night_id)


class CircleNightImport(NamedTuple):
    night: Night
    already: bool  # found, not made: the circle's night of this very record, or the one asked about
    strangers: list[str]  # players who are no member: the night is not the circle's yet (``attach_night``)


def import_circle_night(
    db: Database, circle_id: str, data: dict, owner: str | None = None, keep_limit: int | None = None
) -> CircleNightImport:
    """A night's document as a night of the circle: each player the member of that name
    (``likely_members``, as an attached session's seats are matched), each table's session
    an evening of the circle. ``Refused``, nothing saved, for the document's problems. The
    night the circle holds already (``already``) where it holds this very record, so a
    sheet imported twice is one night. Where a player is no member (``strangers``), the
    night is imported on its own, not the circle's, for the caller to ask who they are
    (``attach_night``); a night of no circle that ``owner`` imported with this very
    record (one asked about already) is found again instead."""
    problems = night_problems(data)
    if problems:
        raise Refused(problems)
    names = [p["name"].strip() for p in data["players"]]
    with writing(db):
        circle = get_circle(db, circle_id)
        held = same_circle_night(db, circle_id, data)
        if held is not None:
            return CircleNightImport(held, True, [])
        member_ids = likely_members(circle, names)
        strangers = [name for name, member in zip(names, member_ids) if member is None]
        if strangers:
            waiting = same_night(
                db,
                [
                    row["id"]
                    for row in db.query(
                        "select id from nights where circle_id is null and pin_hash is null and creator is ? and seed = ? "
                        "and name = ? order by created_at",
                        [owner, data["seed"], data["name"].strip()],
                    )
                ],
                data,
                circle=None,
            )
            if waiting is not None:
                return CircleNightImport(waiting, True, strangers)
            return CircleNightImport(get_night(db, _insert_night(db, data, owner, keep_limit)), False, strangers)
        night_id = _insert_night(db, data, owner, keep_limit, circle_id, member_ids)
    return CircleNightImport(get_night(db, night_id), False, [])


def attach_night(db: Database, circle_id: str, night_id: str, wanted: list) -> Night:
    """A night of no circle becomes the circle's: each player (in the night's order) the
    member ``wanted`` says (an id; a name: a new member of that name, made in the same
    transaction; None: a guest, no member), each table's session an evening of the
    circle. ``Refused``, nothing saved, for a member chosen twice or a night (or a
    table's session) some circle holds already."""
    with writing(db):
        circle = get_circle(db, circle_id)
        night = get_night(db, night_id)
        if night.circle_id == circle_id:
            raise Refused([Problem(None, "players", "This club night is already one of the circle's nights.")])
        if night.circle_id is not None:
            raise Refused([Problem(None, "players", "This club night is already a night of another circle.")])
        wanted = list(wanted)
        if len(wanted) != len(night.players):
            raise Refused([Problem(None, "players", "Say who each player of the night is.")])
        for i, member in enumerate(wanted):
            if isinstance(member, str):
                wanted[i] = add_member_now(db, circle, member).id
        if any(m is not None and circle.member(m) is None for m in wanted):
            raise Refused([Problem(None, "players", "Choose a member of the circle, a new member or a guest.")])
        chosen = [m for m in wanted if m is not None]
        twice = next((m for m in chosen if chosen.count(m) > 1), None)
        if twice is not None:
            raise Refused(
                [
                    Problem(
                        None,
                        "players",
                        f"{circle.member(twice).name} is chosen for two players of the night: each member once.",
                    )
                ]
            )
        member_of = dict(zip((p.id for p in night.players), wanted))
        tables = [t for r in night.rounds for t in r.tables if not t.session_gone]
        if any(circle_of_session(db, t.session_id) is not None for t in tables):
            raise Refused([Problem(None, "players", "A table of this night is already an evening of a circle.")])
        db.execute("update nights set circle_id = ? where id = ?", [circle_id, night_id])
        for player in night.players:
            db.execute("update night_players set member_id = ? where id = ?", [member_of[player.id], player.id])
        for table in tables:
            if db.execute("select 1 from sessions where id = ?", [table.session_id]).fetchall():
                hold_session(db, circle_id, table.session_id, [member_of[p] for p in table.seats])
        _bump_night(db, night_id)
    return get_night(db, night_id)


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def same_circle_night(db: Database, circle_id: str, data: dict) -> Night | None:
    """The circle's night whose record is exactly this one (every table's record, OKs
    included; the circle it names aside), if one."""
    ids = [
        row["id"]
        for row in db.query(
            "select id from nights where circle_id = ? and seed = ? and name = ? order by created_at",
            [circle_id, data["seed"], data["name"].strip()],
        )
    ]
    return same_night(db, ids, data, circle=circle_id)


def same_night(db: Database, ids, data: dict, circle: str | None) -> Night | None:
    """Which of the nights ``ids`` (of ``circle``, or of none) holds exactly this record, if one."""
    wanted = {k: v for k, v in data.items() if k != "circle"}
    for night_id in ids:
        try:
            night = get_night(db, night_id)
        except NotFound:
            continue
        if night.circle_id == circle and {k: v for k, v in night_data(db, night).items() if k != "circle"} == wanted:
            return night
    return None


def _insert_night(
    db: Database,
    data: dict,
    owner: str | None,
    keep_limit: int | None,
    circle_id: str | None = None,
    member_ids: list | None = None,
) -> str:
    """Inside the write transaction: a checked document's night, its players (each the
    member ``member_ids`` says, for a circle's night), rounds, byes and tables, each
    table's record a new session (an evening of ``circle_id``, if one). Its id."""
    night_id, watch_id, stamp = new_token(), new_token(), now()
    member_ids = member_ids or [None] * len(data["players"])
    tables = [t for r in data["rounds"] for t in r["tables"] if t["record"] is not None]
    _check_tables_kept(db, owner, keep_limit, len(tables))
    db["nights"].insert(
        {
            "id": night_id,
            "watch_id": watch_id,
            "name": data["name"].strip(),
            "rulebook": data["rulebook"],
            "options": json.dumps(data["options"]),
            "stake": json.dumps(data["stake"]) if data.get("stake") else None,
            "played_on": data.get("played_on"),
            "pin_hash": None,
            "rounds_planned": data["rounds_planned"],
            "rank_by": data["rank_by"],
            "last_by_standings": int(data["last_by_standings"]),
            "circle_id": circle_id,
            "seed": data["seed"],
            "version": 1,
            "created_at": stamp,
            "updated_at": stamp,
            "creator": owner,
        }
    )
    ids = [
        db["night_players"]
        .insert({"night_id": night_id, "name": p["name"].strip(), "member_id": member, "left_after": p["left_after"]})
        .last_pk
        for p, member in zip(data["players"], member_ids)
    ]
    for drawn in data["rounds"]:
        db["night_rounds"].insert(
            {"night_id": night_id, "number": drawn["number"], "ends_at": drawn["ends_at"], "drawn_at": stamp}
        )
        for number, table in enumerate(drawn["tables"], 1):
            session_id = new_token()  # a deleted table's session stays deleted: an id with no session
            record = table["record"]
            if record is not None:
                evening = None if circle_id is None else (circle_id, [member_ids[s] for s in table["seats"]])
                insert_session(
                    db, session_id, new_token(), record, 0, "import", None, record.get("scorer"), owner, stamp, evening
                )
            seats = [ids[s] for s in table["seats"]]
            db["night_tables"].insert(
                {
                    "night_id": night_id,
                    "round": drawn["number"],
                    "number": number,
                    "session_id": session_id,
                    "seat_0": seats[0],
                    "seat_1": seats[1],
                    "seat_2": seats[2],
                }
            )
        db["night_byes"].insert_all(
            {"night_id": night_id, "round": drawn["number"], "player_id": ids[b]} for b in drawn["byes"]
        )
    return night_id


# ------------------------------------------------------------------ a circle's nights, in its archive


def circle_night_data(db: Database, night: Night, evening_of: dict[str, int], member_of: dict[int, int]) -> dict:
    """A circle's night in the circle's archive (``gleek-circle/1``'s ``nights``): as
    ``night_data``, but each table names its evening (its place in the archive's
    ``evenings``, null where its session is gone or no longer the circle's) rather
    than carrying its record, and each player the member (place in ``members``) or null."""
    data = {k: v for k, v in night_data_without_tables(db, night).items() if k not in ("format", "circle")}
    data["players"] = [
        {"name": p.name, "member": member_of.get(p.member_id), "left_after": p.left_after} for p in night.players
    ]
    place = {p.id: i for i, p in enumerate(night.players)}
    data["rounds"] = [
        {
            "number": r.number,
            "ends_at": r.ends_at,
            "tables": [
                {"seats": [place[p] for p in t.seats], "evening": evening_of.get(t.session_id)} for t in r.tables
            ],
            "byes": [place[p] for p in r.byes],
        }
        for r in night.rounds
    ]
    return data


def night_data_without_tables(db: Database, night: Night) -> dict:
    data = night_data(db, dataclasses.replace(night, rounds=[]))
    data.pop("rounds")
    return data


def circle_nights_problems(nights, evenings: list, members: int) -> list[str]:
    """What is wrong with an archive's ``nights`` (``evenings``: the archive's, ``members``:
    how many members it has): each night checked as a night's record is, its tables'
    records the evenings they name; an evening is one table of one night at most."""
    if not isinstance(nights, list) or len(nights) > 1000:
        return [f"nights must be a list of the circle's club nights, not {describe(nights)}"]
    problems, used = [], {}
    for i, night in enumerate(nights):
        where = f"nights[{i}]"
        if (
            not isinstance(night, dict)
            or not isinstance(night.get("players"), list)
            or not isinstance(night.get("rounds"), list)
        ):
            problems.append(f"{where}: must be a club night, with its players and rounds")
            continue
        players = []
        for j, p in enumerate(night["players"]):
            if not isinstance(p, dict) or sorted(p) != ["left_after", "member", "name"]:
                problems.append(f"{where}: players[{j}]: must be an object with name, member and left_after")
            elif p["member"] is not None and (type(p["member"]) is not int or not 0 <= p["member"] < members):
                problems.append(f"{where}: players[{j}]: member must be a member's place in members, or null")
            else:
                players.append({"name": p["name"], "left_after": p["left_after"]})
        rounds = []
        for r in night["rounds"]:
            if not isinstance(r, dict) or not isinstance(r.get("tables"), list):
                rounds.append(r)  # said by night_problems
                continue
            tables = []
            for t in r["tables"]:
                if not isinstance(t, dict) or sorted(t) != ["evening", "seats"]:
                    problems.append(
                        f"{where}: round {r.get('number')}: a table must be an object with seats and evening"
                    )
                    continue
                e = t["evening"]
                if e is not None and (type(e) is not int or not 0 <= e < len(evenings)):
                    problems.append(
                        f"{where}: round {r.get('number')}: evening must be an evening's place in "
                        f"evenings, or null, not {describe(e)}"
                    )
                    continue
                if e is not None and e in used:
                    problems.append(f"{where}: evenings[{e}] is a table of {used[e]} already: an evening is one table")
                    continue
                if e is not None:
                    used[e] = f"nights[{i}]"
                record = evenings[e]["record"] if e is not None and isinstance(evenings[e], dict) else None
                tables.append({"seats": t["seats"], "record": record})
            rounds.append(dict(r, tables=tables))
        if problems:
            continue
        as_record = dict(
            {k: v for k, v in night.items() if k not in ("players", "rounds")},
            format=FORMAT,
            players=players,
            rounds=rounds,
        )
        problems += [f"{where}: {p}" for p in night_problems(as_record)]
        if len(problems) > 40:
            return problems[:40] + ["… (more problems not listed)"]
    return problems


def insert_circle_nights(
    db: Database,
    nights: list,
    circle_id: str,
    session_ids: list[str],
    member_ids: list[int],
    owner: str | None,
    stamp: str,
) -> None:
    """Inside an archive's import: its nights, of the new circle, their tables the
    evenings just made (a table with no evening: its session gone, as it was)."""
    for night in nights:
        night_id = new_token()
        db["nights"].insert(
            {
                "id": night_id,
                "watch_id": new_token(),
                "name": night["name"].strip(),
                "rulebook": night["rulebook"],
                "options": json.dumps(night["options"]),
                "stake": json.dumps(night["stake"]) if night.get("stake") else None,
                "played_on": night.get("played_on"),
                "pin_hash": None,
                "rounds_planned": night["rounds_planned"],
                "rank_by": night["rank_by"],
                "last_by_standings": int(night["last_by_standings"]),
                "circle_id": circle_id,
                "seed": night["seed"],
                "version": 1,
                "created_at": stamp,
                "updated_at": stamp,
                "creator": owner,
            }
        )
        ids = [
            db["night_players"]
            .insert(
                {
                    "night_id": night_id,
                    "name": p["name"].strip(),
                    "left_after": p["left_after"],
                    "member_id": None if p["member"] is None else member_ids[p["member"]],
                }
            )
            .last_pk
            for p in night["players"]
        ]
        for drawn in night["rounds"]:
            db["night_rounds"].insert(
                {"night_id": night_id, "number": drawn["number"], "ends_at": drawn["ends_at"], "drawn_at": stamp}
            )
            for number, table in enumerate(drawn["tables"], 1):
                seats = [ids[s] for s in table["seats"]]
                session_id = new_token() if table["evening"] is None else session_ids[table["evening"]]
                db["night_tables"].insert(
                    {
                        "night_id": night_id,
                        "round": drawn["number"],
                        "number": number,
                        "session_id": session_id,
                        "seat_0": seats[0],
                        "seat_1": seats[1],
                        "seat_2": seats[2],
                    }
                )
            db["night_byes"].insert_all(
                {"night_id": night_id, "round": drawn["number"], "player_id": ids[b]} for b in drawn["byes"]
            )
