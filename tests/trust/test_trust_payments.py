"""Paying what is owed, against the real server (``python -m scorekeeper.server.serve``
as `make run` starts it: waitress, two processes of four threads): a double tap,
eight times over, on "Mark paid" and on "Settled at the table" records one
payment per debt, answers the others 409 with the page as it is now and why,
and never a 500. (bench/payment_race.py runs ten rounds of each.)

An evening of two parlett hands at 1d a counter: Cat pays Ann 4s 4d (52
counters) and Ben 3d (3 counters)."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from support.circles import HANDS, debts_of, forms, members_of, new_circle, play, start_evening
from support.served import Phone, Served

AT_ONCE = 8


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = Served(tmp_path_factory.mktemp("payments") / "instance", config="SESSIONS_PER_MINUTE = 10_000\n")
    server.start()
    yield server
    server.stop()


def at_once(phone: Phone, posts: list) -> list[tuple[int, str]]:
    """Every (path, fields) posted at the same moment, each on its own connection: (status, page) of each."""
    barrier, answers, lock = threading.Barrier(len(posts)), [], threading.Lock()

    def send(path, fields):
        barrier.wait()
        status, _, page = phone.post(path, fields)
        with lock:
            answers.append((status, page))

    threads = [threading.Thread(target=send, args=post) for post in posts]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert len(answers) == len(posts)
    return answers


def evening_with_two_debts(phone: Phone, name: str) -> tuple[str, dict, str]:
    """The circle's manage link, its members' ids, the evening's scorer's link."""
    circle = new_circle(phone, name=name, members="Ann\nBen\nCat")
    ids = members_of(phone.get(circle)[2])
    session = start_evening(phone, circle, [ids["Ann"], ids["Ben"], ids["Cat"]], "2026-11-14")
    play(phone, session, HANDS[:2])
    return circle, ids, session


def payments(served: Served, circle: str) -> list[tuple]:
    conn = sqlite3.connect(served.instance / "scorekeeper.db")
    try:
        return conn.execute(
            "select payer, payee, amount, unit from payments where circle_id = ? order by payee",
            [circle.rsplit("/", 1)[1]],
        ).fetchall()
    finally:
        conn.close()


def test_eight_mark_paid_posts_at_once_record_one_payment_per_debt(served):
    phone = Phone(served.port)
    circle, ids, _ = evening_with_two_debts(phone, "Mark paid at once")
    page = phone.get(circle + "/owed")[2]
    assert debts_of(page) == ["Cat pays Ann 4s 4d, for 14 Nov", "Cat pays Ben 3d, for 14 Nov"]
    posted = forms(page, "/owed/pay")
    answers = at_once(phone, [posted[i % 2] for i in range(AT_ONCE)])  # each debt's form, four times
    statuses = sorted(status for status, _ in answers)
    assert statuses == [303] * 2 + [409] * (AT_ONCE - 2), statuses
    assert payments(served, circle) == [(ids["Cat"], ids["Ann"], "52", "d"), (ids["Cat"], ids["Ben"], "3", "d")]
    for status, page in answers:
        if status == 409:
            assert (
                "Cat paying Ann 4s 4d is marked paid already (by Cat, on " in page
                or "Cat paying Ben 3d is marked paid already (by Cat, on " in page
            )
            assert "nothing was marked twice." in page and 'role="alert"' in page
    page = phone.get(circle + "/owed")[2]
    assert debts_of(page) == [] and "Nothing is owed: every evening is settled." in page
    # and once more, later, from the page as it was: still nothing marked twice
    status, _, page = phone.post(*posted[0])
    assert status == 409 and "Cat paying Ann 4s 4d is marked paid already" in page
    assert len(payments(served, circle)) == 2
    assert [fields["paid_by"] for _, fields in posted] == [str(ids["Cat"])] * 2  # marked by the payer


def test_eight_settled_at_the_table_posts_at_once_record_the_evenings_payments_once(served):
    phone = Phone(served.port)
    circle, ids, _ = evening_with_two_debts(phone, "Settled at once")
    page = phone.get(circle + "/owed")[2]
    [settle] = forms(page, "/settle")
    answers = at_once(phone, [settle] * AT_ONCE)
    statuses = sorted(status for status, _ in answers)
    assert statuses == [303] + [409] * (AT_ONCE - 1), statuses
    assert payments(served, circle) == [(ids["Cat"], ids["Ann"], "52", "d"), (ids["Cat"], ids["Ben"], "3", "d")]
    assert all(
        "14 Nov is settled already: nothing was marked twice." in page for status, page in answers if status == 409
    )
    page = phone.get(circle + "/owed")[2]
    assert "Nothing is owed: every evening is settled." in page
    assert settle[1]["paid_by"] == str(ids["Cat"])  # the evening's payer marks it, unless changed


def test_a_form_for_what_is_no_longer_owed_marks_nothing(served):
    phone = Phone(served.port)
    circle, ids, session = evening_with_two_debts(phone, "Owed changed")
    page = phone.get(circle + "/owed")[2]
    posted = forms(page, "/owed/pay")
    play(phone, session, HANDS[2:3], first_version=3)  # a third hand saved meanwhile
    status, _, page = phone.post(*posted[0])  # Cat's 4s 4d to Ann is not what is owed now
    assert status == 409
    assert (
        "What is owed changed since this page was shown (a payment was marked, or a hand saved): "
        "nothing was marked." in page
    )
    assert payments(served, circle) == []
    assert debts_of(page) and debts_of(page) != ["Cat pays Ann 4s 4d, for 14 Nov", "Cat pays Ben 3d, for 14 Nov"]
    fresh = forms(page, "/owed/pay")[0]  # the 409's page carries what is owed now: it marks
    assert phone.post(*fresh)[0] == 303
    assert len(payments(served, circle)) == 1
