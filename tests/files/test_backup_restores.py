"""Nothing entered is lost to a backup: a backup always restores. Sessions built by real taps of
every kind (sets, a showdown's cards, the bidding and the vying call by call, a
long note, the card counter), backed up, restored into an empty database and
backed up again give the very same files; and ``flask backup`` never writes a
file that ``flask restore`` would refuse."""

from __future__ import annotations

import json
import re
import sqlite3

import pytest

from scorekeeper import create_app
from support.data import load_example
from support.taps import Phone
from support.web import hand_fields, new_session, version_of

EXAMPLES = {"parlett": "parlett-evening.json", "wits1671": "wits1671-evening.json", "modern": "modern-evening.json"}


def app_in(folder):
    return create_app(
        {
            "DATABASE": str(folder / "gleek.db"),
            "SECRET_KEY": "x",
            "TESTING": True,
            "BACKUP_DIR": str(folder / "snapshots"),
            "SESSIONS_PER_MINUTE": 100_000,
        }
    )


def backup(app, out) -> dict[str, bytes]:
    result = app.test_cli_runner().invoke(args=["backup", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return {path.name: path.read_bytes() for path in sorted(out.glob("*.json"))}


def evening_by_taps(client, book: str, **session) -> tuple[str, Phone]:
    """A session of the book's worked evening saved hand by hand, then the next
    hand in progress entered by taps of every kind the book has."""
    url = new_session(client, rulebook=book, **session)
    for hand in load_example(EXAMPLES[book])["hands"][:2]:
        assert client.post(url + "/hands", data=hand_fields(hand, version_of(client, url))).status_code == 303
    phone = Phone(client, url)
    dealer = re.search(r'name="dealer" value="(\d)" checked', phone.page()).group(1)
    phone.tap(
        ("dealer", dealer),
        ("trump", "hearts"),
        ("tiddy", "nobody"),
        *([("turned_up", "9")] if book != "modern" else []),
    )
    for _ in range(7 if book == "modern" else 4):  # the bidding, bid by bid: a long list
        phone.call("bid", "bid")
    while phone.calls("bid"):
        phone.call("bid", "pass")
    phone.call("ruff_call", "open", "vie")  # the vying, call by call, to a showdown
    phone.call("ruff_call", "raise", "revie", "vie")
    while (
        phone.calls("ruff_call") and 'class="calls-result">Showdown' not in phone.page()
    ):  # (the pads' states for offline name it too)
        phone.call("ruff_call", "match", "see")
    showing = sorted(set(re.findall(r'name="shown_(\d)"', phone.page())))
    assert len(showing) >= 2, "the vying ended in a showdown"
    phone.tap((f"shown_{showing[0]}", "A"), (f"shown_{showing[0]}", "K"), (f"shown_{showing[1]}", "Q"))
    phone.tap(("sets", "some"), ("set_0", "gleek:K"), ("set_1", "gleek:Q"), ("set_1", "gleek:J"))
    if book == "modern":  # the card counter: a field per rank and seat
        phone.tap(("count_0_A", "2"), ("count_0_10", "3"), ("count_1_K", "1"))
    phone.tap(("note", "Ann's deal, ♠ and ☃ — " + "n" * 478))  # a note at the limit, 500 characters
    return url, phone


@pytest.mark.parametrize("book", list(EXAMPLES))
def test_backup_restore_backup_of_sessions_built_by_taps_gives_the_same_files(tmp_path, book):
    here = app_in(tmp_path)
    client = here.test_client()
    url, phone = evening_by_taps(client, book)
    url2, _ = evening_by_taps(client, book, confirm="on", scorer="1", pin="4821")
    ann, ben, cat = re.findall(r'<a href="https?://[^"/]+(/p/[^"]+)">', client.get(url2).get_data(as_text=True))
    for link, number, verdict in ((ann, 1, "ok"), (cat, 2, "dispute")):  # an OK and a dispute, with its reason
        page = client.get(link).get_data(as_text=True)
        seen = re.search(r'name="seen" value="([0-9a-f]+)"', page[page.index(f'id="hand-{number}"') :]).group(1)
        said = client.post(f"{link}/hands/{number}/{verdict}", data={"seen": seen, "reason": "Not my Kings"})
        assert said.status_code == 303
    stored = json.loads(
        sqlite3.connect(here.config["DATABASE"]).execute("select answers from drafts order by session_id").fetchone()[0]
    )
    assert isinstance(stored["set_1"], list) and len(stored["note"]) == 500  # as the taps stored them
    first = backup(here, tmp_path / "first")
    assert len(first) == 2
    assert all("in_progress" in json.loads(text) for text in first.values())

    fresh = app_in(tmp_path / "fresh")
    result = fresh.test_cli_runner().invoke(args=["restore", str(tmp_path / "first")])
    assert result.exit_code == 0, result.output
    assert "Restored 2 session(s)" in result.output
    assert backup(fresh, tmp_path / "second") == first
    # and the restored hand in progress is the one entered, on the same link
    page = Phone(fresh.test_client(), url).page()
    assert re.search(r'name="set_1" value="gleek:J" checked', page) and "Showdown" in page


def test_a_restored_session_goes_back_no_further_than_its_restore(tmp_path, app, client):
    """It keeps its backup's version: an earlier version is not here to go back to (a line, not a 500)."""
    url = new_session(client)
    for hand in load_example("parlett-evening.json")["hands"][:2]:
        client.post(url + "/hands", data=hand_fields(hand, version_of(client, url)))
    backup(app, tmp_path / "b")
    fresh = app_in(tmp_path / "fresh")
    assert fresh.test_cli_runner().invoke(args=["restore", str(tmp_path / "b")]).exit_code == 0
    phone = fresh.test_client()
    version = version_of(phone, url)
    assert version == 3
    for back in (1, 2):
        response = phone.post(f"{url}/history/{back}/back", data={"version": str(version)})
        assert (
            response.status_code == 422
            and f"There is no earlier version {back} to go back to." in response.get_data(as_text=True)
        )
    hand = load_example("parlett-evening.json")["hands"][2]
    assert phone.post(url + "/hands", data=hand_fields(hand, version)).status_code == 303
    assert phone.post(f"{url}/history/3/back", data={"version": "4"}).status_code == 303
    assert len(phone.get(url + "/export.json").json["hands"]) == 2


def test_a_hand_in_progress_an_older_release_stored_is_backed_up_without_what_would_not_restore(tmp_path, app):
    client = app.test_client()
    url = new_session(client)
    sid = url.rsplit("/", 1)[1]
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:  # as a release before the shapes were checked let a tap store it
        conn.execute(
            "insert into drafts (session_id, token, number, answers, version, started_at, updated_at) "
            "values (?, ?, 1, ?, 3, '2026-12-01T20:00:00+00:00', '2026-12-01T20:01:00+00:00')",
            [
                sid,
                "D" * 24,
                json.dumps(
                    {"dealer": "0", "trump": "hearts", "set_0": ["x"], "junk": "1", "bids": "[" * 1000 + "]" * 1000}
                ),
            ],
        )
    conn.close()
    out = tmp_path / "full"
    result = app.test_cli_runner().invoke(args=["backup", "--out", str(out)])
    assert result.exit_code == 1
    assert (
        f"session {sid}: hand 1 in progress backed up without answers that could not be read (sets, auction)"
    ) in result.output
    saved = json.loads((out / f"{sid}.json").read_text())
    assert saved["in_progress"]["answers"] == {"dealer": "0", "trump": "hearts"}
    fresh = app_in(tmp_path / "fresh")
    assert fresh.test_cli_runner().invoke(args=["restore", str(out)]).exit_code == 0
