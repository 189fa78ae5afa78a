"""The hand form ↔ a (partial) hand, by looping over the rule book's declaration.

The form posts strings; each question of the book's hand (``rules.hand``) is
read by the reader of its kind (``kinds/``, one module per kind), in the order of play, into a
partial hand (only the keys the table has answered) plus what is still
unanswered; the rule book's own ``check_hand`` then says what is wrong, key by
key, exactly as ``settle`` would. Presets ("Quiet hand") are the book's too.
"""

from __future__ import annotations

import hashlib
import json

from . import answers as shapes
from .checks import REPEATED
from ..rules.core import add
from ..rules.hand import known_phases
from .fields import Fields, Reading
from .kinds import KINDS, fields_of

#: Form fields that are not answers to a question.
CONTROL_FIELDS = ("version", "draft_version", "preset", "draft", "number", "changed", "use", "reopen")
#: Prefixes of form fields that are not answers (each section's signatures).
CONTROL_PREFIXES = ("sig_",)
#: Fields posted once per chip chosen (sets declared or forfeited, a showdown's cards).
#: What the form says of an answer it could not read (posted, or stored by an older release).
UNREADABLE = "An answer here could not be read, so it was left out: answer it again."


def raw_values(source) -> dict:
    """The posted values (a list for a repeated field), without the control fields."""
    if hasattr(source, "getlist"):
        values = {}
        for key in source.keys():
            items = source.getlist(key)
            values[key] = items if key in REPEATED else (items[0] if items else "")
    else:
        values = dict(source)
    for key in CONTROL_FIELDS:
        values.pop(key, None)
    for key in [k for k in values if k.startswith(CONTROL_PREFIXES)]:
        del values[key]
    return values


class HandForm:
    """A hand as the form holds it: the partial hand, what's missing, what's wrong,
    what the rules fixed, the values to show and each known phase's payments."""

    def __init__(self, book, options: dict, reading: Reading, number: int):
        self.book, self.options, self.number = book, options, number
        self.answers, self.values = reading.answers, reading.values
        self.hand, self.unanswered = reading.hand, reading.unanswered
        self.problems, self.fixed = reading.problems, reading.fixed
        self.pads, self.shown = reading.pads, reading.shown
        self.replays = reading.replays
        self.refused_call = reading.refused_call
        self.known = known_phases(book, self.hand, options, wrong=self.problems)

    @property
    def complete(self) -> bool:
        return not self.unanswered and not self.problems

    @property
    def known_total(self):
        return add(*self.known.values()) if self.complete else None

    def problem_lines(self) -> list[str]:
        """What is wrong, then what is missing, each in the order of the form."""
        order = {q.key: i for i, q in enumerate(self.book.questions)}
        wrong = sorted(self.problems.items(), key=lambda kv: order.get(kv[0], 99))
        missing = sorted(self.unanswered.items(), key=lambda kv: order.get(kv[0], 99))
        return [text for _, texts in wrong for text in texts] + [text for _, text in missing]

    def template(self, question) -> str:
        """The partial that draws a question's fields: its kind's."""
        return KINDS[question.kind].template

    def questions_in(self, section: str) -> list:
        return [q for q in self.book.questions if q.section == section]

    def state(self, section: str) -> str:
        """``done``, ``todo`` (something unanswered) or ``bad`` (something wrong)."""
        keys = [q.key for q in self.questions_in(section)]
        if any(k in self.problems for k in keys):
            return "bad"
        if any(k in self.unanswered for k in keys):
            return "todo"
        return "done"

    def kept(self, question) -> list[tuple[str, str]]:
        """The answers a fixed question had (Kiss makes Tib fixed): kept in the page,
        so that a choice which unfixes it again (a suit) finds them still there."""
        field = question.field
        return [
            (name, value)
            for name, value in self.values.items()
            if (name == field or name.startswith(field + "_")) and isinstance(value, str) and value
        ]

    def presets(self) -> list:
        """The book's one-tap answers still worth offering: not one whose questions
        are all answered, nor one that would overwrite calls being followed (asked
        once: each section's sig and its fields need them)."""
        if not hasattr(self, "_presets"):
            following = {key for key, state in self.pads.items() if state.calls}
            self._presets = [
                p
                for p in self.book.presets(self.answers)
                if not following.intersection(p.answers) and not all(k in self.hand for k in p.answers)
            ]
        return self._presets

    def preset_fields(self, preset) -> str:
        """What a preset answers, as the form's fields, question by question (JSON,
        ``data-fills`` of its button): a preset tapped with no connection is taken
        on the phone (js/presets.js), so this phone's copy of the hand holds its
        answers, not only the tap. ``every``: a one-answer preset ("Ben bought at
        12") answers its question whatever was chosen; else only the questions
        not answered yet (as ``preset_answers`` on the server)."""
        questions = [fields_of(self.book, {key: value}, self.answers) for key, value in preset.answers.items()]
        return json.dumps(
            {"every": len(preset.answers) == 1, "questions": [q for q in questions if q]}, separators=(",", ":")
        )

    def phase_in(self, section: str):
        """The phase whose payments this section shows, if known."""
        return next((p for p in self.book.phase_info if p.section == section and p.id in self.known), None)

    def sig(self, section: str) -> str:
        """A short hash of what a section's fields offer (choices, what is shown,
        what the form filled in): the page keeps it, and a tap's answer redraws a
        section's fields only when it changed."""
        if not hasattr(self, "_sigs"):
            self._sigs = {}
        if section not in self._sigs:
            shape = [shape_of(q, self) for q in self.questions_in(section)]
            shape += [p.label for p in self.presets() if p.section == section]
            self._sigs[section] = hashlib.blake2b(repr(shape).encode(), digest_size=6).hexdigest()
        return self._sigs[section]

    def changed(self, posted) -> set[str]:
        """The sections whose fields differ from what the posting page shows."""
        return {s.id for s in self.book.sections if posted.get(f"sig_{s.id}", "") != self.sig(s.id)}

    def status_sig(self, section: str, names) -> str:
        """A short hash of what a section's status shows (_hand_status.html: its
        state, what is wrong or missing there, its phase's payments): the page
        keeps it too, and a tap's answer sends a status only when it changed."""
        if not hasattr(self, "_status_sigs"):
            self._status_sigs = {}
        if section not in self._status_sigs:
            phase = self.phase_in(section)
            keys = [q.key for q in self.questions_in(section)]
            shown = (
                self.state(section),
                [(self.problems.get(k), self.unanswered.get(k)) for k in keys],
                tuple(names),
                phase and (phase.id, self.known[phase.id]),
            )
            self._status_sigs[section] = hashlib.blake2b(repr(shown).encode(), digest_size=6).hexdigest()
        return self._status_sigs[section]

    def statuses_changed(self, posted, names) -> set[str]:
        """The sections whose status differs from what the posting page shows."""
        return {
            s.id for s in self.book.sections if posted.get(f"sig_status-{s.id}", "") != self.status_sig(s.id, names)
        }

    @property
    def started(self) -> bool:
        """Has the table answered anything beyond what the form proposes (the dealer)?"""
        return any(v for k, v in self.values.items() if k not in ("dealer", "tricks_auto"))


def shape_of(q, form) -> tuple:
    """What a question's fields offer, given the answers so far (see ``HandForm.sig``)."""
    if q.key in form.fixed:
        return ("fixed", form.fixed[q.key])
    return KINDS[q.kind].offers(q, form)


def read_hand(book, options: dict, values: dict, answers) -> Reading:
    """Every question, in the order of play; fixed answers filled in."""
    reading = Reading(answers, values)
    fields = Fields(values)
    for q in book.questions:
        fixed = q.fixed(answers)
        if fixed is not None:
            reading.answer(q, fixed.value)
            reading.fixed[q.key] = fixed.reason
            continue
        KINDS[q.kind].read(q, fields, reading)
    return reading


def parse_hand(book, options: dict, source, names, hands_before: list, number: int) -> HandForm:
    """Parse a posted hand form (a MultiDict, or a dict of values)."""
    options = book.resolved_options(options)
    preset = source.get("preset", "") if source is not None else ""
    values, unreadable = shapes.readable(book, options, raw_values(source))
    reading = read_hand(book, options, values, book.answers({}, options, hands_before, names))
    chosen = next((p for p in book.presets(reading.answers) if p.id == preset), None)
    if chosen is not None:
        values.update(fields_of(book, preset_answers(book, chosen, reading), reading.answers))
        reading = read_hand(book, options, values, book.answers({}, options, hands_before, names))
    for key in shapes.TAPS:  # a pad's tap is read once, never kept as an answer
        values.pop(key, None)
    for key in unreadable:
        reading.hand.pop(key, None)
        if key not in reading.problems:
            reading.wrong(key, UNREADABLE)
    check(book, options, reading, hands_before, names, number)
    return HandForm(book, options, reading, number)


def preset_answers(book, preset, reading: Reading) -> dict:
    """What a preset answers: all of it if it is one answer ("Ben bought at 12"),
    else only the questions not touched yet ("Quiet hand" leaves a Tiddy answered
    already as it is)."""
    if len(preset.answers) == 1:
        return preset.answers
    asks = {q.key: q.ask for q in book.questions}
    return {
        key: value
        for key, value in preset.answers.items()
        if key not in reading.hand and key not in reading.problems and reading.unanswered.get(key) == asks[key]
    }


def check(book, options: dict, reading: Reading, hands_before: list, names, number: int) -> None:
    """The rule book's own checks, on what has been answered so far, in the table's words."""
    already = set(reading.problems)  # keys the form found wrong: the rule book can't judge them
    titles = {q.key: q.title for q in book.questions}
    for problem in book.check_hand(number, reading.hand, options, hands_before, tuple(names)):
        if problem.key in reading.unanswered or problem.key in already or problem.text.endswith(" is missing"):
            continue
        reading.wrong(problem.key, for_the_table(problem.key, problem.text, titles.get(problem.key)))


def for_the_table(key: str, text: str, title: str | None) -> str:
    """A rule book's problem as the form shows it, beside its question, in the
    table's words: without the record key in front ("auction: Ben is not
    eldest…" → "Ben is not eldest…"; "card_points add up to 155" → "Card points
    add up to 155")."""
    if text.startswith(key + ": "):
        text = text[len(key) + 2 :]
        return text[:1].upper() + text[1:]
    if title and text.startswith(key + " "):
        return title + text[len(key) :]
    return text


def hand_values(book, options: dict, hand: dict, names, hands_before: list) -> dict:
    """A stored hand as the form's values (to edit it)."""
    answers = book.answers(hand, options, hands_before, names)
    return fields_of(book, hand, answers)
