"""The table's words for what changed: undo, history, what a change did (banners, flashes)."""

from __future__ import annotations

from ..rules.core import signed_counters
from ..rules.hand import Answers

#: History's words for each kind of change.
ACTIONS = {
    "add": "Saved hand",
    "edit": "Changed hand",
    "delete": "Deleted hand",
    "undo": "Undid a change to hand",
    "redo": "Redid a change to hand",
    "create": "Session started",
    "import": "Session imported",
    "restore": "Restored from a backup",
    "restored": "Session restored from a backup",
    "revert": "Went back to an earlier version",
    "discard": "Cancelled hand in progress",
    "undiscard": "Brought back hand in progress",
    "ok": "Agreed to hand",
    "dispute": "Disputed hand",
    "seats": "Seats drawn again for the club night",
}
#: A hand's own history.
HAND_ACTIONS = {
    "add": "Saved",
    "edit": "Changed",
    "delete": "Deleted",
    "undo": "Undone",
    "redo": "Redone",
    "restore": "Restored",
    "revert": "Went back",
}


def undone(change: dict) -> str:
    """What an undo took back (or a redo did again), from the hands it moved:
    "the save of hand 5"."""
    number, before, after = change["hand_number"], change.get("before"), change.get("after")
    if change["action"] == "redo":  # it moved the hands as the original change did
        before, after = after, before
    if number is None:
        return "going back"
    if after is None:  # it took a hand away: the original was its save
        return f"the save of hand {number}"
    if before is None:  # it put a hand back: the original was its delete
        return f"the delete of hand {number}"
    return f"the change to hand {number}"


def describe_change(change: dict | None) -> str:
    """The last change in the table's words ("Hand 4 saved.")."""
    if change is None:
        return ""
    number, action = change["hand_number"], change["action"]
    if action == "revert":
        return "Went back to an earlier version."
    if action in ("discard", "undiscard"):
        return f"Hand {number} in progress {'cancelled' if action == 'discard' else 'brought back'}."
    if action in ("undo", "redo"):
        what = undone(change)
        return f"{'Undone' if action == 'undo' else 'Redone'}: {what}."
    what = {"add": "saved", "edit": "changed", "delete": "deleted", "restore": "restored from a backup"}.get(
        action, action
    )
    if number is None:
        return f"Session {what}."
    return f"Hand {number} {what}."


def undo_words(change: dict) -> str:
    """The undo button for a change: "Undo: delete of hand 5"."""
    number, action = change["hand_number"], change["action"]
    what = {
        "add": f"save of hand {number}",
        "edit": f"change to hand {number}",
        "delete": f"delete of hand {number}",
        "restore": "restore from a backup",
        "revert": "going back",
        "discard": f"cancel of hand {number}",
        "undiscard": f"bringing back hand {number}",
    }
    if action == "undo":
        return "Redo: " + undone(change).removeprefix("the ")
    if action == "redo":
        return "Undo: " + undone(change).removeprefix("the ")
    return f"Undo: {what.get(action, action)}"


def history_label(change: dict) -> str:
    """A line of History: "Saved hand 4", "Undid the delete of hand 5"."""
    action, number = change["action"], change["hand_number"]
    if action in ("undo", "redo"):
        return ("Undid " if action == "undo" else "Redid ") + undone(change)
    return ACTIONS.get(action, action) + (f" {number}" if number else "")


def balance_changes(before, after, players) -> str:
    """What an edit did to the balances: "Ben +17 → +15, Cat +32 → +34"."""
    moved = [
        f"{players[s]} {signed_counters(b)} → {signed_counters(a)}"
        for s, (b, a) in enumerate(zip(before.balances, after.balances))
        if a != b
    ]
    return "Balances: " + ", ".join(moved) + "." if moved else "The balances did not change."


def what_changed(book, before, after, names) -> list[str]:
    """What an edit of a hand changed, question by question, in the table's words
    ("Tricks: 4 · 3 · 5 → 5 · 3 · 4": the title once, not in each reading too)."""
    if not (isinstance(before, dict) and isinstance(after, dict)):
        return []

    was, now = Answers(book, before, {}, (), names), Answers(book, after, {}, (), names)
    lines = []
    for q in book.questions:
        old, new = before.get(q.key), after.get(q.key)
        if old == new:
            continue
        said = [
            untitled(q.title, q.reads(value, side)) if value is not None or q.key in side.hand else "—"
            for value, side in ((old, was), (new, now))
        ]
        lines.append(f"{q.title}: {said[0]} → {said[1]}")
    return lines


def untitled(title: str, reading: str) -> str:
    """A question's reading without its own title in front ("ruff: Ann checks …" → "Ann checks …")."""
    for prefix in (f"{title.lower()}: ", f"{title.lower()} "):
        if reading.lower().startswith(prefix):
            return reading[len(prefix) :]
    return reading


def differences(book, mine: dict, saved: dict, names) -> str:
    """This phone's answers that differ from the hand as saved now, in words:
    "tricks 5 · 4 · 3 (saved: tricks 6 · 3 · 3)"."""
    yours, theirs = Answers(book, mine, {}, (), names), Answers(book, saved, {}, (), names)
    return "; ".join(
        f"{q.reads(mine[q.key], yours)} (saved: {q.reads(saved[q.key], theirs)})"
        for q in book.questions
        if q.key in mine and q.key in saved and mine[q.key] != saved[q.key]
    )


def with_what_changed(rows: list[dict], book, names) -> list[dict]:
    """History rows, each with ``what``: its hand's changes in words."""
    return [dict(row, what=what_changed(book, row["before"], row["after"], names)) for row in rows]


def with_verdicts(rows: list[dict], session) -> list[dict]:
    """History with every OK and dispute in it, newest first ("Ben agreed to hand 3")."""
    names = session.players
    said = [
        {
            "at": v.at,
            "action": v.verdict,
            "hand_number": v.number,
            "version": None,
            "what": [f"{names[v.seat]}" + (f": “{v.reason}”" if v.reason else "")],
        }
        for v in session.verdicts
    ]
    rows = sorted(rows + said, key=lambda row: row["at"], reverse=True)
    for row in rows:
        row["label"] = history_label(row)
    return rows
