"""Snapshots after each save, and the backup/restore commands, on real files."""

import json
import sqlite3

import pytest

from scorekeeper import create_app
from support.data import load_example
from support.web import export, hand_fields, new_session, post_change, version_of

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

    fresh = create_app(
        {"DATABASE": str(tmp_path / "fresh.db"), "SECRET_KEY": "x", "BACKUP_DIR": str(tmp_path / "fresh-backups")}
    )
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
    bad.write_text(
        json.dumps(
            {"session_id": "x", "watch_id": "y", "first_dealer": 0, "record": load_example("invalid-parlett.json")}
        )
    )
    result = app.test_cli_runner().invoke(args=["restore", str(bad)])
    assert result.exit_code != 0
    assert "hand 2: tricks add up to 11, not 12" in result.output


# ---------------------------------------------------------------- a backup file is input like any other

SID, WID = "S" * 23 + "1", "W" * 23 + "1"


VERDICT = {
    "number": 1,
    "seat": 1,
    "fingerprint": "0123456789abcdef01",
    "verdict": "dispute",
    "reason": "I had only two Kings",
    "at": "2026-12-01T21:40:00+00:00",
}
DRAFT = {
    "number": 4,
    "answers": {"dealer": "0", "trump": "hearts"},
    "started_at": "2026-12-01T21:41:00+00:00",
    "updated_at": "2026-12-01T21:42:00+00:00",
}


def good_backup(**changes) -> dict:
    backup = {
        "session_id": SID,
        "watch_id": WID,
        "first_dealer": 0,
        "version": 4,
        "record": load_example("parlett-evening.json"),
    }
    backup.update(changes)
    return backup


def database_state(app) -> tuple:
    conn = sqlite3.connect(app.config["DATABASE"])
    try:
        return tuple(
            conn.execute(f"select * from {table} order by 1").fetchall() for table in ("sessions", "hands", "history")
        )
    finally:
        conn.close()


def restore(app, *paths):
    return app.test_cli_runner().invoke(args=["restore", *map(str, paths)])


def refused_lines(result) -> list[str]:
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and "Error:" not in result.output, result.output
    assert isinstance(result.exception, SystemExit), result.exception
    return result.output.splitlines()


TOKEN_RULE = 'must be an id as the app makes them (24 letters, digits, "-" or "_")'
HOSTILE = [
    (dict(session_id="../../../x"), f'session_id {TOKEN_RULE}, not "../../../x"'),
    (dict(session_id=".."), f'session_id {TOKEN_RULE}, not ".."'),
    (dict(session_id="a"), f'session_id {TOKEN_RULE}, not "a"'),
    (dict(session_id="5"), f'session_id {TOKEN_RULE}, not "5"'),
    (dict(session_id=""), f'session_id {TOKEN_RULE}, not ""'),
    (dict(session_id=None), f"session_id {TOKEN_RULE}, not null"),
    (dict(session_id=["x"]), f'session_id {TOKEN_RULE}, not ["x"]'),
    (dict(session_id="A" * 23 + "/"), f'session_id {TOKEN_RULE}, not "{"A" * 23}/"'),
    (dict(watch_id="../w"), f'watch_id {TOKEN_RULE}, not "../w"'),
    (dict(watch_id={"a": 1}), f'watch_id {TOKEN_RULE}, not {{"a": 1}}'),
    (dict(watch_id=SID), "watch_id is the same as session_id: the watch link would be the scorer's link"),
    (dict(first_dealer="x"), 'first_dealer must be a seat (0, 1 or 2), not "x"'),
    (dict(first_dealer=3), "first_dealer must be a seat (0, 1 or 2), not 3"),
    (dict(first_dealer=True), "first_dealer must be a seat (0, 1 or 2), not true"),
    (dict(version=0), "version must be a whole number of at least 1, not 0"),
    (dict(version="4"), 'version must be a whole number of at least 1, not "4"'),
    (dict(version=True), "version must be a whole number of at least 1, not true"),
    (dict(pin_hash="1234"), 'pin_hash must be a PIN hash as the app makes them, or null, not "1234"'),
    (
        dict(pin_hash="pbkdf2:sha256:99999999999$abcdefghijklmnop$" + "0" * 64),
        'pin_hash must be a PIN hash as the app makes them, or null, not "pbkdf2:sha256:99999999999$abcdefghij…',
    ),
    (
        dict(pin_hash="scrypt:1073741824:8:1$abcdefghijklmnop$" + "0" * 128),  # 2**30: a gigabyte per try
        'pin_hash must be a PIN hash as the app makes them, or null, not "scrypt:1073741824:8:1$abcdefghijklmn…',
    ),
    (dict(extra=1), "extra is not a key of a backup"),
    (
        dict(record=dict(load_example("parlett-evening.json"), title="t" * 200)),
        "record: title: at most 120 characters (this one has 200)",
    ),
    (dict(record=load_example("invalid-parlett.json")), "record: hand 2: tricks add up to 11, not 12"),
    (
        dict(record=dict(load_example("parlett-evening.json"), players=["Ann", "Ben" + "\ud800", "Cat"])),
        "record: players: a name contains a character that is not valid text",
    ),
    (dict(record=[]), "record: a session record is a JSON object, not []"),
    # what only the database holds: the players' links, their OKs and disputes, the hand in progress
    (dict(scorer=3), "scorer must be the seat keeping the score (0, 1 or 2), not 3"),
    (
        dict(seat_links=["L" * 24, "M" * 24]),
        "seat_links must be three different ids as the app makes them, "
        'one per seat, not ["LLLLLLLLLLLLLLLLLLLLLLLL", "MMMMMMM…',
    ),
    (
        dict(seat_links=["L" * 24, "L" * 24, "M" * 24]),
        "seat_links must be three different ids as the app makes "
        'them, one per seat, not ["LLLLLLLLLLLLLLLLLLLLLLLL", "LLLLLLL…',
    ),
    (
        dict(seat_links=["../../x", "L" * 24, "M" * 24]),
        "seat_links must be three different ids as the app makes "
        'them, one per seat, not ["../../x", "LLLLLLLLLLLLLLLLLLLLLLLL…',
    ),
    (
        dict(seat_links=[SID, "L" * 24, "M" * 24]),
        "seat_links holds the session's own link: a player's link would be the scorer's or the watch link",
    ),
    (dict(verdicts={}), "verdicts must be a list of the players' OKs and disputes, not {}"),
    (
        dict(verdicts=[dict(VERDICT, number=4)]),
        "verdicts[0]: number must be the number of one of the session's hands, not 4",
    ),
    (dict(verdicts=[dict(VERDICT, seat=3)]), "verdicts[0]: seat must be a seat (0, 1 or 2), not 3"),
    (
        dict(verdicts=[dict(VERDICT, fingerprint="../x")]),
        'verdicts[0]: fingerprint must be 18 hexadecimal digits, not "../x"',
    ),
    (dict(verdicts=[dict(VERDICT, verdict="edit")]), 'verdicts[0]: verdict must be "ok" or "dispute", not "edit"'),
    (
        dict(verdicts=[dict(VERDICT, reason="\ud800")]),
        'verdicts[0]: reason must be text of at most 200 characters, not "\\ud800"',
    ),
    (
        dict(verdicts=[VERDICT, {"number": 1}]),
        'verdicts[1]: must be an object with number, seat, fingerprint, verdict, reason, at, not {"number": 1}',
    ),
    (dict(in_progress=dict(DRAFT, number=3)), "in_progress: number must be the next hand's (4), not 3"),
    (dict(in_progress=dict(DRAFT, answers=[])), "in_progress: answers must be the hand form's answers, not []"),
    (dict(in_progress=dict(DRAFT, answers={"trump": 7})), "in_progress: answers: trump: 7 is not one of its choices"),
    (
        dict(in_progress=dict(DRAFT, answers={"note": "x" * 5000})),
        "in_progress: answers: note: at most 500 characters (this one has 5000)",
    ),
    # a tap's draft: only the hand form's own fields, in their shapes (what a tap may store)
    (
        dict(in_progress=dict(DRAFT, answers={"set_0": "gleek:K"})),
        'in_progress: answers: set_0: "gleek:K" is not a list of its chips',
    ),
    (
        dict(in_progress=dict(DRAFT, answers={"set_0": ["x"]})),
        'in_progress: answers: set_0: ["x"] is not a list of its chips',
    ),
    (
        dict(in_progress=dict(DRAFT, answers={"bids": "[" * 1000 + "]" * 1000})),
        'in_progress: answers: bids: not a list of at most 60 calls ("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[…)',
    ),
    (
        dict(in_progress=dict(DRAFT, answers={"bid": "[1, 13]"})),
        "in_progress: answers: bid: a call tapped is not kept as an answer",
    ),
    (
        dict(in_progress=dict(DRAFT, answers={"card_points_0": "1"})),
        'in_progress: answers: "card_points_0": not a field of this rule book\'s hand form',
    ),
    (
        dict(in_progress={"answers": {}}),
        'in_progress: must be an object with number, answers, started_at, updated_at, not {"answers": {}}',
    ),
]


@pytest.mark.parametrize("changes, problem", HOSTILE, ids=[p for _, p in HOSTILE])
def test_a_hostile_backup_file_is_refused_with_plain_lines_and_changes_nothing(app, tmp_path, changes, problem):
    existing = tmp_path / "existing.json"
    existing.write_text(json.dumps(good_backup(session_id="E" * 24, watch_id="F" * 24)))
    assert restore(app, existing).exit_code == 0
    before = database_state(app)
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(good_backup(**changes)))
    lines = refused_lines(restore(app, path))
    assert f"{path}: {problem}" in lines, lines
    assert lines[-1] == "Nothing was restored."
    assert database_state(app) == before


def test_a_missing_key_is_named(app, tmp_path):
    path = tmp_path / "b.json"
    backup = good_backup()
    del backup["first_dealer"], backup["record"]
    path.write_text(json.dumps(backup))
    assert refused_lines(restore(app, path)) == [
        f"{path}: first_dealer is missing",
        f"{path}: record is missing",
        "Nothing was restored.",
    ]


@pytest.mark.parametrize(
    "content, problem",
    [
        (b"[" * 100_000, "not valid JSON (nested too deeply)"),
        (b'{"session_id": ' * 50_000, "not valid JSON (nested too deeply)"),
        (b"", "not valid JSON (the file is empty)"),
        (b'{"a": "\xff"}', "not valid JSON (the file is not UTF-8 text)"),
        (b"[1, 2]", "a backup is a JSON object, not [1, 2]"),
        (b"null", "a backup is a JSON object, not null"),
    ],
)
def test_a_file_that_is_not_a_backup_is_one_plain_line(app, tmp_path, content, problem):
    path = tmp_path / "b.json"
    path.write_bytes(content)
    assert refused_lines(restore(app, path)) == [f"{path}: {problem}", "Nothing was restored."]


def test_restore_checks_every_file_before_restoring_any(app, tmp_path):
    first, second, third = (tmp_path / f"{n}.json" for n in (1, 2, 3))
    first.write_text(json.dumps(good_backup()))
    second.write_text(json.dumps(good_backup(session_id="T" * 24, watch_id="U" * 24, first_dealer="x")))
    third.write_text(json.dumps(good_backup(session_id="V" * 24, watch_id="X" * 24, version=-1)))
    before = database_state(app)
    lines = refused_lines(restore(app, first, second, third))
    assert lines == [
        f'{second}: first_dealer must be a seat (0, 1 or 2), not "x"',
        f"{third}: version must be a whole number of at least 1, not -1",
        "Nothing was restored.",
    ]
    assert database_state(app) == before


def test_watch_ids_must_not_collide(app, tmp_path):
    first, second = tmp_path / "1.json", tmp_path / "2.json"
    first.write_text(json.dumps(good_backup()))
    second.write_text(json.dumps(good_backup(session_id="T" * 24)))  # another session, the same watch link
    assert refused_lines(restore(app, first, second)) == [
        f"{second}: watch_id {WID} is also the watch link of {first}",
        "Nothing was restored.",
    ]
    assert restore(app, first).exit_code == 0
    before = database_state(app)
    assert refused_lines(restore(app, second)) == [
        f"{second}: watch_id {WID} is already the watch link of another session",
        "Nothing was restored.",
    ]
    assert database_state(app) == before


def test_an_existing_session_is_replaced_only_by_its_own_backup(app, tmp_path):
    path = tmp_path / "1.json"
    path.write_text(json.dumps(good_backup()))
    assert restore(app, path).exit_code == 0
    before = database_state(app)
    other = tmp_path / "2.json"
    record = load_example("parlett-evening.json")
    other.write_text(json.dumps(good_backup(watch_id="Z" * 24, record=dict(record, hands=record["hands"][:1]))))
    assert refused_lines(restore(app, other)) == [
        f"{other}: session_id {SID} is an existing session whose watch link is not this backup's watch_id",
        "Nothing was restored.",
    ]
    assert database_state(app) == before


def test_the_same_session_twice_in_one_restore_is_refused(app, tmp_path):
    first, second = tmp_path / "1.json", tmp_path / "2.json"
    first.write_text(json.dumps(good_backup()))
    second.write_text(json.dumps(good_backup()))
    assert refused_lines(restore(app, first, second)) == [
        f"{second}: session_id {SID} is also restored from {first}",
        "Nothing was restored.",
    ]


def test_a_good_restore_still_works_and_the_links_open(app, tmp_path):
    path = tmp_path / "1.json"
    path.write_text(json.dumps(good_backup()))
    result = restore(app, path)
    assert result.exit_code == 0 and "Restored 1 session(s)" in result.output
    client = app.test_client()
    assert client.get(f"/s/{SID}").status_code == 200 and client.get(f"/w/{WID}").status_code == 200
    assert export(client, f"/s/{SID}") == load_example("parlett-evening.json")


def test_backup_never_writes_outside_its_folder(app, tmp_path):
    """A session id that is not a token (left by an older restore) is reported, not followed."""
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        for sid, wid in (("../../escaped", "W" * 24), ("G" * 24, "H" * 24)):
            conn.execute(
                "insert into sessions (id, watch_id, rulebook, options, first_dealer, version, "
                "created_at, updated_at) values (?, ?, 'parlett', '{}', 0, 1, 'x', 'x')",
                [sid, wid],
            )
            conn.executemany(
                "insert into seats (session_id, seat, name) values (?, ?, ?)",
                [(sid, seat, name) for seat, name in enumerate("ABC")],
            )
    conn.close()
    out = tmp_path / "deep" / "er" / "full"
    result = app.test_cli_runner().invoke(args=["backup", "--out", str(out)])
    assert result.exit_code == 1
    assert 'session "../../escaped": not backed up: its id "../../escaped" is not one the app makes' in result.output
    assert [p.name for p in out.iterdir()] == ["G" * 24 + ".json"]
    assert not (tmp_path / "deep" / "escaped.json").exists() and not list(tmp_path.rglob("escaped*"))


# ---------------------------------------------------------------- the table PIN survives a backup


def test_backup_and_restore_keep_the_table_pin(app, client, tmp_path):
    url = new_session(client, players=("Samuel", "Elizabeth", "Will"), pin="4821")
    assert client.post(url + "/hands", data=hand_fields(EVENING[0], 1)).status_code == 303
    out = tmp_path / "full"
    assert app.test_cli_runner().invoke(args=["backup", "--out", str(out)]).exit_code == 0
    saved = json.loads(next(out.glob("*.json")).read_text())
    assert saved["pin_hash"].startswith(("scrypt:", "pbkdf2:"))
    # the PIN is nowhere in the backup but as its hash (whose random hex, or a random id, may hold "4821")
    assert "4821" not in json.dumps(
        {key: value for key, value in saved.items() if key not in ("pin_hash", "session_id", "watch_id")}
    )
    assert all(str(value) != "4821" for value in saved.values())

    fresh = create_app(
        {"DATABASE": str(tmp_path / "fresh.db"), "SECRET_KEY": "x", "BACKUP_DIR": str(tmp_path / "fresh-backups")}
    )
    assert restore(fresh, out).exit_code == 0
    stranger = fresh.test_client()
    assert "Unlock to record hands" in stranger.get(url).get_data(as_text=True)
    version = saved["version"]  # a restored session keeps its version: its backup is then the same file
    assert stranger.post(url + "/hands", data=hand_fields(EVENING[1], version)).status_code == 403
    assert stranger.post(url + "/unlock", data={"pin": "0000"}).status_code == 403
    assert stranger.post(url + "/unlock", data={"pin": "4821"}).status_code == 303
    assert stranger.post(url + "/hands", data=hand_fields(EVENING[1], version)).status_code == 303


# ---------------------------------------------------------------- orphans of a crash are cleaned at start-up


def test_orphan_tmp_files_are_removed_at_start_up(tmp_path):
    import os

    backups = tmp_path / "backups"
    session = backups / ("S" * 24)
    full = backups / "full-2026-12-01T000000+0000"
    for folder in (session, full):
        folder.mkdir(parents=True)
    orphans = [
        session / ".tmp-999999999-ab12cd.json",  # its writer (that pid) is gone
        session / ".tmp-k2j3h4x9.json",  # written before the pid was in the name
        full / ".tmp-4194305-zz.json",
        backups / ".tmp-x.json",
    ]
    kept = [
        session / "v000001.json",
        full / ("S" * 24 + ".json"),
        session / f".tmp-{os.getpid()}-live.json",  # a writer still running: not an orphan
        session / ".tmp-notes.txt",
    ]
    for path in orphans + kept:
        path.write_text("{}")
    create_app({"DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "x", "BACKUP_DIR": str(backups)})
    assert [p for p in orphans if p.exists()] == []
    assert all(p.exists() for p in kept)


def test_a_snapshot_is_the_same_json_whichever_hands_were_encoded_before(app, client, tmp_path):
    """A snapshot reuses each unchanged hand's JSON from the session's last one
    (backup_files.EncodedHands): after every kind of change it is exactly the whole
    snapshot encoded afresh."""
    from scorekeeper import store
    from scorekeeper.files import backup_files

    app.config["BACKUP_DIR"] = str(tmp_path / "backups")
    url = new_session(client, players=("Ánne ☃", "Ben", "Cat"), title='A "hands":[] title')
    session_id = url.rsplit("/", 1)[1]

    def newest():
        files = sorted((tmp_path / "backups" / session_id).glob("v*.json"))
        return files[-1].read_text()

    db = store.connect(app.config["DATABASE"])
    for hand in EVENING:
        client.post(url + "/hands", data=hand_fields(dict(hand, note="é ☃"), version_of(client, url)))
    edited = dict(EVENING[0], note="edited")
    for path, data in (
        ("/hands/1", hand_fields(edited)),
        ("/hands/3/delete", None),
        ("/undo", None),
        ("/hands/2", hand_fields(dict(EVENING[1], note="again"))),
    ):
        assert post_change(client, url, path, data).status_code == 303, path
        expected = backup_files.dumps(store.snapshot(store.get_session(db, session_id)))
        assert newest() == expected, path
        assert json.loads(newest())["record"] == export(client, url)


def test_backup_and_restore_keep_the_players_links_oks_disputes_and_the_hand_in_progress(app, client, tmp_path):
    import re

    from scorekeeper import create_app

    url = new_session(client, confirm="on", scorer="0")
    for hand in EVENING[:2]:
        client.post(url + "/hands", data=hand_fields(hand, version_of(client, url)))
    links = re.findall(r'<a href="https?://[^"/]+(/p/[^"]+)">', client.get(url).data.decode())
    ann, ben, cat = links

    def seen(link, number):
        page = client.get(link).data.decode()
        return re.search(r'name="seen" value="([0-9a-f]+)"', page[page.index(f'id="hand-{number}"') :]).group(1)

    assert client.post(f"{ben}/hands/1/ok", data={"seen": seen(ben, 1)}).status_code == 303
    reason = "I had only two Kings"
    assert client.post(f"{cat}/hands/2/dispute", data={"seen": seen(cat, 2), "reason": reason}).status_code == 303
    tap = client.post(
        url + "/hands/check",
        data={"dealer": "2", "trump": "clubs", "draft_version": "0"},
        headers={"HX-Request": "true"},
    )
    assert tap.status_code == 200
    record = export(client, url)
    out = tmp_path / "full"
    assert "Backed up 1 session(s)" in app.test_cli_runner().invoke(args=["backup", "--out", str(out)]).output

    fresh = create_app(
        {"DATABASE": str(tmp_path / "fresh.db"), "SECRET_KEY": "x", "BACKUP_DIR": str(tmp_path / "fresh-backups")}
    )
    result = fresh.test_cli_runner().invoke(args=["restore", str(out)])
    assert "Restored 1 session(s)" in result.output, result.output
    phone = fresh.test_client()
    assert export(phone, url) == record  # the OKs with it
    table = phone.get(url).data.decode()
    assert re.findall(r'<a href="https?://[^"/]+(/p/[^"]+)">', table) == links  # the players' QR codes still work
    assert f"Cat: “{reason}”" in phone.get(url + "/hands/2").data.decode()  # the dispute, with its reason
    assert "Waiting for your OK, Ben" in phone.get(ben).data.decode()
    assert "Ann, you keep the score" in phone.get(ann).data.decode() and "(Ann keeps the score)" in table
    assert "Hand 3 in progress" in table
    assert re.search(r'name="trump" value="clubs" checked', phone.get(url + "/hands/new").data.decode())


def test_a_session_restored_new_here_offers_no_undo_and_undo_says_so(app, client, tmp_path):
    url = new_session(client)
    client.post(url + "/hands", data=hand_fields(EVENING[0], version_of(client, url)))
    out = tmp_path / "full"
    app.test_cli_runner().invoke(args=["backup", "--out", str(out)])
    fresh = create_app(
        {
            "DATABASE": str(tmp_path / "fresh.db"),
            "SECRET_KEY": "x",
            "TESTING": True,
            "BACKUP_DIR": str(tmp_path / "fresh-backups"),
        }
    )
    assert fresh.test_cli_runner().invoke(args=["restore", str(out)]).exit_code == 0
    phone = fresh.test_client()
    page = phone.get(url).data.decode()
    assert "Undo:" not in page
    response = post_change(phone, url, "/undo")
    assert response.status_code == 422 and "There is nothing to undo." in response.data.decode()
    assert "Session restored from a backup" in phone.get(url + "/history").data.decode()
    # as an earlier release logged such a restore (an undoable "restore" with nothing before it)
    con = sqlite3.connect(tmp_path / "fresh.db")
    with con:
        con.execute("update history set action = 'restore' where action = 'restored'")
    con.close()
    assert "Undo:" not in phone.get(url).data.decode()
    assert post_change(phone, url, "/undo").status_code == 422
    assert export(phone, url)["hands"] == EVENING[:1]


# ---------------------------------------------------------------- a restore says what it restored and what it kept


def test_restoring_over_an_existing_session_says_what_was_restored_and_what_it_kept(app, client, tmp_path):
    from scorekeeper import store

    url = new_session(client, confirm="on", scorer="1", players=("Samuel", "Elizabeth", "Will"))
    sid = url.rsplit("/", 1)[1]
    client.post(url + "/hands", data=hand_fields(EVENING[0], 1))
    tap = client.post(
        url + "/hands/check",
        data={"dealer": "1", "trump": "clubs", "draft_version": "0"},
        headers={"HX-Request": "true"},
    )
    assert tap.status_code == 200
    assert app.test_cli_runner().invoke(args=["backup", "--out", str(tmp_path / "b")]).exit_code == 0
    db = store.connect(app.config["DATABASE"])
    store.set_scorer(db, sid, None)  # then, at the table: nobody keeps the score,
    store.discard_draft(db, sid, store.draft_version(db, sid))  # hand 2 cancelled,
    client.post(url + "/hands", data=hand_fields(EVENING[1], version_of(client, url)))  # another hand 2 saved
    result = restore(app, tmp_path / "b")
    assert result.exit_code == 0, result.output
    label = tmp_path / "b" / f"{sid}.json"
    assert result.output.splitlines() == [
        f"{label}: restored over the existing session {sid}: its hands (one change: Undo on the table page "
        "takes it back), who keeps the score, hand 2 in progress",
        "Restored 1 session(s)",
    ]
    session = store.get_session(db, sid)
    assert session.scorer == 1 and len(session.hands) == 1
    assert store.get_draft(db, sid).answers["trump"] == "clubs"

    # with a hand in progress of its own, the session keeps it, and says so
    client.post(
        url + "/hands/check",
        data={"dealer": "1", "trump": "spades", "draft_version": str(store.draft_version(db, sid))},
        headers={"HX-Request": "true"},
    )
    result = restore(app, tmp_path / "b")
    assert result.output.splitlines()[0].endswith(
        "; the session keeps its own hand 2 in progress (the backup's hand 2 was not restored)"
    )
    assert store.get_draft(db, sid).answers["trump"] == "spades"


def test_no_id_of_a_backup_may_be_any_link_of_another_session(app, client, tmp_path):
    import re

    url = new_session(client, confirm="on")
    page = client.get(url).data.decode()
    seat_link = re.findall(r'<a href="https?://[^"/]+/p/([^"]+)">', page)[0]
    watch_link = re.search(r'href="[^"]*/w/([^"?]+)"', page).group(1)
    for changes, line in [
        (dict(session_id=seat_link), f"session_id {seat_link} is already a player's link of another session"),
        (dict(watch_id=seat_link), f"watch_id {seat_link} is already a player's link of another session"),
        (dict(session_id=watch_link), f"watch_id {WID} is already the watch link of another session"),
        (
            dict(seat_links=[seat_link, "L" * 24, "M" * 24]),
            f"seat link {seat_link} is already a link of another session",
        ),
        (
            dict(seat_links=[watch_link, "L" * 24, "M" * 24]),
            f"seat link {watch_link} is already a link of another session",
        ),
    ]:
        path = tmp_path / "b.json"
        path.write_text(json.dumps(good_backup(**changes)))
        before = database_state(app)
        assert refused_lines(restore(app, path)) == [f"{path}: {line}", "Nothing was restored."], changes
        assert database_state(app) == before
    assert client.get(f"/s/{seat_link}").status_code == 404  # a player's link never opens as the scorer's


@pytest.mark.parametrize(
    "pin_hash",
    [
        "pbkdf2:sha256:2000000$abcdefghijklmnop$" + "0" * 64,  # 2,000,000 iterations a try
        "pbkdf2:sha256:600000$abcdefghijklmnop$" + "0" * 64,
        "scrypt:131072:8:1$abcdefghijklmnop$" + "0" * 128,
        "scrypt:16384:8:1$abcdefghijklmnop$" + "0" * 128,
        "scrypt:32768:16:4$abcdefghijklmnop$" + "0" * 128,
    ],
)
def test_only_a_pin_hash_of_the_apps_own_parameters_is_restored(app, tmp_path, pin_hash):
    path = tmp_path / "b.json"
    path.write_text(json.dumps(good_backup(pin_hash=pin_hash)))
    lines = refused_lines(restore(app, path))
    assert lines[0].startswith(f"{path}: pin_hash must be a PIN hash as the app makes them, or null, not ")
    path.write_text(json.dumps(good_backup(pin_hash="scrypt:32768:8:1$abcdefghijklmnop$" + "0" * 128)))
    assert restore(app, path).exit_code == 0
