"""Nothing the table said is lost on the way: a dispute and who keeps the score travel with the
record (docs/record.md: ``disputes`` per hand, ``scorer`` at the top): export →
import, the sheet PDF → import, and ``scorekeeper settle``'s checks of the record."""

from __future__ import annotations

import json
import re

import pytest

from support.agreement import HANDS, agree, player_links, seen
from support.web import export, hand_fields, new_session, version_of

REASON = "I had only two Kings"


@pytest.fixture
def disputed(client):
    """Ann keeps the score; hand 1 has Ben's OK only; Cat disputes hand 2, which
    Ann and Ben agreed to: no hand is agreed."""
    url = new_session(client, confirm="on", scorer="0")
    for hand in HANDS:
        assert client.post(url + "/hands", data=hand_fields(hand, version_of(client, url))).status_code == 303
    ann, ben, cat = player_links(client, url)
    assert agree(client, ben, 1).status_code == 303
    assert agree(client, ben, 2).status_code == 303
    page = client.get(url).data.decode()
    assert client.post(url + "/hands/2/agree", data={"seat": "0", "seen": seen(page, 2)}).status_code in (303, 422)
    response = client.post(
        f"{cat}/hands/2/dispute", data={"seen": seen(client.get(cat).data.decode(), 2), "reason": REASON}
    )
    assert response.status_code == 303
    return url


def table_line(client, url) -> str:
    """Where the hands stand with the players' OK, as Settle up says it."""
    return re.search(r"(\d+ of \d+ hands? agreed)", client.get(url + "/settle").data.decode()).group(1)


def test_the_export_carries_the_disputes_and_who_keeps_the_score(client, disputed):
    record = export(client, disputed)
    assert record["scorer"] == 0 and record["confirm"] is True
    assert record["hands"][1]["disputes"] == [{"seat": 2, "reason": REASON}]
    assert 2 not in record["hands"][1]["agreed"]
    assert "disputes" not in record["hands"][0] and record["hands"][0]["agreed"] == [1]


def test_export_then_import_elsewhere_agrees_exactly_as_the_table(app, client, disputed):
    assert table_line(client, disputed) == "0 of 2 hands agreed"
    record = export(client, disputed)
    other = app.test_client()  # another phone, another browser
    response = other.post("/import", data=json.dumps(record), content_type="application/json")
    assert response.status_code == 303
    imported = response.headers["Location"]
    assert table_line(other, imported) == "0 of 2 hands agreed"
    assert export(other, imported) == record
    assert f"Cat: “{REASON}”" in other.get(imported + "/hands/2").data.decode()
    assert "(Ann keeps the score)" in other.get(imported).data.decode()


def test_the_sheet_pdf_then_import_agrees_exactly_as_the_table(app, client, disputed):
    pdf = client.get(disputed + "/sheet.pdf")
    assert pdf.status_code == 200
    other = app.test_client()
    response = other.post(
        "/import", data={"file": (__import__("io").BytesIO(pdf.data), "sheet.pdf")}, content_type="multipart/form-data"
    )
    assert response.status_code == 303, response.data[:300]
    imported = response.headers["Location"]
    assert table_line(other, imported) == "0 of 2 hands agreed"
    assert export(other, imported) == export(client, disputed)


def settle(tmp_path, record) -> tuple[int, str, str]:
    from support.data import DATA  # noqa: F401  (the examples' folder, for the record's hands)
    import subprocess
    import sys

    path = tmp_path / "r.json"
    path.write_text(json.dumps(record))
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "settle", str(path)], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr


def test_settle_accepts_disputes_and_a_scorer_and_ignores_them(tmp_path, client, disputed):
    record = export(client, disputed)
    code, out, err = settle(tmp_path, record)
    assert code == 0, err
    bare = dict(
        record, hands=[{k: v for k, v in h.items() if k not in ("agreed", "disputes")} for h in record["hands"]]
    )
    del bare["scorer"]
    assert json.loads(out) == json.loads(settle(tmp_path, bare)[1])


@pytest.mark.parametrize(
    "change, line",
    [
        (lambda r: r.update(scorer=3), "scorer must be the seat that keeps the score (0, 1 or 2), or null, not 3"),
        (
            lambda r: r.update(scorer=True),
            "scorer must be the seat that keeps the score (0, 1 or 2), or null, not true",
        ),
        (lambda r: r.pop("confirm"), "scorer is given only with confirm: true"),
        (
            lambda r: r["hands"][1].update(disputes={"seat": 2}),
            'hand 2: disputes must be a list of {"seat": s, "reason": "…"}, one per player who disputes the hand, '
            'not {"seat": 2}',
        ),
        (
            lambda r: r["hands"][1].update(disputes=[{"seat": 2}]),
            'hand 2: disputes must be a list of {"seat": s, "reason": "…"}, one per player who disputes the hand, '
            'not {"seat": 2} in it',
        ),
        (lambda r: r["hands"][1].update(disputes=[{"seat": 3, "reason": ""}]), 'not {"seat": 3, "reason": ""} in it'),
        (
            lambda r: r["hands"][1].update(disputes=[{"seat": 2, "reason": 5}]),
            "hand 2: disputes: a reason must be text, not 5",
        ),
        (
            lambda r: r["hands"][1].update(disputes=[{"seat": 2, "reason": "r" * 201}]),
            "hand 2: disputes: a reason is at most 200 characters (this one has 201)",
        ),
        (
            lambda r: r["hands"][1].update(disputes=[{"seat": 2, "reason": ""}, {"seat": 2, "reason": "again"}]),
            "hand 2: disputes names a seat twice: [2, 2]",
        ),
        (
            lambda r: r["hands"][1].update(disputes=[{"seat": 1, "reason": ""}]),
            "hand 2: disputes: seat 1 also agreed to the hand (a player agrees or disputes, not both)",
        ),
    ],
)
def test_settle_refuses_disputes_and_scorers_that_are_not_as_section_6_says(tmp_path, client, disputed, change, line):
    record = export(client, disputed)
    change(record)
    code, out, err = settle(tmp_path, record)
    assert code == 1 and out == ""
    assert any(line in problem for problem in err.splitlines()), err
    response = client.post("/import", data=json.dumps(record), content_type="application/json")
    assert response.status_code == 422 and any(line in p for p in response.json["problems"])


def test_an_empty_reason_and_a_null_scorer_are_fine(tmp_path, client, disputed):
    record = export(client, disputed)
    record["scorer"] = None
    record["hands"][1]["disputes"] = [{"seat": 2, "reason": ""}]
    assert settle(tmp_path, record)[0] == 0
    response = client.post("/import", data=json.dumps(record), content_type="application/json")
    assert response.status_code == 303
    again = export(client, response.headers["Location"])
    assert again["hands"][1]["disputes"] == [{"seat": 2, "reason": ""}] and "scorer" not in again
