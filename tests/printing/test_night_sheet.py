"""The club night's sheet, read back as text with pypdf: the night's settings, the
standings by the organizer's choice with the other rank beside them (exact counters
and placings), every round's tables in seat order with their totals, the byes, the
seating to pin up, names in Greek and Chinese, A4 and Letter, and the night's
record attached (``night.json``)."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest
from pypdf import PdfReader

from scorekeeper import store
from scorekeeper.printing.night_sheet import night_sheet_pdf
from support.database import delete_session
from support.nights import a_played_night

PLAYED = {(1, 1): ("52", "3", "−55"), (1, 2): ("20", "2", "−22"), (2, 1): ("20", "2", "−22")}
#: A4 and Letter, landscape, in points
SIZES = {"a4": (842, 595), "letter": (792, 612)}


@pytest.fixture
def db(app):
    return store.connect(app.config["DATABASE"])


def text_of(pdf: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(pdf))
    return [line.strip() for page in reader.pages for line in page.extract_text().splitlines()]


def expected_standings(night: store.Night) -> list[str]:
    """The standings lines worked out from the tables' totals (2, 1, 0 a table: no ties here)."""
    counters = {p.name: Fraction(0) for p in night.players}
    placings, tables, won = dict.fromkeys(counters, 0), dict.fromkeys(counters, 0), dict.fromkeys(counters, 0)
    for (round_, number), totals in PLAYED.items():
        seats = night.round(round_).tables[number - 1].seats
        for place, (player, total) in enumerate(zip(seats, totals)):
            name = night.name_of(player)
            counters[name] += int(total.replace("−", "-"))
            placings[name] += 2 - place
            tables[name] += 1
            won[name] += place == 0

    def ranked(first, second):
        key = {n: (-first[n], -second[n], -won[n]) for n in counters}
        order = sorted(counters, key=lambda n: (*key[n], n.casefold()))
        return order, {n: 1 + sum(key[m] < key[n] for m in counters) for n in counters}

    order, rank = ranked(counters, placings)
    _, by_placings = ranked(placings, counters)
    left = {night.name_of(night.round(1).byes[0])}
    return [
        f"{rank[n]} {n}{' (left after round 1)' if n in left else ''} "
        f"{str(counters[n]).replace('-', '−')} {placings[n]} {by_placings[n]} {tables[n]} {won[n]}"
        for n in order
    ]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_sheet_prints_the_night_its_standings_rounds_and_seating(db, paper):
    night = a_played_night(db)
    data = store.night_data(db, night)
    pdf = night_sheet_pdf(data, store.night_text(db, night), paper)
    reader = PdfReader(io.BytesIO(pdf))
    assert tuple(round(float(x)) for x in reader.pages[0].mediabox[2:]) == SIZES[paper]
    lines = text_of(pdf)
    assert "Friday club — 4 December 2026" in lines
    assert "Date: 4 December 2026 Rule book: Parlett (reconstruction) Stake: 1d a counter (penny Gleek)" in lines
    assert "Gleek club night · 10 players · 2 of 3 rounds drawn" in lines
    assert "Standings, by counters" in lines
    assert "Rank Player Counters Placings Rank by placings Tables Won" in lines
    start = lines.index("Rank Player Counters Placings Rank by placings Tables Won") + 1
    assert lines[start : start + 10] == expected_standings(night)
    assert (
        "Ranked by counters, then placing points, then tables won outright, then name. "
        "Won: tables won outright (first place alone)."
    ) in lines
    for drawn in night.rounds:
        for table in drawn.tables:
            totals = PLAYED.get((drawn.number, table.number), ("–", "–", "–"))
            names = [night.name_of(p) for p in table.seats]
            for seat, (name, total) in enumerate(zip(names, totals), 1):
                assert f"{seat} {name} {total}" in " ".join(lines), (seat, name, total)
    assert f"Bye: {night.name_of(night.round(1).byes[0])}" in lines
    for player in night.players:
        cells = []
        for drawn in night.rounds:
            at = [(t.number, t.seats.index(player.id) + 1) for t in drawn.tables if player.id in t.seats]
            cells.append(f"{at[0][0]} · {at[0][1]}" if at else "bye" if player.id in drawn.byes else "–")
        assert f"{player.name} {' '.join(cells)}" in lines
    assert {"Ζωή", "王芳"} <= {p.name for p in night.players}
    assert "Table 3 — no hand played" in " ".join(lines)

    attached = reader.attachments
    assert list(attached) == ["night.json"]
    assert json.loads(attached["night.json"][0]) == data


def test_a_table_whose_session_was_deleted_is_said_on_the_sheet(db):
    night = a_played_night(db)
    gone = night.round(2).tables[1]
    delete_session(db, gone.session_id)  # as expiry removes an untouched session
    night = store.get_night(db, night.id)
    lines = " ".join(text_of(night_sheet_pdf(store.night_data(db, night), store.night_text(db, night))))
    assert "Table 2 — its session was deleted: it counts for nothing" in lines
