"""Any name prints: emoji, Chinese, Korean, Devanagari … and 40-character names
come out of the PDF as glyphs (no tofu boxes: WeasyPrint warns for every
character no font has), from embedded fonts that have them (pdffonts), as the
names' own text (pypdf), and without any two words on the page overlapping
(poppler's word boxes). A PNG of each page is kept under tests/artifacts/."""

import io
import logging
import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest

from support.sessions import long_session
from scorekeeper.printing.sheet import CONTENT_WIDTH_PT, MONO_EM, ledger, render_sheet_pdf, sheet_context

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
LONG = "Bartholomew-Fitzwilliam Montgomery-Smyth"  # 40 characters, the most a name may have
NAMES = ["Kit 🃏👑", "李小龍 민수", LONG]
NOTE = "देवनागरी · ภาษาไทย · العربية · עברית · Ελληνικά · Кириллица · かな 🎉"
LEFT_PT = 10 / 25.4 * 72  # the page's left margin (static/sheet.css)


def needs(tool: str):
    if not shutil.which(tool):
        pytest.fail(f"{tool} is missing: `make system-deps` installs poppler-utils")


# names a new user tried (third trial): emoji in the middle of a name, a 24-character CJK name
TRIAL_NAMES = [
    "Bartholomew Fitzwilliam-Montgomery III Q",
    "Ann 🃏🂡👑 de la Tour-Ravensworth 和子",
    "佐藤花子さんの長い名前はここまで続きます名前名前",
]


def render(tmp_path_factory, names, hands=14):
    record = long_session(hands)
    record["players"] = names
    record["title"] = "Names from everywhere 🃏"
    record["hands"][2]["note"] = NOTE
    warnings = []
    handler = logging.Handler()
    handler.emit = lambda entry: warnings.append(entry.getMessage())
    logger = logging.getLogger("weasyprint")
    logger.addHandler(handler)
    try:
        pdf = render_sheet_pdf(record)
    finally:
        logger.removeHandler(handler)
    path = tmp_path_factory.mktemp("names") / "names.pdf"
    path.write_bytes(pdf)
    return {"record": record, "pdf": pdf, "path": path, "warnings": warnings}


@pytest.fixture(scope="module")
def sheet(tmp_path_factory):
    assert len(LONG) == 40
    return render(tmp_path_factory, NAMES)


@pytest.fixture(scope="module")
def trial_sheet(tmp_path_factory):
    assert all(len(name) <= 40 for name in TRIAL_NAMES)
    return render(tmp_path_factory, TRIAL_NAMES, hands=8)


def test_no_character_lacks_a_glyph(sheet):
    tofu = [w for w in sheet["warnings"] if ".notdef" in w or "unsupported by fonts" in w]
    assert tofu == []


def test_fonts_with_those_glyphs_are_embedded(sheet):
    needs("pdffonts")
    fonts = subprocess.run(["pdffonts", str(sheet["path"])], capture_output=True, text=True, check=True).stdout
    for family in ("Noto-Color-Emoji", "Noto-Sans-CJK", "Noto-Sans-Devanagari", "Noto-Sans-Thai", "DejaVu-Sans-Mono"):
        assert family in fonts, fonts
    rows = [line.split() for line in fonts.splitlines()[2:]]
    assert rows and all(row[-5:-3] == ["yes", "yes"] for row in rows)  # embedded, subset


def test_the_names_are_the_pdfs_text(sheet):
    text = "\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(sheet["pdf"])).pages)
    flat = re.sub(r"\s+", " ", text).replace(" ,", ",")  # pypdf puts a space after a bitmap emoji
    flat = re.sub(r"(\w)- (\w)", r"\1-\2", flat)  # a name wrapped after its hyphen
    # the hand lines call each player the same short way, and the header says who is who
    for label in ("Kit", "李小龍", "Bartholomew…"):
        assert f"{label} dealt" in flat
    assert "in the columns and the hand lines Kit = Kit 🃏👑, 李小龍 = 李小龍 민수, Bartholomew… = " + LONG in flat
    assert f"Players: {', '.join(NAMES)}" in flat
    assert "Kit 🃏👑 pays" in flat or "pays Kit 🃏👑" in flat
    assert "देवनागरी" in flat and "かな" in flat


def word_boxes(path: Path, page: int) -> list[tuple]:
    needs("pdftotext")
    import html as markup

    html = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", "-bbox", "-f", str(page), "-l", str(page), str(path), "-"],
        capture_output=True,
        check=True,
    ).stdout.decode("utf-8", "replace")  # poppler mangles an emoji in <title>
    return [
        (float(a), float(b), float(c), float(d), markup.unescape(word))
        for a, b, c, d, word in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', html
        )
    ]


def test_no_two_words_overlap_and_long_names_stay_in_their_column(sheet):
    assert_laid_out(sheet)


def test_the_trials_names_stay_on_the_page_and_in_their_columns(trial_sheet):
    # (WeasyPrint measures a run of bitmap emoji a point or two narrower than it draws them:
    # a line holding "🃏🂡👑" may end up to 2 pt into the 28 pt margin, nowhere near the edge;
    # and poppler's boxes of CJK words are taller than their line, by under a point)
    assert_laid_out(trial_sheet, margin_slack=2.0, overlap_slack=1.0)


def assert_laid_out(sheet, margin_slack=0.5, overlap_slack=0.5):
    """Every word inside the page's margins, no two words overlapping, and each
    player's column heading (his short name) inside his own column."""
    pages = len(pypdf.PdfReader(io.BytesIO(sheet["pdf"])).pages)
    for page in range(1, pages + 1):
        words = sorted(word_boxes(sheet["path"], page))
        assert words
        page_width = 297 / 25.4 * 72
        for x0, _y0, x1, _y1, word in words:
            assert x0 >= LEFT_PT - margin_slack and x1 <= page_width - LEFT_PT + margin_slack, (page, word, x0, x1)
        # sweep by x: any two boxes overlapping by more than half a point both ways
        for i, (x0, y0, x1, y1, word) in enumerate(words):
            for a0, b0, a1, b1, other in words[i + 1 :]:
                if a0 >= x1 - 0.5:
                    break
                if min(y1, b1) - max(y0, b0) > overlap_slack and min(x1, a1) - max(x0, a0) > 0.5:
                    pytest.fail(f"page {page}: {word!r} overlaps {other!r}")

    # the players' column headings: each name's words inside its own column
    context = sheet_context(sheet["record"])
    table = ledger(context, "a4")
    ch = table["font_pt"] * MONO_EM
    assert table["width_ch"] * ch <= CONTENT_WIDTH_PT["a4"] + 0.5
    words = word_boxes(sheet["path"], 1)
    top = next(y1 for x0, y0, x1, y1, w in words if w == "Amounts")  # the column key, above the table
    bottom = min(y0 for x0, y0, x1, y1, w in words if w == "Tdy" and y0 > top)  # phase headings, below the names
    heading = [w for w in words if top < w[1] and w[3] <= bottom and w[0] > LEFT_PT + table["columns"]["words"] * ch]
    for seat, label in enumerate(context["short"]):
        left = LEFT_PT + (table["columns"]["words"] + seat * table["columns"]["player"]) * ch
        right = left + table["columns"]["player"] * ch
        inside = [w for w in heading if left - 0.5 <= w[0] and w[2] <= right + 0.5]
        assert " ".join(w[4] for w in inside).replace(" ", "") == label.replace(" ", ""), (seat, inside)
    assert len(heading) == sum(len(label.split()) for label in context["short"])  # nothing outside them


def test_pages_render_to_png(sheet):
    needs("pdftoppm")
    ARTIFACTS.mkdir(exist_ok=True)
    for old in ARTIFACTS.glob("sheet-names-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-r", "110", "-png", str(sheet["path"]), str(ARTIFACTS / "sheet-names")], check=True)
    pngs = sorted(ARTIFACTS.glob("sheet-names-*.png"))
    assert pngs and all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)
