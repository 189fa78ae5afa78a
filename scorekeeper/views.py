"""Routes. Thin: parse → call rules/store → render."""

from __future__ import annotations

import json
import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache

from flask import (Blueprint, Response, abort, current_app, flash, make_response, render_template,
                   request, session as cookie, url_for)

from . import forms, store
from .app import get_db
from .htmx import redirect, render
from .rules import BOOKS, DEFAULT_BOOK, PHASES, InvalidRecord
from .rules.core import RANKS, SEATS, add, eldest, middle
from .rules.record import dump, load, settle

bp = Blueprint("views", __name__)

REMEMBERED = 30
NOT_SAVED = "Not saved yet: answer what is marked below, then Save again."
RECENT_HANDS = 24  # hands listed on the table page; the rest behind 'Show all'


# ------------------------------------------------------------ helpers

@dataclass
class Table:
    """A session as one of its two links sees it."""

    session: store.Session
    can_edit: bool

    @property
    def key(self) -> str:
        return self.session.id if self.can_edit else self.session.watch_id

    @property
    def prefix(self) -> str:
        return "s" if self.can_edit else "w"

    def url(self, suffix: str = "") -> str:
        return f"/{self.prefix}/{self.key}{suffix}"


def on_both_links(rule: str):
    """Register a read-only page under the scorer's link (/s/<key>…) and the
    watchers' link (/w/<key>…); the view gets the ``Table`` as that link sees it."""
    def register(view):
        name = view.__name__.lstrip("_")

        def scorer(key, **kwargs):
            return view(load_table(key, True), **kwargs)

        def watcher(key, **kwargs):
            return view(load_table(key, False), **kwargs)

        bp.add_url_rule(f"/s/<key>{rule}", name, scorer, methods=["GET"])
        bp.add_url_rule(f"/w/<key>{rule}", f"watch_{name}", watcher, methods=["GET"])
        return view
    return register


def load_table(key: str, can_edit: bool) -> Table:
    try:
        if can_edit:
            session = store.get_session(get_db(), key)
        else:
            session = store.get_session_by_watch_id(get_db(), key)
    except store.NotFound:
        abort(404)
    remember(session.id if can_edit else session.watch_id)
    return Table(session, can_edit)


def remember(key: str) -> None:
    """The home page lists only the sessions this browser created or opened."""
    mine = [k for k in cookie.get("mine", []) if k != key]
    cookie["mine"] = [key] + mine[: REMEMBERED - 1]
    cookie.permanent = True


def keep_snapshot(session: store.Session) -> store.Session:
    """A JSON snapshot after every committed change (instance/backups/, the last few).
    The change is already committed: a failed snapshot is logged, not shown."""
    from .backup import snapshot_session

    try:
        snapshot_session(session, current_app.config["BACKUP_DIR"], current_app.config["BACKUP_KEEP"])
    except (OSError, ValueError) as error:  # pragma: no cover - a full disk, say
        current_app.logger.warning("snapshot of %s failed: %s", session.id, error)
    return session


def names(session: store.Session) -> tuple:
    return tuple(session.players)


def money(amount, stake) -> str | None:
    if not stake:
        return None
    try:
        from .money import money as format_money
    except ImportError:  # pragma: no cover - money.py ships with the app
        return None
    return format_money(amount, stake)


_SETTLED: "OrderedDict[tuple, object]" = OrderedDict()
_SETTLED_LOCK = threading.Lock()


def settlement_of(session: store.Session):
    """``settle`` of the session, cached by (id, version): every change bumps the
    version, so a cached settlement is never stale, and the viewers polling a
    table share one computation per saved hand."""
    key = (session.id, session.version)
    with _SETTLED_LOCK:
        if key in _SETTLED:
            _SETTLED.move_to_end(key)
            return _SETTLED[key]
    settlement = settle(session.record())
    with _SETTLED_LOCK:
        _SETTLED[key] = settlement
        while len(_SETTLED) > 64:
            _SETTLED.popitem(last=False)
    return settlement


def table_context(table: Table) -> dict:
    session = table.session
    book = BOOKS[session.rulebook]
    settlement = settlement_of(session)
    dealer = session.next_dealer()
    return {
        "table": table,
        "session": session,
        "book": book,
        "settlement": settlement,
        "names": names(session),
        "next_dealer": dealer,
        "next_eldest": eldest(dealer),
        "money": lambda amount: money(amount, session.stake),
        "ruff_opening": book.ruff_opening(session.hands),
        "poll_seconds": current_app.config["POLL_SECONDS"],
        "show_all": request.args.get("all") == "1",
        "recent_hands": RECENT_HANDS,
    }


def public_base_url() -> str:
    """The address other phones can open: never 'localhost' in a QR code."""
    configured = current_app.config.get("PUBLIC_URL") or os.environ.get("SCOREKEEPER_PUBLIC_URL")
    host = request.host
    hostname = host.rsplit(":", 1)[0] if not host.startswith("[") else host
    if configured and hostname in ("localhost", "127.0.0.1", "[::1]"):
        return configured.rstrip("/")  # `make run` serves on the LAN: show that address
    return f"{request.scheme}://{host}"


@lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    import segno

    return segno.make(url, error="m").svg_inline(scale=4, dark="#000", light="#fff", border=2,
                                                 omitsize=True)


# ------------------------------------------------------------ home, new session, import

@bp.get("/")
def home():
    return _home_page({"rulebook": DEFAULT_BOOK, "played_on": forms.today(), "first_dealer": "0",
                       "stake": ""}, {})


def _home_page(values: dict, problems: dict, status: int = 200):
    """This browser's sessions, the new-session form (with what was typed) and import."""
    mine = store.sessions_by_ids(get_db(), cookie.get("mine", []))
    for row in mine:
        row["players"] = json.loads(row["players"])
        row["can_edit"] = row["id"] in cookie.get("mine", [])
    return render_template("home.html", mine=mine, books=BOOKS, values=values, problems=problems,
                           stakes=forms.STAKE_LABELS, currencies=forms.CURRENCIES), status


def creator() -> tuple[str, int]:
    """Who is creating a session, for the per-address limit: (address, limit a minute)."""
    return request.remote_addr or "unknown", current_app.config["SESSIONS_PER_MINUTE"]


def too_many_sessions(limited: store.RateLimited):
    """429, saying when to try again (Retry-After too)."""
    headers = {"Retry-After": str(limited.retry_after)}
    if request.is_json:
        return {"problems": [str(limited)], "retry_after": limited.retry_after}, 429, headers
    return render_template("error.html", title="Too many new sessions", message=str(limited)), 429, headers


@bp.post("/sessions")
def create_session():
    parsed = forms.parse_new_session(request.form)
    if parsed.record is None:
        return _home_page(parsed.values, parsed.problems, 422)
    pin_hash = None
    if parsed.pin:
        from werkzeug.security import generate_password_hash

        pin_hash = generate_password_hash(parsed.pin)
    try:
        session = store.create_session(get_db(), parsed.record, parsed.first_dealer, pin_hash=pin_hash,
                                       creator=creator())
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    keep_snapshot(session)
    remember(session.id)
    if pin_hash:
        cookie["unlocked"] = [session.id] + cookie.get("unlocked", [])[:REMEMBERED]
    return redirect(f"/s/{session.id}")


@bp.post("/import")
def import_record():
    upload = request.files.get("file")
    if upload is not None and upload.filename:
        text = upload.read()
    elif request.is_json or (request.mimetype or "").endswith("json"):
        text = request.get_data()
    else:
        text = request.form.get("record", "").encode()
    problems = []
    try:
        record = load(text)
        session = store.create_session(get_db(), record, action="import", creator=creator())
        keep_snapshot(session)
    except store.RateLimited as limited:
        return too_many_sessions(limited)
    except InvalidRecord as invalid:
        problems = [str(p) for p in invalid.problems]
    except store.Refused as refused:
        problems = refused.problems
    if problems:
        if request.is_json:
            return {"problems": problems}, 422
        return render_template("import_failed.html", problems=problems), 422
    remember(session.id)
    return redirect(f"/s/{session.id}")


@bp.get("/rules")
def rules():
    return render_template("rules.html", books=BOOKS.values(), phases=PHASES)


@bp.get("/favicon.ico")
def favicon():
    return current_app.send_static_file("icons/icon-192.png")


@bp.get("/manifest.webmanifest")
def manifest():
    data = {
        "name": "Gleek scorekeeper",
        "short_name": "Gleek",
        "start_url": "/",
        "display": "standalone",
        "background_color": "#14231c",
        "theme_color": "#14231c",
        "icons": [
            {"src": url_for("static", filename="icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": url_for("static", filename="icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        ],
    }
    return Response(json.dumps(data), mimetype="application/manifest+json")


# ------------------------------------------------------------ the table



def not_changed(table: Table, message: str, status: int):
    """A refused delete or undo: say why, change nothing, offer the way back."""
    return render_template("error.html", title="Nothing changed", message=message,
                           back=table.url()), status


def balance_changes(before, after, players) -> str:
    """What an edit did to the balances: "Ben +17 → +15, Cat +32 → +34"."""
    from .rules.core import signed_counters

    moved = [f"{players[s]} {signed_counters(b)} → {signed_counters(a)}"
             for s, (b, a) in enumerate(zip(before.balances, after.balances)) if a != b]
    return "Balances: " + ", ".join(moved) + "." if moved else "The balances did not change."


def change_or_refuse(table: Table, change):
    """Run a one-tap change (delete, undo): back to the table offering to undo it,
    or say why nothing changed."""
    try:
        keep_snapshot(change())
    except store.StaleEdit as stale:
        return not_changed(table, str(stale), 409)
    except store.Refused as refused:
        return not_changed(table, "; ".join(refused.problems), 422)
    offer_undo()
    return redirect(table.url())


def offer_undo() -> None:
    """After a change, the next table page offers to undo it (once: not on reload)."""
    cookie["offer_undo"] = True


def undo_offer(table: Table) -> dict | None:
    if not (table.can_edit and cookie.pop("offer_undo", False) and is_unlocked(table.session)):
        return None
    last = store.last_change(get_db(), table.session.id)
    if last is None or last["action"] not in store.UNDOABLE or last["version"] != table.session.version:
        return None
    return {"text": store.describe_change(last), "button": "Redo" if last["action"] == "undo" else "Undo"}


@on_both_links("")
def _table_page(table: Table):
    context = table_context(table)
    context["unlocked"] = is_unlocked(table.session)
    context["watch_url"] = public_base_url() + f"/w/{table.session.watch_id}"
    context["qr"] = qr_svg(context["watch_url"])
    context["undo_offer"] = undo_offer(table)
    return render("table.html", "_live.html", **context)


@bp.get("/s/<key>/live", defaults={"can_edit": True})
@bp.get("/w/<key>/live", endpoint="watch_live", defaults={"can_edit": False})
def live(key, can_edit):
    return _live(key, can_edit)


def _live(key: str, can_edit: bool):
    try:
        version = store.session_version(get_db(), key, by_watch_id=not can_edit)
    except store.NotFound:
        abort(404)
    if request.args.get("v") == str(version):
        response = make_response("", 204)
        response.headers["Vary"] = "HX-Request"
        return response
    table = load_table(key, can_edit)
    context = table_context(table)
    context["fresh"] = True
    response = make_response(render_template("_live.html", **context))
    response.headers["Vary"] = "HX-Request"
    return response


# ------------------------------------------------------------ recording a hand

def _blank_values(session: store.Session) -> dict:
    return {"dealer": str(session.next_dealer())}


def _form_context(table: Table, form: forms.HandForm | None, values: dict, number: int,
                  hands_before: list, editing: bool, message: str = "") -> dict:
    session = table.session
    book = BOOKS[session.rulebook]
    options = book.resolved_options(session.options)
    dealer = forms._seat(values.get("dealer", ""))
    context = table_context(table)
    context.update({
        "form": form,
        "values": values,
        "number": number,
        "editing": editing,
        "message": message,
        "dealer": dealer,
        "eldest": eldest(dealer) if dealer is not None else None,
        "middle": middle(dealer) if dealer is not None else None,
        "options": options,
        "ranks": RANKS,
        "seats": SEATS,
        "price_choices": forms.price_choices(book, _lowest_price(book, values, dealer)),
        "ruff_opening": book.ruff_opening(hands_before),
        "ruff_choices": forms.ruff_choices(book, book.ruff_opening(hands_before)),
        "tiddy_fixed": forms.tiddy_is_fixed(book, options, form.hand if form else {}),
        "known": forms.known_phases(form, options) if form else {},
        "known_total": add(*forms.known_phases(form, options).values()) if form and form.complete else None,
        "action": table.url(f"/hands/{number}" if editing else "/hands"),
        "check_action": table.url(f"/hands/{number}/check" if editing else "/hands/check"),
        "version": session.version,
    })
    return context


def _lowest_price(book, values: dict, dealer: int | None) -> int | None:
    buyer = forms._seat(values.get("buyer", ""))
    if buyer is None or dealer is None:
        return None
    return book.min_price(buyer, dealer)


def _editable(key: str) -> Table:
    """The scorer's link; with a table PIN, only in a browser that unlocked it."""
    table = load_table(key, True)
    if table.session.pin_hash and table.session.id not in cookie.get("unlocked", []):
        if request.method == "GET":
            abort(redirect(table.url("/unlock")))
        abort(make_response(render_template("error.html", title="Locked",
                                            message="This table has a PIN: unlock it to make changes."), 403))
    return table


def is_unlocked(session: store.Session) -> bool:
    return not session.pin_hash or session.id in cookie.get("unlocked", [])


@bp.route("/s/<key>/unlock", methods=["GET", "POST"])
def unlock(key):
    import time

    from werkzeug.security import check_password_hash

    table = load_table(key, True)
    session = table.session
    if not session.pin_hash:
        return redirect(table.url())
    problem = ""
    status = 200
    if request.method == "POST":
        attempt, wait = store.reserve_pin_try(get_db(), session.id, time.time())
        pin = request.form.get("pin", "")
        if attempt is None:
            problem, status = f"Too many wrong PINs. Try again in {max(1, wait // 60)} minute(s).", 429
        elif check_password_hash(session.pin_hash, pin):
            store.forget_pin_try(get_db(), attempt)
            cookie["unlocked"] = [session.id] + [k for k in cookie.get("unlocked", []) if k != session.id][:REMEMBERED]
            return redirect(table.url())
        else:
            problem, status = "That PIN is not right.", 403
    return render_template("unlock.html", table=table, session=session, names=names(session),
                           problem=problem), status


@bp.get("/s/<key>/hands/new")
def new_hand(key):
    table = _editable(key)
    session = table.session
    if len(session.hands) >= store.MAX_HANDS:
        flash(f"This session has {store.MAX_HANDS} hands, the most it can hold. Start a new session.")
        return redirect(table.url())
    values = _blank_values(session)
    form = _parse(table, forms.values_to_form(values), len(session.hands) + 1, session.hands)
    context = _form_context(table, form, form.values, len(session.hands) + 1, session.hands, False)
    context["fresh_form"] = True
    return render("hand_form.html", "_hand_form.html", **context)


def _parse(table: Table, form, number: int, hands_before: list) -> forms.HandForm:
    session = table.session
    book = BOOKS[session.rulebook]
    return forms.parse_hand(book, session.options, form, names(session), hands_before, number)


@bp.post("/s/<key>/hands/check")
def check_new_hand(key):
    table = _editable(key)
    session = table.session
    form = _parse(table, request.form, len(session.hands) + 1, session.hands)
    context = _form_context(table, form, form.values, len(session.hands) + 1, session.hands, False)
    return render("hand_form.html", "_hand_form.html", **context)


@bp.post("/s/<key>/hands")
def save_new_hand(key):
    table = _editable(key)
    session = table.session
    number = len(session.hands) + 1
    form = _parse(table, request.form, number, session.hands)
    if request.form.get("preset") or not form.complete:
        context = _form_context(table, form, form.values, number, session.hands, False,
                                message="" if request.form.get("preset") else NOT_SAVED)
        return render("hand_form.html", "_hand_form.html", status=200 if request.form.get("preset") else 422, **context)
    try:
        keep_snapshot(store.add_hand(get_db(), session.id, form.hand, _based_on()))
    except store.StaleEdit as stale:
        fresh = load_table(key, True)
        if not stale.missing and fresh.session.hands and fresh.session.hands[-1] == form.hand:
            # a second tap of Save, or Back then Save: this very hand is already in
            flash(f"Hand {len(fresh.session.hands)} was already saved; it is not saved twice.")
            response = redirect(table.url())
            response.headers["X-Scorekeeper-Unchanged"] = "already-saved"  # for scripts: nothing stored
            return response
        number = len(fresh.session.hands) + 1
        values = dict(form.values, dealer=str(fresh.session.next_dealer()))
        form = _parse(fresh, forms.values_to_form(values), number, fresh.session.hands)
        message = (f"Another phone saved hand {number - 1} a moment ago, so this is now hand {number} "
                   f"and {fresh.session.players[fresh.session.next_dealer()]} deals. "
                   "Check it, then Save again.") if not stale.missing else str(stale)
        context = _form_context(fresh, form, form.values, number, fresh.session.hands, False,
                                message=message)
        return render("hand_form.html", "_hand_form.html", status=409, **context)
    except store.Refused as refused:
        context = _form_context(table, form, form.values, number, session.hands, False,
                                message="Not saved: " + "; ".join(refused.problems))
        return render("hand_form.html", "_hand_form.html", status=422, **context)
    offer_undo()
    return redirect(table.url())


VERSION = re.compile(r"[0-9]{1,12}\Z")


def _based_on() -> int | None:
    """The session version the posted form was based on (None if absent or not a number)."""
    raw = request.form.get("version", "")
    return int(raw) if VERSION.match(raw) else None


def _hand_or_404(session: store.Session, number: int) -> dict:
    if not 1 <= number <= len(session.hands):
        abort(404)
    return session.hands[number - 1]




@on_both_links("/hands/<int:number>")
def _hand_detail(table: Table, number: int):
    session = table.session
    hand = _hand_or_404(session, number)
    book = BOOKS[session.rulebook]
    context = table_context(table)
    result = context["settlement"].hands[number - 1]
    context.update({
        "number": number,
        "hand": hand,
        "result": result,
        "reasons": book.reasons(hand, session.options, names(session)),
        "history": store.history(get_db(), session.id, number) if table.can_edit else [],
        "is_last": number == len(session.hands),
        "phases": PHASES,
    })
    return render_template("hand_detail.html", **context)


@bp.get("/s/<key>/hands/<int:number>/edit")
def edit_hand(key, number):
    table = _editable(key)
    session = table.session
    hand = _hand_or_404(session, number)
    book = BOOKS[session.rulebook]
    values = forms.hand_to_values(book, hand)
    form = _parse(table, forms.values_to_form(values), number, session.hands[: number - 1])
    context = _form_context(table, form, form.values, number, session.hands[: number - 1], True)
    return render("hand_form.html", "_hand_form.html", **context)


@bp.post("/s/<key>/hands/<int:number>/check")
def check_edit(key, number):
    table = _editable(key)
    session = table.session
    _hand_or_404(session, number)
    form = _parse(table, request.form, number, session.hands[: number - 1])
    context = _form_context(table, form, form.values, number, session.hands[: number - 1], True)
    return render("hand_form.html", "_hand_form.html", **context)


@bp.post("/s/<key>/hands/<int:number>")
def save_edit(key, number):
    table = _editable(key)
    session = table.session
    _hand_or_404(session, number)
    before = session.hands[: number - 1]
    form = _parse(table, request.form, number, before)
    if request.form.get("preset") or not form.complete:
        context = _form_context(table, form, form.values, number, before, True,
                                message="" if request.form.get("preset") else NOT_SAVED)
        return render("hand_form.html", "_hand_form.html", status=200 if request.form.get("preset") else 422, **context)
    try:
        saved = keep_snapshot(store.replace_hand(get_db(), session.id, number, form.hand, _based_on()))
        flash(balance_changes(settlement_of(session), settlement_of(saved), names(session)))
    except store.StaleEdit as stale:
        fresh = load_table(key, True)
        context = _form_context(fresh, form, form.values, number, before, True, message=str(stale))
        return render("hand_form.html", "_hand_form.html", status=409, **context)
    except store.Refused as refused:
        later = sorted({int(m.group(1)) for p in refused.problems
                        for m in [re.match(r"hand (\d+):", p)] if m and int(m.group(1)) != number})
        message = "Not saved: " + "; ".join(refused.problems)
        if later:
            message = (f"Not saved: with this change, hand {later[0]} would be impossible "
                       f"({'; '.join(refused.problems)}). Edit hand {later[0]} first, then this one.")
        context = _form_context(table, form, form.values, number, before, True, message=message)
        return render("hand_form.html", "_hand_form.html", status=422, **context)
    offer_undo()
    return redirect(table.url())


@bp.post("/s/<key>/hands/<int:number>/delete")
def delete_hand(key, number):
    table = _editable(key)
    session = table.session
    _hand_or_404(session, number)
    if number != len(session.hands):
        return not_changed(table, f"Only the last hand can be deleted; edit hand {number} instead.", 422)
    return change_or_refuse(table, lambda: store.delete_last_hand(get_db(), session.id, _based_on()))


@bp.post("/s/<key>/undo")
def undo(key):
    table = _editable(key)
    return change_or_refuse(table, lambda: store.undo(get_db(), table.session.id, _based_on()))


@bp.get("/s/<key>/history")
def session_history(key):
    table = _editable(key)
    context = table_context(table)
    context["history"] = store.history(get_db(), table.session.id)
    return render_template("history.html", **context)


# ------------------------------------------------------------ export



@on_both_links("/export.json")
def _export(table: Table):
    session = table.session
    response = Response(dump(session.record()), mimetype="application/json")
    response.headers["Content-Disposition"] = content_disposition("attachment", session.title, "json")
    return response


def content_disposition(kind: str, title: str | None, extension: str) -> str:
    """A download name from a title: plain ASCII for every client, and the title
    itself (RFC 6266 ``filename*``) for those that read it. No control characters."""
    from urllib.parse import quote

    title = " ".join((title or "").split())[:60]  # line breaks and tabs become spaces
    plain = "".join(c for c in title if c.isascii() and (c.isalnum() or c in " -_.")).strip() or "gleek-session"
    value = f'{kind}; filename="{plain}.{extension}"'
    if title and title != plain:
        value += f"; filename*=UTF-8''{quote(title + '.' + extension, safe='')}"
    return value


# ------------------------------------------------------------ settle up and the sheet



@on_both_links("/settle")
def _settle_up(table: Table):
    from .chart import balance_chart_svg
    from .money import money as format_money, stake_label

    context = table_context(table)
    settlement = context["settlement"]
    session = table.session
    players = names(session)
    context.update({
        "phases": PHASES,
        "phase_totals": settlement.phase_totals(),
        "payments": [
            {"payer": players[p.payer], "payee": players[p.payee], "amount": p.amount,
             "money": format_money(p.amount, session.stake) if session.stake else None}
            for p in settlement.payments],
        "stake_label": stake_label(session.stake) if session.stake else None,
        "chart": balance_chart_svg(players, settlement.running, width=380, height=240) if settlement.hands else "",
    })
    return render_template("settle.html", **context)


def _paper() -> str:
    paper = request.args.get("paper", "a4").lower()
    if paper not in ("a4", "letter"):
        abort(404)
    return paper




@on_both_links("/sheet")
def _sheet(table: Table):
    from .sheet import render_sheet_html

    return render_sheet_html(table.session.record(), _paper(), back_url=table.url())




_PDFS: "OrderedDict[tuple, bytes]" = OrderedDict()


def _cached_pdf(session: store.Session, paper: str, render) -> bytes:
    """Rendering a long sheet takes seconds: keep the last few, by session version."""
    key = (session.id, session.version, paper)
    with _SETTLED_LOCK:
        if key in _PDFS:
            _PDFS.move_to_end(key)
            return _PDFS[key]
    pdf = render(session.record(), paper)
    with _SETTLED_LOCK:
        _PDFS[key] = pdf
        while len(_PDFS) > 8:
            _PDFS.popitem(last=False)
    return pdf


@on_both_links("/sheet.pdf")
def _sheet_pdf(table: Table):
    from .pdf import Busy, render_pdf

    session = table.session
    try:
        pdf = _cached_pdf(session, _paper(), lambda record, paper: render_pdf(
            (session.id, session.version, paper), record, paper, current_app.config["PDF_WAITING"],
            os.path.join(current_app.instance_path, "pdf.lock")))
    except Busy as busy:
        return render_template("error.html", title="Printing", back=table.url(), message=(
            "Other sheets are being printed right now. Try again in a few seconds.")), 503, {
            "Retry-After": str(busy.retry_after)}
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = content_disposition("inline", session.title, "pdf")
    return response
