"""Times in the viewer's own zone: History and the sheet page's "printed …" stamp,
from the ``tz`` cookie static/app.js sets; UTC, labelled so, when it is not known.
The PDF sheet is stamped in the table's zone (one rendering for every viewer)."""

import datetime
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from zoneinfo import ZoneInfo

import pypdf
import pytest

from support.data import DATA, load_example
from scorekeeper.words.localtime import clock_named, printed_line
from scorekeeper.printing.sheet import render_sheet_html, render_sheet_pdf

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "cookie, label, shown",
    [
        ("Europe/Paris", "Europe/Paris", "1 Dec 2026, 23:40"),
        ("America/New_York", "America/New_York", "1 Dec 2026, 17:40"),
        ("Asia/Kolkata", "Asia/Kolkata", "2 Dec 2026, 04:10"),
        ("UTC", "UTC", "1 Dec 2026, 22:40"),
        (None, "UTC", "1 Dec 2026, 22:40"),  # the first page, before app.js ran
        ("Mars/Olympus_Mons", "UTC", "1 Dec 2026, 22:40"),  # not a zone
        ("../../../etc/passwd", "UTC", "1 Dec 2026, 22:40"),  # not a zone name at all
        ("Europe/Paris\n", "UTC", "1 Dec 2026, 22:40"),
    ],
)
def test_clock_from_the_cookie(cookie, label, shown):
    clock = clock_named(cookie)
    assert clock.label == label
    assert clock.known == (label != "UTC" or cookie == "UTC")
    assert clock.format("2026-12-01T22:40:07+00:00") == shown


def test_printed_line_names_the_zone():
    assert (
        printed_line(datetime.datetime(2026, 12, 1, 23, 40, tzinfo=ZoneInfo("Europe/London")))
        == "printed 1 Dec 2026, 23:40 GMT"
    )
    assert (
        printed_line(datetime.datetime(2026, 7, 1, 9, 5, tzinfo=ZoneInfo("Europe/London")))
        == "printed 1 Jul 2026, 09:05 BST"
    )
    assert (
        printed_line(datetime.datetime(2026, 12, 1, 23, 40, tzinfo=datetime.timezone.utc))
        == "printed 1 Dec 2026, 23:40 UTC"
    )


def test_sheet_header_says_when_it_was_printed():
    record = load_example("parlett-evening.json")
    moment = datetime.datetime(2026, 12, 1, 23, 40, tzinfo=ZoneInfo("Europe/Paris"))
    html = render_sheet_html(record, printed=moment)
    assert '<time datetime="2026-12-01T23:40+01:00">printed 1 Dec 2026, 23:40 CET</time>' in html
    text = pypdf.PdfReader(io.BytesIO(render_sheet_pdf(record, printed=moment))).pages[0].extract_text()
    assert "printed 1 Dec 2026, 23:40 CET" in text
    assert "printed" not in render_sheet_html(record)  # nothing claimed without a time


def imported(client) -> str:
    response = client.post(
        "/import", data=json.dumps(load_example("parlett-evening.json")), content_type="application/json"
    )
    assert response.status_code == 303
    return response.headers["Location"]


def test_history_in_the_viewers_zone_or_labelled_utc(client):
    url = imported(client)
    page = client.get(url + "/history").data.decode()
    # the zone under "When", broken at its slashes where it must be
    assert '<th scope="col">When <small class="zone">(UTC)</small></th>' in page
    stored = re.search(r'<time datetime="([^"]+)">([^<]+)</time>', page)
    at = datetime.datetime.fromisoformat(stored.group(1))
    assert stored.group(2) == clock_named(None).format(at)

    client.set_cookie("tz", "Asia/Tokyo")
    page = client.get(url + "/history").data.decode()
    assert '<th scope="col">When <small class="zone">(Asia/<wbr>Tokyo)</small></th>' in page
    tokyo = at.astimezone(ZoneInfo("Asia/Tokyo"))
    assert f'<time datetime="{stored.group(1)}">{tokyo.day} {tokyo:%b %Y, %H:%M}</time>' in page


def test_a_hands_history_in_the_viewers_zone(client):
    from support.web import hand_fields, new_session, version_of

    url = new_session(client, players=("Samuel", "Elizabeth", "Will"))
    hand = load_example("parlett-evening.json")["hands"][0]
    response = client.post(url + "/hands", data=hand_fields(hand, version_of(client, url)))
    assert response.status_code == 303
    page = client.get(url + "/hands/1").data.decode()
    stored = re.search(r'<time datetime="([^"]+)">([^<]+)</time>', page)
    at = datetime.datetime.fromisoformat(stored.group(1))
    assert stored.group(2) == clock_named(None).format(at) + " UTC"
    client.set_cookie("tz", "America/Sao_Paulo")
    page = client.get(url + "/hands/1").data.decode()
    assert f'<time datetime="{stored.group(1)}">{clock_named("America/Sao_Paulo").format(at)}</time>' in page


def test_pdf_stamp_in_the_tables_zone_whatever_the_viewers(app, client):
    """The PDF is stamped in the table's zone (SHEET_ZONE, else the serving
    machine's), never the viewer's: its zone was part of the cache key, so a
    watcher changing the cookie forced a render per request (a cheap attack)."""
    app.config["SHEET_ZONE"] = "Pacific/Auckland"
    url = imported(client)
    client.set_cookie("tz", "Europe/Lisbon")
    before = datetime.datetime.now(ZoneInfo("Pacific/Auckland")).replace(second=0, microsecond=0)
    auckland = client.get(url + "/sheet.pdf").data
    text = pypdf.PdfReader(io.BytesIO(auckland)).pages[0].extract_text()
    stamp = re.search(r"printed (\d+ \w+ \d+, \d\d:\d\d) (NZDT|NZST)", text)
    assert stamp, text
    shown = datetime.datetime.strptime(stamp.group(1), "%d %b %Y, %H:%M").replace(tzinfo=ZoneInfo("Pacific/Auckland"))
    assert before <= shown <= before + datetime.timedelta(minutes=2)
    for zone in ("Asia/Tokyo", "America/Sao_Paulo", "Mars/Olympus_Mons", "Europe/Lisbon"):
        client.set_cookie("tz", zone)
        assert client.get(url + "/sheet.pdf").data == auckland  # the one rendering, for everyone
    client.delete_cookie("tz")
    assert client.get(url + "/sheet.pdf").data == auckland
    # the sheet's page is cheap and stays in the viewer's own zone
    client.set_cookie("tz", "Europe/Lisbon")
    assert re.search(r"printed \d+ \w+ \d+, \d\d:\d\d (WET|WEST)", client.get(url + "/sheet").get_data(as_text=True))


def test_cli_sheet_is_stamped_in_the_machines_zone(tmp_path):
    out = tmp_path / "sheet.pdf"
    result = subprocess.run(
        [sys.executable, "-m", "scorekeeper", "sheet", str(DATA / "parlett-evening.json"), "-o", str(out)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"TZ": "Australia/Adelaide", "PATH": "/usr/bin:/bin"},
    )
    assert result.returncode == 0, result.stderr
    text = pypdf.PdfReader(str(out)).pages[0].extract_text()
    assert re.search(r"printed \d+ \w+ \d+, \d\d:\d\d (ACDT|ACST)", text), text
