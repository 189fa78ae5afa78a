"""A new season statistic really is one declaration: "Tiddy turned up" (the dealer's,
when the card turned up is the Four of trumps), read from the hands' own keys, is
defined here and only here, registered the way the real statistics are
(``STATISTICS.register``), and appears on a circle's statistics page, in
``scorekeeper season`` (its text and ``--json``) and in the season sheet PDF."""

from __future__ import annotations

import html
import io
import json
import re

import pypdf
import pytest

from scorekeeper.__main__ import main
from scorekeeper.rules.season import evening_figures, season
from scorekeeper.rules.statistics import STATISTICS, Statistic
from scorekeeper.printing.season_sheet import season_sheet_pdf
from support.data import load_example


def tiddy_turned_up(hand) -> list:
    """The dealer turned Tiddy up: the Four of trumps (none under Kiss, no trumps)."""
    record = hand.record
    if record.get("turned_up") == "4" and record.get("trump") != "none":
        return [(record["dealer"], 1)]
    return []


TIDDY_TURNED_UP = Statistic("tiddy_turned_up", "Tiddy turned up", tiddy_turned_up)

MEMBERS = ["Ann", "Ben", "Cat", "Dan"]
# cotton1674: Cat deals hand 1 and turns up the 4 of hearts; parlett (Ann, Ben, Dan): Ann
# deals hand 1 and turns up the 4 of spades. Nobody else turns Tiddy up.
EVENINGS = [("cotton1674-evening.json", "2026-11-14", [0, 1, 2]), ("parlett-evening.json", "2026-11-21", [0, 1, 3])]
TURNED_UP = {"Ann": 1, "Ben": 0, "Cat": 1, "Dan": 0}


@pytest.fixture
def tiddy_statistic():
    STATISTICS.register(TIDDY_TURNED_UP)
    yield TIDDY_TURNED_UP
    STATISTICS.unregister(TIDDY_TURNED_UP.key)


def records() -> list[dict]:
    out = []
    for name, played_on, seats in EVENINGS:
        record = load_example(name)
        record["played_on"] = played_on
        record["players"] = [MEMBERS[s] for s in seats]
        out.append(record)
    return out


def row_cells(page: str, label: str) -> list[str]:
    row = re.search(rf'<th scope="row">{re.escape(label)}</th>(.*?)</tr>', page, re.S).group(1)
    return [html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]


def test_a_statistic_declared_in_a_test_is_on_the_page_in_the_text_the_json_and_the_sheet(
    tiddy_statistic, client, tmp_path, capsys
):
    archive = {
        "format": "gleek-circle/1",
        "name": "Thursday Gleek",
        "members": MEMBERS,
        "evenings": [{"members": seats, "record": record} for record, (_, _, seats) in zip(records(), EVENINGS)],
    }
    imported = client.post("/circles/import", data={"file": (io.BytesIO(json.dumps(archive).encode()), "circle.json")})
    assert imported.status_code == 303, imported.text
    circle = imported.headers["Location"]
    page = client.get(circle + "/stats").text
    assert row_cells(page, "Tiddy turned up") == ["1", "0", "1", "0"]  # Ann, Ben, Cat, Dan

    paths = []
    for record, (name, _, _) in zip(records(), EVENINGS):
        path = tmp_path / name
        path.write_text(json.dumps(record))
        paths.append(str(path))
    capsys.readouterr()
    assert main(["season", *paths, "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)["stats"]
    assert {name: stats[name]["tiddy_turned_up"] for name in stats} == TURNED_UP
    assert main(["season", *paths]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split() for line in lines if line.startswith("Tiddy turned up")] == [
        ["Tiddy", "turned", "up", "1", "0", "1", "0"]
    ]

    figures = [evening_figures(record, name) for record, (name, _, _) in zip(records(), EVENINGS)]
    pdf = season_sheet_pdf(season(figures), [], "Thursday Gleek")
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)
    assert "Tiddy turned up 1 0 1 0" in text


def test_a_statistic_taken_away_is_shown_nowhere(client, tmp_path, capsys):
    """Without it (the fixture has taken it away) the same season says nothing of it."""
    path = tmp_path / "cotton.json"
    path.write_text(json.dumps(records()[0]))
    capsys.readouterr()
    assert main(["season", str(path), "--json"]) == 0
    assert "tiddy_turned_up" not in json.loads(capsys.readouterr().out)["stats"]["Ann"]
    assert main(["season", str(path)]) == 0
    assert "Tiddy turned up" not in capsys.readouterr().out
