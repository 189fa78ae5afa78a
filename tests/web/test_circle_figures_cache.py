"""The evening_figures cache's bytes (web/circle_figures.py ``encode``/``decode``):
what is read back is the ``EveningFigures`` that was kept, amount for amount and
type for type (an int stays an int, a Fraction a Fraction), on generated seasons."""

from __future__ import annotations

import gc
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules.season import Stake, evening_figures
from scorekeeper.web.cache import cycles_uncollected
from scorekeeper.web.circle_figures import decode, encode
from support.data import load_example
from support.strategies import records

STAKES = st.sampled_from([None, {"per_counter": "0.25", "currency": "d"}, {"per_counter": "1", "currency": "d"},
                          {"per_counter": "0.05", "currency": "GBP"}, {"per_counter": "1/3", "currency": "d"}])


def shape(value):
    """The value with each leaf's type beside it: 2 and Fraction(2) are equal, not the same."""
    if isinstance(value, tuple):
        return (type(value).__name__, tuple(shape(v) for v in value))
    return (type(value).__name__, value)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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


def test_halves_and_fractions_are_read_back_exactly():
    """Half counters in a hand, a best and a worst, money in thirds of a penny: as kept."""
    record = load_example("cotton1674-evening.json")
    figures = evening_figures(record, "e", ["#1", "#2", "#3"])
    figures = replaced(
        figures, stake=Stake("d", Fraction(1, 3)),
        totals=(Fraction(3, 2), Fraction(-1, 2), -1), money=(Fraction(1, 2), Fraction(-1, 6), Fraction(-1, 3)),
        phases=(("ruff", (Fraction(1, 2), Fraction(-1, 2), 0)), ("tricks", (1, 0, -1))),
        facts=(replaced(figures.facts[0], best=Fraction(3, 2), worst=Fraction(-1, 2), price=Fraction(25, 2)),)
        + figures.facts[1:])
    back = decode(encode(figures))
    assert back == figures
    assert shape(back) == shape(figures)
    assert type(back.phases[1][1][0]) is int and type(back.totals[0]) is Fraction


def test_the_collector_is_paused_while_reading_and_back_after():
    assert gc.isenabled()
    with cycles_uncollected():
        assert not gc.isenabled()
        with cycles_uncollected():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
