"""A circle's club night joins the circle's season like any evening (the Flask test
client, real SQLite): each table of each round is an evening of the circle's ledger,
its members at the seats, and the season's totals are the tables' results in money at
the night's stake, to the penny."""

from __future__ import annotations

import html
import io
import re
from fractions import Fraction

import pypdf

from scorekeeper import store
from scorekeeper.words.season_text import signed_amount
from scorekeeper.words.wording import day_text
from support.nights import a_played_night

MEMBERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
#: (round, table): each seat's total in counters (the night is at 1d a counter)
PLAYED = {(1, 1): (52, 3, -55), (1, 2): (20, 2, -22), (2, 1): (20, 2, -22)}


def test_a_circles_night_is_in_the_season_ledger_table_by_table(app, client):
    db = store.connect(app.config["DATABASE"])
    circle = store.create_circle(db, "Thursday Gleek", MEMBERS)
    night = a_played_night(db, circle.id, players=[(m.name, m.id) for m in circle.members])
    pence = {}
    for (round_, number), totals in PLAYED.items():
        for player, total in zip(night.round(round_).tables[number - 1].seats, totals):
            name = night.name_of(player)
            pence[name] = pence.get(name, 0) + total
    page = html.unescape(client.get(f"/c/{circle.id}/ledger").text)
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))
    assert "Over the season (3 evenings, 4 hands)" in text  # the three tables played (not the three never played)
    totals = text[text.index("Member £sd") : text.index("Running totals")]
    for name, amount in pence.items():
        assert f" {name} {signed_amount(Fraction(amount), 'd')} " in totals, (name, totals)
    assert f" {night.name_of(night.round(1).byes[0])} " not in totals  # round 1's bye, who left before playing
    for drawn in night.rounds:  # each table played an evening, its link the table's
        for table in drawn.tables:
            assert (f'href="/s/{table.session_id}"' in page) == bool(table.hand_count)


def cells(page: str, row: str) -> list[str]:
    """A row of a page's table, each cell's text."""
    found = re.search(rf'<th scope="row">{row}</th>(.*?)</tr>', page, re.S).group(1)
    return [
        re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", c))).strip()
        for c in re.findall(r"<td[^>]*>(.*?)</td>", found, re.S)
    ]


def test_a_table_never_played_is_no_evening_of_the_season(app, client):
    """Round 1's table 3 and round 2's tables 2 and 3 are drawn and never played:
    not an evening in the ledger, not an open evening to settle, not one in anyone's
    statistics; the three tables played are (4 hands)."""
    db = store.connect(app.config["DATABASE"])
    circle = store.create_circle(db, "Thursday Gleek", MEMBERS)
    night = a_played_night(db, circle.id, players=[(m.name, m.id) for m in circle.members])
    played = [t for r in night.rounds for t in r.tables if t.hand_count]
    assert len(played) == 3
    ledger = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(client.get(f"/c/{circle.id}/ledger").text)))
    assert "Over the season (3 evenings, 4 hands)" in ledger
    owed = client.get(f"/c/{circle.id}/owed").text
    assert owed.count("Settled at the table</button>") == 3
    for table in (t for r in night.rounds for t in r.tables):
        assert (f"/owed/{table.session_id}/settle" in owed) == bool(table.hand_count), table
    stats = client.get(f"/c/{circle.id}/stats").text
    heads = [
        html.unescape(h)
        for h in re.findall(
            r'<th scope="col">([^<]+)</th>', stats[stats.index('class="season-stats"') :].split("</thead>")[0]
        )
    ]
    evenings = dict(zip(heads, cells(stats, "Evenings")))
    hands = dict(zip(heads, cells(stats, "Hands")))
    for player in night.players:
        tables = [t for t in played if player.id in t.seats]
        if tables:
            assert evenings[player.name] == str(len(tables)), player.name
            assert hands[player.name] == str(sum(t.hand_count for t in tables)), player.name
        else:  # sat only at tables never played: not in the season at all
            assert player.name not in evenings
    assert "0" not in hands.values()


def test_a_nights_tables_are_named_by_the_night_round_and_table(app, client):
    """The night's tables share its date: what is owed, the ledger and the season sheet
    name each by its night, round and table ("4 Dec, Friday club R1 T2"), not "4 Dec"
    three times over."""
    db = store.connect(app.config["DATABASE"])
    circle = store.create_circle(db, "Thursday Gleek", MEMBERS)
    a_played_night(db, circle.id, players=[(m.name, m.id) for m in circle.members])
    day = day_text("2026-12-04")
    names = [f"{day}, Friday club R1 T1", f"{day}, Friday club R1 T2", f"{day}, Friday club R2 T1"]
    owed = html.unescape(client.get(f"/c/{circle.id}/owed").text)
    debts = re.findall(r'<p class="debt">(.*?)</p>', owed, re.S)
    assert debts
    for debt in debts:
        text = re.sub(r"<[^>]+>", "", debt)
        assert f"for {day} and" not in text and f"{day}, {day}" not in text, text
        assert all(name in names for name in re.findall(rf"{day}, Friday club R\d T\d", text)), text
    opened = [re.sub(r"<[^>]+>", "", s) for s in re.findall(r"<li><p><strong>(.*?)</strong>", owed)]
    assert opened == names
    ledger = html.unescape(client.get(f"/c/{circle.id}/ledger").text)
    assert [n for n in re.findall(r'<th scope="row"><a href="[^"]+">([^<]+)</a>', ledger)] == names
    sheet = pypdf.PdfReader(io.BytesIO(client.get(f"/c/{circle.id}/season.pdf").data))
    text = " ".join(page.extract_text() for page in sheet.pages)
    for table in ("R1 T1", "R1 T2", "R2 T1"):
        assert f"2026-12-04 Friday club {table}" in text, text
