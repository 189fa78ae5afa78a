"""Shortening and measuring names (scorekeeper.words.names; a name is never cut mid-word): whole
graphemes and whole words, one way for the sheet, the PDF, the pages and the chart."""

import pytest

from scorekeeper.words.names import cut, fit_for_chart, graphemes, short_name, short_names, widest_word_em

FAMILY = "👨\u200d👩\u200d👧\u200d👦"


@pytest.mark.parametrize(
    "name, short",
    [
        ("Samuel", "Samuel"),
        ("🃏 Jo", "🃏 Jo"),  # an emoji first keeps the word after it
        ("🃏 👑 Jo Smith", "🃏 👑 Jo"),
        ("Kit 🃏👑", "Kit"),
        ("🃏", "🃏"),
        ("🃏 👑", "🃏"),  # only emoji: the first of them
        ("Bartholomew-Fitzwilliam", "Bartholomew…"),  # cut at the hyphen, said with "…"
        ("Mary-Ann Smith", "Mary-Ann"),  # a hyphenated first name that fits is whole
        ("Mary-Ann-Louise-Rose", "Mary-Ann…"),
        ("Wolfeschlegelsteinhausen", "Wolfeschleg…"),  # one word too long: whole graphemes and "…"
        ("Ol" + "e\u0301" * 12, "Ol" + "e\u0301" * 9 + "…"),  # never a letter without its accent
        (FAMILY * 13, FAMILY * 11 + "…"),  # never a family cut into people
        ("🇬🇧" * 13, "🇬🇧" * 11 + "…"),  # nor a flag into letters
        ("李小龍 민수", "李小龍"),
        ("  Ann  ", "Ann"),
    ],
)
def test_a_short_name_is_whole_graphemes_and_whole_words(name, short):
    assert short_name(name) == short
    assert len(graphemes(short)) <= 12
    assert "".join(graphemes(short.rstrip("…"))) == short.rstrip("…")
    assert name.strip().startswith(short.rstrip("…"))


def test_two_players_of_the_same_short_name_are_called_by_their_whole_names():
    assert short_names(["Ann Smith", "Ann Jones", "Bo Li"]) == ["Ann Smith", "Ann Jones", "Bo"]


def test_cut_prefers_a_word_boundary():
    assert cut("Ann de la Tour-Smythe", 12) == "Ann de la…"
    assert cut("Ann", 12) == "Ann"


def test_the_widest_piece_is_measured_up_to_a_hyphen():
    # "Bartholomew-" is drawn 7.1 em wide in Noto Sans Bold (its advance widths)
    assert 7.1 <= widest_word_em("Bartholomew-Fitzwilliam") <= 7.6
    assert widest_word_em("🃏 Jo") == widest_word_em("Jo 🃏") < 2
    assert widest_word_em("Ann Smith") < widest_word_em("AnnSmith")


def test_the_chart_legend_shortens_to_words_and_then_its_type():
    assert fit_for_chart("Ann", 10) == ("Ann", 1.0)
    assert fit_for_chart("Bartholomew-Fitzwilliam", 10) == ("Bartholomew…", 1.0)
    shown, scale = fit_for_chart("Bartholomew-Fitzwilliam", 6.3)
    assert shown == "Bartholomew…" and 0.7 <= scale < 1
    shown, scale = fit_for_chart("Wolfeschlegelsteinhausen", 4)
    assert shown.endswith("…") and scale == 0.7


def test_the_pdf_sheet_calls_the_joker_by_his_word_and_cuts_no_name_inside_a_word():
    import io
    import re

    import pypdf

    from scorekeeper.printing.sheet import render_sheet_pdf
    from support.data import load_example

    record = load_example("wits1671-evening.json")
    record["players"] = ["🃏 Jo", "Bartholomew-Fitzwilliam", "Ann"]
    pdf = pypdf.PdfReader(io.BytesIO(render_sheet_pdf(record)))
    text = " ".join(page.extract_text() for page in pdf.pages)
    flat = re.sub(r"\s+", " ", text.replace("🃏", " 🃏 "))  # pypdf spaces a bitmap emoji as it likes
    assert "in the columns and the hand lines Bartholomew… = Bartholomew-Fitzwilliam" in flat
    assert "🃏 =" not in flat  # his short name is his whole name: nothing to explain
    assert "ruff: 🃏 Jo won" in flat and "Queen 🃏 Jo" in flat  # the hand lines
    assert flat.count("🃏") == flat.count("🃏 Jo")  # never the emoji without its word (heads, legend, lines)
    assert re.findall(r"Bartholom\w*", flat) and all(w in ("Bartholomew",) for w in re.findall(r"Bartholom\w*", flat))
