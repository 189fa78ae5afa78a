"""Circles: the group that plays together, its members, its evenings.

A circle's links follow a session's (``access.py``): ``/c/<id>`` manages it
(add, rename and merge members, start or attach an evening, mark payments,
the PIN), ``/cw/<watch id>`` is the members' read-only link. Pages that only
read are registered under both (``on_circle_links``); every POST is under
``/c/`` only and goes through ``managed`` (which honours the circle's PIN), so
the members' link can change nothing, by construction.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass
from functools import lru_cache

from flask import Blueprint, abort, current_app, flash, make_response, render_template, request, session as cookie
from markupsafe import Markup
from werkzeug.datastructures import MultiDict

from .. import store
from ..club.ratings import played, ratings
from ..db import get_db
from ..rules import BOOKS, DEFAULT_BOOK, InvalidRecord
from ..files.upload import ReaderBusy, load_upload
from . import forms
from .access import REMEMBERED, remember, remembered, unlock
from .changes import keep_snapshot
from .context import public_base_url, qr_svg
from .htmx import redirect

bp = Blueprint("circles", __name__)


@dataclass
class CircleView:
    """A circle as one of its links sees it: the manage link (``can_manage``),
    unlocked in this browser or not, or the members' link."""

    circle: store.Circle
    can_manage: bool
    unlocked: bool = False

    @property
    def sees_scorer_links(self) -> bool:
        """Whether the pages may link to each evening's scorer's link: only the
        manage link, and where the circle has a PIN only once this browser
        unlocked it (else its pages are the members' link's, watch links)."""
        return self.can_manage and self.unlocked

    @property
    def kind(self) -> str:
        """What a page kept for this link is kept by: "manage", "locked" or "members"."""
        return ("manage" if self.unlocked else "locked") if self.can_manage else "members"

    def evening_url(self, session_id: str, watch_id: str) -> str:
        return f"/s/{session_id}" if self.sees_scorer_links else f"/w/{watch_id}"

    @property
    def key(self) -> str:
        return self.circle.id if self.can_manage else self.circle.watch_id

    def url(self, suffix: str = "") -> str:
        return f"/{'c' if self.can_manage else 'cw'}/{self.key}{suffix}"

    @property
    def watch_url(self) -> str:
        return f"/cw/{self.circle.watch_id}"


def on_circle_links(rule: str):
    """A read-only page under the manage link and the members' link."""
    def register(view):
        name = view.__name__.lstrip("_")
        bp.add_url_rule(f"/c/<key>{rule}", name, lambda key, **kw: view(load_circle(key, True), **kw),
                        methods=["GET"])
        bp.add_url_rule(f"/cw/<key>{rule}", f"watch_{name}", lambda key, **kw: view(load_circle(key, False), **kw),
                        methods=["GET"])
        return view
    return register


def load_circle(key: str, can_manage: bool) -> CircleView:
    try:
        circle = (store.get_circle if can_manage else store.get_circle_by_watch_id)(get_db(), key)
    except store.NotFound:
        abort(404)
    remember_circle(circle.id if can_manage else circle.watch_id)
    return CircleView(circle, can_manage, can_manage and circle_unlocked(circle))


def remember_circle(key: str) -> None:
    mine = cookie.get("circles", [])
    if mine[:1] != [key]:
        cookie["circles"] = [key] + [k for k in mine if k != key][: REMEMBERED - 1]
        cookie.permanent = True


def remembered_circles() -> list[str]:
    return cookie.get("circles", [])


def circle_unlocked(circle: store.Circle) -> bool:
    return not circle.pin_hash or circle.id in cookie.get("circles_unlocked", [])


def unlock_circle(circle: store.Circle) -> None:
    cookie["circles_unlocked"] = [circle.id] + [k for k in cookie.get("circles_unlocked", []) if k != circle.id][:REMEMBERED]


def managed(key: str) -> CircleView:
    """The manage link; with a PIN, only in a browser that unlocked it."""
    view = load_circle(key, True)
    if not circle_unlocked(view.circle):
        if request.method == "GET":
            abort(redirect(view.url("/unlock")))
        abort(make_response(render_template("error.html", title="Locked",
                                            message="This circle has a PIN: unlock it to make changes."), 403))
    return view


def circle_of(session_id: str) -> dict | None:
    """For a session's pages: the circle holding it, as this browser may open it
    (the manage link if this browser has it, else the members' link)."""
    db = get_db()
    circle_id = store.circle_of_session(db, session_id)
    if circle_id is None:
        return None
    circle = store.get_circle(db, circle_id)
    url = f"/c/{circle.id}" if circle.id in remembered_circles() else f"/cw/{circle.watch_id}"
    return {"name": circle.name, "url": url}


# ------------------------------------------------------------------ pages

def pin_hash_of(pin: str) -> str:
    from werkzeug.security import generate_password_hash

    return generate_password_hash(pin, method=store.PIN_METHOD)


def member_names(text: str) -> list[str]:
    """The names typed for a new circle: one a line, or separated by commas."""
    return [n.strip() for n in re.split(r"[,\n]", text or "") if n.strip()]


@bp.post("/circles")
def create_circle():
    from .home import creator, home_page, keep_limit, storage_full, too_many_sessions

    try:   # a new circle counts as a new session does (a try a minute, and a cap of circles kept)
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
        circle = store.create_circle(get_db(), name, member_names(members), pin_hash_of(pin) if pin else None,
                                     owner=creator()[0], keep_limit=keep_limit("CIRCLES_PER_ADDRESS"))
    except store.StorageFull as full:
        return storage_full(full)
    except store.Refused as refused:
        for p in refused.problems:
            problems.bad("circle_" + ("name" if p.key == "circle" else "members"), p.text)
        return home_page({"rulebook": DEFAULT_BOOK, "played_on": forms.today(), "first_dealer": "0", "stake": "",
                          "circle_name": name, "circle_members": members}, dict(problems), 422)
    remember_circle(circle.id)
    if circle.pin_hash:
        unlock_circle(circle)
    flash(f"{circle.name} is made, with {len(circle.members)} members. Keep this page's link: it manages the circle.")
    return redirect(f"/c/{circle.id}")


def seat_names(circle: store.Circle, values: dict) -> list[str]:
    """The member chosen for each seat of a new evening (else the first three members), as
    the dealer's and scorer's chips name them."""
    names = circle.names()
    chosen = []
    for seat in range(3):
        raw = values.get(f"seat_{seat}")
        member = member_id(raw) if raw is not None else (circle.members[seat].id if len(circle.members) > seat else None)
        chosen.append(names.get(member) or f"Seat {seat + 1}")
    return chosen


def circle_context(view: CircleView, problems: dict | None = None, values: dict | None = None) -> dict:
    db = get_db()
    circle = view.circle
    names = circle.names()
    values = {"played_on": forms.today(), **(values or {})}   # a new evening is tonight's unless said
    evenings = store.evenings(db, circle.id)
    closed = store.closed_evenings(db, circle.id)
    base = public_base_url()
    watch_url = base + view.watch_url
    return {
        "view": view, "circle": circle, "names": names, "evenings": evenings, "closed": closed,
        "evening_names": evening_names(store.evening_links(db, circle.id)),
        "books": BOOKS, "unlocked": circle_unlocked(circle), "watch_url": watch_url, "qr": qr_svg(watch_url),
        "manage_url": base + f"/c/{circle.id}", "problems": problems or {}, "values": values,
        "seat_names": seat_names(circle, values),
        "stakes": forms.STAKE_LABELS, "currencies": forms.CURRENCIES, "today": forms.today(),
        "nights": store.nights_of_circle(db, circle.id),
    }


def circle_page(view: CircleView, problems: dict | None = None, values: dict | None = None, status: int = 200):
    return render_template("circle.html", **circle_context(view, problems, values)), status


@on_circle_links("")
def circle_home(view):
    return circle_page(view)


@bp.route("/c/<key>/unlock", methods=["GET", "POST"])
def unlock_page(key):
    from .pins import refusal
    from werkzeug.security import check_password_hash

    view = load_circle(key, True)
    circle = view.circle
    if not circle.pin_hash:
        return redirect(view.url())
    problem, status = "", 200
    if request.method == "POST":
        attempt = store.reserve_pin_try(get_db(), circle.id, request.remote_addr, time.time(), kind="circle")
        if attempt.id is None:
            problem, status = refusal(attempt).replace("this table", "this circle"), 429
        elif check_password_hash(circle.pin_hash, request.form.get("pin", "")):
            store.forget_pin_try(get_db(), attempt.id, kind="circle")
            unlock_circle(circle)
            return redirect(view.url())
        else:
            problem, status = "That PIN is not right.", 403
    return render_template("circle_unlock.html", view=view, circle=circle, problem=problem), status


def refused_here(view: CircleView, refused: store.Refused, field: str, values: dict | None = None):
    problems = forms.Problems()
    for line in refused.lines():
        problems.bad(field, line)
    return circle_page(view, dict(problems), values or dict(request.form.items()), 422)


def member_id(raw) -> int | None:
    return int(raw) if isinstance(raw, str) and raw.isdigit() and len(raw) < 12 else None


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


@bp.post("/c/<key>/pin")
def set_pin(key):
    view = managed(key)
    pin = request.form.get("pin", "").strip()
    if pin and not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 8):
        return refused_here(view, store.Refused(["A PIN is 4 to 8 digits (or leave it empty to remove it)."]),
                            "circle_pin", {})   # "pin" is the new evening's table PIN
    store.set_circle_pin(get_db(), view.circle.id, pin_hash_of(pin) if pin else None)
    if pin:
        unlock_circle(view.circle)
    flash("The circle has a new PIN." if pin else "The circle has no PIN now.")
    return redirect(view.url())


# ------------------------------------------------------------------ evenings

@bp.post("/c/<key>/sessions")
def start_session(key):
    """A new evening: three members picked for the seats, in the order they sit, and the
    home page's new-session options (the same form fields and reader, ``forms.parse_new_session``)."""
    from .home import creator, keep_limit, storage_full, too_many_sessions

    view = managed(key)
    circle = view.circle
    try:
        store.count_attempt(get_db(), *creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    ids = [member_id(request.form.get(f"seat_{s}")) for s in range(3)]
    problems = store.seat_members_problems(circle, ids)
    if problems:
        return refused_here(view, store.Refused(problems), "seats")
    fields = MultiDict(request.form)
    for seat, mid in enumerate(ids):
        fields[f"player_{seat}"] = circle.member(mid).name
    parsed = forms.parse_new_session(fields)
    if parsed.record is None:
        problems = forms.Problems()
        for field, lines in parsed.problems.items():
            for line in lines:
                problems.bad("seats" if field.startswith("player_") else field, line)
        return circle_page(view, dict(problems), dict(request.form.items()), 422)
    # the table's PIN: the one typed, else the circle's
    pin_hash = pin_hash_of(parsed.pin) if parsed.pin else circle.pin_hash
    try:
        session = store.create_session(get_db(), parsed.record, parsed.first_dealer, pin_hash=pin_hash,
                                       scorer=parsed.scorer, owner=creator()[0], keep_limit=keep_limit(),
                                       circle=(circle.id, ids))
    except store.StorageFull as full:
        return storage_full(full)
    keep_snapshot(session)
    remember(session.id)
    if pin_hash:
        unlock(session)   # the circle's PIN is the table's (this phone knew it), or it was typed here
    return redirect(f"/s/{session.id}")


SESSION_LINK = re.compile(r"(?:^|/)s/([A-Za-z0-9_-]{24})(?:[/?#]|\Z)|\A([A-Za-z0-9_-]{24})\Z")


@bp.post("/c/<key>/attach")
def attach_by_link(key):
    """An evening already played here, by its scorer's link: on to matching its names to members."""
    view = managed(key)
    raw = request.form.get("link", "").strip()
    match = SESSION_LINK.search(raw)
    session_id = (match.group(1) or match.group(2)) if match else None
    try:
        session = store.get_session(get_db(), session_id) if session_id else None
    except store.NotFound:
        session = None
    if session is None:
        line = ("That is a watch link: paste the scorer's link (it has /s/ in it)." if "/w/" in raw else
                "Paste the scorer's link of a session here (it has /s/ in it).")
        return refused_here(view, store.Refused([line]), "attach")
    return redirect(view.url(f"/attach/{session.id}"))


@bp.post("/c/<key>/import")
def attach_import(key):
    """A session file or sheet PDF, imported as a session, then matched to members."""
    from .home import creator, keep_limit, storage_full, too_many_sessions

    view = managed(key)
    try:
        store.count_attempt(get_db(), *creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    upload = request.files.get("file")
    text = upload.read() if upload is not None and upload.filename else b""
    try:
        record = load_upload(text, isolated=True)
        already = store.same_session(get_db(), [i for i in remembered() if store.is_token(i)], record)
        session = already or store.create_session(get_db(), record, action="import", owner=creator()[0],
                                                  keep_limit=keep_limit())
    except store.StorageFull as full:
        return storage_full(full)
    except ReaderBusy:
        return refused_here(view, store.Refused(["Another PDF is being read right now. Try again in a few seconds."]),
                            "import")
    except (InvalidRecord, store.Refused) as refused:
        return refused_here(view, store.Refused([str(p) for p in refused.problems]), "import")
    if already is None:
        keep_snapshot(session)
    remember(session.id)
    return redirect(view.url(f"/attach/{session.id}"))


def attach_context(view, session, problems=None, chosen=None):
    circle = view.circle
    guess = store.likely_members(circle, session.players)
    return {"view": view, "circle": circle, "session": session, "books": BOOKS, "problems": problems or {},
            "chosen": chosen or ["" if g is None else str(g) for g in guess],
            "held": store.circle_of_session(get_db(), session.id)}


@bp.route("/c/<key>/attach/<session_id>", methods=["GET", "POST"])
def attach_session(key, session_id):
    """Each name as played, matched to a member (or a new member of that name)."""
    view = managed(key)
    try:
        session = store.get_session(get_db(), session_id)
    except store.NotFound:
        abort(404)
    if request.method == "GET":
        return render_template("circle_attach.html", **attach_context(view, session))
    chosen = [request.form.get(f"seat_{s}", "") for s in range(3)]
    db, circle = get_db(), view.circle
    wanted = [session.players[seat] if raw == "new" else member_id(raw) for seat, raw in enumerate(chosen)]
    try:
        store.attach_session(db, circle.id, session.id, wanted)
    except store.Refused as refused:
        problems = forms.Problems()
        for line in refused.lines():
            problems.bad("seats", line)
        return render_template("circle_attach.html", **attach_context(view, session, dict(problems), chosen)), 422
    except store.NotFound:
        abort(404)
    flash(f"{session.title or ' · '.join(session.players)} is now an evening of {circle.name}.")
    return redirect(view.url())


@bp.post("/c/<key>/evenings/<session_id>/detach")
def detach_session(key, session_id):
    view = managed(key)
    try:
        store.detach_session(get_db(), view.circle.id, session_id)
    except store.NotFound:
        abort(404)
    except store.Refused as refused:
        return refused_here(view, refused, "evenings")
    flash("That evening is no longer one of the circle's (the session itself is kept).")
    return redirect(view.url())


@on_circle_links("/export.json")
def export(view):
    response = make_response(store.archive(get_db(), view.circle))
    response.headers["Content-Type"] = "application/json"
    response.headers["Content-Disposition"] = f'attachment; filename="circle-{safe_name(view.circle.name)}.json"'
    return response


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower() or "circle"


@bp.post("/circles/import")
def import_circle():
    """A circle's archive (``gleek-circle/1``), as a new circle with new links."""
    from ..rules.record import NotJSON, decode_json
    from .home import creator, keep_limit, storage_full, too_many_sessions

    try:
        store.count_attempt(get_db(), *creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    upload = request.files.get("file")
    data = upload.read(MAX_ARCHIVE_BYTES + 1) if upload is not None and upload.filename else b""
    problems = []
    if len(data) > MAX_ARCHIVE_BYTES:
        problems = [f"That archive is too large (at most {MAX_ARCHIVE_BYTES // (1024 * 1024)} MB)."]
    else:
        try:
            found = decode_json(data)
        except NotJSON as why:
            problems = [f"That is not a circle's archive: not valid JSON ({why})."]
    if not problems:
        try:
            circle = store.import_archive(get_db(), found, owner=creator()[0],
                                         keep_limit=keep_limit("CIRCLES_PER_ADDRESS"), sessions_limit=keep_limit())
        except store.StorageFull as full:
            return storage_full(full)
        except store.Refused as refused:
            problems = refused.lines()
    if problems:
        return render_template("import_failed.html", problems=problems), 422
    remember_circle(circle.id)
    flash(f"{circle.name} is imported, with its {len(circle.members)} members and its evenings.")
    return redirect(f"/c/{circle.id}")


MAX_ARCHIVE_BYTES = 32 * 1024 * 1024


# ------------------------------------------------------------------ the season

@lru_cache(maxsize=8192, typed=True)
def amount_text(amount, currency) -> str:
    """An exact amount as the table says it: counters (currency None), or money.
    (Kept by value: a season's pages say the same few hundred amounts thousands of times.)"""
    from ..words.money import value_text
    from ..rules.core import format_counters

    if currency is None:
        return f"{format_counters(amount)} counter{'s' if amount != 1 else ''}"
    return value_text(amount, {"currency": currency})


@lru_cache(maxsize=8192, typed=True)
def signed_amount(amount, currency) -> str:
    from ..words.money import value_text
    from ..rules.core import signed_counters

    if currency is None:
        return signed_counters(amount)
    return ("+" if amount > 0 else "") + value_text(amount, {"currency": currency})


def day_text(played_on: str | None) -> str:
    """"14 Nov" (the year too when not this year's)."""
    from datetime import date

    return _day_text(played_on, date.today().year)


@lru_cache(maxsize=4096)
def _day_text(played_on: str | None, this_year: int) -> str:
    from datetime import date

    if not played_on:
        return "undated"
    try:
        d = date.fromisoformat(played_on)
    except ValueError:
        return played_on
    return f"{d.day} {MONTHS[d.month - 1]}" + ("" if d.year == this_year else f" {d.year}")


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def evening_names(links: list[store.EveningLink], dated: bool = True) -> dict:
    """session id -> how the circle's pages and sheet name that evening: its date
    ("14 Nov"; with ``dated`` False, not even the date), else its title, else its
    number in the circle ("Evening 3"). Never by its session id: that is its
    scorer's link, and the members' link and the sheet are for everyone."""
    return {e.session_id: day_text(e.played_on) if dated and e.played_on else e.title or f"Evening {number}"
            for number, e in enumerate(links, 1)}


def season_context(view: CircleView, chosen=(None, None, None)) -> dict:
    """What the season's pages say. Figures that add up evenings are in money per currency
    (``money``: ``rules.season.in_money``; counters only for evenings without a stake):
    ``nets(p, field)`` says a member's ``Net`` field (total, best, worst, average) per unit;
    ``shown(p, statistic)`` a member's value of each of ``statistics`` (``rules/statistics.py``)."""
    from ..rules.statistics import STATISTICS
    from ..words.season_text import in_units, statistic_text, unit_words
    from .circle_figures import member_of, money_of, season_of

    db, circle = get_db(), view.circle
    season, key = season_of(db, circle, chosen)
    money = money_of(season, key)
    names = circle.names()

    def nets(player: str, field: str) -> str:
        return in_units({u: getattr(n, field) for u, n in money.stats[player].items()}, money.units,
                        nearest=field == "average")

    def phase_net(player: str, phase: str) -> str:
        return in_units({u: n.phases[phase] for u, n in money.stats[player].items() if phase in n.phases},
                        money.units)

    def shown(player: str, statistic) -> str:
        return statistic_text(statistic, season.stats[player], money.stats[player], money.units)

    def pair_net(a: str, b: str) -> str:
        return in_units(money.head_to_head[a][b], money.units)

    def unit_name(unit) -> str:
        return unit_words(unit, money.units)

    def who(key: str) -> str:
        member = member_of(key)
        return names.get(member, key) if member is not None else key
    def links() -> dict:
        return {e.session_id: view.evening_url(e.session_id, e.watch_id) for e in store.evening_links(db, circle.id)}

    def named() -> dict:
        return evening_names(store.evening_links(db, circle.id))
    return {"view": view, "circle": circle, "season": season, "who": who, "books": BOOKS, "links": links,
            "evening_names": named,
            "chosen": dict(zip(("since", "until", "rulebook"), chosen)), "amount": amount_text,
            "signed": signed_amount, "day": day_text, "cache_key": key, "phase_names": phase_names,
            "money": money, "nets": nets, "phase_net": phase_net, "pair_net": pair_net, "unit_name": unit_name,
            "statistics": STATISTICS.shown(), "shown": shown}


def phase_names(season) -> list:
    """Every phase any member has a net in, in the order first met."""
    seen = {}
    for stats in season.stats.values():
        for phase in stats.phases:
            seen.setdefault(phase, None)
    return list(seen)


def cached_page(template: str, fragment: str, context: dict, extra=()):
    """A season page: its figures' part (``fragment``) rendered once per (season,
    link) and kept by the versions it comes from; the page around it (flashed
    lines, the filter as chosen) rendered each time. An htmx request gets the part."""
    from .circle_figures import PAGES
    from .htmx import is_fragment_request

    view = context["view"]
    key = (context["cache_key"], fragment, view.kind, *extra)
    html = PAGES.get(key, lambda: render_template(fragment, **dict(context, links=context["links"](),
                                                                   evening_names=context["evening_names"]())))
    if not is_fragment_request():
        html = render_template(template, part=Markup(html), **context)
    response = make_response(html)
    response.headers.add("Vary", "HX-Request")
    return response


@on_circle_links("/ledger")
def ledger(view):
    from ..printing.chart import SCREEN_TYPE, balance_chart_svg
    from ..rules.season import unit_of
    from .circle_figures import filter_of

    chosen = filter_of(request.args)
    context = season_context(view, chosen)
    season, who, money = context["season"], context["who"], context["money"]
    show_all = request.args.get("all") == "1"
    first = 0 if show_all else max(0, len(season.evenings) - LEDGER_ROWS)

    def chart(unit):
        """The running totals of the evenings in one currency (or without a stake): never two added."""
        running = [row for e, row in zip(season.evenings, money.running) if unit_of(e) == unit]
        return balance_chart_svg([who(p) for p in season.players], thinned(running), width=380, height=260,
                                 title=f"Running totals, evening by evening, {context['unit_name'](unit)}",
                                 x_label="evening", unit=unit, font=SCREEN_TYPE)
    context.update(chart=chart, first=first, unit_of=unit_of,
                   rows=list(zip(season.evenings, money.running))[first:])
    return cached_page("circle_ledger.html", "_circle_ledger.html", context, extra=(first,))


#: Evenings the ledger lists unless all are asked for (the running totals count every one).
LEDGER_ROWS = 100
#: Points a chart line has at most: a phone's chart is 380 px wide.
CHART_POINTS = 200


def thinned(running) -> list:
    """At most CHART_POINTS of the running totals, evenly chosen, the last always
    (the chart's x is then the evening's place as drawn, not its number)."""
    running = list(running)
    if len(running) <= CHART_POINTS:
        return running
    step = len(running) / CHART_POINTS
    picked = sorted({min(len(running) - 1, int(i * step)) for i in range(CHART_POINTS)} | {len(running) - 1})
    return [running[i] for i in picked]


@on_circle_links("/stats")
def stats(view):
    from .circle_figures import filter_of

    from ..printing.chart import SCREEN_TYPE, bars_svg

    context = season_context(view, filter_of(request.args))
    who, money = context["who"], context["money"]
    context["bars"] = lambda unit: bars_svg([(who(p), v) for p, v in money.balances[unit].items()],
                                            title=f"Each member's net over the season, {context['unit_name'](unit)}",
                                            unit=unit, font=SCREEN_TYPE)
    context["ratings"] = lambda: ranked_ratings(context["season"].evenings)
    return cached_page("circle_stats.html", "_circle_stats.html", context)


def ranked_ratings(evenings) -> list:
    """Each member's rating over the evenings shown (each with a hand saved a
    three-player free for all, in date order), the best first by mu less three
    sigmas: ``(member key, Rating)``."""
    rated = ratings(played(evenings))
    return sorted(rated.items(), key=lambda item: -item[1].shown)


@on_circle_links("/owed")
def owed_page(view):
    return owed_response(view)


def owed_response(view: CircleView, problems: dict | None = None, status: int = 200):
    """The owed page; its part kept by the versions it comes from (not when it says a problem)."""
    from .circle_figures import PAGES, evenings_key

    db = get_db()
    if problems:   # after a refused change: the circle as it is now (its version is what the forms carry)
        view = CircleView(store.get_circle(db, view.circle.id), view.can_manage, view.unlocked)
    key = (*evenings_key(db, view.circle), view.kind, forms.today())
    context = None

    def make():
        nonlocal context
        context = owed_context(view, problems)
        return render_template("_circle_owed.html", **context)
    html = make() if problems else PAGES.get(("owed", *key), make)
    return render_template("circle_owed.html", part=Markup(html), view=view, circle=view.circle), status


def owed_context(view: CircleView, problems: dict | None = None) -> dict:
    from .circle_figures import member_key, member_of, open_debts, owed_alone

    db, circle = get_db(), view.circle
    names = circle.names()
    debts, open_figures = open_debts(db, circle)

    def who(key: str) -> str:
        member = member_of(key)
        return names.get(member, key) if member is not None else key
    open_ids = {f.key for f in open_figures}
    closed = store.closed_evenings(db, circle.id)
    named = evening_names(store.evening_links(db, circle.id))
    paid = store.payments(db, circle.id)
    # an evening changed after payments were marked for it alone (reopened): what it
    # still owes by itself, so the difference is said beside it, not its whole balance
    paid_alone = {p.evenings[0] for p in paid if len(p.evenings) == 1}
    reopened = {f.key: owed_alone(f, paid) for f in open_figures if f.key in paid_alone}
    return {"view": view, "circle": circle, "debts": debts, "open_figures": open_figures, "who": who,
            "reopened": reopened,
            "version": circle.version, "payer_of": payer_of(open_figures), "member_of": member_of,
            "amount": amount_text, "signed": signed_amount, "day": day_text, "evening_names": named,
            "closed": closed, "paid": sorted(paid, key=lambda p: p.id, reverse=True), "open_ids": open_ids,
            "member_key": member_key, "unlocked": circle_unlocked(circle), "problems": problems or {},
            "today": forms.today(), "for_text": for_text(named), "OPEN_LISTED": 30}


def payer_of(open_figures) -> dict:
    """Each open evening's biggest loser (a member id): who "Settled at the table" is marked by, unless changed."""
    from .circle_figures import member_of

    return {f.key: member_of(min(zip(f.money if f.money else f.totals, f.players))[1]) for f in open_figures}


def for_text(named: dict):
    """"14 Nov and 21 Nov" (``evening_names``); a long run of evenings as its first and
    last ("14 Nov … 3 Mar, 40 evenings")."""
    order = {session_id: number for number, session_id in enumerate(named)}

    def text(ids) -> str:
        days = [named.get(i, "an evening") for i in sorted(ids, key=lambda i: order.get(i, len(order)))]
        if len(days) > 4:
            return f"{days[0]} … {days[-1]}, {len(days)} evenings"
        return " and ".join(days) if len(days) <= 2 else ", ".join(days[:-1]) + " and " + days[-1]
    return text


@bp.post("/c/<key>/owed/pay")
def mark_paid(key):
    """A payment still owed, marked paid (by whom, on which day): once, however often it is posted."""
    from .owed import NotOwed, mark_paid as mark, paid_line, posted

    view = managed(key)
    db, circle = get_db(), view.circle
    try:
        till = mark(db, circle, posted(circle))
    except NotOwed as stale:
        return owed_response(view, {"stale": [stale.line]}, 409)
    except store.Refused as refused:
        return owed_response(view, {"pay": refused.lines()}, 422)
    flash(paid_line(circle, till))
    return redirect(view.url("/owed"))


@bp.post("/c/<key>/owed/<session_id>/settle")
def settle_evening(key, session_id):
    """An evening settled at the table: its own payments marked paid, and it closes."""
    from .owed import NotOwed, paid_line, posted, settle_evening as settle

    view = managed(key)
    db, circle = get_db(), view.circle
    if store.circle_of_session(db, session_id) != circle.id:
        abort(404)
    try:
        till = settle(db, circle, session_id, posted(circle))
    except NotOwed as stale:
        return owed_response(view, {"stale": [stale.line]}, 409)
    except store.Refused as refused:
        return owed_response(view, {f"settle_{session_id}": refused.lines()}, 422)
    flash(paid_line(circle, till))
    return redirect(view.url("/owed"))


@bp.post("/c/<key>/owed/payments/<int:payment_id>/undo")
def undo_payment(key, payment_id):
    from .owed import taken_back_line

    view = managed(key)
    try:
        store.undo_payment(get_db(), view.circle.id, payment_id)
    except store.NotFound:
        return owed_response(view, {"stale": [taken_back_line()]}, 409)
    flash("That payment is taken back: its evenings are open again.")
    return redirect(view.url("/owed"))


# ------------------------------------------------------------------ the season sheet

SEASON_PDFS = None


def named_season(view: CircleView, chosen):
    """The season and what is still owed with the members' names (the figures name
    members by id) and each evening's name (they are keyed by session id: the sheet
    names an undated evening by its title or number, never by its scorer's link),
    for the printed sheet."""
    from ..rules.season import season
    from .circle_figures import figures, member_of, open_debts

    db, circle = get_db(), view.circle
    names = circle.names()
    evening = evening_names(store.evening_links(db, circle.id), dated=False)

    def who(key: str) -> str:
        member = member_of(key)
        return names.get(member, key) if member is not None else key

    def replaced(record, **changes):
        return type(record)(**dict(zip(record._fields, record), **changes))

    def renamed(f):
        return replaced(f, key=evening.get(f.key, "An evening"), players=tuple(who(p) for p in f.players))
    debts, _ = open_debts(db, circle)
    debts = [replaced(d, payer=who(d.payer), payee=who(d.payee),
                      evenings=tuple(evening.get(key, "An evening") for key in d.evenings)) for d in debts]
    return season([renamed(f) for f in figures(db, circle.id)], *chosen), debts


@on_circle_links("/season.pdf")
def season_pdf(view):
    """The season sheet (A4 or Letter), the circle's archive attached. Kept by the
    versions it comes from; rendered by the session sheets' renderer process, with
    their turns and limits (``pdf.py``: a few a minute per device, the manage link as
    the scorer's): beyond them, a 503 or a 429."""
    from ..printing.pdf import SEASONS, Busy, Failed, TooMany, render_pdf
    from ..printing.season_sheet import print_season_pdf, season_pdf_parts
    from .cache import Recent
    from .circle_figures import evenings_key, filter_of
    from .sheets import content_disposition, paper, refusal

    global SEASON_PDFS
    if SEASON_PDFS is None:
        SEASON_PDFS = Recent(4)
    config = current_app.config
    chosen_paper, chosen = paper(), filter_of(request.args)
    circle = view.circle
    # kept per kind of link: what the members' link is sent is rendered for it
    key = ("season", config["DATABASE"], *evenings_key(get_db(), circle), view.kind, chosen, chosen_paper)

    def parts():   # once the renderer has a place for it
        season, debts = named_season(view, chosen)
        archive = store.archive(get_db(), circle).encode("utf-8")
        return season_pdf_parts(season, debts, circle.name, "Letter" if chosen_paper == "letter" else "A4",
                                attachment=(archive, f"circle-{safe_name(circle.name)}.json"))
    try:
        pdf = SEASON_PDFS.get(key, lambda: render_pdf(
            key, None, chosen_paper, config["PDF_WAITING"], os.path.join(current_app.instance_path, "season-pdf.lock"),
            scorer=view.can_manage, client=f"{config['DATABASE']} {request.remote_addr or 'unknown'}",
            per_minute=config["PDF_RENDERS_PER_MINUTE"], parts_of=parts, printer=print_season_pdf, lane=SEASONS))
    except (Busy, TooMany) as refused:
        if isinstance(refused, Failed):
            current_app.logger.error("The PDF renderer process failed for a season sheet")
        return refusal(refused, view.url(), "season sheet")
    response = make_response(pdf)
    response.headers["Content-Type"] = "application/pdf"
    response.headers["Content-Disposition"] = content_disposition("inline", f"{circle.name} season", "pdf")
    return response
