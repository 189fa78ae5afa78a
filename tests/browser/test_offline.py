"""At the table: installable, and usable from a cold start with no connection
(real Chromium, persistent contexts: Chromium's ordinary contexts are
incognito, where it refuses installation and keeps no worker for long).

On 127.0.0.1 (a secure context by definition) against the app in a thread,
with its own copy of static/ so that a test can ship "a new version" of it;
through the real https front (Caddy, its CA trusted in the browser's NSS
database) in test_offline_through_the_https_front."""

from __future__ import annotations

import logging
import re
import shutil
import threading
from pathlib import Path

import pytest
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.places import resource_dir

from .browser_ui import FORM, UI, expected
from .conftest import PHONE
from .test_hand_kept import HAND, PLAYERS, half_a_hand

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """(base URL, app) on 127.0.0.1, serving a copy of static/."""
    folder = tmp_path_factory.mktemp("offline")
    static = folder / "static"
    shutil.copytree(resource_dir("static"), static)
    app = create_app(
        {
            "DATABASE": str(folder / "scorekeeper.db"),
            "SECRET_KEY": "offline-tests",
            "POLL_SECONDS": 1,
            "BACKUP_DIR": str(folder / "backups"),
            "SESSIONS_PER_MINUTE": 100_000,
        }
    )
    app.static_folder = str(static)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}", app
    server.shutdown()
    thread.join(timeout=5)


def phone(playwright, folder: Path, **extra):
    """A persistent (not incognito) Chromium context, as a phone's browser is."""
    return playwright.chromium.launch_persistent_context(
        str(folder),
        executable_path="/usr/bin/chromium",
        args=ARGS,
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        **extra,
    )


def worker_ready(page) -> str:
    """Wait for the service worker to control the page; its script URL."""
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=10_000)
    return page.evaluate("navigator.serviceWorker.controller.scriptURL")


def installability_errors(page) -> list:
    cdp = page.context.new_cdp_session(page)
    try:
        return cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    finally:
        cdp.detach()


def cached(page, name_prefix: str) -> list[str]:
    return page.evaluate(
        """async (prefix) => {
        const out = [];
        for (const name of await caches.keys()) {
            if (!name.startsWith(prefix)) continue;
            for (const r of await (await caches.open(name)).keys()) out.push(name + " " + new URL(r.url).pathname
                                                                             + new URL(r.url).search);
        }
        return out;
    }""",
        name_prefix,
    )


def cold_start_offline_then_saved(page, base: str, context) -> None:
    """A table opened, half a hand tapped; the connection cut and the page
    reloaded: the table and the hand come back from the phone; the rest of the
    hand tapped and Save, with no connection; back online it is saved, once."""
    ui = UI(page)
    table = ui.start_session(base, PLAYERS, "parlett")
    worker_ready(page)
    ui.next_hand()
    half_a_hand(ui)
    page.wait_for_timeout(1200)  # the page as shown reaches the worker (offline.js, 0.8 s after a change)
    context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-copy")).to_contain_text("No connection — this is the page as this phone last saw it")
    for name, value in (("trump", "hearts"), ("turned_up", "9"), ("tiddy", "nobody"), ("buyer", "1"), ("price", "12")):
        expect(page.locator(f'{FORM} input[name="{name}"][value="{value}"]')).to_be_checked()
    expect(page.locator(f"{FORM} #status-stock .phase-result")).to_contain_text("−12")
    # the table page too, opened afresh with no connection
    page.goto(table)
    expect(page.locator("#offline-copy")).to_be_visible()
    page.get_by_role("link", name="Continue hand 1").click()  # the hand kept on this phone
    # the worker gives the network up to 4 s (sw.js NETWORK_WAIT) before it shows the phone's copy:
    # a click does not wait for the page as goto does, so this waits for it as long
    page.wait_for_url("**/hands/new")
    expect(page.locator("#offline-copy")).to_contain_text("Your taps are kept on this phone")
    for name, value in (("ruff_winner", "nobody"), ("sets", "none"), ("tricks_0", 5), ("tricks_1", 4)):
        page.locator(f'{FORM} label.chip:has(input[name="{name}"][value="{value}"])').click()
    for rank, seat in HAND["honours"].items():
        page.locator(f'{FORM} label.chip:has(input[name="honour_{rank}"][value="{seat}"])').click()
    expect(page.locator("#connection")).to_be_visible()
    page.locator(FORM).get_by_role("button", name="Save hand").click()
    expect(page.locator("#connection")).to_contain_text("the hand will be saved as soon as the connection is back")
    context.set_offline(False)
    page.wait_for_url(re.compile(r"/s/[^/?]+$"), timeout=20_000)
    ui.expect_balances(expected("parlett", PLAYERS, [HAND]))
    exported = page.evaluate("url => fetch(url).then(r => r.json())", table + "/export.json")
    assert exported["hands"] == [HAND]  # exactly once


def test_installable_and_a_cold_start_with_no_connection_on_localhost(playwright, served, tmp_path):
    base, _ = served
    context = phone(playwright, tmp_path / "profile")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(base + "/")
        assert worker_ready(page) == base + "/sw.js"
        assert installability_errors(page) == []
        kept = cached(page, "gleek-static-")
        assert any(" /static/app.js?v=" in k for k in kept) and any(" /static/vendor/htmx" in k for k in kept)
        # the very first page (fetched before the worker took over) is kept too
        for _ in range(50):
            if any(k.endswith(" /") for k in cached(page, "gleek-pages")):
                break
            page.wait_for_timeout(100)
        context.set_offline(True)
        page.reload()
        expect(page.locator("#offline-copy")).to_be_visible()
        expect(page.get_by_role("button", name="Start the session")).to_be_visible()
        context.set_offline(False)  # back online: the page fetches itself again from the server
        expect(page.locator("#offline-copy")).to_have_count(0, timeout=10_000)
        page.wait_for_load_state()
        cold_start_offline_then_saved(page, base, context)
        # a change only the server can make, tapped with no connection: said, and nothing changed
        table = page.url
        page.wait_for_timeout(1200)  # the table as shown reaches the worker
        context.set_offline(True)
        page.reload()
        expect(page.locator("#offline-copy")).to_be_visible()
        page.once("dialog", lambda dialog: dialog.accept())
        page.locator("form.undo-bar button").click()
        expect(page.locator("form.undo-bar .no-connection")).to_have_text(
            "No connection: nothing was changed. Try again once the connection is back."
        )
        assert page.url == table
        context.set_offline(False)  # the page fetches itself again, the hand still saved and still to undo
        expect(page.locator("#offline-copy")).to_have_count(0, timeout=10_000)
        page.wait_for_load_state()
        expect(page.locator("form.undo-bar button")).to_be_visible()
        exported = page.evaluate("url => fetch(url).then(r => r.json())", table + "/export.json")
        assert exported["hands"] == [HAND]
        # a page never opened on this phone says so, rather than the browser's error
        context.set_offline(True)
        page.goto(base + "/rules")
        expect(page.locator("h1")).to_have_text("No connection")
        context.set_offline(False)
    finally:
        context.close()


def test_a_new_version_replaces_the_cached_files(playwright, served, tmp_path):
    base, app = served
    context = phone(playwright, tmp_path / "profile")
    static = Path(app.static_folder)
    original = (static / "app.js").read_text()
    try:
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(base + "/")
        old_worker = worker_ready(page)
        old = [k for k in cached(page, "gleek-static-") if "/static/app.js" in k]
        assert len(old) == 1
        (static / "app.js").write_text(original + "\nwindow.gleekRelease = 'next';\n")  # the next release
        page.goto(base + "/rules")  # the next visit finds the new worker
        for _ in range(150):  # the new worker installed and active, the old cache gone
            names = {k.split(" ")[0] for k in cached(page, "gleek-static-")}
            if names and old[0].split(" ")[0] not in names:
                break
            page.wait_for_timeout(100)
        new = [k for k in cached(page, "gleek-static-") if "/static/app.js" in k]
        assert len(new) == 1 and new[0] != old[0]
        page.reload()
        assert page.evaluate("window.gleekRelease") == "next"  # the new JavaScript, not a stale copy
        # offline too: the kept pages name the new files
        context.set_offline(True)
        page.reload()
        expect(page.locator("#offline-copy")).to_be_visible()
        assert page.evaluate("window.gleekRelease") == "next"
        assert old_worker == page.evaluate("navigator.serviceWorker.controller.scriptURL")  # same URL, new script
    finally:
        (static / "app.js").write_text(original)
        context.set_offline(False)
        context.close()


def test_on_a_lan_address_over_http_the_page_says_it_cannot_work_offline(page, base_url):
    # 127.0.0.1 is a secure context; the same page as a LAN address over http would show this line
    page.goto(base_url + "/")
    expect(page.locator("#insecure-note")).to_be_hidden()
    assert page.evaluate("window.isSecureContext") is True
    assert page.locator("#insecure-note").text_content() == (
        "Over plain http on a network address this app cannot be installed or open with no connection "
        "(https or localhost can)."
    )


def test_installable_and_a_cold_start_with_no_connection_through_the_https_front(playwright, tmp_path_factory):
    from support.front import HttpsFront, have_caddy

    if not have_caddy():
        pytest.skip("Caddy and certutil are installed by `make test`")
    front = HttpsFront(tmp_path_factory.mktemp("https-browser"), "SESSIONS_PER_MINUTE = 100_000\n").start()
    try:
        home = front.nss_home()  # Chromium trusts Caddy's local CA: no certificate error anywhere
        context = phone(playwright, home / "profile", env={"HOME": str(home)})
        try:
            page = context.pages[0] if context.pages else context.new_page()
            page.goto(front.url + "/")
            assert page.evaluate("window.isSecureContext") is True
            assert worker_ready(page) == front.url + "/sw.js"
            assert installability_errors(page) == []
            cold_start_offline_then_saved(page, front.url, context)
        finally:
            context.close()
    finally:
        front.stop()
