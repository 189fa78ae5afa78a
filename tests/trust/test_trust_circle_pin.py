"""A circle's PIN is its evenings' PIN too (a new evening gets it), so guessing
it on any of them guesses the one PIN. Against the real server
(``python -m scorekeeper.server.serve`` as `make run` starts it): wrong tries spread
over the circle and its four evenings, from many devices (127.0.0.2 and up:
loopback, each another device), count towards one ceiling of 100 a day; one
device's five tries in 15 minutes count over all of them too. Before, each
evening had a ceiling of its own: 500 checks a day of the one PIN."""

from __future__ import annotations

import itertools

import pytest

from scorekeeper.store import PIN_TRIES, SESSION_PIN_TRIES
from support.circles import members_of, new_circle, start_evening
from support.served import Phone, Served

PIN = "4821"
WRONG = "That PIN is not right."
CIRCLE_WIDE = "Too many wrong PINs today for this circle and its evenings (they share one PIN)"


@pytest.fixture
def served(tmp_path):
    server = Served(tmp_path / "instance", config="SESSIONS_PER_MINUTE = 10_000\n")
    server.start()
    yield server
    server.stop()


def circle_and_evenings(served: Served) -> list[str]:
    """The unlock pages of a circle with a PIN and of its four evenings (which carry its PIN)."""
    phone = Phone(served.port)
    circle = new_circle(phone, circle_pin=PIN)
    ids = members_of(phone.get(circle)[2])
    evenings = [
        start_evening(phone, circle, [ids["Ann"], ids["Ben"], ids[third]], f"2026-11-{day}")
        for third, day in (("Cat", 14), ("Dan", 21), ("Cat", 28), ("Dan", 30))
    ]
    return [link + "/unlock" for link in [circle] + evenings]


def device(served: Served, n: int) -> Phone:
    return Phone(served.port, source=f"127.0.0.{n + 2}")


def test_one_devices_tries_count_over_the_circle_and_its_evenings(served):
    targets = circle_and_evenings(served)
    guesser = device(served, 0)
    for n, target in zip(range(PIN_TRIES), itertools.cycle(targets)):
        status, _, page = guesser.post(target, {"pin": f"{1000 + n}"})
        assert status == 403 and WRONG in page, (n, target)
    for target in targets:  # five wrong, spread over all five: none of them checks a sixth
        status, _, page = guesser.post(target, {"pin": PIN})
        assert status == 429 and "Too many wrong PINs from this device. Try again in 15 minutes." in page, target
    status, _, _ = device(served, 1).post(targets[-1], {"pin": PIN})  # another device is not held up
    assert status == 303


def test_tries_spread_over_the_circle_and_its_evenings_are_refused_past_one_hundred_in_all(served):
    targets = circle_and_evenings(served)
    devices = -(-SESSION_PIN_TRIES // PIN_TRIES) + 1  # 21 devices, five tries each: 105 tries
    spread = itertools.cycle(targets)
    checked, refused = [], []
    for n in range(devices):
        guesser = device(served, n)
        for attempt in range(PIN_TRIES):
            target = next(spread)
            status, _, page = guesser.post(target, {"pin": f"{1000 + n * PIN_TRIES + attempt}"})
            if status == 403:
                assert WRONG in page
                checked.append(target)
            else:
                assert status == 429 and CIRCLE_WIDE in page, (n, attempt, status)
                refused.append(target)
    assert len(checked) == SESSION_PIN_TRIES and len(refused) == devices * PIN_TRIES - SESSION_PIN_TRIES
    assert {targets.index(t) for t in checked} == set(range(len(targets)))  # every one of them was tried
    # past the ceiling a new device waits on each of them, the right PIN too
    for target in targets:
        status, _, page = device(served, devices).post(target, {"pin": PIN})
        assert status == 429 and CIRCLE_WIDE in page, target
