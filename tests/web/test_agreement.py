"""The other players agree each hand (so nobody is scored without his OK):
the option, the verification card, a link per player with one power, an OK
cleared by an edit of that hand and by nothing else, disputes shown to all,
export and import (real SQLite, Flask's test client)."""

from __future__ import annotations

import re

from support.agreement import HANDS, agree, confirm_session, player_links, seen
from support.web import export, hand_fields, new_session, post_change, version_of


def test_the_option_is_kept_shown_and_gives_each_player_a_link(client):
    url = confirm_session(client, [])
    page = client.get(url).data.decode()
    assert "Each hand needs the other players&#39; OK" in page or "Each hand needs the other players' OK" in page
    links = player_links(client, url)
    assert len(links) == 3 and len(set(links)) == 3
    assert export(client, url)["confirm"] is True
    plain = new_session(client)
    assert player_links(client, plain) == [] and "confirm" not in export(client, plain)


def test_the_verification_card_after_save_and_pass_the_phone(client):
    url = confirm_session(client, HANDS[:1])
    page = client.get(url).data.decode()
    assert "Hand 1: do you agree?" in page and "Pass the phone" in page
    assert "Ben: gleek of Kings, 3 from each." in page  # the sets each declared, by name
    for seat in (1, 2):
        page = client.get(url).data.decode()
        response = client.post(url + "/hands/1/agree", data={"seat": str(seat), "seen": seen(page, 1)})
        assert response.status_code == 303
    page = client.get(url).data.decode()
    assert "Hand 1: do you agree?" not in page and "✓ agreed" in page
    assert export(client, url)["hands"][0]["agreed"] == [1, 2]


def test_a_players_link_agrees_or_disputes_for_his_seat_only_and_everyone_sees_it(client, app):
    url = confirm_session(client)
    ann, ben, cat = player_links(client, url)
    page = client.get(ben).data.decode()
    assert "Waiting for your OK, Ben" in page and url.rsplit("/", 1)[1] not in page  # never the scorer's link
    assert agree(client, ben, 2).status_code == 303
    assert export(client, url)["hands"][1]["agreed"] == [1]
    reason = "I had only two Kings"
    response = client.post(
        f"{cat}/hands/1/dispute", data={"seen": seen(client.get(cat).data.decode(), 1), "reason": reason}
    )
    assert response.status_code == 303
    watch = re.search(r'href="https?://[^"/]+(/w/[^"]+)"', client.get(url).data.decode()).group(1)
    for link in (url, watch, ann, f"{url}/hands/1"):
        shown = client.get(link).data.decode()
        assert "⚠ disputed" in shown or f"Cat: “{reason}”" in shown, link
    assert f"Cat: “{reason}”" in client.get(f"{url}/hands/1").data.decode()
    assert f"Cat: “{reason}”" in client.get(url + "/history").data.decode()
    assert "Agreed to hand" in client.get(url + "/history").data.decode()


def test_an_ok_is_cleared_by_an_edit_of_that_hand_and_by_nothing_else(client):
    url = confirm_session(client)
    ann, ben, cat = player_links(client, url)
    for link in (ben, cat):
        agree(client, link, 1)
        agree(client, link, 2)
    assert [h["agreed"] for h in export(client, url)["hands"]] == [[1, 2], [1, 2]]
    third = {**HANDS[0], "dealer": 2, "auction": {"buyer": 0, "price": 12}, "ruff": None}
    assert client.post(url + "/hands", data=hand_fields(third, version_of(client, url))).status_code == 303
    post_change(client, url, "/hands/3/delete")  # saving, deleting another hand: the OKs stay
    post_change(client, url, "/hands/2", hand_fields({**HANDS[1], "tricks": [5, 4, 3]}))  # an edit of hand 2
    assert [h["agreed"] for h in export(client, url)["hands"]] == [[1, 2], []]
    page = client.get(url).data.decode()
    assert "Hand 2: do you agree?" in page  # both OKs are needed again


def test_an_ok_for_a_hand_changed_meanwhile_is_refused(client):
    url = confirm_session(client)
    ann, ben, cat = player_links(client, url)
    old = seen(client.get(ben).data.decode(), 2)
    post_change(client, url, "/hands/2", hand_fields({**HANDS[1], "tricks": [5, 4, 3]}))
    response = client.post(f"{ben}/hands/2/ok", data={"seen": old})
    assert response.status_code == 303
    assert "Hand 2 was changed since you looked at it: check it again." in client.get(ben).data.decode()
    assert export(client, url)["hands"][1]["agreed"] == []


def test_settle_up_and_the_sheet_say_how_many_hands_are_agreed(client):
    url = confirm_session(client)
    ann, ben, cat = player_links(client, url)
    agree(client, ben, 1)
    agree(client, cat, 1)
    settle_up = client.get(url + "/settle").data.decode()
    assert "1 of 2 hands agreed" in settle_up and "Hand 2: 2 OKs needed: two of Ann, Ben and Cat." in settle_up
    assert "At the table: 1 of 2 hands agreed; not agreed: 2." in client.get(url + "/sheet").data.decode()
    mine = client.get(ann).data.decode()
    mine = mine[mine.index("Waiting for your OK, Ann") :]
    assert 'id="hand-2"' in mine and 'id="hand-1"' not in mine  # hand 1 needs no more OKs
    agree(client, ben, 2)
    assert "Hand 2: 1 more OK needed: Ann or Cat." in client.get(url + "/settle").data.decode()


def test_export_and_import_keep_the_option_and_each_hands_state(client):
    url = confirm_session(client)
    ann, ben, cat = player_links(client, url)
    agree(client, ann, 2)
    agree(client, cat, 2)
    record = export(client, url)
    assert record["confirm"] is True and [h["agreed"] for h in record["hands"]] == [[], [0, 2]]
    again = client.post("/import", json=record)
    assert again.status_code == 303
    copy = again.headers["Location"]
    assert export(client, copy) == record
    assert "✓ agreed" in client.get(copy).data.decode()


def test_a_players_link_can_change_nothing_else(client):
    url = confirm_session(client)
    ben = player_links(client, url)[1]
    token = ben.rsplit("/", 1)[1]
    before = export(client, url)
    version = str(version_of(client, url))
    for method, path in (
        ("POST", "/hands"),
        ("POST", "/hands/check"),
        ("POST", "/hands/1"),
        ("POST", "/hands/2/delete"),
        ("POST", "/undo"),
        ("POST", "/hands/discard"),
        ("GET", "/hands/new"),
        ("GET", "/hands/1/edit"),
        ("GET", "/history"),
        ("POST", "/hands/1/agree"),
        ("POST", "/history/1/back"),
        ("GET", "/unlock"),
    ):
        response = client.open(f"/p/{token}{path}", method=method, data=dict(hand_fields(HANDS[0], version), seat="0"))
        assert response.status_code in (404, 405), (method, path, response.status_code)
    for path in ("", "/live", "/hands/1", "/settle", "/sheet", "/export.json"):
        assert client.get(f"/p/{token}{path}").status_code == 200, path
    assert client.post(f"/w/{url.rsplit('/', 1)[1]}/hands/1/ok").status_code in (404, 405)
    assert export(client, url) == before


def test_the_pdf_sheet_carries_the_oks_and_a_new_ok_prints_a_new_sheet(client):
    """The PDF's attached record keeps each hand's OKs (so importing it keeps
    them), and an OK given after a sheet was printed is on the next one."""
    import io
    import json

    import pypdf

    def printed(url):
        pdf = client.get(url + "/sheet.pdf").data
        reader = pypdf.PdfReader(io.BytesIO(pdf))
        text = "".join(page.extract_text() for page in reader.pages)
        return json.loads(reader.attachments["session.json"][0]), " ".join(text.split())

    url = confirm_session(client)
    ann, ben, cat = player_links(client, url)
    agree(client, ben, 1)
    agree(client, cat, 1)
    record, text = printed(url)
    assert [h["agreed"] for h in record["hands"]] == [[1, 2], []]
    assert "1 of 2 hands agreed; not agreed: 2." in text
    agree(client, ann, 2)
    agree(client, ben, 2)
    record, text = printed(url)  # the same session version: a new sheet all the same
    assert [h["agreed"] for h in record["hands"]] == [[1, 2], [0, 1]]
    assert "2 of 2 hands agreed" in text
    copy = client.post("/import", json=record).headers["Location"]
    assert [h["agreed"] for h in export(client, copy)["hands"]] == [[1, 2], [0, 1]]


def test_where_one_keeps_the_score_the_other_two_must_agree(client):
    url = new_session(client, confirm="on", scorer="0")
    assert client.post(url + "/hands", data=hand_fields(HANDS[0], version_of(client, url))).status_code == 303
    page = client.get(url).data.decode()
    assert "Each hand needs the other players' OK (Ann keeps the score)" in page
    assert "Pass the phone: Ben and Cat each tap their own name to agree (Ann keeps the score)." in page
    assert ">Ben: OK<" in page and ">Cat: OK<" in page and ">Ann: OK<" not in page
    assert "OKs needed from Ben and Cat" in page
    ann, ben, cat = player_links(client, url)
    assert "Ann, you keep the score: the other two players agree each hand." in client.get(ann).data.decode()
    client.post(url + "/hands/1/agree", data={"seat": "0", "seen": seen(page, 1)})  # the scorer's own OK ...
    page = client.get(url).data.decode()
    assert "OKs needed from Ben and Cat" in page  # ... does not count, and says so
    assert "Ann keeps the score: the other two players agree each hand." in page
    assert client.post(f"{ann}/hands/1/ok", data={"seen": seen(page, 1)}).status_code == 303  # nor on her link
    assert "agreed" not in export(client, url)["hands"][0] or export(client, url)["hands"][0]["agreed"] == []
    assert "you keep the score, so the other two agree each hand." in client.get(ann).data.decode()
    assert agree(client, ben, 1).status_code == 303
    page = client.get(url).data.decode()
    assert "1 more OK needed: Cat" in page and "Pass the phone: Cat taps their own name to agree" in page
    assert client.post(url + "/hands/1/agree", data={"seat": "2", "seen": seen(page, 1)}).status_code == 303
    assert "✓ agreed" in client.get(url).data.decode()
    settle = client.get(url + "/settle").data.decode()
    assert "1 of 1 hand agreed" in settle


def test_who_keeps_the_score_is_asked_only_with_the_ok_and_checked(client):
    response = client.post(
        "/sessions",
        data={
            "player_0": "Ann",
            "player_1": "Ben",
            "player_2": "Cat",
            "rulebook": "parlett",
            "first_dealer": "0",
            "stake": "",
            "confirm": "on",
            "scorer": "3",
        },
    )
    assert response.status_code == 422
    assert "Choose who keeps the score, or “None of us”." in response.data.decode()
    plain = new_session(client, scorer="1")  # without the OK, nobody needs to be named
    assert "keeps the score" not in client.get(plain).data.decode()


def test_who_keeps_the_score_can_be_changed_and_every_status_follows(client, app):
    url = confirm_session(client, HANDS[:1])
    for seat in (0, 1):  # Ann and Ben agree: any two OKs
        client.post(url + "/hands/1/agree", data={"seat": str(seat), "seen": seen(client.get(url).data.decode(), 1)})
    page = client.get(url).data.decode()
    assert "✓ agreed" in page and '<form method="post" action="' + url + '/scorer" class="scorer">' in page
    before = re.search(r"/live\?v=([0-9a-z-]+)", page).group(1)
    response = client.post(url + "/scorer", data={"scorer": "0"})
    assert response.status_code == 303
    page = client.get(url).data.decode()
    assert "Ann keeps the score: Ben&#39;s and Cat&#39;s OKs agree each hand." in page
    assert "(Ann keeps the score)" in page and "1 more OK needed: Cat" in page  # Ann's own OK no longer counts
    assert re.search(r"/live\?v=([0-9a-z-]+)", page).group(1) != before  # the other phones redraw
    sheet = client.get(url + "/sheet").data.decode()
    assert "At the table: 0 of 1 hand agreed; not agreed: 1." in sheet
    assert export(client, url)["hands"][0]["agreed"] == [0, 1]  # the OKs given are kept as given
    client.post(url + "/scorer", data={"scorer": "none"})
    page = client.get(url).data.decode()
    assert "Nobody in particular keeps the score: any two players&#39; OKs agree a hand." in page
    assert "✓ agreed" in page and "keeps the score)" not in page
    assert "At the table: 1 of 1 hand agreed." in client.get(url + "/sheet").data.decode()
    client.post(url + "/scorer", data={"scorer": "7"})
    assert "Choose who keeps the score, or “None of us”." in client.get(url).data.decode()
    # only the scorer's link may change it, and only where the option is on
    watch = re.search(r'href="https?://[^"/]+(/w/[^"]+)"', client.get(url).data.decode()).group(1)
    assert app.test_client().post(watch + "/scorer", data={"scorer": "1"}).status_code in (404, 405)
    plain = new_session(client)
    assert client.post(plain + "/scorer", data={"scorer": "1"}).status_code == 404


def test_the_sheet_counts_a_disputed_hand_as_not_agreed(client):
    url = confirm_session(client, HANDS[:1])
    ann, ben, cat = player_links(client, url)
    client.post(f"{cat}/hands/1/dispute", data={"seen": seen(client.get(cat).data.decode(), 1), "reason": "No"})
    agree(client, ann, 1)
    agree(client, ben, 1)
    assert export(client, url)["hands"][0]["agreed"] == [0, 1]  # two OKs in the record, and a dispute
    assert "At the table: 0 of 1 hand agreed; not agreed: 1 (disputed)." in client.get(url + "/sheet").data.decode()


def test_the_sheet_and_pdf_mark_the_disputed_hand_and_say_who_and_why(client):
    """A disputed hand is found where it is: not only "not agreed: 2 (disputed)" at the foot; the
    disputed hand's own line is flagged, with who disputed it and why under it."""
    import io

    import pypdf

    url = confirm_session(client)
    ann, ben, cat = player_links(client, url)
    client.post(
        f"{cat}/hands/2/dispute",
        data={"seen": seen(client.get(cat).data.decode(), 2), "reason": "The ruff was 4, not 3"},
    )
    client.post(
        f"{ben}/hands/2/dispute", data={"seen": seen(client.get(ben).data.decode(), 2), "reason": "I held the Tiddy"}
    )
    sheet = client.get(url + "/sheet").data.decode()
    assert sheet.count("⚠ DISPUTED") == 1
    assert "Hand 2 disputed by Ben: “I held the Tiddy”; Cat: “The ruff was 4, not 3”" in sheet
    pdf = pypdf.PdfReader(io.BytesIO(client.get(url + "/sheet.pdf").data))
    text = " ".join(" ".join(page.extract_text() for page in pdf.pages).split())
    assert text.count("⚠ DISPUTED") == 1
    assert re.search(r"2 ?⚠ DISPUTED Ben dealt", text)  # hand 2's line (Ben dealt it), not hand 1's
    assert "Hand 2 disputed by Ben: “I held the Tiddy”; Cat: “The ruff was 4, not 3”" in text
    assert "not agreed: 1, 2 (disputed)" in text
    record = export(client, url)  # a record's dispute may have no reason (docs/record.md): said so
    record["hands"][1]["disputes"] = [{"seat": 2, "reason": ""}]
    copy = client.post("/import", json=record).headers["Location"]
    assert "Hand 2 disputed by Cat (no reason given)</td>" in client.get(copy + "/sheet").data.decode()
