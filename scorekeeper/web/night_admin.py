"""Renaming and deleting a club night: the organizer's link only (its PIN honoured),
routes of the nights blueprint (``nights.rename``, …), kept apart from its page.

Deleting asks first, on a page of its own, and keeps the night's tables' sessions:
they are ordinary sessions, games played (perhaps with money owed, or evenings in a
circle's season), and each table's phone holds its link. A second tap of either
button does nothing more: a rename to the name it has changes nothing, a delete
finds the night gone."""

from __future__ import annotations

from flask import flash, render_template, request
from flask import session as cookie

from .. import store
from ..db import get_db
from .htmx import redirect
from .night_ratings import circle_of_night
from .nights import bp, changed, load_night, number_of


@bp.post("/night/<key>/name")
def rename(key):
    name = request.form.get("name", "")
    based_on = number_of(request.form.get("version"))
    return changed(
        key,
        lambda night: store.rename_night(get_db(), night.id, name, based_on),
        "name",
        f"The night is called {name.strip()} now.",
        "#the-night",
    )


@bp.get("/night/<key>/delete")
def delete_page(key):
    """Deleting asks first, saying what goes and what stays."""
    night = load_night(key)
    circle = circle_of_night(get_db(), night)
    tables = sum(len(r.tables) for r in night.rounds)
    return render_template("night_delete.html", night=night, circle=circle, tables=tables)


@bp.post("/night/<key>/delete")
def delete(key):
    """The night deleted, its tables' sessions kept (ordinary sessions, each at its
    own link); a second tap finds it gone and deletes nothing more."""
    try:
        store.get_night(get_db(), key)
    except store.NotFound:
        flash("That club night is deleted already: nothing more was deleted.")
        return redirect("/")
    night = load_night(key)
    try:
        kept = store.delete_night(get_db(), night.id)
    except store.NotFound:  # the first tap, a moment before
        flash("That club night is deleted already: nothing more was deleted.")
        return redirect("/")
    cookie["nights"] = [k for k in cookie.get("nights", []) if k != night.id]
    sessions = {0: "", 1: " Its table's session is kept, at its own link."}.get(
        kept, f" Its {kept} tables' sessions are kept, each at its own link."
    )
    flash(f"{night.name} is deleted: its organizer's and standings links lead nowhere now.{sessions}")
    return redirect("/")
