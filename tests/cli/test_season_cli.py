"""``scorekeeper season FILE… [--json]``: records and sheet PDFs as one season."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from openskill.models import PlackettLuce

from scorekeeper.__main__ import main
from support import data
from support.data import DATA, load_example


def run(capsys, *args):
    code = main(["season", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def evenings(tmp_path):
    """The parlett evening twice (one a week later, one name typed with spaces) and the
    wits1671 evening with two of the same players."""
    first = load_example("parlett-evening.json")
    first["played_on"] = "2026-11-14"
    second = load_example("parlett-evening.json")
    second["played_on"] = "2026-11-21"
    second["players"] = ["  Will ", "Samuel", "Elizabeth"]
    third = load_example("wits1671-evening.json")
    third["played_on"] = "2026-11-07"
    third["players"] = ["Samuel", "Dick", "Will"]
    paths = []
    for i, record in enumerate((first, second, third)):
        path = tmp_path / f"e{i}.json"
        path.write_text(json.dumps(record))
        paths.append(path)
    return paths


def test_json_of_a_season(capsys, evenings):
    code, out, err = run(capsys, *evenings, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert list(data) == [
        "evenings",
        "hands",
        "players",
        "balances",
        "payments",
        "stats",
        "money",
        "placings",
        "ratings",
    ]
    assert (data["evenings"], data["hands"]) == (3, 8)
    # date order: the wits1671 evening (7 Nov) first, so Samuel, Dick, Will, then Elizabeth
    assert data["players"] == ["Samuel", "Dick", "Will", "Elizabeth"]
    # Samuel 18 + 43 + 3; Dick 8½; Will −26½ − 46 + 43; Elizabeth 3 − 46
    assert data["balances"] == {"Samuel": 64, "Dick": 8.5, "Will": -29.5, "Elizabeth": -43}
    # no stake at all: the payments are in counters (currency null)
    assert data["payments"] == [
        {"from": "Elizabeth", "to": "Samuel", "amount": 43, "currency": None},
        {"from": "Will", "to": "Samuel", "amount": 21, "currency": None},
        {"from": "Will", "to": "Dick", "amount": 8.5, "currency": None},
    ]
    assert data["money"] == [{"currency": None, "balances": data["balances"]}]
    assert data["stats"]["Will"]["evenings"] == 3 and data["stats"]["Will"]["hands"] == 8
    assert set(data["stats"]["Will"]) == {
        "evenings",
        "hands",
        "won",
        "best",
        "worst",
        "bought",
        "ruffs",
        "gleeks",
        "mournivals",
        "phases",
        "money",
    }
    assert data["stats"]["Will"]["money"] == [
        {
            "currency": None,
            "evenings": 3,
            "hands": 8,
            "net": -29.5,
            "best": data["stats"]["Will"]["best"],
            "worst": data["stats"]["Will"]["worst"],
            "phases": data["stats"]["Will"]["phases"],
        }
    ]


@pytest.fixture
def round_two(tmp_path):
    """Five regulars over three evenings at ¼d, 1d and ½d (support.data.round_two)."""
    paths = []
    for i, (record, _) in enumerate(data.round_two()):
        path = tmp_path / f"r{i}.json"
        path.write_text(json.dumps(record))
        paths.append(path)
    return paths


def test_a_season_at_three_stakes_adds_up_money_never_counters(capsys, round_two):
    code, out, err = run(capsys, *round_two)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    # Zoë is up 16½ counters, but at the stakes played she lost 2s 0¾d
    assert "Balances, old pence: Zoë −2s 0¾d, Ann −1s 0½d, Ben −11½d, Cat +3s 5d, Dan +7¾d" in lines
    paying = lines.index("Payments over the season, old pence:")
    assert lines[paying + 1 : paying + 5] == [
        "  Zoë pays Cat 2s 0¾d",
        "  Ann pays Cat 1s 0½d",
        "  Ben pays Dan 7¾d",
        "  Ben pays Cat 3¾d",
    ]
    stakes = next(i for i, line in enumerate(lines) if line.startswith("Stakes: "))
    assert not any("counters" in line for line in lines[stakes:])  # no figure adds counters of two stakes
    season_row = next(line for line in lines if line.startswith("Season "))
    assert season_row.split()[2:] == ["−2s", "0¾d", "−1s", "0½d", "−11½d", "+3s", "5d", "+7¾d"]
    # Zoë's best hand: 22½ counters at 1d, not the 32 at ¼d (8d); her worst −45d
    best = next(line for line in lines if line.startswith("Best hand"))
    assert best.split()[2:4] == ["+1s", "10½d"]
    worst = next(line for line in lines if line.startswith("Worst hand"))
    assert worst.split()[2:4] == ["−3s", "9d"]


def test_a_season_at_three_stakes_in_json(capsys, round_two):
    code, out, err = run(capsys, *round_two, "--json")
    assert (code, err) == (0, "")
    data_ = json.loads(out)
    assert data_["balances"] == {"Zoë": 16.5, "Ann": -23.5, "Ben": -46, "Cat": 41, "Dan": 12}  # counters, as before
    assert data_["money"] == [
        {"currency": "d", "balances": {"Zoë": -24.75, "Ann": -12.5, "Ben": -11.5, "Cat": 41, "Dan": 7.75}}
    ]
    assert data_["payments"] == [
        {"from": "Zoë", "to": "Cat", "amount": 24.75, "currency": "d"},
        {"from": "Ann", "to": "Cat", "amount": 12.5, "currency": "d"},
        {"from": "Ben", "to": "Dan", "amount": 7.75, "currency": "d"},
        {"from": "Ben", "to": "Cat", "amount": 3.75, "currency": "d"},
    ]
    (zoe,) = data_["stats"]["Zoë"]["money"]
    assert (zoe["currency"], zoe["evenings"], zoe["hands"], zoe["net"], zoe["best"], zoe["worst"]) == (
        "d",
        3,
        9,
        -24.75,
        22.5,
        -45,
    )
    assert sum(zoe["phases"].values()) == -24.75


def test_json_placings_and_ratings_take_each_evening_as_one_table(capsys, evenings):
    data = json.loads(run(capsys, *evenings, "--json")[1])
    # 7 Nov: Samuel +18, Dick +8½, Will −26½; 14 Nov: Samuel +43, Elizabeth +3, Will −46;
    # 21 Nov: Will +43, Samuel +3, Elizabeth −46 (2, 1 and 0 points at each)
    assert data["placings"] == {"Samuel": 5, "Dick": 1, "Will": 2, "Elizabeth": 1}
    model = PlackettLuce()
    rating = {name: model.rating(name=name) for name in ("Samuel", "Dick", "Will", "Elizabeth")}
    for table in (("Samuel", "Dick", "Will"), ("Samuel", "Elizabeth", "Will"), ("Will", "Samuel", "Elizabeth")):
        rated = model.rate([[rating[name]] for name in table], ranks=[1, 2, 3])
        rating.update({name: after for name, (after,) in zip(table, rated)})
    assert data["ratings"] == {
        name: {"mu": pytest.approx(r.mu), "sigma": pytest.approx(r.sigma)} for name, r in rating.items()
    }


def test_human_output_is_the_ledger_and_the_statistics(capsys, evenings):
    code, out, err = run(capsys, *evenings)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Season: 3 evenings, 8 hands, 2026-11-07 to 2026-11-21"
    assert "  Elizabeth pays Samuel 43 counters" in lines
    ledger = lines[
        lines.index("Ledger (counters; money at each evening's stake; the season in money per currency)") + 1 :
    ]
    assert ledger[0].split() == ["Evening", "Rule", "book", "Hands", "Samuel", "Dick", "Will", "Elizabeth"]
    assert ledger[1].split() == ["2026-11-07", "wits1671", "2", "+18", "+8½", "−26½", "·"]
    assert ledger[4].split() == ["Season", "8", "+64", "+8½", "−29½", "−43"]
    assert any(line.split()[:2] == ["Hands", "won"] for line in lines)
    assert "Head to head (the row's net in the evenings both played)" in lines


def test_a_sheet_pdf_counts_as_its_record(capsys, tmp_path, evenings):
    from scorekeeper.printing.sheet import render_sheet_pdf

    record = json.loads(evenings[0].read_text())
    pdf = tmp_path / "e0.pdf"
    pdf.write_bytes(render_sheet_pdf(record))
    _, from_json, _ = run(capsys, *evenings, "--json")
    code, from_pdf, err = run(capsys, pdf, *evenings[1:], "--json")
    assert (code, err) == (0, "")
    assert from_pdf == from_json


def test_an_invalid_file_is_named_with_its_problems_and_nothing_is_printed(capsys, evenings, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    code, out, err = run(capsys, evenings[0], DATA / "invalid-modern.json", broken, tmp_path / "missing.json")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"{DATA / 'invalid-modern.json'}: hand 1: card_points add up to 300, more than 252 "
        "(the captured cards are worth 192 to 252)",
        f"{DATA / 'invalid-modern.json'}: hand 1: card_points: Cat has 140 card points from 3 tricks, "
        "more than 33 a trick (99)",
        f"{DATA / 'invalid-modern.json'}: hand 2: tib must be null under Kiss: there are no trumps, so no Tib",
        f"{broken}: record: not valid JSON (expecting property name enclosed in double quotes at line 1, column 2)",
        f"{tmp_path / 'missing.json'}: record: cannot read it: No such file or directory",
    ]


def test_no_file_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["season"])
    assert exit_.value.code == 2
    assert "FILE" in capsys.readouterr().err


def test_the_installed_command(evenings):
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "season", *map(str, evenings), "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout)["balances"]["Samuel"] == 64


def test_many_files_are_read_by_a_process_per_core_with_the_same_result(capsys, tmp_path, evenings):
    """From POOL_FROM files the evenings are read in worker processes: same figures, same order,
    and an invalid file among them is still named."""
    from scorekeeper.__main__ import POOL_FROM

    paths = [evenings[i % 3] for i in range(POOL_FROM + 2)]
    code, out, err = run(capsys, *paths, "--json")
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert data["evenings"] == POOL_FROM + 2
    first = json.loads(run(capsys, *evenings, "--json")[1])
    assert data["players"] == first["players"]
    broken = tmp_path / "broken.json"
    broken.write_text("[]")
    code, out, err = run(capsys, *paths, broken)
    assert (code, out) == (1, "")
    assert err == f"{broken}: record: a session record is a JSON object, not []\n"
