"""A circle's members: a new circle with its first members (from the home page), a
member added, renamed, or two merged into one."""

from __future__ import annotations

import re

from flask import abort, flash, request

from ... import store
from ...db import get_db
from ...rules import DEFAULT_BOOK
from .. import forms
from ..creating import creator, home_page, keep_limit, storage_full, too_many_sessions
from ..htmx import redirect
from .links import bp, managed, member_id, pin_hash_of, remember_circle, unlock_circle
from .page import refused_here


def member_names(text: str) -> list[str]:
    """The names typed for a new circle: one a line, or separated by commas."""
    return [n.strip() for n in re.split(r"[,\n]", text or "") if n.strip()]


@bp.post("/circles")
def create_circle():
    try:  # a new circle counts as a new session does (a try a minute, and a cap of circles kept)
        store.count_attempt(get_db(), *creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    name, members = request.form.get("circle_name", ""), request.form.get("circle_members", "")
    pin = request.form.get("circle_pin", "").strip()
    problems = forms.Problems()
    if pin and not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 8):
        problems.bad("circle_pin", "A PIN is 4 to 8 digits (or leave it empty).")
    try:
        if problems:
            raise store.Refused([])
        circle = store.create_circle(
            get_db(),
            name,
            member_names(members),
            pin_hash_of(pin) if pin else None,
            owner=creator()[0],
            keep_limit=keep_limit("CIRCLES_PER_ADDRESS"),
        )
    except store.StorageFull as full:
        return storage_full(full)
    except store.Refused as refused:
        for p in refused.problems:
            problems.bad("circle_" + ("name" if p.key == "circle" else "members"), p.text)
        return home_page(
            {
                "rulebook": DEFAULT_BOOK,
                "played_on": forms.today(),
                "first_dealer": "0",
                "stake": "",
                "circle_name": name,
                "circle_members": members,
            },
            dict(problems),
            422,
        )
    remember_circle(circle.id)
    if circle.pin_hash:
        unlock_circle(circle)
    flash(f"{circle.name} is made, with {len(circle.members)} members. Keep this page's link: it manages the circle.")
    return redirect(f"/c/{circle.id}")


@bp.post("/c/<key>/members")
def add_member(key):
    view = managed(key)
    try:
        member = store.add_member(get_db(), view.circle.id, request.form.get("name", ""))
    except store.Refused as refused:
        return refused_here(view, refused, "add")
    flash(f"{member.name} is now a member of {view.circle.name}.")
    return redirect(view.url("#members"))


@bp.post("/c/<key>/members/<int:number>/rename")
def rename_member(key, number):
    view = managed(key)
    try:
        old, new = store.rename_member(get_db(), view.circle.id, number, request.form.get("name", ""))
    except store.NotFound:
        abort(404)
    except store.Refused as refused:
        return refused_here(view, refused, f"rename_{number}")
    flash(f"{old} is now called {new}; the sheets of past evenings keep the names as played.")
    return redirect(view.url("#members"))


@bp.post("/c/<key>/merge")
def merge_members(key):
    view = managed(key)
    keep, merged = member_id(request.form.get("keep")), member_id(request.form.get("merged"))
    if keep is None or merged is None:
        return refused_here(view, store.Refused(["Choose the two names to merge into one."]), "merge")
    try:
        kept, gone = store.merge_members(get_db(), view.circle.id, keep, merged)
    except store.NotFound:
        return refused_here(view, store.Refused(["Choose the two names to merge into one."]), "merge")
    except store.Refused as refused:
        return refused_here(view, refused, "merge")
    flash(f"{gone} and {kept} are one member now: {kept}.")
    return redirect(view.url("#members"))
