"""A club night in a backup (``flask backup`` writes one ``night-<id>.json`` beside
the sessions' files) and restoring it, in the same transaction as the sessions (and
circles) restored with it: checked as strictly as a session's backup, all or nothing.

The file holds the night's links (id, watch id, the organizer's PIN's hash, never
the PIN), its settings, its players (the member of the night's circle, by place in
the circle's members, or null), its rounds with their end times, each table's
session id and seats (players by place in ``players``), and the byes. The tables'
sessions are backed up as sessions; a table whose session is neither here nor
restored with it stays as a night has it when its session was deleted."""

from __future__ import annotations

import json

from sqlite_utils import Database

from ..club.seating import MAX_PLAYERS, MAX_ROUNDS
from ..rules.core import describe, is_text, key_name
from .circles import get_circle
from .common import NotFound, is_pin_hash, is_token, now
from .night_archive import night_problems
from .nights import get_night

NIGHT_KEYS = ("night", "players", "rounds")
NIGHT_FIELDS = (
    "id",
    "watch_id",
    "name",
    "rulebook",
    "options",
    "stake",
    "played_on",
    "pin_hash",
    "rounds_planned",
    "rank_by",
    "last_by_standings",
    "circle_id",
    "seed",
    "version",
    "created_at",
)
MAX_STAMP = 40


def is_night_backup(data) -> bool:
    return isinstance(data, dict) and "night" in data and "record" not in data


def all_night_ids(db: Database) -> list[str]:
    return [r[0] for r in db.execute("select id from nights order by created_at, id")]


def night_snapshot(db: Database, night_id: str) -> dict:
    night = get_night(db, night_id)
    members = {}
    if night.circle_id is not None:
        try:
            members = {m.id: i for i, m in enumerate(get_circle(db, night.circle_id).members)}
        except NotFound:  # the circle was removed since: the night stays, its players no members
            pass
    place = {p.id: i for i, p in enumerate(night.players)}
    return {
        "night": {
            "id": night.id,
            "watch_id": night.watch_id,
            "name": night.name,
            "rulebook": night.rulebook,
            "options": night.options,
            "stake": night.stake,
            "played_on": night.played_on,
            "pin_hash": night.pin_hash,
            "rounds_planned": night.rounds_planned,
            "rank_by": night.rank_by,
            "last_by_standings": night.last_by_standings,
            "circle_id": night.circle_id,
            "seed": night.seed,
            "version": night.version,
            "created_at": night.created_at,
        },
        "players": [
            {"name": p.name, "member": members.get(p.member_id), "left_after": p.left_after} for p in night.players
        ],
        "rounds": [
            {
                "number": r.number,
                "ends_at": r.ends_at,
                "tables": [{"session_id": t.session_id, "seats": [place[p] for p in t.seats]} for t in r.tables],
                "byes": [place[p] for p in r.byes],
            }
            for r in night.rounds
        ],
    }


def night_backup_problems(data) -> list[str]:
    """Every problem with a night's backup (parsed from JSON); empty if it can be restored.
    The night's settings, players, seats and byes are checked as a night's record is
    (``night_archive.night_problems``, each table's record left out: its session is
    backed up as a session)."""
    if not isinstance(data, dict):
        return [f"a club night's backup is a JSON object, not {describe(data)}"]
    problems = [f"{key} is missing" for key in NIGHT_KEYS if key not in data]
    problems += [f"{key_name(key)} is not a key of a club night's backup" for key in data if key not in NIGHT_KEYS]
    if problems:
        return problems
    night = data["night"]
    if not isinstance(night, dict) or sorted(night) != sorted(NIGHT_FIELDS):
        return [f"night must be an object with {', '.join(NIGHT_FIELDS)}, not {describe(night)}"]
    for key in ("id", "watch_id"):
        if not is_token(night[key]):
            problems.append(
                f'night: {key} must be an id as the app makes them (24 letters, digits, "-" or "_"), '
                f"not {describe(night[key])}"
            )
    if night["id"] == night["watch_id"]:
        problems.append("night: watch_id is the same as id: the standings link would be the organizer's")
    if night["circle_id"] is not None and not is_token(night["circle_id"]):
        problems.append(f"night: circle_id must be a circle's id, or null, not {describe(night['circle_id'])}")
    if night["pin_hash"] is not None and not is_pin_hash(night["pin_hash"]):
        problems.append(
            f"night: pin_hash must be a PIN hash as the app makes them, or null, not {describe(night['pin_hash'])}"
        )
    if type(night["version"]) is not int or night["version"] < 1:
        problems.append(f"night: version must be a whole number of at least 1, not {describe(night['version'])}")
    if (
        not isinstance(night["created_at"], str)
        or len(night["created_at"]) > MAX_STAMP
        or not is_text(night["created_at"])
    ):
        problems.append(f"night: created_at must be a time stamp, not {describe(night['created_at'])}")
    players, rounds = data["players"], data["rounds"]
    if not isinstance(players, list) or len(players) > 2 * MAX_PLAYERS:
        return problems + [f"players must be a list of the night's players, not {describe(players)}"]
    if not isinstance(rounds, list) or len(rounds) > MAX_ROUNDS:
        return problems + [f"rounds must be a list of at most {MAX_ROUNDS} rounds, not {describe(rounds)}"]
    for i, p in enumerate(players):
        if not isinstance(p, dict) or sorted(p) != ["left_after", "member", "name"]:
            return problems + [f"players[{i}]: must be an object with name, member and left_after, not {describe(p)}"]
        if p["member"] is not None and (type(p["member"]) is not int or not 0 <= p["member"] < 10_000):
            problems.append(
                f"players[{i}]: member must be a member's place in the circle's members, or null, "
                f"not {describe(p['member'])}"
            )
    for i, r in enumerate(rounds):
        tables = r.get("tables") if isinstance(r, dict) else None
        if not isinstance(tables, list) or not all(
            isinstance(t, dict) and sorted(t) == ["seats", "session_id"] for t in tables
        ):
            return problems + [f"round {i + 1}: tables must be a list of objects with session_id and seats"]
        for j, t in enumerate(tables):
            if not is_token(t["session_id"]):
                problems.append(
                    f"round {i + 1}, table {j + 1}: session_id must be an id as the app makes them, "
                    f"not {describe(t['session_id'])}"
                )
    as_record = {
        "format": "gleek-night/1",
        **{
            k: night[k]
            for k in ("name", "rulebook", "options", "rounds_planned", "rank_by", "last_by_standings", "seed")
        },
        "players": [{"name": p["name"], "left_after": p["left_after"]} for p in players],
        "rounds": [
            dict(r, tables=[{"seats": t["seats"], "record": None} for t in r["tables"]]) if isinstance(r, dict) else r
            for r in rounds
        ],
    }
    for key in ("stake", "played_on"):
        if night[key] is not None:
            as_record[key] = night[key]
    return problems + night_problems(as_record)


def night_clashes(db: Database, label: str, data: dict) -> list[str]:
    """Inside the restoring transaction: what in the database stops this night being restored."""
    nid, wid = data["night"]["id"], data["night"]["watch_id"]
    rows = db.execute(
        "select id, watch_id from nights where id in (?, ?) or watch_id in (?, ?)", [nid, wid, nid, wid]
    ).fetchall()
    if any(r[0] != nid for r in rows) or any(r[0] == nid and r[1] != wid for r in rows):
        return [f"{label}: night {nid}'s links are another night's here"]
    if db.execute(
        "select 1 from sessions where id in (?, ?) or watch_id in (?, ?) union all "
        "select 1 from seat_links where token in (?, ?) union all "
        "select 1 from circles where id in (?, ?) or watch_id in (?, ?)",
        [nid, wid, nid, wid, nid, wid, nid, wid, nid, wid],
    ).fetchall():
        return [f"{label}: night {nid}'s links are a session's or a circle's links here"]
    return []


def restore_night(db: Database, data: dict) -> str | None:
    """Inside the restoring transaction (after the sessions and circles): the night as
    backed up, over an existing copy of itself (its players, rounds, tables and byes
    replaced by the backup's)."""
    night = data["night"]
    nid = night["id"]
    existing = db.execute("select version from nights where id = ?", [nid]).fetchall()
    over = bool(existing)
    if over:
        for table in ("night_byes", "night_tables", "night_rounds", "night_players"):
            db.execute(f"delete from {table} where night_id = ?", [nid])
        db.execute("delete from nights where id = ?", [nid])
    members = []
    if night["circle_id"] is not None:
        try:
            members = [m.id for m in get_circle(db, night["circle_id"]).members]
        except NotFound:  # the circle is not here: the night's players are no members
            pass
    stamp = now()
    db["nights"].insert(
        {
            "id": nid,
            "watch_id": night["watch_id"],
            "name": night["name"].strip(),
            "rulebook": night["rulebook"],
            "options": json.dumps(night["options"]),
            "stake": json.dumps(night["stake"]) if night["stake"] else None,
            "played_on": night["played_on"],
            "pin_hash": night["pin_hash"],
            "rounds_planned": night["rounds_planned"],
            "rank_by": night["rank_by"],
            "last_by_standings": int(night["last_by_standings"]),
            "circle_id": night["circle_id"],
            "seed": night["seed"],
            # never back to a version this night had: what is kept by its version would be taken for it
            "version": max(existing[0][0] + 1, night["version"]) if over else night["version"],
            "created_at": night["created_at"],
            "updated_at": stamp,
        }
    )
    ids = [
        db["night_players"]
        .insert(
            {
                "night_id": nid,
                "name": p["name"].strip(),
                "left_after": p["left_after"],
                "member_id": members[p["member"]] if p["member"] is not None and p["member"] < len(members) else None,
            }
        )
        .last_pk
        for p in data["players"]
    ]
    for r in data["rounds"]:
        db["night_rounds"].insert({"night_id": nid, "number": r["number"], "ends_at": r["ends_at"], "drawn_at": stamp})
        for number, t in enumerate(r["tables"], 1):
            seats = [ids[s] for s in t["seats"]]
            db["night_tables"].insert(
                {
                    "night_id": nid,
                    "round": r["number"],
                    "number": number,
                    "session_id": t["session_id"],
                    "seat_0": seats[0],
                    "seat_1": seats[1],
                    "seat_2": seats[2],
                }
            )
        db["night_byes"].insert_all({"night_id": nid, "round": r["number"], "player_id": ids[b]} for b in r["byes"])
    return f"restored over the existing night {nid}: its players, rounds, tables and byes" if over else None
