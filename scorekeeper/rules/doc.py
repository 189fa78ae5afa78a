"""``docs/rules.md``, written from the rule books' own data (``python -m
scorekeeper rules-doc``): each book, its options, every phase, every question of
its hand, every decision and its source. The app's rules page shows the same
data, so the page and the document cannot disagree (a test checks the file is
up to date)."""

from __future__ import annotations

from . import BOOKS, DEFAULT_BOOK, NOT_IMPLEMENTED

HEAD = """# The rules the scorekeeper uses

*Written by `python -m scorekeeper rules-doc` from the rule books in
`scorekeeper/rules/`; do not edit by hand (a test checks it is up to date).*

All amounts are **counters**. Every phase of every hand is zero-sum: what one
player wins, the others pay. "From each" means each of the other two pays that
amount. An amount may be a half counter where a book says so (each book below
says where), never finer; the arithmetic is exact (whole numbers, and fractions
for halves).
Seats are 0, 1, 2 clockwise; *eldest* sits at the dealer's left, then
*middle*, and the dealer speaks last. Where a source leaves something open or
contradicts itself, the book says what the scorekeeper decided (a
**Decision**), and why.

How a session is written down (the `gleek-session/1` record that export,
import and `settle` use) is in [record.md](record.md).
"""


def book_markdown(book) -> list[str]:
    lines = [
        f"## {book.name} (`{book.id}`){' — the default' if book.id == DEFAULT_BOOK else ''}",
        "",
        f"{book.summary}",
        "",
        f"*Source:* {book.source}.",
        "",
    ]
    for option in book.options:
        lines += [
            f"**Option — {option.label}** (`{option.name}`, default {'on' if option.default else 'off'}): "
            f"{option.help}",
            "",
        ]
    lines += ["### Phases, in the order they are settled", ""]
    lines += [f"- **{phase.title}** (`{phase.id}`): {phase.rule}" for phase in book.phase_info]
    halves = book.halves()
    lines += ["", f"*Half counters:* {'; '.join(halves) if halves else 'none, every amount is whole'}."]
    if book.call_rules:
        lines += [
            "",
            "### Call by call",
            "",
            "A table may follow the bidding and the vying as they are spoken (the call pad); the record then",
            "keeps the calls, and the buyer, price, winner and payments must be what they give.",
            "",
        ]
        lines += [f"- {text}" for text in book.call_rules]
    lines += ["", "### What the table is asked, section by section", ""]
    for section in book.sections:
        questions = [q for q in book.questions if q.section == section.id]
        heading = section.title or "Afterwards"
        asked = "; ".join(f"{q.ask or q.label} (`{q.key}`, {q.kind})" for q in questions)
        lines.append(f"- **{heading}**: {asked}")
    lines += [""]
    if book.decisions:
        lines += ["### Decisions", ""]
        for number, decision in enumerate(book.decisions, 1):
            lines += [f"{number}. **{decision.title}.** {decision.text} *Source:* {decision.source}"]
        lines += [""]
    else:
        lines += ["This book is precise: it needs no decisions of the scorekeeper's own.", ""]
    return lines


def rules_markdown() -> str:
    lines = [HEAD]
    for book in BOOKS.values():
        lines += book_markdown(book)
    lines += ["## Not implemented", ""] + [f"- {text}" for text in NOT_IMPLEMENTED]
    return "\n".join(lines).rstrip() + "\n"
