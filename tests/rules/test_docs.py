"""The project's own docs stay true: docs/rules.md is what the rule books say, and
the generated parts of docs/record.md, README.md and BENCHMARKS.md are what the code
(and bench/results.json) say."""

from pathlib import Path

from scorekeeper import docgen
from scorekeeper.__main__ import build_parser
from scorekeeper.rules.doc import rules_markdown

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_rules_doc_is_up_to_date():
    assert (DOCS / "rules.md").read_text(encoding="utf-8") == rules_markdown(), (
        "docs/rules.md is out of date: run `python -m scorekeeper docs`"
    )


def test_every_generated_document_is_up_to_date():
    stale = [str(path.relative_to(docgen.ROOT)) for path in docgen.out_of_date(build_parser())]
    assert stale == [], f"out of date: {stale}; run `python -m scorekeeper docs`"


def test_the_generated_parts_say_what_the_code_says():
    record = (DOCS / "record.md").read_text(encoding="utf-8")
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    from scorekeeper.rules import BOOKS

    for book in BOOKS.values():
        assert f"| `{book.id}` ({book.name}) |" in record
        assert f"- `{book.id}`" in readme
        for key in book.hand_keys:
            assert f"| `{key}` |" in record, key
    assert ".venv/bin/scorekeeper settle FILE" in readme and ".venv/bin/flask --app scorekeeper backup" in readme


def test_the_docs_the_code_cites_are_in_the_repository():
    for name in ("rules.md", "record.md", "engineering.md"):
        assert (DOCS / name).is_file(), name
