"""The rules page as a table reaches it (the new-user trial): the "Rules" link of a
table opens its own book's section (/rules#cotton1674, not Parlett at the top),
and each option of a book is its own item ("…before the first deal.Option — Play
at Towser…" ran two together in one paragraph)."""

from __future__ import annotations

import cssselect2
import pytest
import tinyhtml5

from scorekeeper.rules import BOOKS
from support.web import new_session


def parsed(response):
    assert response.status_code == 200, response.status_code
    return cssselect2.ElementWrapper.from_html_root(tinyhtml5.parse(response.data.decode()))


def text(element) -> str:
    return " ".join("".join(element.etree_element.itertext()).split())


@pytest.mark.parametrize("rulebook", list(BOOKS))
def test_a_tables_rules_link_opens_its_own_book(client, rulebook):
    table = new_session(client, rulebook=rulebook)
    for path in ("", "/settle", "/hands/new", "/history"):
        links = [link.etree_element.get("href") for link in parsed(client.get(table + path)).query_all("a.rules-link")]
        assert links == [f"/rules#{rulebook}"], (path, links)
    rules = parsed(client.get("/rules"))
    section = rules.query(f"#{rulebook}")
    assert section is not None and section.etree_element.tag.endswith("section")
    assert text(section.query("h2")).startswith(BOOKS[rulebook].name)


def test_the_rules_link_away_from_a_table_opens_the_page_at_its_top(client):
    links = [link.etree_element.get("href") for link in parsed(client.get("/")).query_all("a.rules-link")]
    assert links == ["/rules"]


def test_each_option_of_every_book_is_its_own_item(client):
    rules = parsed(client.get("/rules"))
    for book in BOOKS.values():
        items = [text(li) for li in rules.query_all(f"#{book.id} .book-options > li")]
        assert items == [
            " ".join(f"Option — {o.label} (default {'on' if o.default else 'off'}): {o.help}".split())
            for o in book.options
        ], book.id
    # no two options run together anywhere: each "Option —" begins its own item
    for paragraph in rules.query_all("p"):
        assert "Option —" not in text(paragraph), text(paragraph)
    assert sum(len(book.options) for book in BOOKS.values()) == 4  # Wits', Modern's and Cotton's two
