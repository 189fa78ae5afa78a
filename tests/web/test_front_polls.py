"""server/front_polls.py in one process (real SQLite, the real app): after a
change, the watch link's new part is left for the front without any poll
asking for it — by the changing request's own thread once its answer is sent,
or, for a change made outside a request, by a thread of the app's own.
(Through a real Caddy: tests/server/test_https_front.py.)"""

from __future__ import annotations

import re
import time

import pytest

from support.data import load_example
from support.web import hand_fields, new_session


@pytest.fixture
def front_app(app, front_files):
    return app, front_files


def left_for_the_front(files, watch_id: str, within: float = 5.0):
    """(the version marked, the part) the front would answer a poll with, once there."""
    folder = files.of(watch_id)
    deadline = time.monotonic() + within
    while True:
        marks = [name for name in (folder.iterdir() if folder.exists() else ()) if name.name.startswith("same-")]
        if marks and (folder / "part.html").exists():
            return marks[0].name.removeprefix("same-"), (folder / "part.html").read_bytes()
        if time.monotonic() >= deadline:
            return None
        time.sleep(0.02)


def test_a_saved_hand_leaves_its_new_part_for_the_front_unasked(front_app):
    from scorekeeper import store
    from scorekeeper.db import get_db

    app, files = front_app
    client = app.test_client()
    url = new_session(client)
    watch = re.search(r"/w/([A-Za-z0-9_-]+)", client.get(url).get_data(as_text=True)).group(1)
    assert left_for_the_front(files, watch, within=0) is None  # nothing asked, nothing changed: nothing left

    hand = load_example("parlett-evening.json")["hands"][0]
    response = client.post(url + "/hands", data=hand_fields(hand, 1))
    assert response.status_code == 303
    response.close()  # the answer sent: its thread renews the part, then and there
    version, part = left_for_the_front(files, watch, within=0)
    with app.app_context():
        assert version == store.live_version(get_db(), watch, "w")
    polled = client.get(f"/w/{watch}/live?v=0", headers={"HX-Request": "true"})
    assert polled.get_data() == part and f"live?v={version}".encode() in part
    assert b"No hands yet." not in part


def test_a_new_or_imported_session_leaves_its_first_part_for_the_front(front_app):
    """Before any phone polls it: otherwise every link's first poll waits for the
    app (200 tables imported at once: 200 parts made in the first seconds of
    their phones' polls, behind the saves)."""
    import json

    from scorekeeper import store
    from scorekeeper.db import get_db
    from support.sessions import long_session

    app, files = front_app
    client = app.test_client()
    created = client.post(
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
    created.close()
    imported = client.post(
        "/import",
        data=json.dumps(dict(long_session(12), players=["Dan", "Eve", "Fay"])),
        headers={"Content-Type": "application/json"},
    )
    assert imported.status_code == 303
    imported.close()
    for response, shown in ((created, b"No hands yet."), (imported, b"#12")):
        page = client.get(response.headers["Location"]).get_data(as_text=True)
        watch = re.search(r"/w/([A-Za-z0-9_-]+)", page).group(1)
        version, part = left_for_the_front(files, watch, within=0)
        with app.app_context():
            assert version == store.live_version(get_db(), watch, "w")
        assert shown in part


def test_a_change_outside_a_request_is_renewed_by_the_apps_own_thread(front_app):
    """A command (a restore, the hand deleted here through the store) tells its
    change outside any request: the part is renewed all the same."""
    from scorekeeper import store
    from scorekeeper.db import get_db

    app, files = front_app
    client = app.test_client()
    url = new_session(client)
    hand = load_example("parlett-evening.json")["hands"][0]
    client.post(url + "/hands", data=hand_fields(hand, 1)).close()
    watch = re.search(r"/w/([A-Za-z0-9_-]+)", client.get(url).get_data(as_text=True)).group(1)
    before, _ = left_for_the_front(files, watch)
    key = url.rsplit("/", 1)[1]
    with app.app_context():
        session = store.get_session(get_db(), key)
        store.delete_last_hand(get_db(), session.id, session.version)
        now = store.live_version(get_db(), watch, "w")
    assert now != before
    deadline = time.monotonic() + 5
    while (found := left_for_the_front(files, watch)) is None or found[0] != now:
        assert time.monotonic() < deadline, found
        time.sleep(0.02)
    assert b"No hands yet." in found[1]


# -- where the front's answers are kept unless configured: in memory, in a folder of this user's


def test_the_default_folder_is_in_memory_and_this_users_own(tmp_path):
    import os
    import stat

    from scorekeeper.server import front_polls

    if not front_polls.MEMORY.is_dir():
        pytest.skip("no /dev/shm on this machine")
    folder = front_polls.default_folder(tmp_path / "instance")
    try:
        assert folder.name == "polls" and folder.parent.parent == front_polls.MEMORY
        assert folder.parent.name.startswith(f"scorekeeper-front-{os.getuid()}-")
        assert stat.S_IMODE(folder.parent.lstat().st_mode) == 0o700
        # the front's Caddyfile and the app name the same folder, whichever way the path is spelt
        assert front_polls.default_folder(str(tmp_path / "instance" / ".." / "instance")) == folder
        assert front_polls.default_folder(tmp_path / "another") != folder  # another instance, another folder
    finally:
        front_polls.remove_memory_folder(folder)
        front_polls.remove_memory_folder(front_polls.default_folder(tmp_path / "another"))
    assert not folder.parent.exists()


def test_a_memory_folder_open_to_others_or_a_link_in_its_place_is_refused(tmp_path):
    from scorekeeper.server import front_polls

    if not front_polls.MEMORY.is_dir():
        pytest.skip("no /dev/shm on this machine")
    instance = tmp_path / "instance"
    fallback = instance.resolve() / "front" / "polls"
    mine = front_polls.default_folder(instance).parent
    try:
        mine.chmod(0o755)  # as if made by someone else for the phones to be sent his parts
        assert front_polls.default_folder(instance) == fallback
        mine.rmdir()
        mine.symlink_to(tmp_path)
        assert front_polls.default_folder(instance) == fallback
        assert tmp_path.exists()
    finally:
        if mine.is_symlink():
            mine.unlink()
        elif mine.exists():
            mine.rmdir()
    front_polls.remove_memory_folder(fallback)  # not one in memory: left alone
    assert tmp_path.exists()


def test_without_a_memory_file_system_the_answers_are_in_the_instance_folder(tmp_path, monkeypatch):
    from scorekeeper.server import front_polls

    monkeypatch.setattr(front_polls, "MEMORY", tmp_path / "no-such-folder")
    assert front_polls.default_folder(tmp_path) == tmp_path.resolve() / "front" / "polls"


def test_a_memory_folder_removed_under_a_running_server_is_made_again_this_users_only(tmp_path):
    import stat

    from scorekeeper.server import front_polls

    if not front_polls.MEMORY.is_dir():
        pytest.skip("no /dev/shm on this machine")
    folder = front_polls.default_folder(tmp_path / "instance")
    files = front_polls.PollFiles(folder)
    try:
        front_polls.remove_memory_folder(folder)  # say, by a server that stopped
        assert files.keep("AbC", "7", b"<p>part</p>")
        assert (folder / "w" / "AbC" / "part.html").read_bytes() == b"<p>part</p>"
        assert stat.S_IMODE(folder.parent.lstat().st_mode) == 0o700  # not the umask's 0755: others cannot list it
        assert front_polls.default_folder(tmp_path / "instance") == folder  # and the next start takes it
    finally:
        front_polls.remove_memory_folder(folder)
