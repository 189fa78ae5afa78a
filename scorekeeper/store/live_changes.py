"""Which watch links a connection's writes changed, told after they are committed.

A watch link's live part depends on its live version only (``reads.live_key``:
the session's version, its hand in progress's, its last OK or dispute, its
scorer), so whatever keeps live parts outside this process (the front's poll
files, ``web.front_polls``) must forget a link's part as soon as any of those
change, and only once the change is committed (forgotten earlier, a poll in
between would keep the old part again).

``watch(path, told)`` asks for that on every connection this process opens to
the database at ``path`` from then on (``schema.connect``): temporary triggers
(this connection's only, nothing written to the database's schema) on the four
tables the live version is read from note each changed row's watch id; after a
commit (``schema.writing``) or when a request gives its connection back
(``flush``, for a write made outside ``writing``) ``told(watch_ids, night_ids)``
is called with them. A rolled-back change is told too: forgetting a part that was
still right costs one poll answered by the app.

A club night's standings depend on its live key only (``nights.night_live_key``:
the night's version and each of its tables' session versions), so the night's
watch id is noted (``night_ids``) when the night changes (every change bumps its
version) and when a session that is one of its tables gets a new version or is
deleted (one lookup by ``night_tables.session_id``, indexed)."""

from __future__ import annotations

import logging

_WATCHED: dict[str, object] = {}  # database path -> told(watch ids)
FUNCTION = "scorekeeper_live_changed"
NIGHT_FUNCTION = "scorekeeper_night_changed"

_OF_SESSION = "(select watch_id from sessions where id = {row}.session_id)"
TRIGGERS = [
    ("sessions_added", "after insert on main.sessions", "new.watch_id"),  # its first part, before any poll
    ("sessions_changed", "after update on main.sessions", "old.watch_id), " + FUNCTION + "(new.watch_id"),
    ("sessions_removed", "after delete on main.sessions", "old.watch_id"),
    ("draft_added", "after insert on main.drafts", _OF_SESSION.format(row="new")),
    ("draft_changed", "after update on main.drafts", _OF_SESSION.format(row="new")),
    ("draft_removed", "after delete on main.drafts", _OF_SESSION.format(row="old")),
    ("verdict_added", "after insert on main.verdicts", _OF_SESSION.format(row="new")),
    ("verdict_removed", "after delete on main.verdicts", _OF_SESSION.format(row="old")),
]
_NIGHTS_OF_SESSION = (
    f"select {NIGHT_FUNCTION}(n.watch_id) from night_tables t join nights n on n.id = t.night_id "
    "where t.session_id = {row}.id"
)
NIGHT_TRIGGERS = [  # (name, when, the statement that notes the night's watch id)
    ("night_table_saved", "after update of version on main.sessions", _NIGHTS_OF_SESSION.format(row="new")),
    ("night_table_removed", "after delete on main.sessions", _NIGHTS_OF_SESSION.format(row="old")),
    ("night_added", "after insert on main.nights", f"select {NIGHT_FUNCTION}(new.watch_id)"),
    ("night_changed", "after update on main.nights", f"select {NIGHT_FUNCTION}(new.watch_id)"),
    ("night_removed", "after delete on main.nights", f"select {NIGHT_FUNCTION}(old.watch_id)"),
]


def watch(path: str, told) -> None:
    """From now on, connections to ``path`` tell ``told`` which watch links changed."""
    _WATCHED[str(path)] = told


def unwatch(path: str) -> None:
    _WATCHED.pop(str(path), None)


def install(db) -> None:
    """On a new connection (``schema.connect``): the triggers, if its database is watched."""
    told = _WATCHED.get(getattr(db, "path", ""))
    if told is None:
        return
    changed: set = set()
    nights: set = set()

    def noter(into: set):
        def note(watch_id):
            if watch_id is not None:
                into.add(watch_id)

        return note

    db.conn.create_function(FUNCTION, 1, noter(changed))
    db.conn.create_function(NIGHT_FUNCTION, 1, noter(nights))
    for name, when, argument in TRIGGERS:
        db.conn.execute(
            f"create temp trigger if not exists live_{name} {when} begin select {FUNCTION}({argument}); end"
        )
    for name, when, statement in NIGHT_TRIGGERS:
        db.conn.execute(f"create temp trigger if not exists live_{name} {when} begin {statement}; end")
    db.live_changed, db.nights_changed, db.live_told = changed, nights, told


def flush(db) -> None:
    """Tell what this connection's writes changed since last told (none: nothing)."""
    changed, nights = getattr(db, "live_changed", None), getattr(db, "nights_changed", None)
    if not changed and not nights:
        return
    watch_ids, night_ids = set(changed), set(nights)
    changed.clear()
    nights.clear()
    try:
        db.live_told(watch_ids, night_ids)
    except Exception:  # noqa: BLE001 - the change is committed: never reported as failed for this
        logging.getLogger("scorekeeper").exception(
            "could not forget the live parts of %s", sorted(watch_ids | night_ids)
        )
