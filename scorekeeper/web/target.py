"""The hand a form is for: the next hand of a session, or one to edit."""

from __future__ import annotations

from dataclasses import dataclass

from .. import store
from ..db import get_db
from ..rules import BOOKS
from .access import Table
from .context import table_context
from ..form.hand_form import parse_hand
from .htmx import is_fragment_request, render, retarget


@dataclass
class Target:
    """The next hand (``number`` = hands + 1, not ``editing``) or hand ``number`` to edit."""

    table: Table
    number: int
    editing: bool

    @property
    def session(self) -> store.Session:
        return self.table.session

    @property
    def book(self):
        return BOOKS[self.session.rulebook]

    @property
    def hands_before(self) -> list:
        return self.session.hands[: self.number - 1]

    @property
    def names(self) -> tuple:
        return tuple(self.session.players)

    def url(self, suffix: str = "") -> str:
        return self.table.url(f"/hands/{self.number}{suffix}" if self.editing else f"/hands{suffix}")

    def parse(self, source):
        return parse_hand(self.book, self.session.options, source, self.names, self.hands_before, self.number)

    def context(
        self, form, message: str = "", draft=None, whole_page: bool = True, conflict=None, settled_ask: str = ""
    ) -> dict:
        """What the form's templates need: for a new hand, the version of the hand
        in progress as the server holds it now (``draft``, if just written).
        ``whole_page``: also what the page around the form shows (a tap's answer,
        _hand_update.html, is pieces of the form alone). ``settled_ask``: the
        question a Save of a settled evening asks (the form, saved again, reopens it)."""
        if draft is None and not self.editing:
            draft = store.get_draft(get_db(), self.session.id)
        if whole_page:
            context = table_context(self.table, live=False)
        else:
            context = {"table": self.table, "session": self.session, "book": self.book, "names": self.names}
        context.update(
            form=form,
            values=form.values,
            number=self.number,
            editing=self.editing,
            message=message,
            action=self.url(),
            check_action=self.url("/check"),
            version=self.session.version,
            draft_version=draft.version if draft else 0,
            draft_token=draft.token if draft else "",
            phase_titles={p.id: p.title for p in self.book.phase_info},
            conflict=conflict,
            settled_ask=settled_ask,
        )
        return context


def form_page(
    t: Target,
    form,
    message: str = "",
    status: int = 200,
    show_summary: bool = False,
    conflict=None,
    settled_ask: str = "",
):
    """The whole form (for htmx: its body, in place of the one on the page);
    ``show_summary`` scrolls to the summary, where a refused Save says why;
    ``conflict``: what another phone did and what this one can do about it
    (templates/_conflict.html); ``settled_ask``: the evening is settled, and
    saving the form again reopens it."""
    response = render(
        "hand_form.html",
        "_hand_form.html",
        status=status,
        **t.context(form, message, conflict=conflict, settled_ask=settled_ask),
    )
    if not is_fragment_request():
        return response
    # answers both phones changed are said beside their questions: the page stays where the scorer tapped
    beside = bool(conflict and conflict.get("lines"))
    scroll = (
        "show:#settled-ask:top"
        if settled_ask
        else "show:#hand-summary:top"
        if (show_summary or message) and not beside
        else ""
    )
    return retarget(response, "#hand-form-body", scroll)
