"""Writers take turns and share the wait for the disk (scorekeeper/store/commits.py):
on a real SQLite file, with real threads and a real second process."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import threading
import time

import pytest

from scorekeeper import store
from scorekeeper.store import commits
from support.database import fresh_database


@pytest.fixture
def path(tmp_path, migrated_database):
    return fresh_database(migrated_database, tmp_path)


def note(db, text):
    db.conn.execute("create table if not exists notes (text text)")
    db.conn.execute("insert into notes values (?)", (text,))


def notes(path):
    db = store.connect(path)
    try:
        return sorted(row[0] for row in db.conn.execute("select text from notes"))
    finally:
        db.close()


def test_a_durable_write_is_synced_and_then_seen_by_another_connection(path):
    db = store.connect(path)
    flusher = commits.sync_for(path)
    before = flusher.syncs
    with store.writing(db):
        note(db, "one")
    assert flusher.syncs == before + 1
    assert notes(path) == ["one"]
    assert db.conn.execute("pragma synchronous").fetchone()[0] == 2  # FULL again for anything else
    db.close()


def test_a_write_that_need_not_wait_for_the_disk_makes_no_sync(path):
    db = store.connect(path)
    with store.writing(db):
        note(db, "table")
    flusher = commits.sync_for(path)
    before = flusher.syncs
    with store.writing(db, durable=False):
        note(db, "draft")
    assert flusher.syncs == before
    assert notes(path) == ["draft", "table"]
    db.close()


def test_writes_made_at_once_share_syncs_and_all_land(path):
    first = store.connect(path)
    with store.writing(first):
        note(first, "start")
    first.close()
    flusher = commits.sync_for(path)
    before = flusher.syncs
    writers, each = 8, 10
    gate = threading.Barrier(writers)
    failures = []

    def write(n):
        db = store.connect(path)
        try:
            gate.wait()
            for i in range(each):
                with store.writing(db):
                    note(db, f"{n}-{i}")
        except Exception as error:  # noqa: BLE001 - the test says which
            failures.append(error)
        finally:
            db.close()

    threads = [threading.Thread(target=write, args=(n,)) for n in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert len(notes(path)) == 1 + writers * each
    syncs = flusher.syncs - before
    assert 1 <= syncs < writers * each  # some commits were made durable by a sync another began


def test_a_write_that_fails_rolls_back_and_gives_the_turn_back(path):
    db = store.connect(path)
    with store.writing(db):
        note(db, "kept")
    with pytest.raises(ZeroDivisionError):
        with store.writing(db):
            note(db, "lost")
            raise ZeroDivisionError
    assert not db.conn.in_transaction
    with store.writing(db):  # the turn was given back: no wait
        note(db, "after")
    assert notes(path) == ["after", "kept"]
    db.close()


def test_a_thread_that_waits_too_long_for_its_turn_is_told_the_database_is_locked(path, monkeypatch):
    monkeypatch.setattr(commits.Turn, "WAIT", 0.2)
    held, release = threading.Event(), threading.Event()

    def hold():
        holder = store.connect(path)
        with store.writing(holder):
            note(holder, "holder")
            held.set()
            release.wait(10)
        holder.close()

    thread = threading.Thread(target=hold)
    thread.start()
    held.wait(10)
    db = store.connect(path)
    try:
        with pytest.raises(sqlite3.OperationalError, match="database is locked"):
            with store.writing(db):
                note(db, "waiter")
        assert not db.conn.in_transaction
    finally:
        release.set()
        thread.join()
    with store.writing(db):
        note(db, "later")
    assert notes(path) == ["holder", "later"]
    db.close()


def _hold_the_turn(path, held, release):
    db = store.connect(path)
    with store.writing(db):
        note(db, "other process")
        held.set()
        release.wait(10)
        time.sleep(0.3)
    db.close()


def test_another_process_holding_the_turn_is_waited_for_then_followed(path):
    db = store.connect(path)
    with store.writing(db):
        note(db, "first")
    context = multiprocessing.get_context("fork")
    held, release = context.Event(), context.Event()
    other = context.Process(target=_hold_the_turn, args=(path, held, release))
    other.start()
    try:
        assert held.wait(10)
        release.set()
        started = time.monotonic()
        with store.writing(db):  # waits on the other process's flock, then goes
            waited = time.monotonic() - started
            note(db, "after it")
    finally:
        other.join(10)
    assert other.exitcode == 0
    assert waited >= 0.2
    assert notes(path) == ["after it", "first", "other process"]
    db.close()


def test_the_turn_file_is_the_owners_only(path):
    db = store.connect(path)
    with store.writing(db):
        note(db, "x")
    assert os.stat(f"{path}-writer").st_mode & 0o777 == 0o600
    db.close()


def test_a_nested_write_is_refused_as_before(path):
    db = store.connect(path)
    with pytest.raises(sqlite3.OperationalError, match="within a transaction"):
        with store.writing(db):
            with store.writing(db):
                pass
    assert not db.conn.in_transaction
    db.close()
