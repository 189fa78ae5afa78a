"""The hand in progress as the table page shows it (both links): "Hand 7 in
progress", with what is known so far, phase by phase."""

from __future__ import annotations

from .. import store
from ..rules import BOOKS
from ..rules.hand import sheet_words
from ..form.hand_form import UNREADABLE, parse_hand

#: What a hand in progress stored but no longer read can break: never the page.
READING_FAILED = (KeyError, TypeError, ValueError, IndexError, AttributeError, RecursionError)


def in_progress(session: store.Session, draft: store.Draft | None) -> dict | None:
    """The hand being entered (if any): its number, what is recorded of the phases
    not settled yet, each settled phase's lines, and the calls of an auction or a
    ruff still being spoken ("Ann bids 12 · Ben 14 — Cat to bid"). An answer that
    cannot be read is left out and said so (``unreadable``), never an error page."""
    if draft is None or draft.number != len(session.hands) + 1:
        return None
    try:
        return _in_progress(session, draft)
    except READING_FAILED:
        return {
            "number": draft.number,
            "recorded": [],
            "phases": [],
            "speaking": [],
            "updated_at": draft.updated_at,
            "complete": False,
            "unreadable": True,
        }


def _in_progress(session: store.Session, draft: store.Draft) -> dict:
    book, names = BOOKS[session.rulebook], tuple(session.players)
    form = parse_hand(book, session.options, draft.answers, names, session.hands, draft.number)
    options = book.resolved_options(session.options)
    phases = [
        (phase.title, book.phase_reasons(phase.id, form.hand, options, names))
        for phase in book.phase_info
        if phase.id in form.known
    ]
    settled = {phase.section for phase in book.phase_info if phase.id in form.known}
    titles = {phase.section: phase.title for phase in book.phase_info}
    told = {q.key for q in book.questions if q.section in settled}  # their phase's lines say it
    hand = {k: v for k, v in form.hand.items() if k not in told and k not in form.problems}
    speaking = []
    for q in book.questions:
        state = form.pads.get(q.key)
        if state is None or not state.calls:
            continue
        if not state.ended and state.turn is not None:
            to = "to bid" if q.key == "auction" else "to speak" + (f", stake {state.stake}" if state.opened else "")
            speaking.append((titles.get(q.section, q.label), f"{state.line()} — {names[state.turn]} {to}"))
        elif state.ended and q.key not in form.hand:  # a showdown waiting for the cards or the winner
            speaking.append((titles.get(q.section, q.label), f"{state.line()} — showdown: {state.outcome()}"))
    return {
        "number": draft.number,
        "recorded": sheet_words(book, hand, options, names, form.known),
        "phases": phases,
        "speaking": speaking,
        "updated_at": draft.updated_at,
        "complete": form.complete,
        "unreadable": any(UNREADABLE in texts for texts in form.problems.values()),
    }
