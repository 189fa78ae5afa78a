"""A circle's club night joins the circle's season like any evening (the Flask test
client, real SQLite): each table of each round is an evening of the circle's ledger,
its members at the seats, and the season's totals are the tables' results in money at
the night's stake, to the penny."""

from __future__ import annotations

import html
import re
from fractions import Fraction

from scorekeeper import store
from scorekeeper.words.season_text import signed_amount
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
    assert "Over the season (6 evenings, 4 hands)" in text
    totals = text[text.index("Member £sd"):text.index("Running totals")]
    for name, amount in pence.items():
        assert f" {name} {signed_amount(Fraction(amount), 'd')} " in totals, (name, totals)
    assert f" {night.name_of(night.round(1).byes[0])} " not in totals   # round 1's bye, who left before playing
    for drawn in night.rounds:   # each table an evening, its link the table's
        for table in drawn.tables:
            assert f'href="/s/{table.session_id}"' in page
