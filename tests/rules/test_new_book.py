"""A new rule book really is one module: a book defined here and only here, with a
phase of its own (an object, not a method named after it), is registered the way the
real books are (``BOOKS.register``, by its module) and driven through every page of
the app and the command line. Whoever holds Towser (the Five of trumps) receives 5
from each opponent; the real cotton1674 has Towser as a row of its card table."""

from __future__ import annotations

import copy
import io
import json
import re

import pypdf
import pytest

from scorekeeper.__main__ import main
from scorekeeper.rules import BOOKS
from scorekeeper.rules.core import Section, from_each, nothing
from scorekeeper.rules.hand import SeatQuestion
from scorekeeper.rules.parlett import Parlett
from scorekeeper.rules.phases import CARDS, Phase
from support.web import export, hand_fields, new_session, version_of


class TowserPhase(Phase):
    """One more hand key and one more payment of its own."""

    id, title, short, section = "towser", "Towser", "Tow", "towser"
    keys = needs = ("towser",)
    rule = "Whoever holds Towser (the Five of trumps) gets 5 from each opponent."

    def checks(self):
        return ((CARDS, self.check),)

    def check(self, check, options, state) -> None:
        if "towser" in check.hand:
            check.seat("towser", check.hand["towser"], nullable=True)

    def transfer(self, hand, options=None):
        return nothing() if hand["towser"] is None else from_each(hand["towser"], 5)

    def reasons(self, hand, options, names) -> list[str]:
        if hand["towser"] is None:
            return ["Nobody holds Towser."]
        return [f"{names[hand['towser']]} holds Towser (the Five of trumps): 5 from each."]

    def questions(self) -> list:
        return [
            SeatQuestion(
                "towser",
                "towser",
                "Towser",
                "Who holds Towser (the Five of trumps)? Tap Nobody if no one.",
                label="Who holds it?",
                nobody="Nobody",
            )
        ]


class Towser(Parlett):
    """Parlett, plus the phase above."""

    id = "towser"
    name = "Parlett with Cotton's Towser"
    summary = "Parlett, and whoever holds the Five of trumps (Towser) gets 5 from each."
    sections = Parlett.sections[:-2] + (Section("towser", "Towser", "the Five of trumps"),) + Parlett.sections[-2:]
    phases = Parlett.phases + (TowserPhase(),)


BOOK = TOWSER = Towser()
PLAYERS = ("Ann", "Ben", "Cat")
HAND = {
    "dealer": 0,
    "trump": "hearts",
    "turned_up": "9",
    "tiddy": None,
    "auction": {"buyer": 1, "price": 12},
    "ruff": {"winner": 2, "paid": [2, 2, 0]},
    "sets": [[], ["gleek:K"], []],
    "tricks": [5, 4, 3],
    "honours": {"A": 0, "K": 1, "Q": 2, "J": 0},
    "towser": 2,
}
# tiddy 0, auction +6 −12 +6, ruff −2 −2 +4, sets −3 +6 −3, tricks, towser −5 −5 +10
TOWSER_PHASE = [-5, -5, 10]


@pytest.fixture
def towser_book():
    BOOKS.register(TOWSER.id, __name__)  # as rules/__init__.py registers every book
    yield BOOKS[TOWSER.id]
    BOOKS.unregister(TOWSER.id)


def fields_with_towser(hand, version=None):
    fields = hand_fields(hand, version)
    fields["towser"] = "nobody" if hand["towser"] is None else str(hand["towser"])
    return fields


def test_towser_through_every_page(towser_book, client, tmp_path, capsys):
    url = new_session(client, rulebook="towser")
    home = client.get("/").data.decode()
    assert "Parlett with Cotton&#39;s Towser" in home or "Parlett with Cotton's Towser" in home

    form = client.get(url + "/hands/new").data.decode()
    assert 'id="step-towser"' in form and "Who holds it?" in form and 'name="towser"' in form
    missing = fields_with_towser(HAND, version_of(client, url))
    missing.pop("towser")
    refused = client.post(url + "/hands", data=missing)
    assert refused.status_code == 422 and "Who holds Towser (the Five of trumps)?" in refused.data.decode()
    assert client.post(url + "/hands", data=fields_with_towser(HAND, version_of(client, url))).status_code == 303

    record = export(client, url)
    assert record["rulebook"] == "towser" and record["hands"] == [HAND]
    table = client.get(url).data.decode()
    settled = json.loads(settle_text(record, tmp_path, capsys))
    assert settled["hands"][0]["phases"]["towser"] == TOWSER_PHASE
    assert list(settled["hands"][0]["phases"]) == ["tiddy", "auction", "ruff", "sets", "tricks", "towser"]
    shown = re.findall(r'class="amount[^"]*" data-seat="\d">([^<]*)<', table)
    assert [int(a.replace("−", "-").replace("+", "")) for a in shown] == settled["balances"]

    detail = client.get(url + "/hands/1").data.decode()
    assert "Towser</th>" in detail and "Cat holds Towser (the Five of trumps): 5 from each." in detail
    settle_up = client.get(url + "/settle").data.decode()
    assert re.search(r"Towser</th><td[^>]*>−5</td><td[^>]*>−5</td><td[^>]*>\+10</td>", settle_up)
    sheet = client.get(url + "/sheet").data.decode()
    assert "Tow = Towser" in sheet and "Towser: Cat" in sheet
    pdf = client.get(url + "/sheet.pdf").data
    text = " ".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "Towser: Cat" in text and "Tow" in text
    rules = client.get("/rules").data.decode()
    assert "Whoever holds Towser (the Five of trumps) gets 5 from each opponent." in rules

    imported = client.post("/import", json=record)
    assert imported.status_code == 303
    assert export(client, imported.headers["Location"])["hands"] == [HAND]
    again = client.post("/import", data={"file": (io.BytesIO(pdf), "sheet.pdf")})  # the PDF is the record
    assert export(client, again.headers["Location"]) == record


def settle_text(record, tmp_path, capsys) -> str:
    path = tmp_path / "towser.json"
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert main(["settle", str(path)]) == 0
    return capsys.readouterr().out


def test_towser_is_checked_like_any_key(towser_book):
    from scorekeeper.rules.record import validate

    record = {
        "format": "gleek-session/1",
        "rulebook": "towser",
        "options": {},
        "players": list(PLAYERS),
        "hands": [{k: v for k, v in HAND.items() if k != "towser"}, dict(HAND, towser=7)],
    }
    assert [str(p) for p in validate(record)] == [
        "hand 1: towser is missing",
        "hand 2: towser must be a seat (0, 1 or 2, or null), not 7",
    ]


# ---------------------------------------------------------------- every book


def sample_hands(book_id):
    from support.books import MODELS
    from support.data import load_example

    if book_id == TOWSER.id:
        return [HAND]
    return load_example(MODELS[book_id].evening)["hands"]


@pytest.mark.parametrize("book_id", sorted(BOOKS) + [TOWSER.id])
def test_every_book_conforms(book_id, towser_book, client):
    """Its phase rules cover its phases, every decision shows on the rules page,
    and a valid hand round-trips form → hand → form → detail → sheet."""
    from scorekeeper.form.hand_form import hand_values, parse_hand

    book = BOOKS[book_id]
    assert [rule.phase for rule in book.phase_rules] == list(book.phase_ids)
    assert {q.section for q in book.questions} <= {s.id for s in book.sections}
    assert set(book.hand_keys) <= {q.key for q in book.questions}
    rules = client.get("/rules").data.decode()
    for decision in book.decisions:
        assert decision.title in rules.replace("&#39;", "'")
    url = new_session(client, rulebook=book_id)
    hands = []
    for hand in sample_hands(book_id):
        values = hand_values(book, {}, hand, PLAYERS, hands)
        form = parse_hand(book, {}, values, PLAYERS, hands, len(hands) + 1)
        assert form.complete and form.hand == hand, (form.problem_lines(), form.hand)
        again = parse_hand(book, {}, hand_values(book, {}, form.hand, PLAYERS, hands), PLAYERS, hands, len(hands) + 1)
        assert again.hand == hand
        posted = (
            fields_with_towser(hand, version_of(client, url))
            if book_id == TOWSER.id
            else hand_fields(hand, version_of(client, url))
        )
        assert client.post(url + "/hands", data=posted).status_code == 303
        hands.append(copy.deepcopy(hand))
    assert export(client, url)["hands"] == hands
    detail = client.get(url + "/hands/1").data.decode()
    sheet = client.get(url + "/sheet").data.decode()
    for phase in book.phase_info:
        assert f"{phase.title}</th>" in detail
        assert f"{phase.short} = {phase.title}" in sheet
