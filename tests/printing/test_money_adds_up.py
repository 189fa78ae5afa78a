"""Every money figure of one session agrees, to the cent (farthing), wherever it
is shown: the settle-up screen, the table page's balance cards, the sheet and its
PDF. The cases are those that broke when each amount was rounded on its own."""

import io
import json
import re

import pypdf
import pytest

from support.sessions import rounding_session
from scorekeeper.printing.sheet import render_sheet_html, render_sheet_pdf

EUR = {"per_counter": "0.05", "currency": "EUR"}
FARTHING = {"per_counter": "0.25", "currency": "d"}
SHILLING = {"per_counter": "12", "currency": "d"}

CASES = {
    "eur": (
        EUR,
        ["−€11.85", "+€7.28", "+€4.57"],
        ["Kit pays Nell 145½ counters = €7.28", "Kit pays Tom 91½ counters = €4.57"],
        "Money rounded to the cent so the three add up to zero; exact: Nell €7.275, Tom €4.575.",
    ),
    "farthing": (
        FARTHING,
        ["−4s 11¼d", "+3s 0½d", "+1s 10¾d"],
        ["Kit pays Nell 145½ counters = 3s 0½d", "Kit pays Tom 91½ counters = 1s 10¾d"],
        "Money rounded to the farthing so the three add up to zero; exact: Nell 3s 0.375d, Tom 1s 10.875d.",
    ),
    "shilling": (
        SHILLING,
        ["−£11 17s", "+£7 5s 6d", "+£4 11s 6d"],
        ["Kit pays Nell 145½ counters = £7 5s 6d", "Kit pays Tom 91½ counters = £4 11s 6d"],
        None,
    ),
}


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace(" ,", ",").strip()


def imported(client, record) -> str:
    response = client.post("/import", data=json.dumps(record), content_type="application/json")
    assert response.status_code == 303, response.data
    return response.headers["Location"]


def card_money(html: str) -> list[str]:
    return re.findall(r'<span class="money">([^<]*)</span>', html)


@pytest.mark.parametrize("case", CASES)
def test_settle_up_screen_and_table_cards(client, case):
    stake, balances, payments, note = CASES[case]
    url = imported(client, rounding_session(stake))
    page = client.get(url + "/settle").data.decode()
    assert card_money(page) == balances
    text = text_of(page)
    for sentence in payments:
        assert sentence in text
    if note:
        assert text.count(note) == 1
    else:
        assert "rounded" not in text
    table = client.get(url).data.decode()
    assert card_money(table) == balances
    assert (text_of(table).count(note) == 1) if note else ("rounded" not in text_of(table))


@pytest.mark.parametrize("case", CASES)
def test_sheet_html_and_pdf(case):
    stake, balances, payments, note = CASES[case]
    record = rounding_session(stake)
    for text in (
        text_of(render_sheet_html(record)),
        re.sub(
            r"\s+",
            " ",
            "\n".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(render_sheet_pdf(record))).pages),
        ),
    ):
        for name, money, counters in zip(("Kit", "Nell", "Tom"), balances, ("−237", "145½", "91½")):
            assert f"{name} {counters} = {money}" in text
        for sentence in payments:
            assert sentence in text
        if note:
            assert text.count(note) == 1
        else:
            assert "rounded" not in text
