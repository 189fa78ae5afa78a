"""Every rule book the app has is in every suite: the suites take their books from
``scorekeeper.rules.BOOKS``, and each book must be stated again for the tests
(``support/books.py``), with its worked evening and a hand to build on. A book
registered without them fails here, by name, instead of being silently left out.

The suites of other folders are read as source (``ast``), never imported: a test
folder does not import another's tests (the browser suite needs Playwright)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from scorekeeper.rules import BOOKS
from support.books import MODELS
from support.data import DATA
from support.strategies import BOOK_IDS, HAND_BUILDERS

#: The suites that run every book: (module, test, its book argument).
EVERY_BOOK = [
    ("rules.test_rules_properties", "test_random_valid_records_validate_and_settle_by_the_book", "book"),
    ("rules.test_rules_properties", "test_a_value_of_another_json_type_is_always_refused", "book"),
    ("rules.test_rules_calls_properties", "test_the_engine_replays_legal_ruff_calls_as_the_table_does", "book"),
    ("rules.test_rules_calls_properties", "test_a_single_change_is_reported_at_its_hand_and_key", "book"),
    ("rules.test_rules_core", "test_every_required_hand_key", "book"),
    ("rules.test_new_book", "test_every_book_conforms", "book_id"),
    ("trust.test_trust_fuzz", "test_html_in_names_and_title_is_escaped_on_every_page", "rulebook"),
    ("trust.test_trust_fuzz", "test_every_record_value_and_key_with_the_new_corpus", "example"),
    ("browser.test_table_flows", "test_session_three_hands_edit_and_watch", "rulebook"),
]


def test_the_suites_take_their_books_from_the_app():
    assert BOOK_IDS == tuple(BOOKS)


@pytest.mark.parametrize("book", BOOK_IDS)
def test_every_book_is_stated_for_the_tests(book):
    assert book in MODELS, f"{book}: state it in tests/support/books.py"
    assert book in HAND_BUILDERS, f"{book}: give it a hand builder in tests/support/strategies.py"
    assert MODELS[book].keys == BOOKS[book].hand_keys


@pytest.mark.parametrize("book", BOOK_IDS)
def test_every_book_has_its_worked_evening(book):
    evening = DATA / MODELS[book].evening
    record = json.loads(evening.read_text())
    assert record["rulebook"] == book
    assert (DATA / evening.name.replace(".json", ".expected.json")).is_file()


def test_no_book_is_stated_that_the_app_does_not_have():
    assert set(MODELS) == set(BOOKS)


TESTS = Path(__file__).resolve().parent.parent
#: What a suite's books may be drawn from: every book the app has.
EVERY_BOOK_NAMES = {"BOOK_IDS", "BOOKS"}


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _parametrized_from(module: str, test: str, argument: str) -> set[str]:
    """The names the values of ``test``'s ``argument`` are drawn from, following the
    module's own top-level assignments (``EVENINGS = tuple(… for book in BOOK_IDS)``)."""
    tree = ast.parse((TESTS / (module.replace(".", "/") + ".py")).read_text(encoding="utf-8"))
    assigned = {
        target.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }
    function = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == test)
    for decorator in function.decorator_list:
        if (
            isinstance(decorator, ast.Call)
            and ast.unparse(decorator.func) == "pytest.mark.parametrize"
            and isinstance(decorator.args[0], ast.Constant)
            and decorator.args[0].value == argument
        ):
            names, seen = _names(decorator.args[1]), set()
            while names - seen:
                name = (names - seen).pop()
                seen.add(name)
                if name in assigned:
                    names |= _names(assigned[name])
            return names
    return set()


@pytest.mark.parametrize("module, test, argument", EVERY_BOOK)
def test_every_suite_runs_every_book(module, test, argument):
    drawn_from = _parametrized_from(module, test, argument)
    assert drawn_from, f"{module}::{test} is not parametrized by {argument}"
    assert drawn_from & EVERY_BOOK_NAMES, f"{module}::{test} does not take its books from BOOK_IDS or BOOKS"
