"""Sessions as they are read: decoded (the hands kept between requests), by any
of their links, listed for the home page, and their history (what the hands
were before each change). Nothing here writes; every change is in ``changes``."""

from __future__ import annotations

import json
import operator
import threading
from dataclasses import dataclass

from sqlite_utils import Database

from ..rules.record import FORMAT
from .agreement import Verdict, agreement
from .common import NotFound


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
        hand's ``agreed`` seats and its ``disputes`` (where any), and who keeps the
        score (the export, the backups, the PDF's attachment)."""
        hands = self.hands
        if with_agreement and (self.confirm or self.verdicts):
            said = agreement(self)
            hands = [_with_agreement(hand, said[i]) for i, hand in enumerate(hands)]
        record = {
            "format": FORMAT,
            "rulebook": self.rulebook,
            "options": self.options,
            "players": self.players,
            "hands": hands,
        }
        if self.confirm:
            record["confirm"] = True
            if with_agreement and self.scorer is not None:
                record["scorer"] = self.scorer
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


def _with_agreement(hand: dict, said) -> dict:
    hand = dict(hand, agreed=sorted(said.agreed))
    if said.disputed:
        hand["disputes"] = [{"seat": seat, "reason": reason} for seat, reason in sorted(said.disputed.items())]
    return hand


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
    tables of 500 hands fits, and a hosted server's 200 tables of 100 (measured:
    with 128 sessions kept, 200 tables decoded whole sessions at every save)."""

    def __init__(self, size: int = 1024, budget: int = 40_000):
        self.size, self.budget, self.lists, self.lock = size, budget, {}, threading.Lock()

    def get(self, db: Database, session_id: str, version: int) -> list:
        key = (getattr(db, "path", None), session_id)
        with self.lock:
            kept = self.lists.get(key)
        if kept is not None and kept[0] == version:
            return kept[1]
        texts = [
            data for (data,) in db.execute("select data from hands where session_id = ? order by number", [session_id])
        ]
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
            while len(self.lists) > 1 and (
                len(self.lists) > self.size or sum(len(kept[1]) for kept in self.lists.values()) > self.budget
            ):
                self.lists.pop(next(iter(self.lists)))


_HANDS = _Hands()


def keep_hands(db: Database, session_id: str, version: int, hands: list) -> None:
    """Keep ``hands``, just committed as ``version``, decoded for the next read."""
    _HANDS.put(db, session_id, version, hands)


def texts_kept(hands: list, old_hands: list, old_texts: list, encode) -> list:
    """The text of each of ``hands``: ``old_texts[i]`` where the hand is the very
    object ``old_hands[i]``, else ``encode(hand)``. A save appends to the same
    objects, a delete drops the last: those are settled by comparing identities in C."""
    same = list(map(operator.is_, hands, old_hands))
    if all(same):
        return old_texts[: len(hands)] + [encode(hand) for hand in hands[len(old_hands) :]]
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
        verdicts=[
            Verdict(*v)
            for v in db.execute(
                "select id, number, seat, fingerprint, verdict, reason, at from verdicts where session_id = ? order by id",
                [row["id"]],
            )
        ],
    )


#: A session's players, by seat, as JSON (``["Ann","Ben","Cat"]``), from its seats
#: (a query's column; the session's table is ``s``).
PLAYERS = "(select json_group_array(name) from (select name from seats where session_id = s.id order by seat))"


def get_session(db: Database, session_id: str) -> Session:
    rows = list(db.query(f"select s.*, {PLAYERS} as players from sessions s where s.id = ?", [session_id]))
    if not rows:
        raise NotFound(session_id)
    return _session_from_row(db, rows[0])


def get_session_by_watch_id(db: Database, watch_id: str) -> Session:
    rows = list(db.query(f"select s.*, {PLAYERS} as players from sessions s where s.watch_id = ?", [watch_id]))
    if not rows:
        raise NotFound(watch_id)
    return _session_from_row(db, rows[0])


def session_by_seat_link(db: Database, token: str) -> tuple[Session, int]:
    """The session a player's link is for, and that player's seat."""
    rows = list(db.query("select session_id, seat from seat_links where token = ?", [token]))
    if not rows:
        raise NotFound(token)
    return get_session(db, rows[0]["session_id"]), rows[0]["seat"]


def live_key(version: int, draft: int, said: int, scorer: int | None) -> str:
    """What a watching phone compares to know whether anything changed ("12-3-7-0"):
    the session's version, its hand in progress's, its last OK or dispute, and who
    keeps the score (a setting that changes the OKs needed, not the hands)."""
    return f"{version}-{draft}-{said}-{'n' if scorer is None else scorer}"


def live_version(db: Database, key: str, kind: str = "s") -> str:
    """``live_key`` of a session by any of its links, in one query."""
    where = {"s": "s.id = ?", "w": "s.watch_id = ?", "p": "s.id = (select session_id from seat_links where token = ?)"}[
        kind
    ]
    rows = list(
        db.query(
            f"""select s.version, coalesce(d.version, 0) as draft, s.scorer,
                                    (select coalesce(max(v.id), 0) from verdicts v where v.session_id = s.id) as said
                             from sessions s left join drafts d on d.session_id = s.id
                             where {where}""",
            [key],
        )
    )
    if not rows:
        raise NotFound(key)
    row = rows[0]
    return live_key(row["version"], row["draft"], row["said"], row["scorer"])


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
        f"""select s.id, s.watch_id, s.title, s.played_on, {PLAYERS} as players, s.rulebook, s.updated_at,
                   (select count(*) from hands h where h.session_id = s.id) as hand_count,
                   (select d.number from drafts d where d.session_id = s.id) as in_progress
            from sessions s where s.id in ({marks}) or s.watch_id in ({marks})
            order by s.updated_at desc""",
        ids + ids,
    )
    return [
        Summary(
            **dict(
                row,
                players=json.loads(row["players"]),
                in_progress=row["in_progress"] if row["in_progress"] == row["hand_count"] + 1 else None,
            )
        )
        for row in rows
    ]


def same_session(db: Database, ids: list[str], record: dict) -> Session | None:
    """Which of the given sessions (scorer's ids) already holds exactly this record
    (its export, OKs included), if any: importing a sheet twice opens the session
    the first import made instead of making a second copy."""
    if not ids or not isinstance(record.get("players"), list):
        return None
    marks = ",".join("?" for _ in ids)
    rows = db.query(
        f"select s.id, {PLAYERS} as players from sessions s where s.id in ({marks})"
        " and s.rulebook = ? order by s.updated_at desc",
        ids + [record.get("rulebook")],
    )
    players = [p.strip() if isinstance(p, str) else p for p in record["players"]]
    for row in list(rows):
        if json.loads(row["players"]) != players:
            continue
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


def last_change(db: Database, session_id: str) -> dict | None:
    rows = history(db, session_id, limit=1)
    return rows[0] if rows else None


def taken_back(hands: list, change: dict) -> list:
    """The hands as they were before ``change`` (a history row) was made."""
    number, before, after = change["hand_number"], change["before"], change["after"]
    if change["action"] in DRAFT_ACTIONS:  # the hand in progress: no saved hand changed
        return hands
    if number is None:  # a restore or going back: every hand at once
        return list(before)
    if after is None:  # a delete: put the hand back
        hands.insert(number - 1, before)
    elif before is None:  # an add: take it away
        del hands[number - 1]
    else:  # an edit: restore what it replaced
        hands[number - 1] = before
    return hands


#: A discarded hand in progress, and one brought back by undoing that.
DRAFT_ACTIONS = ("discard", "undiscard")

#: How a session began here: nothing before it to go back to (a restored one
#: begins at its backup's version).
ORIGINS = ("create", "import", "restored")


def first_version(db: Database, session_id: str) -> int:
    """The version the session began at here (1, or a restored backup's)."""
    marks = ",".join("?" for _ in ORIGINS)
    rows = list(
        db.query(
            f"select max(version) as v from history where session_id = ? and action in ({marks})",
            [session_id, *ORIGINS],
        )
    )
    return (rows[0]["v"] or 1) if rows else 1


def hands_at(db: Database, session: Session, version: int) -> list:
    """The saved hands as they were at ``version`` (the changes since, taken back)."""
    hands = list(session.hands)
    for row in history(db, session.id):
        if row["version"] > session.version:
            continue  # saved by another request since ``session`` was read: not in its hands
        if row["version"] <= version or row["action"] in ORIGINS:
            break
        hands = taken_back(hands, row)
    return hands
