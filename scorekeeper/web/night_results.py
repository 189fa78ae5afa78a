"""Each played table's result for a club night's standings: kept in this process
(``TABLE_RESULTS``), else kept in the database by its session's version and the
rules' code (``store.kept_results``, migration m016: one query for the night),
else read and settled (``store.get_session`` + ``context.settlement_of``) and kept
in both. A server just started on a night in use settles nothing; a save at one
table settles that table only."""

from __future__ import annotations

from typing import NamedTuple

from flask import current_app

from .. import store
from ..club.standings import TableResult
from .cache import Recent
from .context import settlement_of

#: Each played table's result by (database, session id, its version, round, table,
#: names): a save at one table reads and settles that table only, not the night's 150.
TABLE_RESULTS = Recent(8192)


class Played(NamedTuple):
    """One table of the night with a hand saved, as the night was read."""

    round: int
    table: store.NightTable
    names: tuple[str, ...]


class NightResults(NamedTuple):
    results: list[TableResult]  # the played tables' results, round by round
    gone: list[tuple[int, int]]  # (round, table) of tables whose session was deleted


def night_results(db, night: store.Night) -> NightResults:
    path = current_app.config["DATABASE"]
    played, gone = [], []
    name_of = {p.id: p.name for p in night.players}  # 450 seats of 90 players: not a search each
    for drawn in night.rounds:
        for table in drawn.tables:
            if table.session_gone:
                gone.append((drawn.number, table.number))
            elif table.hand_count:  # not played yet: no placing, not even a tie
                played.append(Played(drawn.number, table, tuple(name_of[p] for p in table.seats)))
    found = {}
    for p in played:
        kept = TABLE_RESULTS.peek(_key(path, p))
        if kept is not None:
            found[p] = kept
    missing = [p for p in played if p not in found]
    if missing:
        found.update(_kept_or_settled(db, path, night.id, missing))
    return NightResults([found[p] for p in played], gone)


def _key(path: str, p: Played) -> tuple:
    return path, p.table.session_id, p.table.version, p.round, p.table.number, p.names


def _kept_or_settled(db, path: str, night_id: str, missing: list[Played]) -> dict:
    code = store.rules_code()  # as the circles' kept figures are coded: a deploy of other rules settles again
    rows = store.kept_results(db, night_id)
    found, fresh = {}, []
    for p in missing:
        row = rows.get(p.table.session_id)
        if row is None or (row.version, row.code) != (p.table.version, code):
            row = _settled(db, p, code)
            fresh.append(row)
        found[p] = TableResult(p.round, p.table.number, list(p.names), list(row.balances), row.hands)
        if row.version == p.table.version:
            TABLE_RESULTS.put(_key(path, p), found[p])
    if fresh:
        try:
            store.keep_results(db, fresh)
        except Exception as error:  # pragma: no cover - a busy or full database: the standings are still shown
            current_app.logger.warning("club night table results not kept: %s", error)
    return found


def _settled(db, p: Played, code: str) -> store.KeptResult:
    """The table read and settled now, at the version read (a save since the night
    was read is kept by its own version, never by the older one)."""
    session = store.get_session(db, p.table.session_id)
    return store.KeptResult(
        session.id, session.version, code, len(session.hands), tuple(settlement_of(session).balances)
    )
