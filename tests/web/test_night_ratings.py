"""The ratings beside a club night's standings (the Flask test client, real SQLite),
against openskill's Plackett-Luce called directly and written as the pages write
it (one decimal): a night from names rates tonight's tables alone, from
openskill's defaults; a circle's night rates its members over the circle's
evenings in date order, tonight's tables among them, as the circle's statistics
page does. A table with no hand saved counts for nothing; an edited hand rates again."""

from __future__ import annotations

import html
import re

from openskill.models import PlackettLuce
from werkzeug.datastructures import MultiDict

from scorekeeper import store
from support.circles import members_of, new_circle, play, start_evening
from support.data import load_example
from support.web import hand_fields

HANDS = load_example("parlett-evening.json")["hands"]
FIRST = HANDS[0]  # the first seat +20, the second +2, the third −22: ranks 1, 2, 3
#: The first hand again, the third seat's: 0, −12, +12 (ranks 2, 3, 1).
THIRDS = {**FIRST, "tricks": [3, 3, 6], "honours": {"A": 2, "K": 2, "Q": 2, "J": 2}, "sets": [[], [], ["gleek:A"]]}
SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


class Phone:
    """The Flask test client as support.circles' phones are: (status, headers, text)."""

    def __init__(self, client):
        self.client = client

    def get(self, path):
        response = self.client.get(path)
        return response.status_code, response.headers, response.get_data(as_text=True)

    def post(self, path, fields=None):
        response = self.client.post(path, data=MultiDict(fields))
        return response.status_code, response.headers, response.get_data(as_text=True)


def night_form(**fields) -> dict:
    return {
        "name": "Friday club",
        "players": "\n".join(SIX),
        "rounds": "2",
        "rulebook": "parlett",
        "stake": "1d",
        "played_on": "2026-12-04",
        "rank_by": "placings",
        **fields,
    }


def shown_ratings(page: str) -> dict[str, tuple[str, str]]:
    """Each standings row's player and the μ and σ beside him, as the page writes them."""
    rows = re.findall(
        r'<th scope="row">([^<]+)</th>\s*<td>[^<]*</td>\s*<td>[^<]*</td>\s*<td>\d+</td>\s*'
        r'<td class="amount">([^<]+)</td><td class="amount">([^<]+)</td>',
        page,
    )
    return {html.unescape(name): (mu, sigma) for name, mu, sigma in rows}


def expected(games, players) -> dict[str, tuple[str, str]]:
    """openskill's ratings after ``games`` ((players, ranks) in order), written to one decimal."""
    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in players}
    for names, ranks in games:
        rated = model.rate([[current[n]] for n in names], ranks=ranks)
        current.update({n: after for n, (after,) in zip(names, rated)})
    return {name: (f"{r.mu:.1f}", f"{r.sigma:.1f}") for name, r in current.items()}


def save(client, session_id: str, hand: dict, version: int = 1, number: int | None = None):
    path = f"/s/{session_id}/hands" + (f"/{number}" if number else "")
    response = client.post(path, data=hand_fields(hand, version))
    assert response.status_code == 303, response.get_data(as_text=True)


def test_a_night_from_names_rates_tonights_tables_alone_and_again_when_a_hand_is_edited(app, client):
    organizer = client.post("/nights", data=night_form()).headers["Location"]
    client.post(organizer + "/rounds", data={"round": "1"})
    db = store.connect(app.config["DATABASE"])
    night = store.get_night(db, organizer.rsplit("/", 1)[1])
    standings = f"/n/{night.watch_id}"
    assert shown_ratings(client.get(standings).text) == {n: ("25.0", "8.3") for n in SIX}  # openskill's defaults
    one, two = night.round(1).tables
    first, second = ([night.name_of(p) for p in t.seats] for t in (one, two))

    save(client, one.session_id, FIRST)  # the second table has no hand: it counts for nothing, not a tie
    assert shown_ratings(client.get(standings).text) == expected([(first, [1, 2, 3])], SIX)
    save(client, one.session_id, THIRDS, version=2, number=1)  # hand 1 edited: the third seat won it
    page = client.get(standings).text
    assert f"{first[2]} +12" in page and f"{first[1]} −12" in page
    assert shown_ratings(page) == expected([(first, [2, 3, 1])], SIX)
    assert "from tonight's tables alone" in page

    save(client, two.session_id, FIRST)
    client.post(organizer + "/rounds", data={"round": "2"})
    night = store.get_night(db, night.id)
    later = night.round(2).tables[0]
    save(client, later.session_id, THIRDS)
    third = [night.name_of(p) for p in later.seats]
    games = [(first, [2, 3, 1]), (second, [1, 2, 3]), (third, [2, 3, 1])]  # round by round
    for path in (standings, f"{standings}/screen", organizer):
        assert shown_ratings(client.get(path).text) == expected(games, SIX)


def test_a_circles_night_rates_its_members_over_the_circles_evenings_tonights_among_them(app, client):
    phone = Phone(client)
    circle = new_circle(phone, members="\n".join(SIX))
    ids = {name: str(number) for name, number in members_of(client.get(circle).text).items()}
    before = start_evening(phone, circle, [ids["Cat"], ids["Ann"], ids["Ben"]], "2026-11-20")
    play(phone, before, HANDS[:1])  # Cat, Ann, Ben: ranks 1, 2, 3
    after = start_evening(phone, circle, [ids["Dan"], ids["Eve"], ids["Fay"]], "2026-12-10")
    play(phone, after, [THIRDS])  # after tonight: Fay, Dan, Eve
    response = client.post(circle + "/nights", data={**night_form(players=""), "present": list(ids.values())})
    organizer = response.headers["Location"]
    client.post(organizer + "/rounds", data={"round": "1"})
    db = store.connect(app.config["DATABASE"])
    night = store.get_night(db, organizer.rsplit("/", 1)[1])
    one = night.round(1).tables[0]  # the other table plays no hand tonight
    tonight = [night.name_of(p) for p in one.seats]
    save(client, one.session_id, FIRST)

    games = [(["Cat", "Ann", "Ben"], [1, 2, 3]), (tonight, [1, 2, 3]), (["Dan", "Eve", "Fay"], [2, 3, 1])]
    page = client.get(f"/n/{night.watch_id}").text
    assert shown_ratings(page) == expected(games, SIX)
    assert "over the circle's evenings, tonight's tables among them" in page
    stats = client.get(circle + "/stats").text  # the circle's statistics say the same
    rows = re.findall(
        r'<th scope="row">([^<]+)</th><td class="amount">([^<]+)</td><td class="amount">([^<]+)</td>',
        re.search(r'<table class="season-ratings">.*?</table>', stats, re.S).group(0),
    )
    assert {name: (mu, sigma) for name, mu, sigma in rows} == expected(games, SIX)


def test_a_guest_at_a_circles_night_is_rated_as_himself_from_openskills_defaults(app, client):
    phone = Phone(client)
    circle = new_circle(phone, members="\n".join(SIX))
    ids = {name: str(number) for name, number in members_of(client.get(circle).text).items()}
    response = client.post(circle + "/nights", data={**night_form(players=""), "present": list(ids.values())})
    organizer = response.headers["Location"]
    assert client.post(organizer + "/players", data={"name": "Zoe"}).status_code == 303  # no member of the circle
    client.post(organizer + "/rounds", data={"round": "1"})
    db = store.connect(app.config["DATABASE"])
    night = store.get_night(db, organizer.rsplit("/", 1)[1])
    games = []
    for table in night.round(1).tables:
        save(client, table.session_id, FIRST)
        games.append(([night.name_of(p) for p in table.seats], [1, 2, 3]))
    assert "Zoe" in {name for names, _ in games for name in names} | {night.name_of(p) for p in night.round(1).byes}
    assert shown_ratings(client.get(f"/n/{night.watch_id}").text) == expected(games, [*SIX, "Zoe"])
