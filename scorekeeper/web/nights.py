"""Club nights: several tables at once, their rounds, and the standings across them.

A night's links follow a circle's: ``/night/<id>`` is the organizer's (draws the
rounds, redraws or swaps before a round begins, adds a late arrival or drops a
leaver, sets a round's end time and what the standings rank by); ``/n/<watch id>``
is the public standings (read-only; ``/screen`` is the big-screen view). Every
POST is under ``/night/`` only, so the public link can change nothing, by
construction. Each table plays an ordinary session at its own link (``/s/<id>``).

The standings are computed from each table's result (``night_results.py``: its
settlement, kept by session version in this process and in the database) and kept by the night's live key (its version and every
table session's version): a poll that finds the key unchanged is answered 204, as
a table's live poll is.
"""

from __future__ import annotations

import datetime
import threading
import time
from dataclasses import dataclass
from typing import NamedTuple

from flask import Blueprint, abort, current_app, flash, make_response, render_template, request
from flask import session as cookie
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from werkzeug.security import check_password_hash

from .. import store
from ..club.standings import TIEBREAKS, by_round, standings
from ..db import get_db
from ..rules import BOOKS, DEFAULT_BOOK
from ..rules.core import SEATS
from . import forms
from .access import REMEMBERED
from .cache import Recent
from .circles.links import managed, pin_hash_of
from .circles.members import member_names
from .context import public_base_url, qr_svg
from .creating import creator, keep_limit, storage_full, too_many_sessions
from .htmx import redirect
from .night_ratings import circle_of_night, night_ratings, ratings_key
from .night_results import night_results
from .pins import refusal

bp = Blueprint("nights", __name__)

#: Standings by (database, night id, live key): every screen and phone watching a
#: night shares one computation per change.
STANDINGS = Recent(128)
#: The night as read for a live key, and its two polled parts (``LiveParts``) as
#: rendered for it: a poll, a page and the front's files share one reading and one
#: rendering a change (the key is read first, so what is kept under it is never older).
WATCHED = Recent(128)
PARTS = Recent(128)
#: One night's parts rendered once a key in this process, not once by the renewal
#: and again by each poll that came meanwhile (a few locks, each shared by the nights
#: that fall on it).
RENDERING = [threading.Lock() for _ in range(8)]
MAX_ROUND_MINUTES = 600


# ------------------------------------------------------------------ the new-night form


@dataclass
class NightForm:
    values: dict
    problems: dict
    settings: dict | None  # create_night's keyword arguments, where the form will do


def read_night_form(form, players: list) -> NightForm:
    """The night's settings as a new session's form reads them (rule book, options,
    stake, date: ``forms.parse_new_session``, with stand-in names), its rounds and
    what its standings rank by."""
    values = {k: form.get(k, "") for k in form.keys()}
    values["present"] = form.getlist("present")  # a circle's members ticked, kept ticked
    problems = forms.Problems()
    fields = MultiDict(form)
    for seat in SEATS:  # the table's names come from the draw: stand-ins for the form's checks
        fields[f"player_{seat}"] = f"Seat {seat + 1}"
    fields["title"] = ""
    parsed = forms.parse_new_session(fields)
    for key, lines in parsed.problems.items():
        for line in lines:
            problems.bad(key, line)
    raw_rounds = form.get("rounds", "").strip()
    rounds = int(raw_rounds) if raw_rounds.isdigit() and len(raw_rounds) < 4 else None
    if rounds is None:
        problems.bad("rounds", "How many rounds? A number, such as 4.")
    rank_by = form.get("rank_by", "placings")
    if rank_by not in store.RANK_BY:
        problems.bad("rank_by", "Rank the players by placings or by counters.")
    pin = parsed.pin  # checked as a table's PIN is (4 to 8 digits)
    values.pop("pin", None)  # never echoed back into the page
    if problems:
        return NightForm(values, dict(problems), None)
    record = parsed.record
    return NightForm(
        values,
        {},
        {
            "name": form.get("name", ""),
            "players": players,
            "rulebook": record["rulebook"],
            "options": record["options"],
            "stake": record.get("stake"),
            "rounds": rounds,
            "rank_by": rank_by,
            "last_by_standings": form.get("last_by_standings") == "on",
            "played_on": record.get("played_on"),
            "pin_hash": pin_hash_of(pin) if pin else None,
        },
    )


def new_night_page(values: dict, problems: dict, circle_view=None, status: int = 200):
    return render_template(
        "night_new.html",
        values=values,
        problems=problems,
        books=BOOKS,
        stakes=forms.STAKE_LABELS,
        currencies=forms.CURRENCIES,
        view=circle_view,
        circle=circle_view.circle if circle_view else None,
    ), status


def default_values() -> dict:
    return {
        "rulebook": DEFAULT_BOOK,
        "played_on": forms.today(),
        "stake": "",
        "rounds": "4",
        "rank_by": "placings",
        "name": "Club night",
    }


def start(form, players: list, circle_view=None):
    """A night made from the form (and its players), or the form again with what was wrong (422)."""
    try:  # a new night counts as a new session does
        store.count_attempt(get_db(), *creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    parsed = read_night_form(form, players)
    if parsed.settings is None:
        return new_night_page(parsed.values, parsed.problems, circle_view, 422)
    try:
        night = store.create_night(
            get_db(), circle_id=circle_view.circle.id if circle_view else None, owner=creator()[0], **parsed.settings
        )
    except store.Refused as refused:
        problems = forms.Problems()
        for p in refused.problems:
            problems.bad(p.key if p.key in ("name", "players", "rounds", "rank_by") else "rulebook", p.text)
        return new_night_page(parsed.values, dict(problems), circle_view, 422)
    if night.pin_hash:
        unlock_night(night)
    flash(f"{night.name} is made, with {len(night.players)} players. Keep this page's link: it runs the night.")
    return redirect(f"/night/{night.id}")


@bp.get("/nights/new")
def new_night():
    return new_night_page(default_values(), {})[0]


@bp.post("/nights")
def create_night():
    return start(request.form, member_names(request.form.get("players", "")))


@bp.get("/c/<key>/nights/new")
def new_circle_night(key):
    view = managed(key)
    values = default_values() | {"name": f"{view.circle.name} club night"}
    return new_night_page(values, {}, view)[0]


@bp.post("/c/<key>/nights")
def create_circle_night(key):
    """A night of the circle's members ticked as present (each table an evening of the circle)."""
    view = managed(key)
    ticked = {int(raw) for raw in request.form.getlist("present") if raw.isdigit() and len(raw) < 12}
    players = [(m.name, m.id) for m in view.circle.members if m.id in ticked]
    return start(request.form, players, view)


# ------------------------------------------------------------------ the organizer's page


def no_night():
    """A night's link that leads nowhere (deleted, or mistyped): a 404 that says so."""
    abort(make_response(render_template("error.html", title="No club night here", message=NO_NIGHT), 404))


NO_NIGHT = (
    "This club night is not here: its organizer deleted it, or the link is not complete. "
    "Its tables' sessions are kept, each at its own link."
)
#: What a page left open on a deleted night says, in place of its last figures.
NIGHT_DELETED = "This club night was deleted by its organizer."
#: The live key of a deleted night's parts, as left for the front (no night's key is a word).
GONE = "gone"


def load_night(key: str) -> store.Night:
    """The night by its organizer's link; with a PIN, only in a browser that unlocked it."""
    try:
        night = store.get_night(get_db(), key)
    except store.NotFound:
        no_night()
    if not night_unlocked(night):
        if request.method == "GET":
            abort(redirect(f"/night/{night.id}/unlock"))
        abort(
            make_response(
                render_template(
                    "error.html", title="Locked", message="This night has a PIN: unlock it to make changes."
                ),
                403,
            )
        )
    return night


def remember_night(night_id: str) -> None:
    """This browser keeps the organizer's link (the home page lists it)."""
    mine = cookie.get("nights", [])
    if mine[:1] != [night_id]:
        cookie["nights"] = [night_id] + [k for k in mine if k != night_id][: REMEMBERED - 1]
        cookie.permanent = True


def night_unlocked(night: store.Night) -> bool:
    return not night.pin_hash or night.id in cookie.get("nights_unlocked", [])


def unlock_night(night: store.Night) -> None:
    cookie["nights_unlocked"] = [night.id] + [k for k in cookie.get("nights_unlocked", []) if k != night.id][
        :REMEMBERED
    ]


@bp.route("/night/<key>/unlock", methods=["GET", "POST"])
def unlock_page(key):
    try:
        night = store.get_night(get_db(), key)
    except store.NotFound:
        no_night()
    if not night.pin_hash:
        return redirect(f"/night/{night.id}")
    problem, status = "", 200
    if request.method == "POST":
        attempt = store.reserve_pin_try(get_db(), night.id, request.remote_addr, time.time(), kind="night")
        if attempt.id is None:
            problem, status = refusal(attempt).replace("this table", "this night"), 429
        elif check_password_hash(night.pin_hash, request.form.get("pin", "")):
            store.forget_pin_try(get_db(), attempt.id, kind="night")
            unlock_night(night)
            return redirect(f"/night/{night.id}")
        else:
            problem, status = "That PIN is not right.", 403
    return render_template("night_unlock.html", night=night, problem=problem), status


def organizer_context(night: store.Night, problems: dict | None = None) -> dict:
    base = public_base_url()
    standings_url = f"{base}/n/{night.watch_id}"
    links = {t.session_id: f"{base}/s/{t.session_id}" for r in night.rounds for t in r.tables}
    return {
        "book": BOOKS[night.rulebook],
        "problems": problems or {},
        "standings_url": standings_url,
        "standings_qr": qr_svg(standings_url),
        "links": links,
        # QR codes for the latest round's tables only: the phones of a round past have their link already
        "qrs": {t.session_id: qr_svg(links[t.session_id]) for t in (night.rounds[-1].tables if night.rounds else ())},
        "next_round": len(night.rounds) + 1,
    }


@bp.get("/night/<key>")
def organizer(key):
    night = load_night(key)
    remember_night(night.id)
    key = store.night_live_key(get_db(), night.watch_id)
    return render_template("night.html", **page_context(night, key, False), **organizer_context(night))


def refused_here(night: store.Night, refused: store.Refused, field: str):
    problems = forms.Problems()
    for line in refused.lines():
        problems.bad(field, line)
    key = store.night_live_key(get_db(), night.watch_id)
    return render_template(
        "night.html", **page_context(night, key, False), **organizer_context(night, dict(problems))
    ), 422


def changed(key: str, change, field: str, done, anchor: str = ""):
    """Make ``change`` (a store call); the organizer's page again, with its message
    (``done``, or what ``done()`` says once the change is made), or with what was
    wrong (422, nothing changed)."""
    night = load_night(key)
    try:
        change(night)
    except store.Refused as refused:
        return refused_here(night, refused, field)
    except store.NotFound:
        abort(404)
    except store.StaleEdit:  # a second tap, or another organizer's phone, changed it first
        flash("The night changed a moment ago (a second tap?): here it is as it is now. Nothing more was changed.")
        return redirect(f"/night/{night.id}{anchor}")
    flash(done() if callable(done) else done)
    return redirect(f"/night/{night.id}{anchor}")


def number_of(raw) -> int | None:
    return int(raw) if isinstance(raw, str) and raw.isdigit() and len(raw) < 12 else None


@bp.post("/night/<key>/rounds")
def draw_round(key):
    """Draw the next round (the form says which: a second tap of the same button
    finds it drawn and changes nothing)."""
    night = load_night(key)
    number = number_of(request.form.get("round"))
    if number is None:
        return refused_here(night, store.Refused(["Choose the round to draw."]), "round")
    if night.round(number) is not None:
        flash(f"Round {number} is drawn already: here are its tables.")
        return redirect(f"/night/{night.id}#round-{number}")
    ranked = None
    if night.last_by_standings and number == night.rounds_planned and number > 1:
        present = {p.name for p in night.present}
        ranked = [row.name for row in night_standings(night).overall if row.name in present]
    try:
        store.draw_round(get_db(), night.id, number, ranked, owner=creator()[0], keep_limit=keep_limit())
    except store.Refused as refused:
        if load_night(key).round(number) is not None:  # a second tap while the first was drawing it
            flash(f"Round {number} is drawn already: here are its tables.")
            return redirect(f"/night/{night.id}#round-{number}")
        return refused_here(night, refused, "round")
    except store.StorageFull as full:
        return storage_full(full)
    flash(f"Round {number} is drawn: each table opens its own link.")
    return redirect(f"/night/{night.id}#round-{number}")


@bp.post("/night/<key>/rounds/<int:number>/redraw")
def redraw_round(key, number):
    based_on = number_of(request.form.get("version"))
    return changed(
        key,
        lambda night: store.redraw_round(get_db(), night.id, number, based_on=based_on),
        f"round_{number}",
        f"Round {number} is drawn again: the tables keep their links.",
        f"#round-{number}",
    )


@bp.post("/night/<key>/rounds/<int:number>/swap")
def swap_players(key, number):
    one, other = number_of(request.form.get("one")), number_of(request.form.get("other"))

    def swap(night):
        if one is None or other is None:
            raise store.Refused([f"Choose two different players of round {number} to swap."])
        store.swap_players(get_db(), night.id, number, one, other, based_on=number_of(request.form.get("version")))

    return changed(key, swap, f"round_{number}", f"Two players of round {number} changed places.", f"#round-{number}")


@bp.post("/night/<key>/rounds/<int:number>/end")
def round_end(key, number):
    """The round ends so many minutes from now (or has no end time: empty)."""
    raw = request.form.get("minutes", "").strip()

    def set_end(night):
        if raw == "":
            ends_at = None
        elif raw.isdigit() and 1 <= int(raw) <= MAX_ROUND_MINUTES:
            ends_at = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=int(raw))).isoformat(
                timespec="seconds"
            )
        else:
            raise store.Refused([f"A round ends 1 to {MAX_ROUND_MINUTES} minutes from now (or leave it empty)."])
        store.set_round_end(get_db(), night.id, number, ends_at)

    return changed(
        key,
        set_end,
        f"round_{number}",
        f"Round {number} ends in {raw} minutes." if raw else f"Round {number} has no end time.",
        f"#round-{number}",
    )


@bp.post("/night/<key>/players")
def add_player(key):
    name = request.form.get("name", "")
    said = []

    def add(night):
        arrival = store.add_player(get_db(), night.id, name)
        said.append(
            f"{arrival.player.name} is seated from the next round drawn."
            + (f" {arrival.player.name} joined the circle." if arrival.joined else "")
        )

    return changed(key, add, "players", lambda: said[0], "#players")


@bp.post("/night/<key>/players/<int:player_id>/drop")
def drop_player(key, player_id):
    night = load_night(key)
    player = night.player(player_id)
    return changed(
        key,
        lambda n: store.drop_player(get_db(), n.id, player_id),
        "players",
        f"{player.name if player else 'The player'} is seated no more from the next round drawn.",
        "#players",
    )


@bp.post("/night/<key>/rank")
def rank_by(key):
    choice = request.form.get("rank_by", "")
    return changed(
        key,
        lambda night: store.set_rank_by(get_db(), night.id, choice),
        "rank_by",
        f"The standings rank by {choice}.",
        "#standings",
    )


# ------------------------------------------------------------------ the standings


@dataclass(frozen=True)
class NightFigures:
    overall: list  # ``club.standings.Standing``s, best first
    rounds: dict  # round number -> its tables' ``TableResult``s
    rank_by: str
    other: str
    tiebreaks: str
    gone: list  # (round, table) of tables whose session was deleted
    ratings: dict  # name -> ``club.ratings.Rating`` (night_ratings.py)
    circle_ratings: bool  # over the circle's evenings (else tonight's tables alone)


def _figures(night: store.Night, circle: store.Circle | None) -> NightFigures:
    db = get_db()
    results, gone = night_results(db, night)
    overall = standings(results, night.rank_by, [p.name for p in night.players])
    other = "counters" if night.rank_by == "placings" else "placings"
    return NightFigures(
        overall,
        by_round(results),
        night.rank_by,
        other,
        TIEBREAKS[night.rank_by],
        gone,
        night_ratings(db, night, circle, results),
        circle is not None,
    )


def night_standings(night: store.Night, live_key: str | None = None) -> NightFigures:
    """The night's standings, kept by its live key (every table session's version;
    a circle's night also by its circle's evenings, which its ratings count):
    computed once a change."""
    db = get_db()
    key = live_key or store.night_live_key(db, night.watch_id)
    circle = circle_of_night(db, night)
    return STANDINGS.get(
        (current_app.config["DATABASE"], night.id, key, ratings_key(db, circle)), lambda: _figures(night, circle)
    )


def watched(watch_id: str) -> tuple[store.Night, str]:
    read_at = time.monotonic_ns()
    try:
        key = store.night_live_key(get_db(), watch_id)
        night = night_at(watch_id, key)
    except store.NotFound:
        no_night()
    files = current_app.extensions.get("scorekeeper.front_polls")
    if files is not None and files.has_mark(watch_id, GONE):
        # deleted, then restored by a command (whose writes this process is not told of):
        # the front would tell this page's polls the night is gone
        leave_for_the_front(watch_id, key, live_parts(night, key), read_at)
    return night, key


def night_at(watch_id: str, key: str) -> store.Night:
    """The night as read once its live key was ``key`` (kept by it)."""
    return WATCHED.get(
        (current_app.config["DATABASE"], watch_id, key), lambda: store.get_night_by_watch_id(get_db(), watch_id)
    )


def standings_context(night: store.Night, key: str, screen: bool) -> dict:
    current = night.rounds[-1] if night.rounds else None
    return {
        "night": night,
        "figures": night_standings(night, key),
        "live_key": key,
        "screen": screen,
        "current": current,
        "poll_seconds": current_app.config["NIGHT_POLL_SECONDS"],
        "live_url": f"/n/{night.watch_id}{'/screen' if screen else ''}/live",
    }


def page_context(night: store.Night, key: str, screen: bool) -> dict:
    """A page's context with its polled part as rendered for the polls (``live_parts``)."""
    parts = live_parts(night, key)
    return standings_context(night, key, screen) | {
        "standings_part": Markup(parts.screen if screen else parts.standings)
    }


@bp.get("/n/<watch_id>")
def standings_page(watch_id):
    night, key = watched(watch_id)
    return render_template("night_standings.html", **page_context(night, key, False))


@bp.get("/n/<watch_id>/screen")
def screen(watch_id):
    night, key = watched(watch_id)
    return render_template("night_screen.html", **page_context(night, key, True))


@bp.get("/n/<watch_id>/live", defaults={"big": False})
@bp.get("/n/<watch_id>/screen/live", endpoint="screen_live", defaults={"big": True})
def live(watch_id, big):
    """The standings part, or 204 when nothing changed since ``v`` (one query).
    Behind the front, the answer is left for it too (server/front_polls.py)."""
    read_at = time.monotonic_ns()
    try:
        key = store.night_live_key(get_db(), watch_id)
    except store.NotFound:
        if not request.headers.get("HX-Request"):
            no_night()
        # a page left open on a deleted night: its last figures replaced, its polling ended
        response = make_response(gone_parts().screen if big else gone_parts().standings)
        response.headers["Vary"] = "HX-Request"
        return response
    if request.args.get("v") == key:
        response = make_response("", 204)
        leave_for_the_front(watch_id, key, None, read_at)
    else:
        parts = live_parts(night_at(watch_id, key), key)
        response = make_response(parts.screen if big else parts.standings)
        leave_for_the_front(watch_id, key, parts, read_at)
    response.headers["Vary"] = "HX-Request"
    return response


class LiveParts(NamedTuple):
    standings: str  # the public standings' polled part
    screen: str  # the big screen's


def live_parts(night: store.Night, key: str) -> LiveParts:
    """Both polled parts of ``key``, from one computation of the standings
    (``STANDINGS``), rendered once for every poll and page (``PARTS``)."""
    kept_as = (current_app.config["DATABASE"], night.id, key)
    kept = PARTS.peek(kept_as)
    if kept is not None:
        return kept
    # a poll that comes while the save's thread renders this key waits for that rendering
    with RENDERING[hash(night.id) % len(RENDERING)]:
        return PARTS.get(
            kept_as,
            lambda: LiveParts(
                *(
                    render_template("_night_standings.html", **standings_context(night, key, big))
                    for big in (False, True)
                )
            ),
        )


def gone_parts() -> LiveParts:
    """A deleted night's two polled parts: the message in place of the standings,
    with no hx-trigger, so a screen left open says so and polls no more."""
    return LiveParts(*(render_template("_night_gone.html", message=NIGHT_DELETED, screen=big) for big in (False, True)))


def leave_for_the_front(watch_id: str, key: str, parts: LiveParts | None, read_at: int) -> None:
    """Behind the front, the night's answers for ``key`` (read at ``read_at``) left
    for it to send again (server/front_polls.py: only if nothing read later is there)."""
    files = current_app.extensions.get("scorekeeper.front_polls")
    if files is None:
        return
    if not files.keep_night(watch_id, key, *((part.encode() for part in parts) if parts else (None, None)), read_at):
        files.forget([watch_id], "n")  # could not be written: the app answers, nothing older is sent


def renew_standings(app, watch_id: str) -> None:
    """Behind the front, after a change at the night or one of its tables: its
    standings' and big screen's new parts left for it, made as their polls would
    make them."""
    base = app.config.get("PUBLIC_URL") or "https://localhost/"
    with app.test_request_context(f"/n/{watch_id}/live", base_url=base, headers={"HX-Request": "true"}):
        read_at = time.monotonic_ns()
        try:
            key = store.night_live_key(get_db(), watch_id)
            night = night_at(watch_id, key)
        except store.NotFound:  # the night deleted: the front tells its screens so (read after any renewal
            leave_for_the_front(watch_id, GONE, gone_parts(), read_at)  # that saw it, so none is left after)
            return
        leave_for_the_front(watch_id, key, live_parts(night, key), read_at)
