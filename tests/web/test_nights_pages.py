"""Club nights over HTTP (the Flask test client, real SQLite): a night started from
the home page or from a circle's members ticked present, its rounds drawn (a double
tap draws once), the tables' hands saved at their own links, the standings across
the tables to the half counter, the 204 of a poll when nothing changed, bad input
refused with its message and nothing saved, and the public link changing nothing."""

from __future__ import annotations

import html
import re
import sqlite3

import pytest

from scorekeeper import store
from support.data import load_example
from support.database import delete_session
from support.web import hand_fields

NINE = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]
HANDS = load_example("parlett-evening.json")["hands"]
FIRST = HANDS[0]  # the first seat deals it: 20, 2, −22 (and with the second hand, 52, 3, −55)


NINE_LINES = "\n".join(NINE)


def night_form(players=NINE_LINES, **fields) -> dict:
    form = {
        "name": "Friday club",
        "players": players,
        "rounds": "4",
        "rulebook": "parlett",
        "stake": "1d",
        "played_on": "2026-12-04",
        "rank_by": "placings",
    }
    form.update(fields)
    return form


def counts(app) -> tuple:
    with sqlite3.connect(app.config["DATABASE"]) as conn:
        return tuple(
            conn.execute(f"select count(*) from {t}").fetchone()[0]
            for t in ("nights", "night_players", "night_rounds", "night_tables", "sessions")
        )


def start_night(client, **fields) -> str:
    response = client.post("/nights", data=night_form(**fields))
    assert response.status_code == 303, response.text
    return response.headers["Location"]


def problems(page: str) -> list[str]:
    return [html.unescape(p) for p in re.findall(r'<p class="problem" role="alert">([^<]*)</p>', page)]


def flashes(page: str) -> list[str]:
    return [
        html.unescape(re.sub(r"<[^>]+>", "", f)).strip()
        for f in re.findall(r'<p class="flash"[^>]*>(.*?)</p>', page, re.S)
    ]


def night_of(app, organizer: str) -> store.Night:
    return store.get_night(store.connect(app.config["DATABASE"]), organizer.rsplit("/", 1)[1])


def save(client, session_id: str, hand: dict, version: int = 1):
    response = client.post(f"/s/{session_id}/hands", data=hand_fields(hand, version))
    assert response.status_code == 303, response.text


@pytest.mark.parametrize(
    "fields, line",
    [
        (
            {"players": "Ann\nBen\nCat"},
            "A club night needs at least 4 players, not 3 (three play as one ordinary table).",
        ),
        ({"players": "\n".join(f"P{n}" for n in range(61))}, "A club night seats at most 60 players, not 61."),
        ({"players": "Ann\nBen\nCat\nDan\nBen"}, "Ben is named twice: each player once."),
        ({"players": "Ann\nBen\nCat\nDan\nben "}, "Ben and ben are one name: each player once."),
        ({"players": ""}, "A club night needs at least 4 players, not 0 (three play as one ordinary table)."),
        ({"rounds": "four"}, "How many rounds? A number, such as 4."),
        ({"rounds": "0"}, "A night has 1 to 30 rounds."),
        ({"name": " "}, "Give the night a name, such as “Club night”."),
    ],
)
def test_a_night_that_will_not_do_is_refused_with_its_message_and_nothing_saved(app, client, fields, line):
    before = counts(app)
    response = client.post("/nights", data=night_form(**fields))
    assert response.status_code == 422
    assert problems(response.text) == [line]
    assert counts(app) == before


def test_drawing_a_round_makes_a_session_a_table_and_a_double_tap_draws_it_once(app, client):
    organizer = start_night(client)
    assert client.post(organizer + "/rounds", data={"round": "1"}).status_code == 303
    after = counts(app)
    assert after == (1, 9, 1, 3, 3)
    second = client.post(organizer + "/rounds", data={"round": "1"})
    assert second.status_code == 303 and counts(app) == after
    assert flashes(client.get(organizer).text)[-1] == "Round 1 is drawn already: here are its tables."
    page = client.get(organizer).text
    night = night_of(app, organizer)
    for table in night.round(1).tables:
        assert f"/s/{table.session_id}" in page  # each table's link, and its QR code
        session = client.get(f"/s/{table.session_id}").text
        assert f"Friday club · round 1 · table {table.number}" in session
    assert page.count("<svg") == 4  # the standings link's QR and each table's
    assert "Draw round 2" in page
    client.post(organizer + "/rounds", data={"round": "2"})
    page = client.get(organizer).text
    assert page.count("<svg") == 4  # QR codes for the latest round's tables only
    assert all(f"/s/{t.session_id}" in page for t in night_of(app, organizer).rounds[0].tables)


def test_the_standings_follow_each_tables_saves_to_the_half_counter(app, client):
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    one, two, three = night.round(1).tables
    names = [[night.name_of(p) for p in t.seats] for t in (one, two, three)]
    live = f"/n/{night.watch_id}/live"
    key = store.night_live_key(store.connect(app.config["DATABASE"]), night.watch_id)
    assert client.get(f"{live}?v={key}").status_code == 204  # nothing changed: nothing sent

    save(client, one.session_id, FIRST)
    save(client, two.session_id, FIRST)
    save(client, two.session_id, HANDS[1], 2)
    response = client.get(f"{live}?v={key}")
    assert response.status_code == 200
    rows = re.findall(
        r"<tr><td>(\d+)</td><th scope=\"row\">([^<]+)</th>\s*<td>([^<]+)</td>\s*<td>([^<]+)</td>\s*"
        r"<td>(\d+)</td>",
        response.text,
    )
    (a, b, c), (d, e, f), (g, h, i) = names
    assert rows == [
        ("1", d, "2", "52", "1"),
        ("2", a, "2", "20", "1"),
        ("3", e, "1", "3", "1"),
        ("4", b, "1", "2", "1"),
        *[("5", n, "0", "0", "0") for n in sorted((g, h, i))],
        ("8", c, "0", "−22", "1"),
        ("9", f, "0", "−55", "1"),
    ]
    assert "ties broken by placing points, then counters, then tables won outright, then name" in response.text
    new_key = store.night_live_key(store.connect(app.config["DATABASE"]), night.watch_id)
    assert client.get(f"{live}?v={new_key}").status_code == 204

    assert client.post(organizer + "/rank", data={"rank_by": "counters"}).status_code == 303
    screen = client.get(f"/n/{night.watch_id}/screen").text
    assert 'hx-trigger="every 0.5s"' in screen and "<form" not in screen  # no controls on the big screen
    ranked = re.findall(r"<th scope=\"row\">([^<]+)</th>", screen)
    assert ranked == [d, a, e, b, *sorted((g, h, i)), c, f]
    assert '<th scope="col">Counters</th>\n      <th scope="col">Placings</th>' in screen  # the other beside it


def test_a_round_begun_is_not_redrawn_nor_swapped(app, client):
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    table = night.round(1).tables[0]
    save(client, table.session_id, FIRST)
    before = counts(app), night_of(app, organizer)
    line = "Round 1 has begun: a hand is saved at table 1, so its seats stay as they are."
    response = client.post(organizer + "/rounds/1/redraw")
    assert response.status_code == 422 and problems(response.text) == [line]
    one, other = table.seats[0], night.round(1).tables[1].seats[0]
    response = client.post(organizer + "/rounds/1/swap", data={"one": one, "other": other})
    assert response.status_code == 422 and problems(response.text) == [line]
    assert (counts(app), night_of(app, organizer)) == before


def chosen(page: str, select: str) -> list[str]:
    """The names a select of the swap form shows chosen as the page opens."""
    box = re.search(rf'<select name="{select}">(.*?)</select>', page, re.S).group(1)
    return re.findall(r'<option value="\d+" selected>([^<]+)</option>', box)


def test_the_swap_form_opens_on_two_different_players(app, client):
    """Swap … with … opened on the same player twice (Ann and Ann): a tap on it as it
    opens was refused ("Choose two different players"); it opens on the first two."""
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    page = client.get(organizer).text
    assert chosen(page, "one") == [] and chosen(page, "other") == ["Ben"]  # the first, Ann, by default
    night = night_of(app, organizer)
    ann, ben = sorted(night.round(1).players())[:2]
    response = client.post(organizer + "/rounds/1/swap", data={"one": ann, "other": ben, "version": night.version})
    assert response.status_code == 303, problems(response.text)


def test_before_a_hand_two_players_swap_and_the_tables_keep_their_links(app, client):
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    one, two = night.round(1).tables[:2]
    version = re.search(r'name="version" value="(\d+)"', client.get(organizer).text).group(1)
    swap = {"one": one.seats[0], "other": two.seats[1], "version": version}
    for _ in range(2):  # a double tap swaps them once (the second would swap them back)
        response = client.post(organizer + "/rounds/1/swap", data=swap)
        assert response.status_code == 303
    assert "The night changed a moment ago (a second tap?)" in client.get(organizer).text
    swapped = night_of(app, organizer).round(1)
    assert swapped.tables[0].session_id == one.session_id
    assert client.get(f"/s/{one.session_id}").text.count(night.name_of(two.seats[1])) >= 1
    assert swapped.tables[0].seats == (two.seats[1], *one.seats[1:])
    redrawn = night_of(app, organizer)
    for _ in range(2):  # the same for a redraw: drawn again once
        assert client.post(organizer + "/rounds/1/redraw", data={"version": str(redrawn.version)}).status_code == 303
    assert night_of(app, organizer).version == redrawn.version + 1


def test_a_late_arrival_and_a_leaver_between_rounds(app, client):
    organizer = start_night(client, players="\n".join(NINE[:6]))
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    leaver = night.players[0]
    assert client.post(f"{organizer}/players/{leaver.id}/drop").status_code == 303
    assert client.post(organizer + "/players", data={"name": "Zoe"}).status_code == 303
    response = client.post(organizer + "/players", data={"name": "zoe"})
    assert response.status_code == 422 and problems(response.text) == ["Zoe is here already: each player once."]
    client.post(organizer + "/rounds", data={"round": "2"})
    night = night_of(app, organizer)
    seated = {night.name_of(p) for t in night.round(2).tables for p in t.seats}
    assert seated == set(NINE[1:6]) | {"Zoe"}
    met = {frozenset((x, y)) for t in night.round(1).tables for x in t.seats for y in t.seats if x != y}
    again = {frozenset((x, y)) for t in night.round(2).tables for x in t.seats for y in t.seats if x != y}
    assert len(met & again) <= 2  # six players at two tables: a second round cannot keep everyone apart


def test_a_night_from_a_circle_seats_the_members_ticked_present(app, client):
    response = client.post("/circles", data={"circle_name": "Thursday Gleek", "circle_members": ",".join(NINE[:7])})
    circle = response.headers["Location"]
    page = client.get(circle + "/nights/new").text
    ids = dict(
        (name, number)
        for number, name in re.findall(r'name="present" value="(\d+)" checked> <span>([^<]+)</span>', page)
    )
    assert list(ids) == NINE[:7]
    ticked = [ids[n] for n in NINE[:6]]
    response = client.post(circle + "/nights", data={**night_form(players=""), "present": ticked})
    assert response.status_code == 303
    organizer = response.headers["Location"]
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    assert sorted(p.name for p in night.players) == sorted(NINE[:6])
    db = store.connect(app.config["DATABASE"])
    evenings = store.evenings(db, circle.rsplit("/", 1)[1])
    assert sorted(e.session_id for e in evenings) == sorted(t.session_id for t in night.round(1).tables)
    assert f'href="{organizer}"' in client.get(circle).text  # the circle's page lists it
    members_link = re.search(r"/cw/[A-Za-z0-9_-]{24}", client.get(circle).text).group(0)
    assert f'href="/n/{night.watch_id}"' in app.test_client().get(members_link).text  # its standings, for members
    response = client.post(circle + "/nights", data={**night_form(players=""), "present": ticked[:3]})
    assert response.status_code == 422
    assert problems(response.text) == [
        "A club night needs at least 4 players, not 3 (three play as one ordinary table)."
    ]


def test_the_public_link_can_change_nothing(app, client):
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    posts = [
        rule.rule for rule in app.url_map.iter_rules() if rule.endpoint.startswith("nights.") and "POST" in rule.methods
    ]
    assert posts and all(rule.startswith(("/night/", "/nights", "/c/<key>/")) for rule in posts)
    before = counts(app), night_of(app, organizer)
    for path in (
        f"/n/{night.watch_id}",
        f"/n/{night.watch_id}/rounds",
        f"/n/{night.watch_id}/screen",
        f"/night/{night.watch_id}/rounds",
        f"/night/{night.watch_id}/rounds/1/redraw",
    ):
        assert client.post(path, data={"round": "2"}).status_code in (404, 405)
    assert (counts(app), night_of(app, organizer)) == before


def test_a_table_whose_session_was_deleted_says_so_on_the_standings(app, client):
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    gone = night.round(1).tables[1].session_id
    delete_session(store.connect(app.config["DATABASE"]), gone)
    page = client.get(f"/n/{night.watch_id}").text
    assert "Round 1, table 2: its session was deleted, so it counts for nothing here." in page
    before = counts(app), night_of(app, organizer)
    line = "Table 2 of round 1 has no session any more (it was deleted): its seats cannot change."
    response = client.post(organizer + "/rounds/1/redraw")
    assert response.status_code == 422 and problems(response.text) == [line]
    one, other = night.round(1).tables[0].seats[0], night.round(1).tables[2].seats[0]
    response = client.post(organizer + "/rounds/1/swap", data={"one": one, "other": other})
    assert response.status_code == 422 and problems(response.text) == [line]
    assert (counts(app), night_of(app, organizer)) == before
    page = client.get(organizer).text
    assert "Table 2</strong>:" in page and "— its session was deleted" in page
    assert f"/s/{gone}" not in page  # no link, no sheet link, to what is gone
    for path in (f"/s/{gone}", f"/s/{gone}/sheet", f"/s/{gone}/sheet.pdf", f"/s/{gone}/settle"):
        assert client.get(path).status_code == 404
    assert client.post(organizer + "/rounds", data={"round": "2"}).status_code == 303  # the night goes on


def test_a_pin_keeps_the_organizers_link_to_those_who_know_it(app, client):
    response = client.post("/nights", data=night_form(pin="12ab"))
    assert response.status_code == 422 and problems(response.text) == ["A PIN is 4 to 8 digits (or leave it empty)."]
    assert counts(app)[0] == 0
    organizer = start_night(client, pin="4821")
    assert client.get(organizer).status_code == 200  # the browser that made it is unlocked
    stranger = app.test_client()
    response = stranger.get(organizer)
    assert response.status_code == 303 and response.headers["Location"] == organizer + "/unlock"
    before = counts(app)
    assert stranger.post(organizer + "/rounds", data={"round": "1"}).status_code == 403
    assert stranger.post(organizer + "/players", data={"name": "Zoe"}).status_code == 403
    assert counts(app) == before
    response = stranger.post(organizer + "/unlock", data={"pin": "1111"})
    assert response.status_code == 403 and "That PIN is not right." in response.text
    assert stranger.post(organizer + "/unlock", data={"pin": "4821"}).status_code == 303
    assert stranger.post(organizer + "/rounds", data={"round": "1"}).status_code == 303
    night = night_of(app, organizer)
    assert app.test_client().get(f"/n/{night.watch_id}").status_code == 200  # the standings need no PIN
    table = night.round(1).tables[0].session_id
    save(app.test_client(), table, FIRST)  # nor does a table's phone


def test_the_last_round_is_seated_by_the_standings_when_asked(app, client):
    organizer = start_night(client, players="\n".join(NINE[:6]), rounds="2", last_by_standings="on")
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    one, two = night.round(1).tables
    save(client, one.session_id, FIRST)
    save(client, two.session_id, FIRST)
    save(client, two.session_id, HANDS[1], 2)
    (a, b, c), (d, e, f) = ([night.name_of(p) for p in t.seats] for t in (one, two))
    client.post(organizer + "/rounds", data={"round": "2"})
    night = night_of(app, organizer)
    assert [[night.name_of(p) for p in t.seats] for t in night.round(2).tables] == [[d, a, e], [b, c, f]]


def test_a_round_end_time_is_shown_with_the_time_left(app, client):
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    before = night_of(app, organizer)
    response = client.post(organizer + "/rounds/1/end", data={"minutes": "0"})
    assert response.status_code == 422
    assert problems(response.text) == ["A round ends 1 to 600 minutes from now (or leave it empty)."]
    assert night_of(app, organizer) == before
    assert client.post(organizer + "/rounds/1/end", data={"minutes": "45"}).status_code == 303
    ends_at = night_of(app, organizer).round(1).ends_at
    screen = client.get(f"/n/{night.watch_id}/screen").text
    assert f'data-ends-at="{ends_at}"' in screen and "js/night.js" in screen


@pytest.mark.parametrize(
    "path, fields, status, line",
    [
        ("/rounds", {"round": "x"}, 422, "Choose the round to draw."),
        ("/rounds", {"round": "3"}, 422, "Round 2 is the next to draw."),
        ("/rounds/1/swap", {"one": "x", "other": "1"}, 422, "Choose two different players of round 1 to swap."),
        ("/rounds/1/swap", {"one": "1", "other": "1"}, 422, "Choose two different players of round 1 to swap."),
        ("/rounds/9/swap", {"one": "1", "other": "2"}, 404, None),
        ("/rounds/9/redraw", {}, 404, None),
        ("/rounds/9/end", {"minutes": "30"}, 404, None),
        ("/rounds/1/end", {"minutes": "soon"}, 422, "A round ends 1 to 600 minutes from now (or leave it empty)."),
        ("/players", {"name": " "}, 422, "A player's name cannot be empty."),
        (
            "/players",
            {"name": "B" * 41},
            422,
            "A player's name is at most 40 characters (BBBBBBBBBBBBBBBBBBBB… has 41).",
        ),
        ("/players/999/drop", {}, 422, "Choose a player who is here."),
        ("/rank", {"rank_by": "luck"}, 422, "Rank the players by placings or by counters."),
    ],
)
def test_bad_input_to_the_organizers_page_says_why_and_changes_nothing(app, client, path, fields, status, line):
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    before = counts(app), night_of(app, organizer)
    response = client.post(organizer + path, data=fields)
    assert response.status_code == status
    if line is not None:
        assert problems(response.text) == [line]
    assert (counts(app), night_of(app, organizer)) == before


def test_the_home_page_keeps_the_organizers_link(app, client):
    organizer = start_night(client)
    client.get(organizer)
    client.post(organizer + "/rounds", data={"round": "1"})
    home = client.get("/").text
    assert f'href="{organizer}"' in home and "9 players · 1 of 4 rounds drawn" in home
    assert organizer not in app.test_client().get("/").text  # another browser's home page does not list it


def test_a_swap_naming_someone_not_in_the_round_says_who_and_changes_nothing(app, client):
    organizer = start_night(client)
    client.post(organizer + "/rounds", data={"round": "1"})
    client.post(organizer + "/players", data={"name": "Zoe"})  # arrives after round 1 is drawn
    night = night_of(app, organizer)
    zoe = next(p.id for p in night.players if p.name == "Zoe")
    before = counts(app), night
    response = client.post(
        organizer + "/rounds/1/swap",
        data={"one": str(night.round(1).tables[0].seats[0]), "other": str(zoe), "version": str(night.version)},
    )
    assert response.status_code == 422
    assert problems(response.text) == ["Zoe is not in round 1: swap two of its players (at its tables or sitting out)."]
    response = client.post(organizer + "/rounds/1/swap", data={"one": "999", "other": str(zoe)})
    assert response.status_code == 422 and problems(response.text) == [
        "Choose two different players of round 1 to swap."
    ]
    assert (counts(app), night_of(app, organizer)) == before


def test_a_late_arrival_past_sixty_players_is_refused_and_nothing_saved(app, client):
    organizer = start_night(client, players="\n".join(f"P{n}" for n in range(60)))
    before = counts(app), night_of(app, organizer)
    response = client.post(organizer + "/players", data={"name": "Zoe"})
    assert response.status_code == 422 and problems(response.text) == ["A club night seats at most 60 players."]
    assert (counts(app), night_of(app, organizer)) == before


def test_a_late_arrival_on_a_circles_night_is_a_member_of_the_circle(app, client):
    """ " gus " (any case, any composition, spaces round it) is the member Gus; "Jo", a new name, joins the
    circle, and the page says so; both are members at their tables: the statistics name
    Jo, not "Jo (seat 1)", and her debt is marked by her by default."""
    response = client.post("/circles", data={"circle_name": "Thursday Gleek", "circle_members": ",".join(NINE[:7])})
    circle = response.headers["Location"]
    page = client.get(circle + "/nights/new").text
    ids = dict(
        (name, number)
        for number, name in re.findall(r'name="present" value="(\d+)" checked> <span>([^<]+)</span>', page)
    )
    response = client.post(circle + "/nights", data={**night_form(players=""), "present": [ids[n] for n in NINE[:4]]})
    organizer = response.headers["Location"]
    client.get(organizer)  # its "is made" said
    response = client.post(organizer + "/players", data={"name": " gus "}, follow_redirects=True)
    assert flashes(response.text) == ["Gus is seated from the next round drawn."]
    response = client.post(organizer + "/players", data={"name": "Jo"}, follow_redirects=True)
    assert flashes(response.text) == ["Jo is seated from the next round drawn. Jo joined the circle."]
    response = client.post(organizer + "/players", data={"name": "jo"})
    assert response.status_code == 422 and problems(response.text) == ["Jo is here already: each player once."]
    db = store.connect(app.config["DATABASE"])
    members = store.get_circle(db, circle.rsplit("/", 1)[1]).members
    assert [m.name for m in members] == NINE[:7] + ["Jo"]  # Gus once; Jo once, however often she is added
    member = {m.name: m.id for m in members}
    night = night_of(app, organizer)
    assert {p.name: p.member_id for p in night.players} == {n: member[n] for n in NINE[:4] + ["Gus", "Jo"]}
    client.post(organizer + "/rounds", data={"round": "1"})
    night = night_of(app, organizer)
    jo = next(p.id for p in night.players if p.name == "Jo")
    table = night.round(1).tables[0]
    if table.seats[2] != jo:  # Jo at the seat that loses the first hand (20, 2, −22)
        client.post(organizer + "/rounds/1/swap", data={"one": jo, "other": table.seats[2], "version": night.version})
        table = night_of(app, organizer).round(1).tables[0]
    assert table.seats[2] == jo
    save(client, table.session_id, FIRST, table.version)
    stats = html.unescape(client.get(circle + "/stats").text)
    heads = re.findall(
        r'<th scope="col">([^<]+)</th>', stats[stats.index('class="season-stats"') :].split("</thead>")[0]
    )
    assert "Jo" in heads and not any("(seat" in h for h in heads)
    owed = client.get(circle + "/owed").text
    marked = re.search(
        rf'action="[^"]*/owed/{table.session_id}/settle".*?<select name="paid_by">(.*?)</select>', owed, re.S
    ).group(1)
    assert re.search(r'<option value="(\d+)" selected>', marked).group(1) == str(member["Jo"])
