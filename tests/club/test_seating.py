"""Seating a club night: tables of three, fair byes, as few repeated meetings as the
schedule allows; Kirkman schedules where they exist; the ``seating`` command."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support.profiles import examples

from scorekeeper.__main__ import main
from scorekeeper.club.seating import (
    MAX_PLAYERS,
    Round,
    SeatingError,
    Table,
    draw,
    kirkman_classes,
    lower_bound,
    seat_by_standings,
)

NAMES = [f"P{i}" for i in range(MAX_PLAYERS)]


def check_round(r: Round, players: list[str]) -> None:
    seated = r.players() + list(r.byes)
    assert sorted(seated) == sorted(players), "every player at one table or sitting out"
    assert all(len(set(t.seats)) == 3 for t in r.tables)
    assert len(r.byes) == len(players) % 3


def check_byes_fair(rounds, players) -> None:
    """Nobody sits out twice before everybody has sat out once."""
    sat_out = Counter({p: 0 for p in players})
    for r in rounds:
        sat_out.update(r.byes)
        assert max(sat_out.values()) - min(sat_out.values()) <= 1


@settings(max_examples=examples(60), deadline=None)
@given(players=st.integers(4, 30), rounds=st.integers(1, 8), seed=st.integers(0, 2**32))
def test_every_round_seats_everyone_once_and_byes_are_fair(players, rounds, seed):
    names = NAMES[:players]
    schedule = draw(names, rounds, seed=seed)
    assert len(schedule.rounds) == rounds
    for r in schedule.rounds:
        check_round(r, names)
    check_byes_fair(schedule.rounds, names)
    assert schedule.repeats >= lower_bound(players, rounds)


@settings(max_examples=examples(40), deadline=None)
@given(players=st.integers(8, 30), seed=st.integers(0, 2**32))
def test_three_rounds_never_repeat_a_pair_from_eight_players(players, seed):
    assert draw(NAMES[:players], 3, seed=seed).repeats == 0


@settings(max_examples=examples(20), deadline=None)
@given(players=st.integers(14, 30), seed=st.integers(0, 2**32))
def test_five_rounds_never_repeat_a_pair_from_fourteen_players(players, seed):
    assert draw(NAMES[:players], 5, seed=seed).repeats == 0


@pytest.mark.parametrize("players", [9, 15, 21, 27])
def test_a_whole_kirkman_schedule_meets_every_pair_exactly_once(players):
    rounds = (players - 1) // 2
    schedule = draw(NAMES[:players], rounds, seed=7)
    met = schedule.meetings()
    assert len(met) == players * (players - 1) // 2
    assert set(met.values()) == {1}
    assert schedule.repeats == 0


@pytest.mark.parametrize("order", [3, 9, 15, 21, 27, 39])
def test_kirkman_classes_are_parallel_and_cover_each_pair_once(order):
    classes = kirkman_classes(order)
    assert len(classes) == (order - 1) // 2
    for c in classes:
        assert sorted(p for triple in c for p in triple) == list(range(order))
    pairs = Counter(frozenset(p) for c in classes for triple in c for p in itertools.combinations(triple, 2))
    assert len(pairs) == order * (order - 1) // 2 and set(pairs.values()) == {1}


@pytest.mark.parametrize("players", [12, 18])
def test_twelve_and_eighteen_players_get_three_rounds_with_no_pair_twice(players):
    for seed in range(10):
        assert draw(NAMES[:players], 3, seed=seed).repeats == 0


def test_the_same_seed_draws_the_same_schedule():
    assert draw(NAMES[:13], 4, seed=11) == draw(NAMES[:13], 4, seed=11)
    assert draw(NAMES[:13], 4, seed=11) != draw(NAMES[:13], 4, seed=12)


def test_rounds_still_to_come_are_redrawn_keeping_who_has_met():
    first = draw(NAMES[:12], 2, seed=3)
    late = NAMES[:12] + ["Late"]
    schedule = draw(late, 2, seed=3, played=first.rounds)
    assert schedule.rounds[:2] == first.rounds
    for r in schedule.rounds[2:]:
        check_round(r, late)
    assert schedule.repeats == 0


def test_the_leaders_sit_together_in_a_round_seated_by_the_standings():
    ranked = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]
    r = seat_by_standings(ranked)
    assert r.tables == (Table(("Ann", "Ben", "Cat")), Table(("Dan", "Eve", "Fay")))
    assert r.byes == ("Gus",)
    r = seat_by_standings(ranked, sat_out=Counter({"Gus": 1}))
    assert r.byes == ("Fay",)
    assert r.tables[1] == Table(("Dan", "Eve", "Gus"))


@pytest.mark.parametrize(
    "players, rounds, message",
    [
        (
            ["Ann", "Ben", "Cat"],
            2,
            "players: a club night needs at least 4 players, not 3 (three play as one ordinary table)",
        ),
        ([f"P{i}" for i in range(61)], 2, "players: a club night seats at most 60 players, not 61"),
        (["Ann", "Ben", "Cat", "Ann"], 2, "players: 'Ann' is named twice"),
        (["Ann", "Ben", "Cat", " ann "], 2, "players: 'Ann' and 'ann' are the same name"),
        (["Ann", "Ben", "Cat", ""], 2, "players: a name is empty"),
        (["Ann", "Ben", "Cat", "Dan"], 0, "rounds: between 1 and 30, not 0"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(players, rounds, message):
    with pytest.raises(SeatingError) as refused:
        draw(players, rounds)
    assert str(refused.value) == message


def test_the_command_prints_a_schedule_for_paper(capsys):
    assert main(["seating", "9", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert out.count("Round ") == 4 and out.count("Table ") == 12
    assert out.endswith("Nobody meets anybody twice.\n")


def test_the_command_prints_json(capsys):
    assert main(["seating", "Ann, Ben,Cat,Dan,Eve", "2", "--seed", "5", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert set(figures) == {"rounds", "byes", "repeats"}
    for tables, byes in zip(figures["rounds"], figures["byes"]):
        assert sorted(sum(tables, []) + byes) == ["Ann", "Ben", "Cat", "Dan", "Eve"]
    assert figures["repeats"] == 0


def test_the_command_refuses_bad_input_on_stderr(capsys):
    assert main(["seating", "3", "2"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "players: a club night needs at least 4 players, not 3 (three play as one ordinary table)\n"
