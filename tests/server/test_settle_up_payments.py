"""An evening a circle holds is paid from its own Settle up page (real HTTP, a
served app, cookies kept): "Mark paid" beside each of its payments on the
scorer's link (marked by the payer unless changed), never on the watch link or a
player's link; marked once however often it is posted; taken back once; the
evening closes when its payments are all marked, and the circle's What is owed
says so.

An evening of two parlett hands at 1d a counter: Cat pays Ann 52 counters = 4s
4d and Ben 3 counters = 3d."""

from __future__ import annotations

import re
from datetime import date
import threading

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
from support.circles import HANDS, debts_of, forms, members_of, new_circle, play, start_evening
from support.served import Phone


@pytest.fixture
def served(tmp_path):
    app = create_app(
        {
            "DATABASE": str(tmp_path / "c.db"),
            "SECRET_KEY": "x",
            "BACKUP_DIR": str(tmp_path / "backups"),
            "SESSIONS_PER_MINUTE": 10_000,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_port
    server.shutdown()
    thread.join(timeout=5)


def an_evening(phone: Phone, **evening) -> tuple[str, dict, str]:
    """The circle's manage link, its members' ids, the evening's scorer's link."""
    link = new_circle(phone, members="Ann\nBen\nCat")
    ids = members_of(phone.get(link)[2])
    session = start_evening(phone, link, [ids["Ann"], ids["Ben"], ids["Cat"]], "2026-11-14", **evening)
    play(phone, session, HANDS[:2])
    return link, ids, session


def lines(page: str) -> list[str]:
    """The Settle up page's payments, each as it reads (its forms' labels and options left out)."""
    items = re.search(r'<ul class="payments">(.*?)</ul>', page, re.S).group(1).split("<li>")[1:]
    text = [re.sub(r"<select.*?</select>|<[^>]+>", " ", item, flags=re.S) for item in items]
    return [" ".join(t.split()) for t in text]


def problems(page: str) -> list[str]:
    return re.findall(r'class="problem" role="alert">(.*?)</p>', page)


def test_mark_paid_is_beside_each_payment_on_the_scorers_settle_up_page_only(served):
    phone = Phone(served)
    circle, ids, session = an_evening(phone)
    page = phone.get(session + "/settle")[2]
    posted = forms(page, "/settle/pay")
    assert [(f["payer"], f["payee"], f["amount"], f["currency"], f["paid_by"]) for _, f in posted] == [
        (f"#{ids['Cat']}", f"#{ids['Ann']}", "52", "d", str(ids["Cat"])),
        (f"#{ids['Cat']}", f"#{ids['Ben']}", "3", "d", str(ids["Cat"])),
    ]  # marked by the payer
    assert lines(page) == [
        "Cat pays Ann 52 counters = 4s 4d Marked by Paid on Mark paid",
        "Cat pays Ben 3 counters = 3d Marked by Paid on Mark paid",
    ]
    watch = re.search(r"/w/[A-Za-z0-9_-]{24}", phone.get(session)[2]).group(0)
    status, _, page = Phone(served).get(watch + "/settle")
    assert status == 200 and 'method="post"' not in page
    assert lines(page) == ["Cat pays Ann 52 counters = 4s 4d", "Cat pays Ben 3 counters = 3d"]
    # a session no circle holds has no Mark paid
    status, headers, _ = phone.post(
        "/sessions",
        [
            ("player_0", "Ann"),
            ("player_1", "Ben"),
            ("player_2", "Cat"),
            ("rulebook", "parlett"),
            ("first_dealer", "0"),
            ("stake", "1d"),
        ],
    )
    alone = headers["Location"]
    play(phone, alone, HANDS[:2])
    page = phone.get(alone + "/settle")[2]
    assert lines(page) == ["Cat pays Ann 52 counters = 4s 4d", "Cat pays Ben 3 counters = 3d"]
    assert "Mark paid" not in page


def test_players_links_show_no_mark_paid(served):
    phone = Phone(served)
    circle, ids, session = an_evening(phone, confirm="on")
    players = set(re.findall(r"/p/[A-Za-z0-9_-]{24}", phone.get(session)[2]))
    assert len(players) == 3
    for player in players:
        status, _, text = Phone(served).get(player + "/settle")
        assert status == 200 and 'method="post"' not in text.split('<ul class="payments">')[1]
        assert lines(text) == ["Cat pays Ann 52 counters = 4s 4d", "Cat pays Ben 3 counters = 3d"]


def test_a_payment_marked_on_settle_up_is_marked_once_taken_back_once_and_closes_the_evening(served):
    phone = Phone(served)
    circle, ids, session = an_evening(phone)
    page = phone.get(session + "/settle")[2]
    to_ann, to_ben = forms(page, "/settle/pay")

    status, headers, _ = phone.post(*to_ann)
    assert status == 303 and headers["Location"] == session + "/settle"
    page = phone.get(session + "/settle")[2]
    assert "Cat paid Ann 4s 4d." in page  # the flashed line
    assert lines(page)[0].startswith("Cat pays Ann 52 counters = 4s 4d Paid · ")
    assert lines(page)[0].endswith(", marked by Cat Take back")
    status, _, again = phone.post(*to_ann)  # the same form again: a double tap
    assert status == 409
    assert problems(again) == [
        f"Cat paying Ann 4s 4d is marked paid already (by Cat, on {to_ann[1]['paid_on']}): nothing was marked twice."
    ]
    owed = phone.get(circle + "/owed")[2]
    assert debts_of(owed) == ["Cat pays Ben 3d, for 14 Nov"]
    assert owed.count("Cat paid Ann 4s 4d, for 14 Nov") == 1

    # the last of its payments: the evening closes
    status, _, _ = phone.post(*forms(again, "/settle/pay")[0])
    assert status == 303
    page = phone.get(session + "/settle")[2]
    assert "Settled in Thursday Gleek: its payments are made." in page and "Mark paid" not in page
    assert "Nothing is owed: every evening is settled." in phone.get(circle + "/owed")[2]

    # a mistaken mark taken back: the evening is open again, its debt owed again; twice is once
    undo = forms(page, "/undo")[0]
    assert phone.post(*undo)[0] == 303
    status, _, page = phone.post(*undo)
    assert status == 409 and problems(page) == ["That payment is taken back already: nothing changed."]
    assert debts_of(phone.get(circle + "/owed")[2]) == ["Cat pays Ann 4s 4d, for 14 Nov"]
    assert len(forms(page, "/settle/pay")) == 1


def test_an_evening_paid_in_part_is_not_said_to_have_changed_on_what_is_owed(served):
    """One of an evening's two payments marked on its Settle up page: What is owed
    says beside the evening what it still owes by itself, and not "Changed after it
    was paid" (nothing of it changed)."""
    phone = Phone(served)
    circle, _, session = an_evening(phone)
    to_ann, _ = forms(phone.get(session + "/settle")[2], "/settle/pay")
    assert phone.post(*to_ann)[0] == 303
    owed = " ".join(re.sub(r"<[^>]+>", " ", phone.get(circle + "/owed")[2]).split())
    assert "Changed after it was paid" not in owed
    assert "Payments are marked for this evening already (below); by itself it still owes: Cat pays Ben 3d." in owed


def test_a_bad_day_or_marker_is_said_and_nothing_is_marked(served):
    phone = Phone(served)
    circle, ids, session = an_evening(phone)
    action, fields = forms(phone.get(session + "/settle")[2], "/settle/pay")[0]
    status, _, page = phone.post(action, dict(fields, paid_on="yesterday"))
    assert status == 422 and problems(page) == ["Enter the day it was paid."]
    status, _, page = phone.post(action, dict(fields, paid_by="999999"))
    assert status == 422 and problems(page) == ["Say who marks it paid."]
    assert "Paid ·" not in page and len(debts_of(phone.get(circle + "/owed")[2])) == 2


def test_a_payment_taken_back_twice_on_what_is_owed_is_taken_back_once(served):
    phone = Phone(served)
    circle, ids, session = an_evening(phone)
    assert phone.post(*forms(phone.get(circle + "/owed")[2], "/owed/pay")[0])[0] == 303
    page = phone.get(circle + "/owed")[2]
    assert debts_of(page) == ["Cat pays Ben 3d, for 14 Nov"]
    undo = forms(page, "/undo")[0]
    assert phone.post(*undo)[0] == 303
    status, _, page = phone.post(*undo)
    assert status == 409 and problems(page) == ["That payment is taken back already: nothing changed."]
    assert debts_of(page) == ["Cat pays Ann 4s 4d, for 14 Nov", "Cat pays Ben 3d, for 14 Nov"]
    assert "Payments made" not in page


def test_settled_at_the_table_is_for_an_evening_of_the_circle_and_dated_today_unless_said(served):
    phone = Phone(served)
    circle, ids, session = an_evening(phone)
    action, fields = forms(phone.get(circle + "/owed")[2], "/settle")[0]
    assert phone.post(f"{circle}/owed/{'x' * 24}/settle", fields)[0] == 404
    other, _, stranger = an_evening(phone)  # an evening of another circle
    assert phone.post(f"{circle}/owed/{stranger.rsplit('/', 1)[1]}/settle", fields)[0] == 404
    assert len(debts_of(phone.get(circle + "/owed")[2])) == 2
    assert phone.post(action, dict(fields, paid_on=""))[0] == 303
    page = phone.get(circle + "/owed")[2]
    assert page.count(f"{date.today().isoformat()}, marked by Cat") == 2
