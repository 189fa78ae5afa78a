"""The kinds of question (``rules.hand``), one module each: how its answer is
read from the posted form, written back into the form's fields, what each of its
fields may hold (the answer's shape, ``scorekeeper.form.answers``), what its fields
offer (a section's sig) and the template that draws it.

Nothing here knows a book or a hand key's rule: a kind knows only how its answer
is posted (its fields), and the question supplies the words. ``KINDS`` is the one
registry; ``hand_form``, ``writers`` (``fields_of``), ``answers`` and ``conflicts``
loop over it. A new kind is one module here and one entry below.

Field names (what a form posts) per kind, with ``f`` the question's ``field``:

    seat      f = "0" | "1" | "2" | "nobody"
    choice    f = one of the question's values
    purchase  f (buyer) = seat | "nobody";  price = n, or "other" + price_other;  bids (the call pad)
    ruff      f (winner) = seat | "nobody";  paid_<seat> = n, or "other" + paid_<seat>_other;
              ruff_calls, shown_<seat> (the call pad and the showdown)
    sets      sets = "none" | "some";  set_<seat> = "gleek:K", … (repeated)
    forfeits  f_<seat> = "gleek:A", … (repeated; none posted: the key is left out)
    counts    <key>_<seat> = n;  <key>_auto = "<seat>:<n>" (the count the form filled in)
    honours   f_<rank> = seat | "discarded"
    points    <key>_<seat> = n (typed);  count_<seat>_<rank> = n (the card counter)
    text      f = text
"""

from __future__ import annotations

from . import choice, counts, forfeits, honours, points, purchase, ruff, seat, sets, text
from .kind import Kind

KINDS: dict[str, Kind] = {
    k.name: k
    for k in (
        seat.KIND,
        choice.KIND,
        purchase.KIND,
        ruff.KIND,
        sets.KIND,
        forfeits.KIND,
        counts.KIND,
        honours.KIND,
        points.KIND,
        text.KIND,
    )
}


def kind_of(q) -> Kind:
    return KINDS[q.kind]


def fields_of(book, hand: dict, answers) -> dict:
    """A hand (or some of its answers) as the form's values, question by question
    (to edit a stored hand, or to apply a preset): each kind's writer, the inverse
    of its reader."""
    values = {}
    for q in book.questions:
        if q.key in hand and not q.fixed(answers):
            values.update(KINDS[q.kind].write(q, hand[q.key], answers))
    return values
