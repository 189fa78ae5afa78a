"""Club nights in the store (real SQLite): a night made, its rounds drawn into
ordinary sessions (book, options, stake, seats in the drawn order), a round redrawn
or two players swapped only while no hand is saved at its tables, a late arrival and
a leaver, a circle's night, and bad input refused with nothing saved."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from scorekeeper import store
from support.data import load_example
from support.database import delete_session

NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
HAND = load_example("parlett-evening.json")["hands"][0]


@pytest.fixture
def db(app):
    return store.connect(app.config["DATABASE"])


def night_of(db, players=NINE, **settings):
    options = dict(rulebook="parlett", options={}, stake={"per_counter": "1", "currency": "d"}, rounds=4)
    options.update(settings)
    return store.create_night(db, "Friday club", players, **options)


def counts(db) -> tuple:
    return tuple(
        db.execute(f"select count(*) from {t}").fetchone()[0]
        for t in ("nights", "night_players", "night_rounds", "night_tables", "night_byes", "sessions")
    )


def test_a_round_drawn_is_one_ordinary_session_a_table_in_the_drawn_seat_order(db):
    night = night_of(db)
    night = store.draw_round(db, night.id, 1)
    (drawn,) = night.rounds
    assert drawn.number == 1 and len(drawn.tables) == 3 and drawn.byes == ()
    seated = []
    for table in drawn.tables:
        session = store.get_session(db, table.session_id)
        names = [night.name_of(p) for p in table.seats]
        assert session.players == names
        assert session.rulebook == "parlett" and session.stake == {"per_counter": "1", "currency": "d"}
        assert session.next_dealer() == 0  # the first seat deals first
        assert session.title == f"Friday club · round 1 · table {table.number}"
        seated += names
    assert sorted(seated) == NINE


def test_nine_players_meet_every_other_player_once_over_four_rounds(db):
    night = night_of(db)
    for number in range(1, 5):
        night = store.draw_round(db, night.id, number)
    met = Counter(
        frozenset(pair) for r in night.rounds for t in r.tables for pair in itertools.combinations(t.seats, 2)
    )
    assert len(met) == 36 and set(met.values()) == {1}
    with pytest.raises(store.Refused) as refused:
        store.draw_round(db, night.id, 5)
    assert refused.value.lines() == ["All 4 rounds are drawn: the night is complete."]


@pytest.mark.parametrize(
    "players, line",
    [
        (NINE[:3], "A club night needs at least 4 players, not 3 (three play as one ordinary table)."),
        ([f"P{n}" for n in range(61)], "A club night seats at most 60 players, not 61."),
        (NINE[:4] + ["ann"], "Ann and ann are one name: each player once."),
        (NINE[:4] + ["Ben"], "Ben is named twice: each player once."),
    ],
)
def test_a_night_that_cannot_be_seated_is_refused_and_nothing_saved(db, players, line):
    before = counts(db)
    with pytest.raises(store.Refused) as refused:
        night_of(db, players)
    assert refused.value.lines() == [line]
    assert counts(db) == before


def test_a_round_is_redrawn_or_swapped_until_a_hand_is_saved_at_one_of_its_tables(db):
    night = store.draw_round(db, night_of(db, NINE + ["Jo"]).id, 1)
    (drawn,) = night.rounds
    first = drawn.tables[0]
    one, other = first.seats[0], drawn.tables[1].seats[2]
    night = store.swap_players(db, night.id, 1, one, other)
    swapped = night.round(1)
    assert swapped.tables[0].seats == (other, *first.seats[1:])
    assert store.get_session(db, first.session_id).players[0] == night.name_of(other)
    assert store.get_session(db, first.session_id).version == 2  # the watchers' pages follow
    bye = swapped.byes[0]
    night = store.swap_players(db, night.id, 1, bye, other)
    assert night.round(1).byes == (other,) and night.round(1).tables[0].seats[0] == bye

    night = store.redraw_round(db, night.id, 1, seed=7)
    assert night.round(1).players() == drawn.players()
    assert {t.session_id for t in night.round(1).tables} == {t.session_id for t in drawn.tables}

    session = store.get_session(db, night.round(1).tables[1].session_id)
    store.add_hand(db, session.id, HAND, session.version)
    before = store.get_night(db, night.id)
    for change in (
        lambda: store.redraw_round(db, night.id, 1),
        lambda: store.swap_players(db, night.id, 1, one, other),
    ):
        with pytest.raises(store.Refused) as refused:
            change()
        assert refused.value.lines() == [
            "Round 1 has begun: a hand is saved at table 2, so its seats stay as they are."
        ]
    assert store.get_night(db, night.id) == before


def test_a_table_whose_session_was_deleted_cannot_be_reseated(db):
    night = store.draw_round(db, night_of(db).id, 1)
    gone = night.round(1).tables[2].session_id
    delete_session(db, gone)  # as expiry removes it
    night = store.get_night(db, night.id)
    assert night.round(1).tables[2].session_gone
    with pytest.raises(store.Refused) as refused:
        store.redraw_round(db, night.id, 1)
    assert refused.value.lines() == [
        "Table 3 of round 1 has no session any more (it was deleted): its seats cannot change."
    ]


def test_a_late_arrival_and_a_leaver_change_the_rounds_to_come_only(db):
    night = store.draw_round(db, night_of(db, NINE[:6], rounds=3).id, 1)
    round_one = night.round(1)
    leaver = round_one.tables[0].seats[0]
    store.drop_player(db, night.id, leaver)
    late = store.add_player(db, night.id, " Zoe ").player
    assert late.name == "Zoe" and late.present
    with pytest.raises(store.Refused) as refused:
        store.add_player(db, night.id, "zoe")
    assert refused.value.lines() == ["Zoe is here already: each player once."]
    night = store.draw_round(db, night.id, 2)
    assert night.round(1) == round_one
    seated = {p for t in night.round(2).tables for p in t.seats}
    assert leaver not in seated and late.id in seated and len(seated) == 6
    assert night.player(leaver).left_after == 1


def test_a_night_keeps_four_players_at_least(db):
    night = night_of(db, NINE[:4])
    with pytest.raises(store.Refused) as refused:
        store.drop_player(db, night.id, night.players[0].id)
    assert refused.value.lines() == ["A club night needs 4 players at least: Ann is one of the last 4."]
    assert store.get_night(db, night.id).version == 1


def test_a_circles_night_makes_its_tables_evenings_of_the_circle(db):
    circle = store.create_circle(db, "Thursday Gleek", NINE[:7])
    members = [(m.name, m.id) for m in circle.members[:6]]
    night = store.draw_round(
        db, store.create_night(db, "Club", members, "parlett", {}, None, 2, circle_id=circle.id).id, 1
    )
    evenings = store.evenings(db, circle.id)
    assert sorted(e.session_id for e in evenings) == sorted(t.session_id for t in night.round(1).tables)
    for table in night.round(1).tables:
        assert [s.member_id for s in store.seats_of(db, table.session_id)] == [
            night.player(p).member_id for p in table.seats
        ]
