"""A settled evening stays settled or says that it is not: a change to an evening
whose circle marked its payments (a new hand, an edit, a delete, an undo, going
back, a cancelled hand) is asked about first, nothing changed; once it is made
with the question answered, the evening is reopened and What is owed shows the
exact difference, in money at the evening's stake, beside the payments already
marked. The undo bar goes after 30 minutes, and such an undo is refused.

Over the Flask test client and a real SQLite database."""

from __future__ import annotations

import datetime
import html
import re
import sqlite3

import pytest

from support.data import load_example
from support.web import export, hand_fields, new_session, post_change, tap, version_of

HANDS = load_example("parlett-evening.json")["hands"]  # Ann, Ben, Cat: +20 +2 −22, +32 +1 −33, −9 0 +9
QUESTION = (
    "This evening is settled: payments were marked. Change it anyway? It will be reopened and the "
    "difference shown under What is owed."
)


def text(page: str) -> str:
    """A page's words as read (tags dropped, runs of white space one space)."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", page)).split())


def debts(client, circle) -> list[str]:
    page = client.get(circle + "/owed").data.decode()
    return [text(d) for d in re.findall(r'<p class="debt">(.*?)</p>', page)]


def post_owed_form(client, circle, action_end: str, **fields):
    """Post the first form of What is owed whose action ends so, as the page
    offers it (its hidden fields), with ``fields`` (who marks it, the day)."""
    page = client.get(circle + "/owed").data.decode()
    form = re.search(r'<form method="post" action="([^"]+%s)".*?</form>' % re.escape(action_end), page, re.S)
    posted = {
        name: html.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form.group(0))
    }
    return client.post(html.unescape(form.group(1)), data=dict(posted, **fields))


def evening_states(client, circle) -> list[str]:
    return re.findall(r" · (settled|open)</span>", client.get(circle).data.decode())


def settled_evening(client, played=2, begun=False):
    """A circle of Ann, Ben and Cat, one evening at 1d a counter of ``played``
    hands, settled at the table (Cat paid Ann 4s 4d and Ben 3d); ``begun``: the
    next hand begun (trumps hearts) before it was settled."""
    response = client.post("/circles", data={"circle_name": "Thursday Gleek", "circle_members": "Ann\nBen\nCat"})
    circle = response.headers["Location"]
    select = re.search(r'<select name="seat_0".*?</select>', client.get(circle).data.decode(), re.S).group(0)
    ids = {name: value for value, name in re.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', select)}
    response = client.post(
        circle + "/sessions",
        data={
            "seat_0": ids["Ann"],
            "seat_1": ids["Ben"],
            "seat_2": ids["Cat"],
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "1d",
            "played_on": "2026-11-14",
        },
    )
    url = response.headers["Location"]
    for hand in HANDS[:played]:
        assert client.post(url + "/hands", data=hand_fields(hand, version_of(client, url))).status_code == 303
    if begun:
        assert tap(client, url, {"dealer": "2", "trump": "hearts"}).status_code == 200
    assert debts(client, circle) == ["Cat pays Ann 4s 4d, for 14 Nov", "Cat pays Ben 3d, for 14 Nov"]
    response = post_owed_form(
        client, circle, f"/owed/{url.rsplit('/', 1)[1]}/settle", paid_by=ids["Ann"], paid_on="2026-11-14"
    )
    assert response.status_code == 303
    assert "Nothing is owed: every evening is settled." in client.get(circle + "/owed").data.decode()
    assert evening_states(client, circle) == ["settled"]
    return circle, url, ids


def test_a_hand_added_to_a_settled_evening_is_asked_first_then_what_is_owed_is_the_exact_difference(client):
    circle, url, ids = settled_evening(client)

    page = client.get(url).data.decode()
    assert "This evening is settled: its payments were marked." in text(page)
    assert "Next hand" not in page and ">Reopen to change it</a>" in page
    assert "Undo: save of hand 2" not in page  # the last change, a minute old: not undone once settled

    fields = hand_fields(HANDS[2], version_of(client, url))
    response = client.post(url + "/hands", data=fields)  # a phone whose form was drawn before it was settled
    assert response.status_code == 409
    page = response.data.decode()
    assert QUESTION in text(page) and 'name="reopen" value="yes"' in page and "Save and reopen the evening" in page
    assert len(export(client, url)["hands"]) == 2 and evening_states(client, circle) == ["settled"]

    fields["reopen"] = "yes"  # Save tapped again: the question answered
    response = client.post(url + "/hands", data=fields)
    assert response.status_code == 303
    assert export(client, url)["hands"] == HANDS[:3]
    assert "The evening is reopened" in client.get(url).data.decode()
    assert evening_states(client, circle) == ["open"]
    # Ann was paid 52d and is now up 43d, Ben was paid 3d and is up 3d, Cat paid 55d and is down 46d
    assert debts(client, circle) == ["Ann pays Cat 9d, for 14 Nov"]
    page = text(client.get(circle + "/owed").data.decode())
    assert "Cat paid Ann 4s 4d, for 14 Nov" in page and "Cat paid Ben 3d, for 14 Nov" in page
    # beside the evening itself, the difference, not its whole balance again
    assert "Payments are marked for this evening already (below); by itself it still owes: Ann pays Cat 9d." in page

    # the difference paid back: settled again
    response = post_owed_form(client, circle, "/owed/pay", paid_by=ids["Ann"], paid_on="2026-11-21")
    assert response.status_code == 303
    assert "Nothing is owed: every evening is settled." in client.get(circle + "/owed").data.decode()
    assert evening_states(client, circle) == ["settled"]


def test_a_hand_deleted_from_a_settled_evening_owes_the_difference_back(client):
    circle, url, _ = settled_evening(client)
    assert post_change(client, url, "/hands/2/delete").status_code == 409
    assert post_change(client, url, "/hands/2/delete", {"reopen": "yes"}).status_code == 303
    assert export(client, url)["hands"] == HANDS[:1]
    # now +20 +2 −22 after 52d and 3d were paid: Ann gives back 32d, Ben 1d
    assert debts(client, circle) == ["Ann pays Cat 2s 8d, for 14 Nov", "Ben pays Cat 1d, for 14 Nov"]
    assert evening_states(client, circle) == ["open"]


def back_to_first(client, url):
    return f"/history/{version_of(client, url) - 1}/back"


@pytest.mark.parametrize(
    "change",
    [
        lambda client, url: post_change(client, url, "/hands/1", hand_fields({**HANDS[0], "tricks": [4, 5, 3]})),
        lambda client, url: post_change(client, url, "/hands/2/delete"),
        lambda client, url: post_change(client, url, "/undo"),
        lambda client, url: post_change(client, url, back_to_first(client, url)),
    ],
    ids=["edit", "delete", "undo", "go back"],
)
def test_every_change_to_a_settled_evening_asks_first_and_changes_nothing(client, change):
    circle, url, _ = settled_evening(client)
    before = export(client, url)
    response = change(client, url)
    assert response.status_code == 409
    page = response.data.decode()
    assert QUESTION in text(page)
    # answering it posts the same change again, saying it reopens the evening
    assert 'name="reopen" value="yes"' in page and f'name="version" value="{version_of(client, url)}"' in page
    assert export(client, url) == before and evening_states(client, circle) == ["settled"]
    assert debts(client, circle) == []


def test_going_back_in_history_on_a_settled_evening_asks_first(client):
    circle, url, _ = settled_evening(client)
    history = client.get(url + "/history").data.decode()
    assert "Going back asks first" in history
    response = post_change(client, url, back_to_first(client, url))
    assert response.status_code == 409 and QUESTION in text(response.data.decode())
    response = post_change(client, url, back_to_first(client, url), {"reopen": "yes"})
    assert response.status_code == 303
    assert export(client, url)["hands"] == HANDS[:1]
    assert debts(client, circle) == ["Ann pays Cat 2s 8d, for 14 Nov", "Ben pays Cat 1d, for 14 Nov"]


def test_a_hand_in_progress_cancelled_on_a_settled_evening_asks_first(client):
    circle, url, _ = settled_evening(client, begun=True)  # hand 3 was begun before the evening was settled
    response = client.post(url + "/hands/discard", data={"draft_version": "1", "version": str(version_of(client, url))})
    assert response.status_code == 409
    page = response.data.decode()
    assert QUESTION in text(page) and 'name="reopen" value="yes"' in page
    assert 'value="hearts" checked' in page  # its answers still shown, and kept
    assert evening_states(client, circle) == ["settled"]
    response = client.post(
        url + "/hands/discard", data={"draft_version": "1", "reopen": "yes", "version": str(version_of(client, url))}
    )
    assert response.status_code == 303
    assert evening_states(client, circle) == ["open"] and debts(client, circle) == []


def test_next_hand_on_a_settled_evening_asks_first_and_reopens_on_purpose(client):
    circle, url, ids = settled_evening(client)
    response = client.get(url + "/hands/new")
    page = response.data.decode()
    assert response.status_code == 200 and QUESTION in text(page)
    assert 'id="hand-form"' not in page and f'action="{url}/reopen"' in page
    assert 'name="then" value="/hands/new"' in page
    assert evening_states(client, circle) == ["settled"]
    link = re.search(r'<a class="button big" href="([^"]+)">Reopen to change it</a>', client.get(url).data.decode())
    page = client.get(html.unescape(link.group(1))).data.decode()  # the table's own way to reopen: asked the same
    assert QUESTION in text(page) and 'name="then" value="/hands/new"' in page
    response = client.post(url + "/reopen", data={"then": "/hands/new", "reopen": "yes"})
    assert response.status_code == 303 and response.headers["Location"] == url + "/hands/new"
    assert 'id="hand-form"' in client.get(url + "/hands/new").data.decode()
    assert evening_states(client, circle) == ["open"]
    page = client.get(circle + "/owed").data.decode()
    assert "Nothing is owed over the open evenings: they add up to nothing." in page
    assert "Cat paid Ann 4s 4d" in text(page)
    # nothing changed since: settled at the table again, it pays nothing more
    response = post_owed_form(
        client, circle, f"/owed/{url.rsplit('/', 1)[1]}/settle", paid_by=ids["Ann"], paid_on="2026-11-21"
    )
    assert response.status_code == 303
    page = text(client.get(circle + "/owed").data.decode())
    assert "Nothing is owed: every evening is settled." in page
    assert page.count(" paid ") == 2 and evening_states(client, circle) == ["settled"]


def age_last_change(app, url, minutes):
    stamp = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=minutes)).isoformat(
        timespec="seconds"
    )
    conn = sqlite3.connect(app.config["DATABASE"])
    with conn:
        conn.execute(
            "update history set at = ? where id = (select max(id) from history where session_id = ?)",
            [stamp, url.rsplit("/", 1)[1]],
        )
    conn.close()


def test_the_undo_bar_goes_after_30_minutes_and_such_an_undo_is_refused(app, client):
    url = new_session(client)
    for hand in HANDS[:2]:
        assert client.post(url + "/hands", data=hand_fields(hand, version_of(client, url))).status_code == 303
    age_last_change(app, url, 29)
    assert "Undo: save of hand 2" in client.get(url).data.decode()
    age_last_change(app, url, 31)
    assert "Undo: save of hand 2" not in client.get(url).data.decode()
    response = post_change(client, url, "/undo")
    assert response.status_code == 422
    assert (
        "That change was made more than 30 minutes ago, so it is not undone from here: History can put the "
        "hands back as they were at any earlier version."
    ) in text(response.data.decode())
    assert export(client, url)["hands"] == HANDS[:2]
    # History still goes back
    assert post_change(client, url, back_to_first(client, url)).status_code == 303
    assert export(client, url)["hands"] == HANDS[:1]


def test_evenings_paid_together_reopen_together_so_the_difference_stays_exact(client):
    """Two evenings paid in the fewest payments across both (each payment for
    both): a hand added to one reopens both, and What is owed is that hand alone."""
    response = client.post("/circles", data={"circle_name": "Thursday Gleek", "circle_members": "Ann\nBen\nCat\nDan"})
    circle = response.headers["Location"]
    select = re.search(r'<select name="seat_0".*?</select>', client.get(circle).data.decode(), re.S).group(0)
    ids = {name: value for value, name in re.findall(r'<option value="(\d+)"[^>]*>([^<]+)</option>', select)}
    evenings = []
    for seats, day in ((("Ann", "Ben", "Cat"), "2026-11-14"), (("Dan", "Ben", "Cat"), "2026-11-21")):
        response = client.post(
            circle + "/sessions",
            data={
                "seat_0": ids[seats[0]],
                "seat_1": ids[seats[1]],
                "seat_2": ids[seats[2]],
                "rulebook": "parlett",
                "first_dealer": "0",
                "stake": "1d",
                "played_on": day,
            },
        )
        url = response.headers["Location"]
        for hand in HANDS[:2]:
            assert client.post(url + "/hands", data=hand_fields(hand, version_of(client, url))).status_code == 303
        evenings.append(url)
    assert debts(client, circle) == [
        "Cat pays Ann 4s 4d, for 14 Nov and 21 Nov",
        "Cat pays Dan 4s 4d, for 14 Nov and 21 Nov",
        "Cat pays Ben 6d, for 14 Nov and 21 Nov",
    ]
    for _ in range(3):
        response = post_owed_form(client, circle, "/owed/pay", paid_by=ids["Cat"], paid_on="2026-11-21")
        assert response.status_code == 303
    assert evening_states(client, circle) == ["settled", "settled"]

    one = evenings[0]
    fields = hand_fields(HANDS[2], version_of(client, one))
    fields["reopen"] = "yes"
    assert client.post(one + "/hands", data=fields).status_code == 303
    assert evening_states(client, circle) == ["open", "open"]
    assert debts(client, circle) == ["Ann pays Cat 9d, for 14 Nov and 21 Nov"]
