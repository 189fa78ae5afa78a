"""The documents written from the code (``python -m scorekeeper docs``; ``--check``
lists those out of date, and a test runs it): ``docs/rules.md`` whole, from the rule
books; and a marked part of three others, between ``<!-- generated: NAME … -->`` and
``<!-- end of generated NAME -->``, the rest of each written by hand:

- ``docs/record.md`` ``books``: each book, its options and where it has half
  counters, and what each hand key holds in each book (from the books' own data);
- ``README.md`` ``books`` and ``command-line``: the rule books, and the commands from
  their own argument parsers;
- ``BENCHMARKS.md`` ``targets``: the current figure of every target, its baseline
  and date, from ``bench/results.json`` (every run is kept in ``bench/history.md``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import click

from . import db
from .rules import BOOKS, DEFAULT_BOOK
from .rules.doc import rules_markdown

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- generated: {name} (python -m scorekeeper docs; do not edit by hand) -->"
END = "<!-- end of generated {name} -->"


# ------------------------------------------------------------ docs/record.md


def books_markdown() -> str:
    books = list(BOOKS.values())
    lines = ["| book | options (default) | half counters |", "| --- | --- | --- |"]
    for book in books:
        options = "; ".join(f"`{o.name}` ({'on' if o.default else 'off'}): {o.label}" for o in book.options) or "none"
        halves = "; ".join(book.halves()) or "none"
        lines.append(f"| `{book.id}` ({book.name}) | {options} | {halves} |")
    lines += [
        "",
        "A hand's keys, book by book: each is required unless it says optional; `note` (text) "
        "and `agreed` (the distinct seats that agreed to the hand) are optional in every book.",
        "",
        "| key | what it holds | books |",
        "| --- | --- | --- |",
    ]
    rows: dict[tuple, list] = {}
    order: dict[str, int] = {}
    for book in books:
        for key, text in book.record_keys().items():
            order.setdefault(key, len(order))
            rows.setdefault((key, text), []).append(book.id)
    for (key, text), ids in sorted(rows.items(), key=lambda row: order[row[0][0]]):
        where = "all" if len(ids) == len(books) else ", ".join(ids)
        lines.append(f"| `{key}` | {text.replace('|', '/')} | {where} |")
    return "\n".join(lines)


# ------------------------------------------------------------ README.md


def books_list_markdown() -> str:
    return "\n".join(
        f"- `{b.id}`{' (the default)' if b.id == DEFAULT_BOOK else ''} — {b.name}: {b.summary}" for b in BOOKS.values()
    )


def _argparse_line(name: str, sub) -> str:
    words = [f".venv/bin/scorekeeper {name}"]
    for action in sub._actions:
        if action.dest == "help":
            continue
        if not action.option_strings:
            words.append((action.metavar or action.dest).upper() + ("…" if action.nargs in ("+", "*") else ""))
            continue
        flag = action.option_strings[0]
        value = (
            ""
            if action.nargs == 0
            else " "
            + (action.metavar or ("{" + ",".join(action.choices) + "}" if action.choices else action.dest.upper()))
        )
        words.append(f"{flag}{value}" if action.required else f"[{flag}{value}]")
    return " ".join(words)


def _click_line(name: str, command) -> str:
    words = [f".venv/bin/flask --app scorekeeper {name}"]
    for param in command.params:
        if isinstance(param, click.Argument):
            words.append(param.name.upper() + ("…" if param.nargs == -1 else ""))
        elif isinstance(param, click.Option):
            flag = max(param.opts, key=len)
            words.append(f"[{flag}]" if param.is_flag else f"[{flag} {param.name.upper()}]")
    return " ".join(words)


def command_line_markdown(parser) -> str:
    """The commands, from the command line's own parser and the flask commands."""
    subparsers = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    helps = {choice.dest: choice.help for choice in subparsers._choices_actions}
    lines = [(_argparse_line(name, sub), helps.get(name, "")) for name, sub in subparsers.choices.items()]
    for command in (db.init_db_command, db.backup_command, db.restore_command):
        lines.append((_click_line(command.name, command), (command.help or "").strip().split("\n")[0]))
    width = max(len(line) for line, _ in lines)
    body = [f"{line.ljust(width)}  # {text}" if text else line for line, text in lines]
    return "```sh\n" + "\n".join(body) + "\n```"


# ------------------------------------------------------------ BENCHMARKS.md

RESULTS = ROOT / "bench" / "results.json"


def targets_markdown() -> str:
    results = json.loads(RESULTS.read_text(encoding="utf-8"))
    lines = [
        "The current figure of every target, from `bench/results.json` (written by the benchmarks; "
        "every run is kept in `bench/history.md`).",
        "",
        "| target | goal | current figure | baseline (same run) | met | date | benchmark |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in results:
        if r.get("retired"):
            continue
        met = "yes" if r["met"] else "**no**"
        lines.append(
            f"| {r['target']} | {r['goal']} | {r['figure']} | {r['baseline']} | {met} | {r['date']} | `{r['bench']}` |"
        )
    retired = [r for r in results if r.get("retired")]
    if retired:
        lines += ["", "Retired targets (still measured by their benchmark, no longer aimed at):", ""]
        lines += [f"- {r['target']}, {r['goal']} (last {r['figure']}): {r['retired']}." for r in retired]
    return "\n".join(lines)


# ------------------------------------------------------------ all of them

SECTIONS = (
    ("docs/record.md", "books", books_markdown),
    ("README.md", "books", books_list_markdown),
    ("README.md", "command-line", command_line_markdown),
    ("BENCHMARKS.md", "targets", targets_markdown),
)


def replace_section(text: str, name: str, body: str, path: str) -> str:
    start, end = START.format(name=name), END.format(name=name)
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise LookupError(f"{path}: no {start!r} … {end!r} to fill")
    return pattern.sub(lambda _: f"{start}\n{body}\n{end}", text, count=1)


def documents(parser) -> dict[Path, str]:
    """Each generated document's text as it should be. ``parser``: the command line's
    (``__main__.build_parser()``; the command line imports this module, not the other way)."""
    out = {ROOT / "docs" / "rules.md": rules_markdown()}
    for path, name, make in SECTIONS:
        target = ROOT / path
        text = out.get(target) or target.read_text(encoding="utf-8")
        out[target] = replace_section(text, name, make(parser) if make is command_line_markdown else make(), path)
    return out


def out_of_date(parser) -> list[Path]:
    return [
        path
        for path, text in documents(parser).items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


def write(parser) -> list[Path]:
    changed = out_of_date(parser)
    for path, text in documents(parser).items():
        if path in changed:
            path.write_text(text, encoding="utf-8")
    return changed
