"""A club night's table tells its players where they sit next (the Flask test
client, real SQLite): each player's own link says his line once the next round is
drawn ("Next: round 2, table 3, seat 1 (deals first)", or "sitting out round 2"),
linked to his own link at that table; the table's pages say every player's; all
link the night's standings, and the lines are polled (204 while the night is
unchanged)."""

from __future__ import annotations

import html
import re

from scorekeeper import store

SEVEN = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]  # a bye every round


def text_of(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def night_lines(page: str) -> str:
    return text_of(re.search(r'<section class="card night-seat".*?</section>', page, re.S).group(0))


def own_links(client, session_id: str) -> list[str]:
    """Each seat's own link, as the scorer's page of the table shows them."""
    page = client.get(f"/s/{session_id}").text
    return re.findall(r'<a href="http://localhost(/p/[^"]+)">', page)


def test_each_players_own_link_says_where_he_sits_next_and_the_table_says_everyones(app, client):
    form = {
        "name": "Friday club",
        "players": "\n".join(SEVEN),
        "rounds": "3",
        "rulebook": "parlett",
        "played_on": "2026-12-04",
        "rank_by": "placings",
    }
    organizer = client.post("/nights", data=form).headers["Location"]
    client.post(organizer + "/rounds", data={"round": "1"})
    db = store.connect(app.config["DATABASE"])
    night = store.get_night(db, organizer.rsplit("/", 1)[1])
    tables = night.round(1).tables
    links = {t.number: own_links(client, t.session_id) for t in tables}
    assert all(len(found) == 3 for found in links.values())

    first = tables[0]
    ann = night.name_of(first.seats[0])
    page = client.get(links[1][0]).text
    assert f"{ann}'s link — it updates by itself." in text_of(page)
    assert "waiting for your OK" not in page  # a night's table needs no OKs
    assert night_lines(page) == (
        "Friday club · round 1, table 1 Round 2 is not drawn yet: where you sit then "
        "shows here once it is. The night's standings"
    )
    assert f'href="http://localhost/n/{night.watch_id}"' in page

    client.post(organizer + "/rounds", data={"round": "2"})
    night = store.get_night(db, night.id)
    second = night.round(2)
    for t in tables:
        for seat, player in enumerate(t.seats):
            page = client.get(links[t.number][seat]).text
            if player in second.byes:
                assert night_lines(page).startswith(
                    f"Friday club · round 1, table {t.number} Next: sitting out round 2 "
                )
                continue
            there = next(u for u in second.tables if player in u.seats)
            at = there.seats.index(player) + 1
            words = f"round 2, table {there.number}, seat {at}" + (" (deals first)" if at == 1 else "")
            assert night_lines(page) == f"Friday club · round 1, table {t.number} Next: {words} The night's standings"
            own = re.search(r'<p class="next-seat"><strong>Next: <a href="http://localhost(/p/[^"]+)">', page).group(1)
            assert f"{night.name_of(player)}'s link" in client.get(own).text  # his own link at that table
    assert any(p in second.byes for t in tables for p in t.seats)  # the bye was seen above

    expected = []
    for player in first.seats:
        there = next((u for u in second.tables if player in u.seats), None)
        if there is None:
            expected.append(f"{night.name_of(player)} — next: sitting out round 2")
        else:
            at = there.seats.index(player) + 1
            expected.append(
                f"{night.name_of(player)} — next: round 2, table {there.number}, seat {at}"
                + (" (deals first)" if at == 1 else "")
            )
    watch = client.get(f"/w/{store.get_session(db, first.session_id).watch_id}").text
    scorer = client.get(f"/s/{first.session_id}").text
    for page in (watch, scorer):
        assert night_lines(page) == f"Friday club · round 1, table 1 {' '.join(expected)} The night's standings"

    poll = f"{links[1][0]}/night"
    assert client.get(f"{poll}?v={night.version}").status_code == 204  # the night unchanged: nothing sent
    response = client.get(f"{poll}?v={night.version - 1}")
    assert response.status_code == 200 and "Next: " in night_lines(response.text)


def test_an_ordinary_session_says_nothing_of_a_night(app, client):
    response = client.post(
        "/sessions",
        data={"player_0": "Ann", "player_1": "Ben", "player_2": "Cat", "rulebook": "parlett", "first_dealer": "0"},
    )
    session = response.headers["Location"]
    assert "night-seat" not in client.get(session).text
    assert client.get(session + "/night").status_code == 204


def test_a_tables_crumb_leads_back_to_its_nights_standings_never_the_organizers_link(app, client):
    """The crumb "Friday club · round 1 · table 2" on each of a table's pages (the
    scorer's, the watch link's, a player's own) links the night's public standings;
    no table page gives the organizer's link away. An ordinary session's crumb links nowhere."""
    form = {
        "name": "Friday club",
        "players": "\n".join(SEVEN),
        "rounds": "3",
        "rulebook": "parlett",
        "played_on": "2026-12-04",
        "rank_by": "placings",
    }
    organizer = client.post("/nights", data=form).headers["Location"]
    client.post(organizer + "/rounds", data={"round": "1"})
    db = store.connect(app.config["DATABASE"])
    night = store.get_night(db, organizer.rsplit("/", 1)[1])
    table = night.round(1).tables[1]
    pages = [f"/s/{table.session_id}", f"/w/{table.watch_id}", *own_links(client, table.session_id)]
    for path in pages:
        page = client.get(path).text
        crumb = re.search(r'<(a|span) class="crumb"( href="[^"]*")?>([^<]*)</\1>', page)
        assert crumb.groups() == (
            "a",
            f' href="http://localhost/n/{night.watch_id}"',
            "Friday club · round 1 · table 2",
        ), path
        assert f"/night/{night.id}" not in page, path
    session = client.post(
        "/sessions",
        data={"player_0": "Ann", "player_1": "Ben", "player_2": "Cat", "rulebook": "parlett", "first_dealer": "0"},
    ).headers["Location"]
    assert '<span class="crumb">' in client.get(session).text
