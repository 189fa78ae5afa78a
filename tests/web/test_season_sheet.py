"""The season sheet (scorekeeper/season_sheet.py): a real PDF, read back with pypdf."""

from __future__ import annotations

import io
import json

import pypdf
import pytest

from scorekeeper.rules.season import evening_figures, owed, season
from scorekeeper.season_sheet import ledger_amount, season_sheet_pdf
from support.data import load_example

NIGHTS = [  # the four worked evenings as one circle's (tests/rules/test_season.py works out the figures)
    ("cotton1674-evening.json", "2026-11-14", {"per_counter": "0.25", "currency": "d"}, None),
    ("modern-evening.json", "2026-11-21", {"per_counter": "1", "currency": "d"}, None),
    ("parlett-evening.json", "2026-11-28", {"per_counter": "0.05", "currency": "GBP"}, ["Ann", "Ben", "Dan"]),
    ("wits1671-evening.json", "2026-12-05", None, ["Cat", "Dan", "Ann"]),
]
ARCHIVE = json.dumps({"format": "gleek-circle/1", "members": ["Ann", "Ben", "Cat", "Dan"]}).encode()


@pytest.fixture(scope="module")
def figures():
    out = []
    for name, played_on, stake, names in NIGHTS:
        record = load_example(name)
        record["played_on"] = played_on
        if stake:
            record["stake"] = stake
        out.append(evening_figures(record, name.split("-")[0], names))
    return out


@pytest.fixture(scope="module")
def pdf(figures):
    return season_sheet_pdf(season(figures), owed(figures[2:]), "Thursday Gleek",
                            attachment=(ARCHIVE, "thursday-gleek.circle.json"))


def text_of(data: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_sheet_says_the_ledger_what_is_owed_and_the_statistics(pdf):
    text = text_of(pdf)
    assert "Thursday Gleek" in text
    assert "Gleek season · 4 evenings · 11 hands · 14 November 2026 to 5 December 2026" in text
    # the ledger's lines, in the ledger's ASCII (the wits1671 evening: Ann −26½, total +7)
    assert "2026-12-05 wits1671" in text
    assert "-26.5" in text and "+130" in text
    assert "Ben pays Cat 99½ counters" in text
    assert "Dan pays Ann £2.15, for 28 Nov" in text  # still owed over the two open evenings
    assert "Ann pays Cat 18 counters, for 5 Dec" in text
    assert "Every evening adds up to 0." in text
    assert "Statistics" in text and "Head to head" in text and "Stocks bought" in text
    assert "Held Tiddy×5" in text and "Tumbler×3" in text  # Ann's side cards (the cell wraps)


def test_landscape_a4_and_letter(figures, pdf):
    box = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == (842, 595)
    letter = season_sheet_pdf(season(figures), [], "Thursday Gleek", paper="Letter")
    box = pypdf.PdfReader(io.BytesIO(letter)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == (792, 612)
    assert "Nothing: every evening is settled." in text_of(letter)
    with pytest.raises(ValueError, match="paper must be one of"):
        season_sheet_pdf(season(figures), [], "x", paper="A3")


def test_the_circles_archive_is_attached(figures, pdf):
    attachments = pypdf.PdfReader(io.BytesIO(pdf)).attachments
    assert attachments == {"thursday-gleek.circle.json": [ARCHIVE]}
    assert pypdf.PdfReader(io.BytesIO(season_sheet_pdf(season(figures), [], "x"))).attachments == {}


def test_an_empty_season_prints(figures):
    empty = season(figures, since="2030-01-01")
    text = text_of(season_sheet_pdf(empty, [], "Thursday Gleek"))
    assert "No evening played yet." in text


def test_ledger_amounts():
    from fractions import Fraction

    assert [ledger_amount(a) for a in (0, 41, -Fraction(89, 2), 1237 + Fraction(1, 2))] == [
        "0", "+41", "-44.5", "+1,237.5"]
