"""The PDF sheet carries its record: importing the PDF (the Import form, POST
/import) restores the same session, ``scorekeeper settle sheet.pdf`` settles it,
and a PDF that carries no usable record is refused like a bad JSON file, with
nothing created. Real PDFs throughout: WeasyPrint's, and hand-made hostile ones."""

import io
import json
import re
import subprocess
import sys
import zlib
from pathlib import Path

import pypdf
import pytest

from support.data import DATA, load_example
from support.hostile import many_attachments_pdf, pdf_with_attachments
from support.sessions import long_session, rounding_session
from scorekeeper import store
from scorekeeper.rules.record import dump, validate
from scorekeeper.printing.sheet import render_sheet_pdf
from scorekeeper.files.upload import ATTACHMENT, load_upload, record_text

ROOT = Path(__file__).resolve().parents[2]


def upload(client, data: bytes, filename: str = "sheet.pdf"):
    return client.post("/import", data={"file": (io.BytesIO(data), filename)}, content_type="multipart/form-data")


def problems_on(page: bytes) -> list[str]:
    import html

    return [html.unescape(p) for p in re.findall(r"<li>([^<]*)</li>", page.decode())]


def sessions_in(app) -> int:
    return store.connect(app.config["DATABASE"])["sessions"].count


def run_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "scorekeeper", *map(str, args)], input=stdin, capture_output=True, cwd=ROOT
    )


# ---------------------------------------------------------------- hand-made PDFs


def raw_pdf(catalog_extra: bytes = b"", objects: tuple = ()) -> bytes:
    """A minimal, well-formed one-page PDF; ``objects`` are numbered from 4 on."""
    bodies = [
        b"<< /Type /Catalog /Pages 2 0 R " + catalog_extra + b" >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>",
        *objects,
    ]
    out = b"%PDF-1.7\n"
    offsets = []
    for number, body in enumerate(bodies, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(bodies) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(bodies) + 1, xref)
    return out


def pdf_carrying(content: bytes, name: str = ATTACHMENT, deflate: bool = True) -> bytes:
    """A PDF with one attached file (not made by WeasyPrint)."""
    data = zlib.compress(content) if deflate else content
    stream = (
        b"<< /Type /EmbeddedFile /Length %d%s >>\nstream\n" % (len(data), b" /Filter /FlateDecode" if deflate else b"")
        + data
        + b"\nendstream"
    )
    spec = b"<< /Type /Filespec /F (%s) /UF (%s) /EF << /F 5 0 R >> >>" % (name.encode(), name.encode())
    return raw_pdf(b"/Names << /EmbeddedFiles << /Names [(%s) 4 0 R] >> >>" % name.encode(), (spec, stream))


def test_hand_made_pdf_is_read_like_a_sheet():
    record = load_example("modern-evening.json")
    assert load_upload(pdf_carrying(dump(record).encode())) == record


# ---------------------------------------------------------------- the round trip


@pytest.mark.parametrize(
    "record",
    [
        rounding_session({"per_counter": "0.05", "currency": "EUR"}),
        long_session(60),  # title, date, farthing stake, a note with markup
        load_example("wits1671-tiddy-off.json"),
    ],
    ids=["modern-eur", "parlett-60", "wits-tiddy-off"],
)
def test_pdf_import_restores_the_same_session(client, app, record):
    record = dict(record, title="Ünïcödé 🃏 evening" if "title" not in record else record["title"])
    response = client.post("/import", data=json.dumps(record), content_type="application/json")
    assert response.status_code == 303
    first = response.headers["Location"]
    exported = client.get(first + "/export.json").data
    pdf = client.get(first + "/sheet.pdf").data
    assert pypdf.PdfReader(io.BytesIO(pdf)).attachments[ATTACHMENT] == [exported]  # exactly the export

    club = app.test_client()  # the club's laptop, which has never seen the session
    response = upload(club, pdf)
    assert response.status_code == 303, problems_on(response.data)
    second = response.headers["Location"]
    assert second != first
    assert club.get(second + "/export.json").data == exported
    assert sessions_in(app) == 2


def test_the_same_sheet_imported_again_opens_the_session_it_made(client, app):
    record = dict(long_session(12), title="Friday at the Bell")
    pdf = render_sheet_pdf(record)
    first = upload(client, pdf).headers["Location"]
    response = upload(client, pdf)  # the same phone, the same sheet again
    assert response.status_code == 303 and response.headers["Location"] == first
    page = client.get(first).data.decode()
    assert "This sheet is already here as Friday at the Bell (12 hands): opened it, no copy made." in page
    assert sessions_in(app) == 1
    # a sheet that differs (one hand fewer) is a session of its own
    shorter = dict(record, hands=record["hands"][:11])
    assert upload(client, render_sheet_pdf(shorter)).headers["Location"] != first
    assert sessions_in(app) == 2


def test_settle_of_the_pdf_is_settle_of_the_json(tmp_path):
    record = long_session(24)
    json_path, pdf_path = tmp_path / "evening.json", tmp_path / "evening.pdf"
    json_path.write_text(dump(record))
    pdf_path.write_bytes(render_sheet_pdf(record))
    from_json = run_cli("settle", json_path)
    from_pdf = run_cli("settle", pdf_path)
    assert from_json.returncode == from_pdf.returncode == 0
    assert from_pdf.stdout == from_json.stdout and from_pdf.stderr == b""
    from_stdin = run_cli("settle", "-", stdin=pdf_path.read_bytes())
    assert from_stdin.stdout == from_json.stdout


def test_sheet_of_a_sheet(tmp_path):
    record = rounding_session({"per_counter": "0.25", "currency": "d"})
    first, second = tmp_path / "first.pdf", tmp_path / "second.pdf"
    first.write_bytes(render_sheet_pdf(record))
    result = run_cli("sheet", first, "-o", second, "--paper", "letter")
    assert result.returncode == 0, result.stderr
    assert record_text(second.read_bytes()) == dump(record).encode()
    assert float(pypdf.PdfReader(str(second)).pages[0].mediabox.width) == pytest.approx(792, abs=0.5)


# ---------------------------------------------------------------- refused, nothing created


def weasyprint_pdf_without_record() -> bytes:
    import weasyprint

    return weasyprint.HTML(string="<p>Ann 3, Ben 7, Cat −10</p>").write_pdf()


def encrypted_pdf() -> bytes:
    writer = pypdf.PdfWriter()
    writer.add_blank_page(100, 100)
    writer.add_attachment(ATTACHMENT, dump(load_example("parlett-evening.json")))
    writer.encrypt("secret")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


BAD_PDFS = {
    "no attachment": (weasyprint_pdf_without_record, "record: this PDF carries no session record"),
    "another file attached": (
        lambda: pdf_carrying(b"{}", name="notes.json"),
        "record: this PDF carries no session record",
    ),
    "damaged": (
        lambda: b"%PDF-1.7\n" + bytes(range(256)) * 40,
        "record: this file starts like a PDF but cannot be read",
    ),
    "truncated sheet": (
        lambda: render_sheet_pdf(load_example("parlett-evening.json"))[:3000],
        "record: this file starts like a PDF but cannot be read",
    ),
    "deeply nested": (
        lambda: raw_pdf(b"/Junk " + b"[" * 60000 + b"]" * 60000),
        "record: this file starts like a PDF but cannot be read",
    ),
    "inflates past 2 MB": (
        lambda: pdf_carrying(b" " * (40 * 1024 * 1024)),
        "record: the session record in this PDF is larger than 2 MB",
    ),
    "attachment not JSON": (lambda: pdf_carrying(b"Ann 3, Ben 7"), "record: not valid JSON"),
    "encrypted": (encrypted_pdf, "record: this PDF is encrypted"),
    "862 attachments of 2 MB": (many_attachments_pdf, "record: this PDF has more than 16 attachments"),
    "two session.json": (
        lambda: pdf_with_attachments(2, 0, content=dump(load_example("parlett-evening.json")).encode()),
        "record: this PDF carries 2 session.json attachments; it is not one session's sheet",
    ),
}


@pytest.mark.parametrize("case", BAD_PDFS)
def test_a_pdf_without_a_usable_record_is_refused(client, app, case, tmp_path):
    make, start = BAD_PDFS[case]
    pdf = make()
    assert len(pdf) < 2 * 1024 * 1024  # within the upload limit: refused for what it is
    response = upload(client, pdf)
    assert response.status_code == 422
    problems = problems_on(response.data)
    assert len(problems) == 1 and problems[0].startswith(start), problems
    assert sessions_in(app) == 0
    # the command line says the same, on one line, and prints nothing else
    path = tmp_path / "bad.pdf"
    path.write_bytes(pdf)
    result = run_cli("settle", path)
    assert result.returncode == 1 and result.stdout == b""
    assert result.stderr.decode().splitlines() == problems
    result = run_cli("sheet", path, "-o", tmp_path / "out.pdf")
    assert result.returncode == 1 and not (tmp_path / "out.pdf").exists()


def test_a_pdf_carrying_an_invalid_record_gets_the_records_problems(client, app):
    record = load_example("invalid-parlett.json")
    expected = [str(p) for p in validate(record)]
    assert "hand 2: tricks add up to 11, not 12" in expected
    response = upload(client, pdf_carrying(json.dumps(record).encode()))
    assert response.status_code == 422
    assert problems_on(response.data) == expected  # as for the JSON file itself
    json_response = upload(client, (DATA / "invalid-parlett.json").read_bytes(), "x.json")
    assert problems_on(json_response.data) == expected
    assert sessions_in(app) == 0


def test_reading_a_pdf_record_does_not_import_weasyprint():
    code = (
        "import sys; from scorekeeper.files.upload import load_upload; "
        f"load_upload(open({str(DATA / 'parlett-evening.json')!r}, 'rb').read()); "
        "assert 'pypdf' not in sys.modules and 'weasyprint' not in sys.modules"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


# ---------------------------------------------------------------- the work of reading a PDF, bounded as a whole

# In a fresh process, so that its peak memory (ru_maxrss) is this import's alone.
IMPORT_PEAK = """
import io, json, resource, sys, tempfile
sys.path.insert(0, {tests!r})
from support.hostile import many_attachments_pdf
from scorekeeper import create_app

folder = tempfile.mkdtemp()
app = create_app({{"DATABASE": folder + "/t.db", "SECRET_KEY": "t", "BACKUP_DIR": folder + "/b"}})
client = app.test_client()
pdf = many_attachments_pdf()
client.get("/")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
response = client.post("/import", data={{"file": (io.BytesIO(pdf), "sheet.pdf")}}, content_type="multipart/form-data")
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"size": len(pdf), "status": response.status_code, "page": response.get_data(as_text=True),
                  "peak_kb": [before, after]}}))
"""


def test_a_pdf_of_many_big_attachments_costs_the_server_little_memory():
    """A zip bomb costs little: 862 attachments named session.json, each inflating to 2 MB, in a
    2 MB upload: 1.7 GB and 4.4 s, never given back. Now the server's process
    grows by a few MB (the upload itself) and at most 16 entries are looked at."""
    result = subprocess.run(
        [sys.executable, "-c", IMPORT_PEAK.format(tests=str(ROOT / "tests"))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    outcome = json.loads(result.stdout.splitlines()[-1])
    before, after = outcome["peak_kb"]
    assert after - before < 50 * 1024, f"the import took the process from {before} to {after} KB at its peak"
    assert outcome["size"] < 2 * 1024 * 1024 and outcome["status"] == 422
    assert problems_on(outcome["page"].encode()) == [
        "record: this PDF has more than 16 attachments (a score sheet printed by the scorekeeper has one, "
        "session.json); it was not read"
    ]


def test_reading_a_pdf_is_bounded_in_memory_and_time_by_its_process():
    """The web import reads a PDF in a child process under an address-space and a
    CPU limit and a deadline: past them, one line, and nothing of it in this one."""
    from scorekeeper.rules import InvalidRecord
    from scorekeeper.files.upload import read_isolated

    record = long_session(200)
    pdf = render_sheet_pdf(record)
    assert read_isolated(pdf) == dump(record).encode()  # a real sheet, within the limits
    big = pdf_with_attachments(1, 2 * 1024 * 1024 - 1)  # one attachment of (nearly) 2 MB
    assert read_isolated(big) == bytes(2 * 1024 * 1024 - 1)
    with pytest.raises(InvalidRecord) as refused:
        read_isolated(big, memory=1024 * 1024)  # 1 MB more than it starts with
    assert [str(p) for p in refused.value.problems] == [
        "record: reading this PDF takes more work than reading a score sheet does (more than 1 MB or 1 s); "
        "it was not read"
    ]
    with pytest.raises(InvalidRecord) as refused:
        read_isolated(pdf, deadline=0.0)  # not answered in time: stopped
    assert str(refused.value).startswith("record: reading this PDF takes more work")
    with pytest.raises(InvalidRecord) as refused:
        read_isolated(b"%PDF-1.7\n" + bytes(range(256)) * 40)  # its own refusals come back as they are
    assert str(refused.value).startswith("record: this file starts like a PDF but cannot be read")
