"""The project's own docs stay true: docs/rules.md is what the rule books say."""

from pathlib import Path

from scorekeeper.rules.doc import rules_markdown

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_rules_doc_is_up_to_date():
    assert (DOCS / "rules.md").read_text(encoding="utf-8") == rules_markdown(), (
        "docs/rules.md is out of date: run `python -m scorekeeper rules-doc -o docs/rules.md`")


def test_the_docs_the_code_cites_are_in_the_repository():
    for name in ("rules.md", "record.md", "engineering.md"):
        assert (DOCS / name).is_file(), name
