"""The table's words for what changed (banners, history, flashes)."""

from __future__ import annotations

from ..rules.core import signed_counters

#: History's words for each kind of change.
ACTIONS = {"add": "Saved hand", "edit": "Changed hand", "delete": "Deleted hand",
           "undo": "Undid a change to hand", "redo": "Redid a change to hand", "create": "Session started",
           "import": "Session imported", "restore": "Restored from a backup"}
#: A hand's own history.
HAND_ACTIONS = {"add": "Saved", "edit": "Changed", "delete": "Deleted", "undo": "Undone", "redo": "Redone",
                "restore": "Restored"}


def describe_change(change: dict | None) -> str:
    """The last change in the table's words ("Hand 4 saved.")."""
    if change is None:
        return ""
    number = change["hand_number"]
    what = {"add": "saved", "edit": "changed", "delete": "deleted", "restore": "restored from a backup",
            "undo": "undone", "redo": "redone"}.get(change["action"], change["action"])
    if number is None:
        return f"Session {what}."
    if change["action"] in ("undo", "redo"):
        return f"Change to hand {number} {what}."
    return f"Hand {number} {what}."


def balance_changes(before, after, players) -> str:
    """What an edit did to the balances: "Ben +17 → +15, Cat +32 → +34"."""
    moved = [f"{players[s]} {signed_counters(b)} → {signed_counters(a)}"
             for s, (b, a) in enumerate(zip(before.balances, after.balances)) if a != b]
    return "Balances: " + ", ".join(moved) + "." if moved else "The balances did not change."
