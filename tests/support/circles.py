"""A circle played over real HTTP, as its pages offer it: made, an evening
started from three members and played, and the forms its pages carry read back
as a browser would post them. ``phone``: anything with ``get(path)`` and
``post(path, fields)`` answering (status, headers, page text)."""

from __future__ import annotations

import html
import re

from support.data import load_example
from support.web import hand_fields

HANDS = load_example("parlett-evening.json")["hands"]


def new_circle(phone, name="Thursday Gleek", members="Ann\nBen\nCat\nDan", **extra) -> str:
    """The new circle's manage link (/c/<id>)."""
    status, headers, page = phone.post("/circles", dict({"circle_name": name, "circle_members": members}, **extra))
    assert status == 303, page
    return headers["Location"]


def members_of(page: str) -> dict:
    """name -> member id, from the new evening's first seat."""
    select = re.search(r'<select name="seat_0".*?</select>', page, re.S).group(0)
    return {name: int(value) for value, name in re.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', select)}


def start_evening(phone, circle: str, seats, played_on: str, stake: str = "1d", **extra) -> str:
    """A new evening of the circle with these members at its seats: its scorer's link (/s/<id>)."""
    status, headers, page = phone.post(
        circle + "/sessions",
        dict(
            {
                "seat_0": seats[0],
                "seat_1": seats[1],
                "seat_2": seats[2],
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": stake,
                "played_on": played_on,
            },
            **extra,
        ),
    )
    assert status == 303, page
    return headers["Location"]


def play(phone, session: str, hands, first_version: int = 1) -> None:
    """Each hand saved in turn, on the session as the last one left it (versions from ``first_version``)."""
    for version, hand in enumerate(hands, first_version):
        status, _, page = phone.post(session + "/hands", list(hand_fields(hand, version).items(multi=True)))
        assert status == 303, page


def forms(page: str, action: str) -> list[tuple[str, dict]]:
    """Each POST form on the page whose action ends with ``action``: (its action,
    the fields a browser would post: every input's value, each select's chosen option)."""
    found = []
    for attrs, body in re.findall(r'<form method="post" action="([^"]*)"[^>]*>(.*?)</form>', page, re.S):
        if not attrs.endswith(action):
            continue
        fields = {}
        for tag in re.findall(r"<input\b[^>]*>", body):
            name, value = re.search(r'name="([^"]*)"', tag), re.search(r'value="([^"]*)"', tag)
            if name:
                fields[name.group(1)] = html.unescape(value.group(1)) if value else ""
        for name, options in re.findall(r'<select name="([^"]*)"[^>]*>(.*?)</select>', body, re.S):
            chosen = re.search(r'<option value="([^"]*)" selected', options) or re.search(
                r'<option value="([^"]*)"', options
            )
            fields[name] = html.unescape(chosen.group(1))
        found.append((html.unescape(attrs), fields))
    return found


def debts_of(page: str) -> list[str]:
    """The What-is-owed page's debts, as it says them."""
    return [html.unescape(re.sub(r"<[^>]+>", "", d)) for d in re.findall(r'<p class="debt">(.*?)</p>', page)]
