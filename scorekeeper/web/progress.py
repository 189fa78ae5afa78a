"""The hand in progress as the table page shows it (both links): "Hand 7 in
progress", with what is known so far, phase by phase."""

from __future__ import annotations

from .. import store
from ..rules import BOOKS
from ..rules.hand import sheet_words
from .hand_form import parse_hand


def in_progress(session: store.Session, draft: store.Draft | None) -> dict | None:
    """The hand being entered (if any): its number and each known phase's lines."""
    if draft is None or draft.number != len(session.hands) + 1:
        return None
    book, names = BOOKS[session.rulebook], tuple(session.players)
    form = parse_hand(book, session.options, draft.answers, names, session.hands, draft.number)
    options = book.resolved_options(session.options)
    phases = [(phase.title, book.phase_reasons(phase.id, form.hand, options, names))
              for phase in book.phase_info if phase.id in form.known]
    return {"number": draft.number, "recorded": sheet_words(book, form.hand, options, names, form.known),
            "phases": phases, "updated_at": draft.updated_at, "complete": form.complete,
            "waiting": form.unanswered.get("ruff") if form.pads.get("ruff") else None}
