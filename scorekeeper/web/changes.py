"""After a change: the JSON snapshot, the undo offer, and refusals in plain words."""

from __future__ import annotations

import re

from flask import current_app, flash, render_template, request, session as cookie

from .. import store
from ..db import get_db
from ..files.backup_files import snapshot_session
from ..logs import label
from .htmx import redirect
from .change_words import describe_change, undo_words

VERSION = re.compile(r"[0-9]{1,12}\Z")


def keep_snapshot(session: store.Session) -> store.Session:
    """A JSON snapshot after every committed change (instance/backups/, the last few).
    The change is already committed: a failed snapshot is logged, not shown."""
    try:
        snapshot_session(session, current_app.config["BACKUP_DIR"], current_app.config["BACKUP_KEEP"])
    except (OSError, ValueError) as error:  # pragma: no cover - a full disk, say
        current_app.logger.warning("snapshot of session %s failed: %s", label(session.id), error)
    return session


def based_on() -> int | None:
    """The session version the posted form was based on (None if absent or not a number)."""
    raw = request.form.get("version", "")
    return int(raw) if VERSION.match(raw) else None


def not_changed(table, message: str, status: int):
    """A refused change: say why, change nothing, offer the way back."""
    return render_template("error.html", title="Nothing changed", message=message, back=table.url()), status


def reopen_asked() -> bool:
    """Whether the posted change says it may reopen a settled evening (its
    question was asked and answered: ``settled_ask``)."""
    return request.form.get("reopen") == "yes"


def reopening(session_id: str) -> bool:
    """Whether the posted change will reopen its settled evening (asked, and settled now)."""
    return reopen_asked() and store.settled_evening(get_db(), session_id) is not None


def settled_ask(
    table,
    settled: store.SettledEvening,
    action: str | None = None,
    fields=None,
    button: str = "Change it anyway",
    status: int = 409,
):
    """Asked before a change to a settled evening: the same change posted again
    (``fields``: the posted form's, by default), now saying it reopens the evening;
    or back to the table, nothing changed."""
    fields = list(request.form.items(multi=True)) if fields is None else fields
    return render_template(
        "settled_ask.html",
        table=table,
        session=table.session,
        question=store.settled_question(settled.payments),
        action=action or request.path,
        fields=[(k, v) for k, v in fields if k != "reopen"],
        button=button,
    ), status


def reopened_note() -> None:
    """After a change that reopened its settled evening: where the difference is."""
    flash(
        "The evening is reopened: its circle no longer calls it settled, and What is owed shows the "
        "difference to be paid or paid back."
    )


def change_or_refuse(table, change):
    """Run a one-tap change (delete, undo, going back): back to the table
    offering to undo it, or say why nothing changed; a settled evening is asked
    about first (``settled_ask``)."""
    reopens = reopening(table.session.id)
    try:
        keep_snapshot(change())
    except store.EveningSettled as settled:
        return settled_ask(table, settled.evening)
    except store.StaleEdit as stale:
        return not_changed(table, str(stale), 409)
    except store.Refused as refused:
        return not_changed(table, "; ".join(refused.lines()), 422)
    if reopens:
        reopened_note()
    offer_undo()
    return redirect(table.url())


def offer_undo() -> None:
    """After a change, the next table page offers to undo it (once: not on reload)."""
    cookie["offer_undo"] = True


def undo_offer(table, unlocked: bool, settled: bool = False) -> dict | None:
    """The last change of the session, to undo from the table page until a newer
    change is made ("Undo: delete of hand 5"), within ``store.UNDO_WINDOW`` of it,
    and not once the evening is settled."""
    fresh = cookie.pop("offer_undo", False)  # just made: shown highlighted once
    if not (table.can_edit and unlocked) or settled:
        return None
    last = store.last_change(get_db(), table.session.id)
    if not store.undoable(last) or last["version"] != table.session.version or not store.within_undo_window(last):
        return None
    return {"text": describe_change(last), "button": undo_words(last), "fresh": fresh}
