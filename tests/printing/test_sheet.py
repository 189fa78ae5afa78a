"""The session sheet (HTML and PDF) and ``python -m scorekeeper sheet``.

PDF text is read back with pypdf and compared with ``settle()``'s numbers;
pages are rendered to PNG under tests/artifacts/ (git-ignored) to look at.
"""

import copy
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from support.sessions import long_session
from support.data import DATA, load_example
from scorekeeper.words.wording import session_money
from scorekeeper.rules import InvalidRecord
from scorekeeper.rules import BOOKS
from scorekeeper.rules.core import format_counters
from scorekeeper.rules.record import settle, validate
from scorekeeper.printing.sheet import render_sheet_html, render_sheet_pdf, sheet_context

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
EXAMPLES = sorted(
    p.name for p in DATA.glob("*.json") if not p.name.endswith(".expected.json") and not p.name.startswith("invalid-")
)
A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)


# ---------------------------------------------------------------- a long, valid session


def test_long_session_is_valid_and_deals_in_turn():
    record = long_session(60)
    assert validate(record) == []
    assert [h["dealer"] for h in record["hands"]] == [i % 3 for i in range(60)]
    assert all(h["ruff"] is not None for h in record["hands"])
    totals = {tuple(h.total) for h in settle(record).hands}
    assert len(totals) > 3  # not one hand over and over


# ---------------------------------------------------------------- helpers

_pdfs = {}


def pdf_of(key: str, paper: str = "a4") -> bytes:
    """Each PDF once per test run (WeasyPrint takes a while)."""
    if (key, paper) not in _pdfs:
        record = long_session(60) if key == "long-60" else load_example(key)
        _pdfs[key, paper] = render_sheet_pdf(record, paper)
    return _pdfs[key, paper]


def record_of(key: str) -> dict:
    return long_session(60) if key == "long-60" else load_example(key)


def pages_text(pdf: bytes) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(io.BytesIO(pdf)).pages]


def flat(text: str) -> str:
    """All white space (new lines, thin and no-break spaces) as one space."""
    return re.sub(r"\s+", " ", text).strip()


def row_numbers(result, running) -> str:
    """A hand's 21 amounts as the sheet writes them: per player the five
    phases (the book's), the hand total and the running balance."""
    cells = []
    for seat in range(3):
        cells += [format_counters(amounts[seat]) for amounts in result.phases.values()]  # the book's phases, in order
        cells += [format_counters(result.total[seat]), format_counters(running[seat])]
    return " ".join(cells)


def hand_chunks(text: str, record: dict, settlement) -> list[str]:
    """The text of each hand's row, in order: from "N Dealer dealt" (its words)
    to the next row; its amounts come after its words."""
    starts = []
    position = 0
    for result in settlement.hands:
        dealer = settlement.players[result.dealer]
        match = re.compile(rf"(?m)^{result.number} {re.escape(dealer)} dealt ").search(text, position)
        assert match, f"hand {result.number} (dealt by {dealer}) is not on the sheet"
        starts.append(match.start())
        position = match.end()
    end = text.index("Totals: each phase", position)
    return [text[a:b] for a, b in zip(starts, starts[1:] + [end])]


# ---------------------------------------------------------------- PDF content


@pytest.mark.parametrize("key", EXAMPLES + ["long-60"])
def test_pdf_shows_settle_numbers(key):
    record = record_of(key)
    settlement = settle(record)
    texts = pages_text(pdf_of(key))
    text = "\n".join(texts)
    whole = flat(text)
    names = settlement.players
    stake = record.get("stake")

    for name in names:
        assert name in text

    # every hand's row: its words (tricks among them), then each player's phases, total and balance
    chunks = hand_chunks(text, record, settlement)
    assert len(chunks) == len(record["hands"])
    for chunk, result, running, hand in zip(chunks, settlement.hands, settlement.running, record["hands"]):
        tricks = " · ".join(str(t) for t in hand["tricks"])
        assert f"tricks {tricks} · " in flat(chunk), f"hand {result.number}"
        assert f" {row_numbers(result, running)}" in flat(chunk), f"hand {result.number}"

    # the totals row: each phase per player, then the final balance
    totals = settlement.phase_totals()
    expected = " ".join(
        " ".join([format_counters(totals[p][seat]) for p in totals] + [format_counters(settlement.balances[seat])])
        for seat in range(3)
    )
    assert f"Totals: each phase, and the final balance {expected}" in whole

    # final balances and payments
    final = whole[whole.index("Final balances") :]
    shown = session_money(settlement, stake)
    for seat, name in enumerate(names):
        line = f"{name} {format_counters(settlement.balances[seat])}"
        if stake:
            line += f" = {shown.balances[seat]}"
        assert line in final
    assert len(settlement.payments) <= 2
    for number, payment in enumerate(settlement.payments):
        sentence = (
            f"{names[payment.payer]} pays {names[payment.payee]} "
            f"{format_counters(payment.amount)} counter{'' if payment.amount == 1 else 's'}"
        )
        if stake:
            sentence += f" = {shown.payments[number]}"
        assert sentence in final
    if not settlement.payments:
        assert "Nobody owes anybody anything." in final

    # the check line: every phase column and the whole sheet add up to 0
    for phase in BOOKS[record["rulebook"]].phase_info:
        assert re.search(rf"{phase.title} [^;.]*= 0[;.]", final), phase.title
    assert "Whole sheet: 0." in final
    assert "does not balance" not in final and "NOT so" not in final


def test_pdf_header_half_counters_and_stake():
    text = flat("\n".join(pages_text(pdf_of("wits1671-evening.json"))))
    assert "Gleek session" in text  # the default title
    assert "Wits Interpreter (1671)" in text
    assert "Compleat Gamester (1674)" in text  # the rule book's source
    assert "Play at Tiddy: yes" in text
    assert "counters only (no money stake)" in text
    assert "6½" in text and "−26½" in text


def test_long_sheet_spans_pages_with_the_header_on_each():
    texts = pages_text(pdf_of("long-60"))
    assert len(texts) >= 3
    title = "A long winter at Whitehall — 26 December 1667"
    for number, text in enumerate(texts, start=1):
        assert title in text, f"page {number}"
        assert f"Page {number} of {len(texts)}" in text
        assert "Hand: what happened (dealer · trump · stock · ruff · sets · tricks in seat order)" in flat(text), (
            f"page {number}: column headings"
        )
        assert "Samuel Elizabeth Will" in text
        assert flat(text).count("Tdy Stk Ruf Set Trk Hand Bal.") == 3
        assert "Gleek · Parlett (reconstruction) · 60 hands" in text  # running foot
    first = flat(texts[0])
    assert "¼d a counter (farthing Gleek)" in first
    assert "Note: Tib & <Tom> fell together" in first
    # every row is on exactly one page (rows do not break)
    for number in range(1, 61):
        pages = [i for i, t in enumerate(texts) if re.search(rf"(?m)^{number} (Samuel|Elizabeth|Will) dealt ", t)]
        assert len(pages) == 1, f"hand {number} on pages {pages}"


@pytest.mark.parametrize("paper, size", [("a4", A4), ("letter", LETTER)])
def test_paper_size(paper, size):
    reader = pypdf.PdfReader(io.BytesIO(pdf_of("long-60", paper)))
    for page in reader.pages:
        box = page.mediabox
        assert sorted([float(box.width), float(box.height)]) == pytest.approx(sorted(size), abs=0.5)
        assert float(box.width) > float(box.height)  # landscape: the table needs it


def test_pages_render_to_png_for_looking_at():
    if not shutil.which("pdftoppm"):
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    ARTIFACTS.mkdir(exist_ok=True)
    for key, paper in (
        ("long-60", "a4"),
        ("long-60", "letter"),
        ("modern-evening.json", "a4"),
        ("wits1671-evening.json", "letter"),
    ):
        stem = f"sheet-{key.removesuffix('.json')}-{paper}"
        for old in ARTIFACTS.glob(f"{stem}-*.png"):
            old.unlink()
        pdf_path = ARTIFACTS / f"{stem}.pdf"
        pdf_path.write_bytes(pdf_of(key, paper))
        subprocess.run(["pdftoppm", "-r", "60", "-png", str(pdf_path), str(ARTIFACTS / stem)], check=True)
        pngs = sorted(ARTIFACTS.glob(f"{stem}-*.png"))
        assert len(pngs) == len(pypdf.PdfReader(str(pdf_path)).pages)
        assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)


# ---------------------------------------------------------------- HTML and context


def test_html_is_standalone_and_escaped():
    record = load_example("parlett-evening.json")
    record["players"] = ["<script>x</script>", "Ann & Bo", "Cat"]
    record["title"] = "<b>Pepys</b>"
    record["hands"][0]["note"] = "<img src=x onerror=alert(1)>"
    html = render_sheet_html(record)
    assert "<script>" not in html and "<b>Pepys" not in html and "<img" not in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html
    assert "Ann &amp; Bo" in html
    assert "&lt;b&gt;Pepys&lt;/b&gt;" in html
    # the stylesheet is inlined and nothing is fetched
    assert "thead { display: table-header-group; }" in html
    assert "@page { size: A4 landscape; }" in html
    assert not re.search(r"<[a-z][^>]*\s(src|href)=", html)
    assert html.count("<polyline") == 3


def test_html_paper_option():
    record = load_example("parlett-evening.json")
    assert "@page { size: letter landscape; }" in render_sheet_html(record, paper="letter")
    assert "@page { size: A4 landscape; }" in render_sheet_html(record, paper="A4")
    with pytest.raises(ValueError):
        render_sheet_html(record, paper="foolscap")


def test_context_of_a_session():
    record = load_example("parlett-evening.json")
    record["stake"] = {"per_counter": "1", "currency": "d"}
    record["played_on"] = "1667-03-04"
    context = sheet_context(record)
    settlement = settle(record)
    assert context["title"] == "Gleek session"
    assert context["played_on"] == "4 March 1667"
    assert context["rulebook"]["name"] == "Parlett (reconstruction)"
    assert context["players"] == ["Samuel", "Elizabeth", "Will"]
    assert context["stake_label"] == "1d a counter (penny Gleek)"
    assert context["payments"] == ["Will pays Samuel 43 counters = 3s 7d", "Will pays Elizabeth 3 counters = 3d"]
    first = context["hands"][0]
    assert first["number"] == 1 and first["dealer"] == "Samuel"
    assert first["words"] == [
        "Samuel dealt",
        "♠ Spades",
        "4 up",
        "Tiddy turned up: the dealer is paid 4 from each.",
        "Will bought at 18",
        "ruff: no contest",
        "sets: Samuel gleek of Aces; Elizabeth mournival of Queens",
        "tricks 4 · 3 · 5",
        "honours played: Tib Will, King Elizabeth, Queen Elizabeth, Tom Samuel",
    ]
    second = context["hands"][1]
    assert "ruff: Samuel won; Elizabeth paid 4, Will 8" in second["words"]
    assert [p["total"]["text"] for p in second["players"]] == [format_counters(a) for a in settlement.hands[1].total]
    assert [p["balance"]["text"] for p in context["hands"][-1]["players"]] == ["43", "3", "−46"]
    assert context["balanced"] and context["sheet_sum"] == "0"
    assert [c["ok"] for c in context["checks"]] == [True] * 5
    assert context["chart_svg"].count("<polyline") == 3


def test_context_of_modern_kiss_and_simplified():
    record = load_example("modern-evening.json")
    second = sheet_context(record)["hands"][1]
    assert second["words"] == [
        "Ben dealt",
        "stock not bought",
        "Kiss (no trumps)",
        "ruff: Ann won; Ben paid 2, Cat 2",
        "sets: Ben gleek of Kings",
        "tricks 2 · 4 · 6",
        "card points 32 · 60 · 100",
        "Kiss: no trumps, so no Tib or Tom.",
        "last trick: Cat",
    ]
    simple = copy.deepcopy(record)
    simple["options"] = {"simplified": True}
    for hand in simple["hands"]:
        hand["auction"] = None
        hand["ruff"] = None
    assert validate(simple) == []
    context = sheet_context(simple)
    for hand in context["hands"]:  # a session without auction or ruff does not say so every hand
        assert not any("auction" in w or "ruff" in w or "stock" in w for w in hand["words"]), hand["words"]
    assert {"label": "Simplified (teaching) Gleek", "value": "yes"} in context["options"]


@pytest.mark.parametrize(
    "names, labels",
    [
        (["Samuel", "Elizabeth", "Will"], ["Samuel", "Elizabeth", "Will"]),
        (["Kit 🃏👑", "李小龍 민수", "Bartholomew-Fitzwilliam Montgomery-Smyth"], ["Kit", "李小龍", "Bartholomew…"]),
        (["Ann Smith", "Ann Jones", "Bo Li"], ["Ann Smith", "Ann Jones", "Bo"]),  # the same first word: whole names
        (
            ["👨\u200d👩\u200d👧\u200d👦 and co", "Zoë", "Ol" + "e\u0301" * 12],
            ["👨\u200d👩\u200d👧\u200d👦 and", "Zoë", "Ol" + "e\u0301" * 9 + "…"],
        ),  # never cut inside a letter
        (["🃏 Jo", "Bartholomew-Fitzwilliam", "Ann"], ["🃏 Jo", "Bartholomew…", "Ann"]),  # an emoji keeps its word
    ],
)
def test_hand_lines_call_players_by_a_short_name(names, labels):
    from scorekeeper.printing.sheet import short_names

    assert short_names(names) == labels
    record = load_example("parlett-evening.json")
    record["players"] = names
    context = sheet_context(record)
    assert context["hands"][0]["words"][0] == f"{labels[0]} dealt"
    assert context["labels"] == [{"name": n, "label": label} for n, label in zip(names, labels) if n != label]


def test_empty_session():
    record = load_example("parlett-evening.json")
    record["hands"] = []
    html = render_sheet_html(record)
    assert "No hands played yet." in html
    assert "Nobody owes anybody anything." in html
    assert html.count("<polyline") == 3


def test_invalid_record_is_refused():
    with pytest.raises(InvalidRecord) as raised:
        sheet_context(load_example("invalid-parlett.json"))
    assert "hand 2: tricks add up to 11, not 12" in [str(p) for p in raised.value.problems]


def test_importing_the_sheet_does_not_import_weasyprint():
    code = (
        "import sys, scorekeeper.printing.sheet, scorekeeper.words.money, scorekeeper.printing.chart; "
        "assert 'weasyprint' not in sys.modules, 'weasyprint imported'"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


# ---------------------------------------------------------------- the command line


def run_sheet(*args):
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", "sheet", *map(str, args)], capture_output=True, text=True, cwd=ROOT
    )


def test_cli_writes_a_pdf(tmp_path):
    out = tmp_path / "evening.pdf"
    result = run_sheet(DATA / "parlett-evening.json", "-o", out, "--paper", "letter")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""
    assert out.read_bytes()[:5] == b"%PDF-"
    reader = pypdf.PdfReader(str(out))
    box = reader.pages[0].mediabox
    assert (float(box.width), float(box.height)) == pytest.approx((792, 612), abs=0.5)
    assert "Will pays Samuel 43 counters" in flat(reader.pages[0].extract_text())
    assert [p.name for p in tmp_path.iterdir()] == ["evening.pdf"]  # no temporary file left


def test_cli_refuses_an_invalid_record_and_writes_nothing(tmp_path):
    out = tmp_path / "bad.pdf"
    result = run_sheet(DATA / "invalid-parlett.json", "-o", out)
    assert result.returncode == 1
    assert result.stdout == ""
    expected = [str(p) for p in validate(load_example("invalid-parlett.json"))]
    assert result.stderr.splitlines() == expected
    assert "hand 2: tricks add up to 11, not 12" in expected
    assert list(tmp_path.iterdir()) == []


def test_cli_refuses_what_is_not_json_and_keeps_an_old_file(tmp_path):
    source = tmp_path / "notes.json"
    source.write_text("Ann 3, Ben 7")
    out = tmp_path / "sheet.pdf"
    out.write_bytes(b"the old sheet")
    result = run_sheet(source, "-o", out)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("record:")
    assert out.read_bytes() == b"the old sheet"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.json", "sheet.pdf"]


def test_cli_missing_file_and_unwritable_output(tmp_path):
    result = run_sheet(tmp_path / "nowhere.json", "-o", tmp_path / "x.pdf")
    assert result.returncode == 1 and result.stderr.startswith("record: cannot read")
    result = run_sheet(DATA / "parlett-evening.json", "-o", tmp_path / "no-such-dir" / "x.pdf")
    assert result.returncode == 1 and result.stderr.startswith("sheet: cannot write")
    assert list(tmp_path.iterdir()) == []


def test_cli_paper_must_be_known(tmp_path):
    result = run_sheet(DATA / "parlett-evening.json", "-o", tmp_path / "x.pdf", "--paper", "foolscap")
    assert result.returncode == 2  # argparse's usage error
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "name, words",
    [
        (
            "parlett-evening.json",
            [
                "honours played: Tib Will, King Elizabeth, Queen Elizabeth, Tom Samuel",
                "Tiddy turned up: the dealer is paid 4 from each.",
                "Will bought at 18",
            ],
        ),
        ("wits1671-evening.json", ["honours held:", "tricks "]),
        (
            "modern-evening.json",
            [
                "card points 90 · 70 · 40",
                "Tib: Cat",
                "Tom: Cat",
                "last trick: Ben",
                "Kiss: no trumps, so no Tib or Tom.",
                "stock not bought",
            ],
        ),
    ],
)
def test_the_pdf_prints_every_input_of_a_hand_and_a_line_to_agree(name, words):
    from scorekeeper.printing.sheet import render_sheet_pdf

    record = load_example(name)
    text = flat("\n".join(page.extract_text() for page in pypdf.PdfReader(io.BytesIO(render_sheet_pdf(record))).pages))
    for word in words:
        assert word in text, word
    assert "Agreed " + " ".join(record["players"]) in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_page_foot_is_one_line_each_side(paper, tmp_path):
    """The foot: what the sheet is and when it was printed (left), the column key
    (right), each on one line on either paper (with the longest book name)."""
    import datetime

    if not shutil.which("pdftotext"):
        pytest.fail("pdftotext is missing: `make system-deps` installs poppler-utils")
    record = load_example("wits1671-evening.json")  # the longest book name
    path = tmp_path / "foot.pdf"
    path.write_bytes(
        render_sheet_pdf(
            record, paper=paper, printed=datetime.datetime(2026, 12, 1, 23, 40, tzinfo=datetime.timezone.utc)
        )
    )
    text = subprocess.run(
        ["pdftotext", "-layout", "-f", "1", "-l", "1", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    foot = [line for line in text.splitlines() if line.strip()][-1]
    assert f"Wits Interpreter (1671) · {len(record['hands'])} hands · printed 1 Dec 2026, 23:40 UTC" in foot, foot
    assert foot.rstrip().endswith("Bal. = running balance"), text.splitlines()[-3:]


def test_a_turned_up_honour_is_printed_as_the_dealers():
    from support.strategies import make_record, parlett_hand, problems_of

    hand = parlett_hand(turned_up="A", honours={"K": 0, "Q": 0, "J": 1}, sets=[["gleek:K"], [], []])
    record = make_record("parlett", [hand])
    assert problems_of(record) == []
    html = render_sheet_html(record)
    assert "honours played: Tib Cat (turned up), King Ann, Queen Ann, Tom Ben" in html
