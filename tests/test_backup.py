"""Snapshots after each save, and the backup/restore commands, on real files."""

import json

from conftest import load_example
from web_helpers import export, hand_fields, new_session, post_change, version_of

EVENING = load_example("parlett-evening.json")["hands"]


def test_a_snapshot_after_each_change_keeps_the_last_few(app, client, tmp_path):
    app.config["BACKUP_DIR"] = str(tmp_path / "backups")
    app.config["BACKUP_KEEP"] = 2
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    session_id = url.rsplit("/", 1)[1]
    for hand in EVENING:
        client.post(url + "/hands", data=hand_fields(hand, version_of(client, url)))
    files = sorted((tmp_path / "backups" / session_id).glob("v*.json"))
    assert [f.name for f in files] == ["v000003.json", "v000004.json"]
    newest = json.loads(files[-1].read_text())
    assert newest["record"] == export(client, url)
    assert newest["session_id"] == session_id


def test_backup_then_restore_into_an_empty_database(app, client, tmp_path):
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    for hand in EVENING:
        client.post(url + "/hands", data=hand_fields(hand, version_of(client, url)))
    record = export(client, url)
    out = tmp_path / "full"
    result = app.test_cli_runner().invoke(args=["backup", "--out", str(out)])
    assert "Backed up 1 session(s)" in result.output, result.output

    from scorekeeper import create_app
    fresh = create_app({"DATABASE": str(tmp_path / "fresh.db"), "SECRET_KEY": "x"})
    result = fresh.test_cli_runner().invoke(args=["restore", str(out)])
    assert "Restored 1 session(s)" in result.output, result.output
    assert export(fresh.test_client(), url) == record  # same link, same hands


def test_restore_over_an_existing_session_is_one_more_change(app, client, tmp_path):
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    client.post(url + "/hands", data=hand_fields(EVENING[0], 1))
    app.test_cli_runner().invoke(args=["backup", "--out", str(tmp_path / "b")])
    client.post(url + "/hands", data=hand_fields(EVENING[1], 2))
    result = app.test_cli_runner().invoke(args=["restore", str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    assert export(client, url)["hands"] == EVENING[:1]
    post_change(client, url, "/undo")  # and it can be undone like any change
    assert export(client, url)["hands"] == EVENING[:2]


def test_restore_refuses_a_bad_backup(app, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"session_id": "x", "watch_id": "y", "first_dealer": 0,
                               "record": load_example("invalid-parlett.json")}))
    result = app.test_cli_runner().invoke(args=["restore", str(bad)])
    assert result.exit_code != 0
    assert "hand 2: tricks add up to 11, not 12" in result.output
