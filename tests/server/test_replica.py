"""A hosted instance survives the loss of its disk: with ``REPLICA`` in
instance/config.py, `make run-https` (``python -m scorekeeper.server.front``, started
here on loopback) replicates the database with Litestream (scorekeeper/server/replica.py).

Hands are saved through the real front (tables saving at once, while litestream
copies and checkpoints the WAL: every save acknowledged, none refused busy), the
server is stopped as a terminal or a service manager stops it, the database, its
WAL and -shm are deleted (and Litestream's state beside them: the same disk), and
``scorekeeper restore-replica`` brings back every acknowledged hand; the app then
starts on it. Where the database is missing at start-up it is restored from the
replica before an empty one is made. How many seconds a lost disk can cost when
nothing is stopped first is measured in bench/replica_bench.py."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest

from support.data import load_example
from support.front import RunHttps, have_caddy, processes_running
from support.web import hand_fields

from scorekeeper import create_app, store
from scorekeeper.server import replica

ROOT = Path(__file__).resolve().parents[2]
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
HANDS = load_example("parlett-evening.json")["hands"]
TABLES, SAVES = 3, 8  # each table saves its hands while the others do


def lose_the_disk(database: Path) -> None:
    """The database, its WAL and -shm gone, and Litestream's own state beside them."""
    database.unlink()
    for side in ("-wal", "-shm"):
        Path(f"{database}{side}").unlink(missing_ok=True)  # none after a restore, until the app writes
    shutil.rmtree(replica.Replica(database, "").local_state, ignore_errors=True)  # none after a restore either


def new_table(server: RunHttps, n: int) -> tuple[str, dict]:
    status, headers, _ = server.request(
        "POST",
        "/sessions",
        urlencode(
            {
                "player_0": f"Ann {n}",
                "player_1": "Ben",
                "player_2": "Cat",
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": "",
            }
        ).encode(),
        {"Origin": server.url, **FORM},
    )
    assert status == 303, status
    return headers["Location"], {"Cookie": headers["Set-Cookie"].split(";", 1)[0]}


def save_hands(server: RunHttps, url: str, jar: dict, acknowledged: list) -> None:
    for version in range(1, SAVES + 1):
        hand = dict(HANDS[version % len(HANDS)], note=f"hand {version} of {url[-6:]}")
        status, _, body = server.request(
            "POST",
            url + "/hands",
            urlencode(list(hand_fields(hand, version).items(multi=True))).encode(),
            {"Origin": server.url, **FORM, **jar},
        )
        assert status == 303, (status, body[:300])
        acknowledged.append(hand)


def exported_hands(server: RunHttps, url: str, jar: dict) -> list:
    status, _, body = server.request("GET", url + "/export.json", headers=jar)
    assert status == 200
    return json.loads(body)["hands"]


@pytest.mark.skipif(not have_caddy(), reason="Caddy and certutil are installed by `make test`")
def test_every_acknowledged_hand_comes_back_from_the_replica_after_the_disk_is_lost(tmp_path):
    other_disk = tmp_path / "other-disk" / "gleek"
    server = RunHttps(tmp_path, f"REPLICA = {str(other_disk)!r}\n").start()
    database = server.instance / "scorekeeper.db"
    tables = {}
    try:
        assert processes_running("litestream replicate", str(server.instance))  # started with the server
        for n in range(TABLES):
            url, jar = new_table(server, n)
            tables[url] = (jar, [])
        savers = [
            threading.Thread(target=save_hands, args=(server, url, jar, acknowledged))
            for url, (jar, acknowledged) in tables.items()
        ]
        for saver in savers:
            saver.start()
        for saver in savers:
            saver.join()
        for _jar, acknowledged in tables.values():
            assert len(acknowledged) == SAVES  # every save answered 303: none refused while litestream ran
    finally:
        assert server.stop() == 0
    assert not processes_running("litestream replicate", str(server.instance))  # stopped with the server
    assert (other_disk / "ltx").is_dir()

    lose_the_disk(database)
    assert restore_replica(server) == f"Restored {database} from file://{other_disk}\n"

    server.start()  # the app starts on the restored database, and litestream goes on from it
    try:
        for url, (jar, acknowledged) in tables.items():
            assert exported_hands(server, url, jar) == acknowledged
        url, (jar, acknowledged) = next(iter(tables.items()))
        hand = HANDS[0]  # the evening goes on from its version
        status, _, _ = server.request(
            "POST",
            url + "/hands",
            urlencode(list(hand_fields(hand, SAVES + 1).items(multi=True))).encode(),
            {"Origin": server.url, **FORM, **jar},
        )
        assert status == 303
        acknowledged.append(hand)
    finally:
        assert server.stop() == 0

    lose_the_disk(database)  # a second disk lost: the hand saved after the first restore is in the replica too
    restore_replica(server)
    server.start()
    try:
        for url, (jar, acknowledged) in tables.items():
            assert exported_hands(server, url, jar) == acknowledged
    finally:
        assert server.stop() == 0


def restore_replica(server: RunHttps) -> str:
    """``scorekeeper restore-replica`` for the server's instance: what it printed."""
    restored = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "restore-replica"],
        cwd=ROOT,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert restored.returncode == 0, restored.stderr
    return restored.stdout


def test_a_missing_database_is_restored_from_the_replica_before_an_empty_one_is_made(tmp_path):
    database = tmp_path / "instance" / "scorekeeper.db"
    config = {
        "DATABASE": str(database),
        "SECRET_KEY": "test",
        "TESTING": True,
        "BACKUP_DIR": str(tmp_path / "backups"),
        "REPLICA": str(tmp_path / "other-disk"),
    }
    app = create_app(config)
    replicated = replica.from_config(app.config)
    replicator = replica.Replicator(replicated).start()
    try:
        client = app.test_client()
        response = client.post(
            "/sessions",
            data={
                "player_0": "Ann",
                "player_1": "Ben",
                "player_2": "Cat",
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": "",
            },
        )
        assert response.status_code == 303
        url = response.headers["Location"]
        for version, hand in enumerate(HANDS[:3], start=1):
            assert client.post(url + "/hands", data=hand_fields(hand, version)).status_code == 303
    finally:
        app.extensions["scorekeeper.keeper"].close()
        replicator.stop()

    # the server stopped, the database still there: restore-replica refuses, and changes nothing
    before = database.read_bytes()
    with pytest.raises(replica.ReplicaError, match="exists: stop the server, then restore with --force"):
        replica.restore(replicated)
    assert database.read_bytes() == before
    # asked to (--force): the replica's database in its place, the one there kept beside
    restored = replica.restore(replicated, force=True)
    assert restored.kept.name.startswith("scorekeeper.db.replaced-") and restored.kept.read_bytes() == before
    db = store.connect(database)
    try:
        session = store.get_session(db, url.rsplit("/", 1)[1])
        assert (len(session.hands), session.version) == (3, 4)
    finally:
        db.close()

    lose_the_disk(database)
    app = create_app(config)  # as `make run-https`'s init-db, or the server, starts
    try:
        restored = app.test_client().get(url + "/export.json").get_json()
        assert restored["hands"] == HANDS[:3]
    finally:
        app.extensions["scorekeeper.keeper"].close()


def test_while_replicated_litestream_makes_the_checkpoints(tmp_path, migrated_database):
    from support.database import fresh_database

    replicated = create_app(
        {
            "DATABASE": fresh_database(migrated_database, tmp_path),
            "SECRET_KEY": "test",
            "TESTING": True,
            "REPLICA": str(tmp_path / "other-disk"),
        }
    )
    plain = create_app(
        {
            "DATABASE": fresh_database(migrated_database, (tmp_path / "plain").mkdir() or tmp_path / "plain"),
            "SECRET_KEY": "test",
            "TESTING": True,
        }
    )
    try:
        for app, pages in ((replicated, replica.APP_CHECKPOINT_PAGES), (plain, 1000)):
            db = store.connect(app.config["DATABASE"])
            assert db.conn.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == pages
            db.close()
    finally:
        for app in (replicated, plain):
            app.extensions["scorekeeper.keeper"].close()


def test_without_a_replica_the_commands_say_so_and_change_nothing(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    env = dict(os.environ, SCOREKEEPER_INSTANCE=str(instance))

    def scorekeeper(*words):
        return subprocess.run(
            [sys.executable, "-m", "scorekeeper", *words], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
        )

    replicate = scorekeeper("replicate")  # the deploy unit without REPLICA: nothing to do, not a failure
    assert (replicate.returncode, replicate.stdout) == (0, "")
    assert replicate.stderr == "No REPLICA in instance/config.py: nothing is replicated.\n"
    restore = scorekeeper("restore-replica")
    assert (restore.returncode, restore.stdout) == (1, "")
    assert restore.stderr == "No REPLICA in instance/config.py: there is no replica to restore from.\n"
    assert sorted(path.name for path in instance.iterdir()) == []  # no database made, no folder for litestream

    (instance / "config.py").write_text(f"REPLICA = {str(tmp_path / 'nothing-yet')!r}\n")
    restore = scorekeeper("restore-replica")  # a replica with nothing in it: said, and nothing made
    assert restore.returncode == 1 and restore.stdout == ""
    assert (
        restore.stderr
        == f"nothing restored from file://{tmp_path / 'nothing-yet'}: no matching backup files available\n"
    )
    assert not (instance / "scorekeeper.db").exists()


@pytest.mark.skipif(not have_caddy(), reason="Caddy and certutil are installed by `make test`")
def test_litestream_is_started_again_if_it_dies_and_never_left_behind(tmp_path):
    server = RunHttps(tmp_path, f"REPLICA = {str(tmp_path / 'other-disk')!r}\n").start()
    try:
        [first] = processes_running("litestream replicate", str(server.instance))
        os.kill(first, signal.SIGKILL)
        again = wait_for(
            lambda: [pid for pid in processes_running("litestream replicate", str(server.instance)) if pid != first]
        )
        assert len(again) == 1  # make run-https started it again
        url, jar = new_table(server, 0)  # and the app went on saving meanwhile
        save_hands(server, url, jar, acknowledged := [])
        assert len(acknowledged) == SAVES

        os.kill(server.procs[0].pid, signal.SIGKILL)  # scorekeeper.server.front alone, no time to stop its children
        server.procs[0].wait(timeout=10)
        wait_for(lambda: not processes_running("litestream replicate", str(server.instance)))
        assert not processes_running("litestream replicate", str(server.instance))  # it stopped with its parent
    finally:
        server.kill()


def wait_for(condition, bound: float = 30.0):
    """``condition()`` once it is true, or its last answer after ``bound`` seconds (a
    bound on the wait, not a figure: litestream restarts after a few seconds, and
    stops after its last sync)."""
    deadline = time.monotonic() + bound
    while not (answer := condition()) and time.monotonic() < deadline:
        time.sleep(0.2)
    return answer


def test_a_replica_folder_named_relatively_is_in_the_instance_folder(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    (instance / "config.py").write_text('REPLICA = "../other-disk"\nREPLICA_SYNC_SECONDS = 0.25\n')
    printed = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "replicate", "--print"],
        cwd=ROOT,
        env=dict(os.environ, SCOREKEEPER_INSTANCE=str(instance)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert printed.returncode == 0, printed.stderr
    [database] = json.loads(printed.stdout)["dbs"]  # Litestream 0.5's configuration (JSON is YAML)
    assert database["path"] == str(instance / "scorekeeper.db")
    assert database["replica"] == {"url": f"file://{tmp_path / 'other-disk'}", "sync-interval": "0.25s"}
    assert database["monitor-interval"] == "0.25s"  # the WAL read as often as the replica is written
