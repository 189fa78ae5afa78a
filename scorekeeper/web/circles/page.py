"""A circle's own page (its members, evenings and club nights, the forms that start
or attach an evening) and the circle's PIN set or removed. A refused form of the
page shows it again with its problem (``refused_here``)."""

from __future__ import annotations

from flask import flash, render_template, request

from ... import store
from ...db import get_db
from ...rules import BOOKS
from ...words.wording import evening_names
from .. import forms
from ..circle_figures import member_of
from ..context import public_base_url, qr_svg
from ..htmx import redirect
from .links import CircleView, bp, circle_unlocked, member_id, on_circle_links, managed, pin_hash_of, unlock_circle


def seat_names(circle: store.Circle, values: dict) -> list[str]:
    """The member chosen for each seat of a new evening (else the first three members), as
    the dealer's and scorer's chips name them."""
    names = circle.names()
    chosen = []
    for seat in range(3):
        raw = values.get(f"seat_{seat}")
        member = (
            member_id(raw) if raw is not None else (circle.members[seat].id if len(circle.members) > seat else None)
        )
        chosen.append(names.get(member) or f"Seat {seat + 1}")
    return chosen


def circle_context(view: CircleView, problems: dict | None = None, values: dict | None = None) -> dict:
    db = get_db()
    circle = view.circle
    names = circle.names()
    values = {"played_on": forms.today(), **(values or {})}  # a new evening is tonight's unless said
    evenings = store.evenings(db, circle.id)
    closed = store.closed_evenings(db, circle.id)
    base = public_base_url()
    watch_url = base + view.watch_url
    return {
        "view": view,
        "circle": circle,
        "names": names,
        "evenings": evenings,
        "closed": closed,
        "evening_names": evening_names(store.evening_links(db, circle.id)),
        "books": BOOKS,
        "unlocked": circle_unlocked(circle),
        "watch_url": watch_url,
        "qr": qr_svg(watch_url),
        "manage_url": base + f"/c/{circle.id}",
        "problems": problems or {},
        "values": values,
        "seat_names": seat_names(circle, values),
        "stakes": forms.STAKE_LABELS,
        "currencies": forms.CURRENCIES,
        "today": forms.today(),
        "nights": store.nights_of_circle(db, circle.id),
    }


def circle_page(view: CircleView, problems: dict | None = None, values: dict | None = None, status: int = 200):
    return render_template("circle.html", **circle_context(view, problems, values)), status


@on_circle_links("")
def circle_home(view):
    return circle_page(view)


def refused_here(view: CircleView, refused: store.Refused, field: str, values: dict | None = None):
    problems = forms.Problems()
    for line in refused.lines():
        problems.bad(field, line)
    return circle_page(view, dict(problems), values or dict(request.form.items()), 422)


@bp.post("/c/<key>/pin")
def set_pin(key):
    view = managed(key)
    pin = request.form.get("pin", "").strip()
    if pin and not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 8):
        return refused_here(
            view, store.Refused(["A PIN is 4 to 8 digits (or leave it empty to remove it)."]), "circle_pin", {}
        )  # "pin" is the new evening's table PIN
    store.set_circle_pin(get_db(), view.circle.id, pin_hash_of(pin) if pin else None)
    if pin:
        unlock_circle(view.circle)
    flash("The circle has a new PIN." if pin else "The circle has no PIN now.")
    return redirect(view.url())


def who_in(circle: store.Circle):
    """``who(key)``: how the circle's pages and sheet name a player of its figures. The
    figures key a member by id (``#12``, ``circle_figures.member_key``): named as the
    member is named now; a seat no member took ("Ann (seat 1)") keeps its key."""
    names = circle.names()

    def who(key: str) -> str:
        member = member_of(key)
        return names.get(member, key) if member is not None else key

    return who
