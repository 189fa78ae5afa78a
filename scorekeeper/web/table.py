"""The table page (both links) and its live part, history, undo."""

from __future__ import annotations

import os

from flask import Blueprint, abort, current_app, flash, g, make_response, render_template, request

from .. import store
from ..words.localtime import viewer_clock
from ..db import get_db
from .cache import LIVE, SHARED, SHARED_PARTS_FOLDER, VERSION_MARK
from .access import editable, is_table_page, is_unlocked, load_player_table, load_table, on_both_links
from .changes import based_on, change_or_refuse, reopen_asked, settled_ask, undo_offer
from .context import public_base_url, qr_svg, table_context
from .circles.links import circle_of
from .htmx import redirect, render
from .night_seats import night_place, own_link_codes, poll_seconds
from .change_words import ACTIONS, with_verdicts, with_what_changed

bp = Blueprint("table", __name__)


@on_both_links(bp, "")
def table_page(table):
    context = table_context(table)
    unlocked = is_unlocked(table.session)
    watch_url = public_base_url() + f"/w/{table.session.watch_id}"
    settled = store.settled_evening(get_db(), table.session.id) if table.can_edit else None
    context.update(
        unlocked=unlocked,
        watch_url=watch_url,
        qr=qr_svg(watch_url),
        undo_offer=undo_offer(table, unlocked, settled is not None),
        player_links=player_links(table),
        circle=circle_of(table.session.id),
        settled=settled,
    )
    place = night_place(table)
    if place is not None:
        context.update(
            night_place=place,
            night_poll_seconds=poll_seconds(),
            own_links=own_link_codes(place) if table.can_edit and not table.session.confirm else [],
        )
    return render("table.html", "_live.html", **context)


def player_links(table) -> list[dict]:
    """The scorer's page shows each player's own link (where hands need OKs)."""
    if not (table.can_edit and table.session.confirm):
        return []
    base = public_base_url()
    urls = [f"{base}/p/{token}" for token in store.seat_links(get_db(), table.session.id)]
    return [{"url": url, "qr": qr_svg(url)} for url in urls]


@bp.get("/s/<key>/live", defaults={"kind": "s"})
@bp.get("/w/<key>/live", endpoint="watch_live", defaults={"kind": "w"})
@bp.get("/p/<key>/live", endpoint="player_live", defaults={"kind": "p"})
def live(key, kind):
    """The table's live part, or 204 when nothing changed since version ``v``."""
    try:
        version = store.live_version(get_db(), key, kind)
    except store.NotFound:
        abort(404)
    if kind != "s":  # a watcher's or player's answer can be sent again without Flask (kept_polls)
        request.environ[VERSION_MARK] = version
    if request.args.get("v") == version:
        response = make_response("", 204)
        leave_for_the_front(key, kind, version, None)
    else:
        if kind == "s":  # the scorer's part depends on his PIN being unlocked: made each time
            body = render_template("_live.html", fresh=True, **table_context(load_table(key, True)))
        else:  # a watcher's or a player's part is the same for every phone on that link
            show_all = request.args.get("all") == "1"
            body = shared_live_part(key, kind, version, show_all)
            if not show_all:
                leave_for_the_front(key, kind, version, body.encode())
        response = make_response(body)
    response.headers["Vary"] = "HX-Request"
    return response


def shared_live_part(key: str, kind: str, version: str, show_all: bool) -> str:
    """A watcher's or player's live part of ``version``: made once, for every phone."""

    def make():
        table = load_player_table(key) if kind == "p" else load_table(key, False)
        return render_template("_live.html", fresh=True, **table_context(table))

    link = (current_app.config["DATABASE"], kind, key, show_all)
    g.compressed_as = repr((*link, version))  # compressed once, for every phone (cache.CompressedParts)
    return LIVE.get((*link, version), lambda: shared_part(link, version, make))


def renew_part(app, watch_id: str) -> None:
    """Behind the front, after a change: the watch link's new part left for it
    (server/front_polls.py), made as a poll of that link would make it."""
    base = app.config.get("PUBLIC_URL") or "https://localhost/"
    with app.test_request_context(f"/w/{watch_id}/live", base_url=base, headers={"HX-Request": "true"}):
        try:
            version = store.live_version(get_db(), watch_id, "w")
        except store.NotFound:
            return
        leave_for_the_front(watch_id, "w", version, shared_live_part(watch_id, "w", version, False).encode())


def leave_for_the_front(key: str, kind: str, version: str, body: bytes | None) -> None:
    """Behind the front, a watch link's answer is left for it to send again
    (server/front_polls.py); removed at once if the link changed meanwhile."""
    files = current_app.extensions.get("scorekeeper.front_polls")
    if files is None or kind != "w" or not files.keep(key, version, body):
        return
    try:
        if store.live_version(get_db(), key, kind) == version:
            return
    except store.NotFound:
        pass
    files.forget([key])


def shared_part(link: tuple, version: str, make) -> str:
    """The part another server process made for this version, if it did (cache.SharedParts)."""
    folder = current_app.config.get("SHARED_PARTS") or os.environ.get(SHARED_PARTS_FOLDER)
    return SHARED.get(folder, link, version, make) if folder else make()


@bp.get("/s/<key>/history")
def history(key):
    table = editable(key)
    context = table_context(table)
    rows = with_what_changed(store.history(get_db(), table.session.id), context["book"], context["names"])
    context.update(
        history=with_verdicts(rows, table.session),
        actions=ACTIONS,
        clock=viewer_clock(request.cookies),  # times in the viewer's zone
        settled=store.settled_evening(get_db(), table.session.id),
    )
    return render_template("history.html", **context)


@bp.post("/s/<key>/undo")
def undo(key):
    table = editable(key)
    return change_or_refuse(table, lambda: store.undo(get_db(), table.session.id, based_on(), reopen=reopen_asked()))


@bp.post("/s/<key>/history/<int:version>/back")
def go_back(key, version):
    """Put the saved hands back as they were at ``version`` (one more change, undoable)."""
    table = editable(key)
    return change_or_refuse(
        table, lambda: store.go_back(get_db(), table.session.id, version, based_on(), reopen=reopen_asked())
    )


@bp.route("/s/<key>/reopen", methods=["GET", "POST"])
def reopen(key):
    """A settled evening reopened on purpose, once asked (``then``: the page of
    the table to go on to, such as the next hand's form)."""
    table = editable(key)
    then = request.values.get("then", "")
    back = table.url(then if then and is_table_page(then) else "")
    settled = store.settled_evening(get_db(), table.session.id)
    if settled is None:
        return redirect(back)
    if request.method == "GET" or not reopen_asked():
        return settled_ask(
            table,
            settled,
            action=table.url("/reopen"),
            fields=[("then", then)],
            button="Reopen the evening",
            status=200 if request.method == "GET" else 409,
        )
    store.reopen_settled(get_db(), table.session.id)
    flash(
        "The evening is reopened: its circle no longer calls it settled. A change to it shows under "
        "What is owed as the difference to be paid or paid back."
    )
    return redirect(back)
