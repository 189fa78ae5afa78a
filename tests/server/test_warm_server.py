"""server/warm.py on the real server: `serve` (two waitress processes) started over a
database with this evening's sessions warms them in each process before any request
(the rest of warm.py, in one process: tests/web/test_warm.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from support.data import load_example
from support.other_process import ROOT, in_the_other_process, page_templates

HANDS = load_example("parlett-evening.json")["hands"]


def test_a_server_started_mid_evening_warms_each_process(app, tmp_path):
    """`serve` (two processes) over a database with this evening's sessions: each
    process says it warmed them before any request asked."""
    from support.front import free_port

    in_the_other_process(app, HANDS[:3], new=2)
    instance = Path(app.config["DATABASE"]).parent
    port = free_port()
    env = dict(os.environ, SCOREKEEPER_INSTANCE=str(instance), PYTHONUNBUFFERED="1")
    (instance / "config.py").write_text(f"DATABASE = {app.config['DATABASE']!r}\nSECRET_KEY = 'test'\n")
    log = tmp_path / "serve.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(
            [
                "timeout",
                "-s",
                "KILL",
                "100",
                sys.executable,
                "-m",
                "scorekeeper.server.serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--workers",
                "2",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while log.read_text().count("warmed 2 sessions changed in the last 12 hours") < 2:
            assert server.poll() is None, log.read_text()[-3000:]
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.2)
        assert len(list((instance / "cache" / "templates").glob("*.cache"))) == len(page_templates())
    finally:
        os.killpg(server.pid, 9)
        server.wait(timeout=10)


def page_templates() -> list[str]:
    return sorted(p.relative_to(ROOT / "templates").as_posix() for p in (ROOT / "templates").rglob("*.html"))
