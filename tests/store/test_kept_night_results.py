"""A club night's kept table results in the store (store/night_results.py, migration
m016): exact fractions back as they were kept, one night's rows in one query, a newer
row replacing an older, none for a session deleted meanwhile, and a database with
nights from before m016 migrated with its nights intact."""

from __future__ import annotations

import sqlite3
from fractions import Fraction

from scorekeeper import store
from scorekeeper.store.schema import initialise
from support.database import delete_session
from support.nights import a_played_night


def test_kept_results_come_back_exact_and_by_night(tmp_path):
    initialise(tmp_path / "n.db")
    db = store.connect(tmp_path / "n.db")
    night, other = a_played_night(db), a_played_night(db)
    one, two = night.round(1).tables[:2]
    store.keep_results(
        db,
        [
            store.KeptResult(one.session_id, 3, "code", 2, (Fraction(21, 2), Fraction(-1, 3), 0)),
            store.KeptResult(two.session_id, 2, "code", 1, (20, 2, -22)),
        ],
    )
    store.keep_results(db, [store.KeptResult(other.round(1).tables[0].session_id, 3, "code", 2, (52, 3, -55))])
    kept = store.kept_results(db, night.id)
    assert kept == {
        one.session_id: (one.session_id, 3, "code", 2, (Fraction(21, 2), Fraction(-1, 3), Fraction(0))),
        two.session_id: (two.session_id, 2, "code", 1, (Fraction(20), Fraction(2), Fraction(-22))),
    }
    assert all(type(b) is Fraction for row in kept.values() for b in row.balances)
    # a newer result replaces the table's row
    store.keep_results(db, [store.KeptResult(two.session_id, 4, "code", 2, (52, 3, -55))])
    assert store.kept_results(db, night.id)[two.session_id] == (two.session_id, 4, "code", 2, (52, 3, -55))
    # a session deleted meanwhile keeps no row (its foreign key would refuse one), and the rest are kept
    delete_session(db, one.session_id)
    store.keep_results(
        db,
        [
            store.KeptResult(one.session_id, 3, "code", 2, (1, 0, -1)),
            store.KeptResult(two.session_id, 5, "code", 2, (52, 3, -55)),
        ],
    )
    assert set(store.kept_results(db, night.id)) == {two.session_id}
    store.forget_results(db)
    assert store.kept_results(db, night.id) == {} == store.kept_results(db, other.id)


def test_a_database_with_nights_from_before_m016_is_migrated_with_its_nights_intact(tmp_path):
    path = tmp_path / "old.db"
    initialise(path)
    db = store.connect(path)
    night = a_played_night(db)
    db.close()
    with sqlite3.connect(path) as conn:  # the release before: no kept results
        conn.execute("drop table table_results")
        conn.execute("delete from _sqlite_migrations where name = 'm016_night_table_results'")
    initialise(path)
    db = store.connect(path)
    assert store.get_night(db, night.id) == night
    assert store.kept_results(db, night.id) == {}
    table = night.round(1).tables[0]
    store.keep_results(db, [store.KeptResult(table.session_id, table.version, "code", 2, (52, 3, -55))])
    assert store.kept_results(db, night.id)[table.session_id].balances == (52, 3, -55)
    with sqlite3.connect(path) as conn:
        assert "m016_night_table_results" in {n for (n,) in conn.execute("select name from _sqlite_migrations")}
