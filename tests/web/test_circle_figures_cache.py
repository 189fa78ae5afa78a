"""The evening_figures cache's bytes (store/kept_figures.py ``encode``/``decode``):
what is read back is the ``EveningFigures`` that was kept, amount for amount and
type for type (an int stays an int, a Fraction a Fraction), on generated seasons."""

from __future__ import annotations

import sys
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.season import Stake, evening_figures
from scorekeeper.store.kept_figures import decode, encode
from support.data import load_example
from support.profiles import examples
from support.strategies import records

STAKES = st.sampled_from(
    [
        None,
        {"per_counter": "0.25", "currency": "d"},
        {"per_counter": "1", "currency": "d"},
        {"per_counter": "0.05", "currency": "GBP"},
        {"per_counter": "1/3", "currency": "d"},
    ]
)


def shape(value):
    """The value with each leaf's type beside it: 2 and Fraction(2) are equal, not the same."""
    if isinstance(value, tuple):
        return (type(value).__name__, tuple(shape(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, shape(v)) for k, v in value.items()))
    return (type(value).__name__, value)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records(max_hands=5), STAKES, st.booleans())
def test_an_evening_read_back_is_the_evening_kept(record, stake, dated):
    if stake:
        record["stake"] = stake
    if dated:
        record["played_on"] = "2026-11-14"
    figures = evening_figures(record, "e1", ["#1", "#2", "#3"])
    back = decode(encode(figures))
    assert back == figures
    assert shape(back) == shape(figures)


def replaced(value, **changes):
    return type(value)(**dict(zip(value._fields, value), **changes))


def with_facts(facts, **changes):
    """A seat's facts with some statistics' values changed."""
    return {**facts, **changes}


def test_halves_and_fractions_are_read_back_exactly():
    """Half counters in a hand, a best and a worst, money in thirds of a penny: as kept."""
    record = load_example("cotton1674-evening.json")
    figures = evening_figures(record, "e", ["#1", "#2", "#3"])
    figures = replaced(
        figures,
        stake=Stake("d", Fraction(1, 3)),
        totals=(Fraction(3, 2), Fraction(-1, 2), -1),
        money=(Fraction(1, 2), Fraction(-1, 6), Fraction(-1, 3)),
        phases=(("ruff", (Fraction(1, 2), Fraction(-1, 2), 0)), ("tricks", (1, 0, -1))),
        facts=(with_facts(figures.facts[0], best=Fraction(3, 2), worst=Fraction(-1, 2), price=Fraction(25, 2)),)
        + figures.facts[1:],
    )
    back = decode(encode(figures))
    assert back == figures
    assert shape(back) == shape(figures)
    assert type(back.phases[1][1][0]) is int and type(back.totals[0]) is Fraction


def test_a_restarted_server_reads_the_kept_figures_and_a_new_hand_replaces_one_row(app):
    """The season from the database's kept figures (a server just started: this process's
    caches empty) is the season computed from the records; a new hand in one evening
    changes that evening's row only; a row kept by other rules' code is computed again."""
    from scorekeeper import store
    from scorekeeper.web import circle_figures

    db = store.connect(app.config["DATABASE"])
    circle = store.create_circle(db, "Thursday Gleek", ["Ann", "Ben", "Cat", "Dan"])
    ann, ben, cat, dan = (m.id for m in circle.members)
    record = load_example("parlett-evening.json")
    sessions = []
    for n, seats in enumerate([(ann, ben, cat), (dan, ben, cat), (ann, dan, cat), (ben, ann, dan)]):
        names = [m.name for s in seats for m in circle.members if m.id == s]
        evening = dict(
            record,
            players=names,
            hands=record["hands"][:2],
            played_on=f"2026-11-{n + 10:02d}",
            stake={"per_counter": "0.25", "currency": "d"} if n % 2 else None,
        )
        if evening["stake"] is None:
            del evening["stake"]
        sessions.append(store.create_session(db, evening, circle=(circle.id, list(seats))))

    def forget():
        for kept in (circle_figures.FIGURES, circle_figures.SEASONS, circle_figures.MONEY, circle_figures.PAGES):
            kept._values.clear()

    def season_now():
        with app.test_request_context():
            return circle_figures.season_of(db, store.get_circle(db, circle.id))[0]

    def rows():
        return dict(db.execute("select session_id, version from evening_figures").fetchall())

    computed = season_now()
    kept = rows()
    assert kept == {s.id: s.version for s in sessions}
    forget()
    assert season_now() == computed
    session = store.get_session(db, sessions[1].id)
    from support.sessions import rotate_hand

    hand = record["hands"][2]
    store.add_hand(db, session.id, rotate_hand(hand, (session.next_dealer() - hand["dealer"]) % 3), session.version)
    forget()
    after = season_now()
    assert rows() == dict(kept, **{session.id: session.version + 1})
    assert after.evenings[1].hands == 3 and after.evenings[0] == computed.evenings[0]
    db.execute("update evening_figures set code = 'older rules'")
    forget()
    assert season_now() == after
    assert {code for (code,) in db.execute("select code from evening_figures")} == {store.kept_code()}


def test_an_evening_is_read_back_by_pickle_alone():
    """A cold season page reads 1,000 evenings back from the database: each is built by
    pickle itself, with no Python code run per seat (a record class around each seat's
    facts, set up field by field by the dataclass's own __setstate__, was a third of the
    page). Only the named tuples' own constructors run: the evening's and its stake's."""
    record = dict(load_example("parlett-evening.json"), stake={"per_counter": "1/3", "currency": "d"})
    figures = evening_figures(record, "e", ["#1", "#2", "#3"])
    data = encode(figures)
    decode(data)  # each Fraction read back is made once, then shared
    called = []

    def watch(frame, event, arg):
        if event == "call":
            called.append((frame.f_code.co_filename.rsplit("/", 1)[-1], frame.f_code.co_name))

    sys.setprofile(watch)
    try:
        back = decode(data)
    finally:
        sys.setprofile(None)
    assert back == figures
    assert called == [("kept_figures.py", "decode"), ("<string>", "<lambda>"), ("<string>", "<lambda>")]
