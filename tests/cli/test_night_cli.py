"""A club night's record (``gleek-night/1``, or its sheet PDF) on the command line:
``settle`` says what it is and settles each table; ``season`` takes each table as an
evening (its ledger, ``placings`` and ``ratings``); ``sheet`` refuses it in one line;
a broken night's record gets the night's own problems, not a session's."""

from __future__ import annotations

import gc
import json

import pytest
from openskill.models import PlackettLuce

from scorekeeper import store
from scorekeeper.__main__ import main
from scorekeeper.printing.night_sheet import night_sheet_pdf
from support.nights import a_played_night

#: (round, table): each seat's total in counters (support.nights.a_played_night)
PLAYED = {(1, 1): [52, 3, -55], (1, 2): [20, 2, -22], (2, 1): [20, 2, -22]}


def run(capsys, *args):
    code = main([*map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def collector_back_on():
    """``settle`` turns the cycle collector off for its one record (a process of its own): on again here."""
    yield
    gc.enable()


@pytest.fixture
def night(app):
    db = store.connect(app.config["DATABASE"])
    return db, a_played_night(db)


@pytest.fixture
def night_json(night, tmp_path):
    db, played = night
    path = tmp_path / "night.json"
    path.write_text(store.night_text(db, played), encoding="utf-8")
    return path


def seated(played: store.Night) -> dict:
    """(round, table) -> its players' names in seat order."""
    return {
        (r.number, n): [played.name_of(p) for p in t.seats] for r in played.rounds for n, t in enumerate(r.tables, 1)
    }


def test_settle_says_it_is_a_club_nights_record_and_settles_each_table(capsys, night, night_json, tmp_path):
    db, played = night
    code, out, err = run(capsys, "settle", night_json)
    assert code == 0
    assert err == (
        f"{night_json}: a club night's record (Friday club), not one session's: each of its 6 tables "
        f"settled below; `scorekeeper season {night_json}` adds them up as a season\n"
    )
    data = json.loads(out)
    assert data["night"] == "Friday club"
    assert [
        (t["round"], t["table"], t["settle"]["players"], t["settle"]["balances"], len(t["settle"]["hands"]))
        for t in data["tables"]
    ] == [
        (r, n, players, PLAYED.get((r, n), [0, 0, 0]), {(1, 1): 2}.get((r, n), int((r, n) in PLAYED)))
        for (r, n), players in seated(played).items()
    ]
    # the sheet PDF carries the same record: the same output
    pdf = tmp_path / "night.pdf"
    pdf.write_bytes(night_sheet_pdf(store.night_data(db, played), night_json.read_text(encoding="utf-8")))
    code, pdf_out, pdf_err = run(capsys, "settle", pdf)
    assert (code, pdf_out) == (0, out) and pdf_err == err.replace(str(night_json), str(pdf))


def test_a_deleted_tables_settle_is_null(capsys, night, tmp_path):
    db, played = night
    data = store.night_data(db, played)
    data["rounds"][1]["tables"][2]["record"] = None  # as the record of a night whose table was deleted
    path = tmp_path / "night.json"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "settle", path)
    assert code == 0 and "each of its 5 tables settled below" in err
    assert json.loads(out)["tables"][-1] == {"round": 2, "table": 3, "settle": None}


def test_season_takes_each_table_as_an_evening(capsys, night, night_json):
    _, played = night
    code, out, err = run(capsys, "season", night_json)
    assert (code, err) == (0, "")
    assert out.splitlines()[0] == "Season: 3 evenings, 4 hands, 2026-12-04 to 2026-12-04"
    code, out, err = run(capsys, "season", night_json, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert (data["evenings"], data["hands"]) == (3, 4)  # the three tables never played count for nothing
    tables = seated(played)
    points = {}
    for where in PLAYED:  # 2, 1 and 0 points at each table played; a table with no hand: none
        for name, point in zip(tables[where], (2, 1, 0)):
            points[name] = points.get(name, 0) + point
    assert data["placings"] == points
    model = PlackettLuce()
    rating = {}
    for where in PLAYED:  # the tables in the night's order (one date)
        names = tables[where]
        rated = model.rate([[rating.get(name) or model.rating(name=name)] for name in names], ranks=[1, 2, 3])
        rating.update({name: after for name, (after,) in zip(names, rated)})
    assert data["ratings"] == {
        name: {"mu": pytest.approx(r.mu), "sigma": pytest.approx(r.sigma)} for name, r in rating.items()
    }
    balances = {}
    for where, totals in PLAYED.items():
        for name, total in zip(tables[where], totals):
            balances[name] = balances.get(name, 0) + total
    assert {name: b for name, b in data["balances"].items() if b} == balances


def test_sheet_refuses_a_nights_record_in_one_line(capsys, night_json, tmp_path):
    code, out, err = run(capsys, "sheet", night_json, "-o", tmp_path / "x.pdf")
    assert (code, out) == (1, "")
    assert err == (
        "record: this is a club night's record (Friday club, 6 tables), not one session's "
        "(settle prints each table's settlement; season adds them up)\n"
    )
    assert not (tmp_path / "x.pdf").exists()


def test_a_broken_nights_record_gets_the_nights_problems(capsys, night, tmp_path):
    db, played = night
    data = store.night_data(db, played)
    data["rounds"][0]["tables"][0]["seats"] = [0, 1, 99]
    path = tmp_path / "night.json"
    path.write_text(json.dumps(data))
    code, out, err = run(capsys, "settle", path)
    assert (code, out) == (1, "")
    assert err == (
        "round 1, table 1: seats must be three different players of the night (their places in "
        "players), not [0, 1, 99]\n"
    )
    code, out, err = run(capsys, "season", path)
    assert (code, out) == (1, "")
    assert err == (
        f"{path}: round 1, table 1: seats must be three different players of the night (their places "
        "in players), not [0, 1, 99]\n"
    )
