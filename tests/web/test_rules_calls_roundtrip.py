"""Records with calls (docs/rules.md, "Call by call") through the web app: import and export are
lossless, and the hand detail page reads the calls out with each loser's reason."""

import json

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.data import DATA, load_example
from support.profiles import examples
from support.strategies import BOOK_IDS, records
from support.web import export, hand_fields

CALLS_EXAMPLES = ("parlett-calls.json", "wits1671-calls.json", "modern-calls.json")


def import_record(client, record) -> str:
    response = client.post("/import", data=json.dumps(record), content_type="application/json")
    assert response.status_code == 303, response.data
    return response.headers["Location"]


@pytest.mark.parametrize("name", CALLS_EXAMPLES)
def test_a_worked_example_with_calls_comes_back_equal(client, name):
    record = load_example(name)
    assert export(client, import_record(client, record)) == record


@pytest.fixture(scope="module")
def shared_client(tmp_path_factory):
    from scorekeeper import create_app

    path = tmp_path_factory.mktemp("calls") / "test.db"
    return create_app(
        {
            "DATABASE": str(path),
            "SECRET_KEY": "test",
            "TESTING": True,
            "BACKUP_DIR": str(path.parent / "backups"),
            "SESSIONS_PER_MINUTE": 100_000,
        }
    ).test_client()  # one client imports every example


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_random_records_with_calls_come_back_equal(shared_client, data):
    record = data.draw(records(data.draw(st.sampled_from(BOOK_IDS)), min_hands=1, max_hands=4, calls=True))
    # (the app keeps names trimmed and an empty title out: the hands are what matter here)
    assert export(shared_client, import_record(shared_client, record))["hands"] == record["hands"]


def test_the_hand_detail_reads_the_calls_out(client):
    url = import_record(client, load_example("parlett-calls.json"))
    page = client.get(url + "/hands/2").data.decode()
    for line in (
        "Will bids 12 · Samuel passes · Elizabeth passes.",
        "Will checks · Samuel opens 4 · Elizabeth folds (owes 4) · Will raises to 6 · "
        "Samuel raises to 8 · Will matches.",
        "Showdown: Will 47, Samuel 52; Samuel wins the ruff.",
        "Elizabeth folded at 4: pays 4.",
        "Will held out to 8: pays 8.",
    ):
        assert line in page
    page = client.get(url + "/hands/3").data.decode()
    assert "Elizabeth is left alone in and wins the ruff unseen." in page


def test_a_hand_without_calls_reads_as_before(client):
    record = load_example("parlett-evening.json")
    url = import_record(client, record)
    page = client.get(url + "/hands/2").data.decode()
    assert "Calls:" not in page and "Bids:" not in page
    assert "Elizabeth pays Samuel 4 for the ruff." in page


@pytest.mark.parametrize("name", CALLS_EXAMPLES)
def test_editing_a_hand_keeps_its_calls(client, name):
    record = load_example(name)
    url = import_record(client, record)
    for number, hand in enumerate(record["hands"], 1):
        page = client.get(f"{url}/hands/{number}/edit").data.decode()
        assert "The bidding" in page or hand["auction"] is None or "bids" not in hand["auction"]
        version = re.search(r'name="version" value="(\d+)"', page).group(1)
        response = client.post(f"{url}/hands/{number}", data=hand_fields(hand, version))
        assert response.status_code == 303, response.data.decode()[:300]
    assert export(client, url)["hands"] == record["hands"]


def test_the_examples_are_the_shared_ones():
    for name in CALLS_EXAMPLES:
        assert (DATA / name.replace(".json", ".expected.json")).exists()
