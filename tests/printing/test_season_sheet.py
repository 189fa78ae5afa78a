"""The season sheet (scorekeeper/printing/season_sheet.py): a real PDF, read back with pypdf."""

from __future__ import annotations

import io
import json

import pypdf
import pytest

from scorekeeper.rules.season import evening_figures, owed, season
from scorekeeper.printing.season_sheet import season_sheet_pdf
from support.data import load_example, round_two

NIGHTS = [  # the four worked evenings as one circle's (tests/rules/test_season.py works out the figures)
    ("cotton1674-evening.json", "2026-11-14", {"per_counter": "0.25", "currency": "d"}, None),
    ("modern-evening.json", "2026-11-21", {"per_counter": "1", "currency": "d"}, None),
    ("parlett-evening.json", "2026-11-28", {"per_counter": "0.05", "currency": "GBP"}, ["Ann", "Ben", "Dan"]),
    ("wits1671-evening.json", "2026-12-05", None, ["Cat", "Dan", "Ann"]),
]
ARCHIVE = json.dumps({"format": "gleek-circle/1", "members": ["Ann", "Ben", "Cat", "Dan"]}).encode()


@pytest.fixture(scope="module")
def figures():
    out = []
    for name, played_on, stake, names in NIGHTS:
        record = load_example(name)
        record["played_on"] = played_on
        if stake:
            record["stake"] = stake
        out.append(evening_figures(record, name.split("-")[0], names))
    return out


@pytest.fixture(scope="module")
def pdf(figures):
    return season_sheet_pdf(
        season(figures), owed(figures[2:]), "Thursday Gleek", attachment=(ARCHIVE, "thursday-gleek.circle.json")
    )


def text_of(data: bytes) -> str:
    reader = pypdf.PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_sheet_says_the_ledger_what_is_owed_and_the_statistics(pdf):
    text = text_of(pdf)
    assert "Thursday Gleek" in text
    assert "Gleek season · 4 evenings · 11 hands · 14 November 2026 to 5 December 2026" in text
    # the ledger's lines, spelled as the circle's pages spell them (the wits1671 evening: Ann −26½, total +7)
    assert "2026-12-05 wits1671" in text
    # the season's total of each player per currency, never counters of two stakes added up:
    # Cat +9s 1⅜d over the two old-pence evenings and 18 counters where there was no stake
    assert "−26½" in text and "+9s 1.375d · +18" in text and "+130" not in text
    assert "Ben pays Cat 5s 9.125d" in text and "Ben pays Cat 99½ counters" not in text
    assert "Dan pays Ann £2.15, for 28 Nov" in text  # still owed over the two open evenings
    assert "Ann pays Cat 18 counters, for 5 Dec" in text
    assert "Every evening adds up to 0." in text
    assert "Statistics" in text and "Head to head" in text and "Stocks bought" in text
    assert "Held Tiddy×5" in text and "Tumbler×3" in text  # Ann's side cards (the cell wraps)


def test_a_season_at_three_stakes_prints_the_money_payments_never_counters():
    """Round two (support.data.round_two): the payments that settle the season are the money
    ones (Zoë, up 16½ counters, pays 2s 0¾d), its figures are money, and no line adds
    counters of two stakes."""
    s = season(evening_figures(r, r["played_on"]) for r, _ in round_two())
    text = text_of(season_sheet_pdf(s, [], "Round two"))
    payments = text[text.index("In the fewest payments, in old pence (£sd)") : text.index("As if nobody had paid")]
    assert payments.splitlines()[1:] == [
        "Zoë pays Cat 2s 0¾d",
        "Ann pays Cat 1s 0½d",
        "Ben pays Dan 7¾d",
        "Ben pays Cat 3¾d",
    ]
    # counters only in the ledger's key: each evening's own result
    assert "Zoë −2s 0¾d" in text and " ".join(text.split()).count("counters") == text.count("Each player's columns")
    assert "the evening's result in counters" in " ".join(text.split())
    assert "Net −2s 0¾d −1s 0½d −11½d +3s 5d +7¾d" in text
    assert "Best hand +1s 10½d" in text and "Worst hand −3s 9d" in text
    assert "2026-12-18 wits1671       2     +18  −2s 0¾d" in text  # Zoë's running total after the last evening


def test_landscape_a4_and_letter(figures, pdf):
    box = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == (842, 595)
    letter = season_sheet_pdf(season(figures), [], "Thursday Gleek", paper="Letter")
    box = pypdf.PdfReader(io.BytesIO(letter)).pages[0].mediabox
    assert (round(box.width), round(box.height)) == (792, 612)
    assert "Nothing: every evening is settled." in text_of(letter)
    with pytest.raises(ValueError, match="paper must be one of"):
        season_sheet_pdf(season(figures), [], "x", paper="A3")


def test_the_circles_archive_is_attached(figures, pdf):
    attachments = pypdf.PdfReader(io.BytesIO(pdf)).attachments
    assert attachments == {"thursday-gleek.circle.json": [ARCHIVE]}
    assert pypdf.PdfReader(io.BytesIO(season_sheet_pdf(season(figures), [], "x"))).attachments == {}


def test_an_empty_season_prints(figures):
    empty = season(figures, since="2030-01-01")
    text = text_of(season_sheet_pdf(empty, [], "Thursday Gleek"))
    assert "No evening played yet." in text


# The ledger's lines are written into the PDF by scorekeeper.printing.ledger_pdf, in a font of their own
# (DejaVu Sans Mono, subset): read back by that font, page by page, they are the ledger's lines.
LEDGER_FONT = "/LEDGER+DejaVuSansMono"


def ledger_text(page) -> str:
    """The text a page draws in the ledger's font, as pypdf reads it."""
    parts = []

    def visit(text, cm, tm, font, size):
        if font is not None and font.get("/BaseFont") == LEDGER_FONT:
            parts.append(text)

    page.extract_text(visitor_text=visit)
    return "".join(parts).strip("\n")  # pypdf starts a new text object on a new line


def ledger_baselines(page) -> list[float]:
    """The height of each ledger line's baseline on the page, in points from its foot."""
    ys = []

    def visit(text, cm, tm, font, size):
        if font is not None and font.get("/BaseFont") == LEDGER_FONT and text.strip():
            ys.append(cm[5] + tm[5] * cm[3])

    page.extract_text(visitor_text=visit)
    return ys


def changed(evening, **fields):
    """An evening's figures with some fields changed."""
    return type(evening)(**{**dict(zip(evening._fields, evening)), **fields})


def long_season(figures, evenings: int):
    """``evenings`` of the four worked ones in turn, a week apart (a ledger over several pages)."""
    import datetime

    start = datetime.date(2026, 1, 1)
    out = []
    for i in range(evenings):
        day = (start + datetime.timedelta(days=7 * i)).isoformat()
        out.append(changed(figures[i % len(figures)], played_on=day, key=f"evening {i + 1}"))
    return season(out)


def the_ledger_lines(s, paper="a4") -> list[str]:
    from scorekeeper.printing.season_sheet import season_context

    return season_context(s, [], "x", paper)["ledger"]["lines"]


def test_the_ledger_pages_text_is_the_ledgers_lines_exactly(figures, pdf):
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    lines = the_ledger_lines(season(figures))
    # the evening's result in counters, the running total in its money: ¼d a counter
    assert lines[0].split() == [
        "2026-11-14",
        "cotton1674",
        "4",
        "+41",
        "+10¼d",
        "−44½",
        "−11.125d",
        "+3½",
        "+0.875d",
        "0d",
    ]
    assert ledger_text(reader.pages[0]) == "\n".join(lines)
    assert [ledger_text(p) for p in reader.pages[1:]] == [""] * (len(reader.pages) - 1)
    # the font is embedded, and its text reads back through its ToUnicode map
    font = reader.pages[0]["/Resources"]["/Font"]["/FLedger"]
    assert font["/Subtype"] == "/Type0" and font["/Encoding"] == "/Identity-H" and "/ToUnicode" in font
    assert "/FontFile2" in font["/DescendantFonts"][0]["/FontDescriptor"]


@pytest.mark.parametrize("paper, size", [("A4", (842, 595)), ("Letter", (792, 612))])
def test_a_ledger_over_several_pages_is_numbered_and_read_back_in_order(figures, paper, size):
    s = long_season(figures, 160)
    reader = pypdf.PdfReader(io.BytesIO(season_sheet_pdf(s, [], "Thursday Gleek", paper=paper)))
    pages = reader.pages
    count = len(pages)
    lines = the_ledger_lines(s, paper.lower())
    per_page = [ledger_text(p) for p in pages]
    drawn = [text for text in per_page if text]
    assert len(drawn) >= 3  # 160 evenings: the ledger runs over at least three pages
    assert per_page[: len(drawn)] == drawn  # from the first page on, none skipped
    assert "\n".join(drawn) == "\n".join(lines)  # every line once, in order, split between lines
    for number, page in enumerate(pages, start=1):
        assert (round(page.mediabox.width), round(page.mediabox.height)) == size
        assert f"Page {number} of {count}" in page.extract_text()
    for page in pages[: len(drawn)]:
        ys = ledger_baselines(page)
        # inside the page's margins (13 mm at the head, 12 mm at the foot), evenly spaced downwards
        assert min(ys) > 12 / 25.4 * 72 and max(ys) < size[1] - 13 / 25.4 * 72
        steps = {round(a - b, 2) for a, b in zip(ys, ys[1:])}
        assert len(steps) == 1 and steps.pop() > 0
    # the season's totals close the ledger on its last page (set by WeasyPrint, bold), the summary follows
    from scorekeeper.printing.season_sheet import season_context

    totals = season_context(s, [], "x", paper.lower())["ledger"]["totals"]
    assert totals.startswith("Season                  440")
    assert (
        totals.rstrip() in pages[len(drawn) - 1].extract_text() or totals.rstrip() in pages[len(drawn)].extract_text()
    )
    text = "\n".join(p.extract_text() for p in pages)
    assert "Season balances" in text and "Head to head" in text


def test_a_ledger_the_font_cannot_print_is_set_by_weasyprint(figures):

    odd = [changed(f, played_on=None, key=f"宴会 {i}") for i, f in enumerate(figures)]
    reader = pypdf.PdfReader(io.BytesIO(season_sheet_pdf(season(odd), [], "Thursday Gleek")))
    assert "/FLedger" not in reader.pages[0]["/Resources"]["/Font"]
    assert "宴会 0" in reader.pages[0].extract_text()
