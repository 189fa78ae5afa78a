"""The players' OK of each hand, through Flask's test client: two hands to agree to, a
session that asks for the OK, each player's link, and an OK as a player gives it."""

from __future__ import annotations

import re

from support.web import hand_fields, new_session, version_of

HANDS = [
    {
        "dealer": 0,
        "trump": "hearts",
        "turned_up": "9",
        "tiddy": None,
        "auction": {"buyer": 1, "price": 12},
        "ruff": {"winner": 2, "paid": [2, 2, 0]},
        "sets": [[], ["gleek:K"], []],
        "tricks": [5, 4, 3],
        "honours": {"A": 0, "K": 1, "Q": 2, "J": 0},
    },
    {
        "dealer": 1,
        "trump": "spades",
        "turned_up": "7",
        "tiddy": 0,
        "auction": {"buyer": 2, "price": 12},
        "ruff": None,
        "sets": [[], [], []],
        "tricks": [4, 4, 4],
        "honours": {"A": 1, "K": 2, "Q": 0, "J": 1},
    },
]


def confirm_session(client, hands=HANDS):
    url = new_session(client, confirm="on")
    for hand in hands:
        assert client.post(url + "/hands", data=hand_fields(hand, version_of(client, url))).status_code == 303
    return url


def player_links(client, url):
    return re.findall(r'<a href="https?://[^"/]+(/p/[^"]+)">', client.get(url).data.decode())


def seen(page: str, number: int) -> str:
    card = page[page.index(f'id="hand-{number}"') :]
    return re.search(r'name="seen" value="([0-9a-f]+)"', card).group(1)


def agree(client, link, number):
    return client.post(f"{link}/hands/{number}/ok", data={"seen": seen(client.get(link).data.decode(), number)})
