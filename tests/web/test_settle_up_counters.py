"""Settle up says each payment in counters as every page says an amount
(``words.wording.amount_text``): "1 counter", "2 counters", then its money at the
stake. One parlett hand (the evening example's first, no sets), its honours chosen so
that the two payments are of 1 counter each, or of 2."""

from __future__ import annotations

import copy
import re

import pytest

from support.data import load_example
from support.web import hand_fields, new_session, version_of

PLAYERS = ("Samuel", "Elizabeth", "Will")


def hand(honours: dict) -> dict:
    played = copy.deepcopy(load_example("parlett-evening.json")["hands"][0])
    played.update(sets=[[], [], []], tricks=[2, 4, 6], honours=honours)
    return played


def payment_lines(page: str) -> list[str]:
    """The Settle up page's payments, each as it reads."""
    items = re.search(r'<ul class="payments">(.*?)</ul>', page, re.S).group(1).split("<li>")[1:]
    return [" ".join(re.sub(r"<[^>]+>", " ", item).split()) for item in items]


@pytest.mark.parametrize(
    "honours, stake, expected",
    [
        ({"A": 2, "K": 1, "Q": 1, "J": 2}, "", ["Will pays Samuel 1 counter", "Will pays Elizabeth 1 counter"]),
        (
            {"A": 2, "K": 1, "Q": 1, "J": 2},
            "1d",
            ["Will pays Samuel 1 counter = 1d", "Will pays Elizabeth 1 counter = 1d"],
        ),
        ({"A": 2, "K": 0, "Q": 1, "J": 2}, "", ["Elizabeth pays Samuel 2 counters", "Will pays Samuel 2 counters"]),
        (
            {"A": 2, "K": 0, "Q": 1, "J": 2},
            "1d",
            ["Elizabeth pays Samuel 2 counters = 2d", "Will pays Samuel 2 counters = 2d"],
        ),
    ],
)
def test_settle_up_says_one_counter_and_two_counters(client, honours, stake, expected):
    url = new_session(client, players=PLAYERS, stake=stake)
    saved = client.post(url + "/hands", data=hand_fields(hand(honours), version_of(client, url)))
    assert saved.status_code == 303
    response = client.get(url + "/settle")
    assert response.status_code == 200
    assert payment_lines(response.data.decode()) == expected
