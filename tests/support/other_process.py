"""The other server process, as a test sees it: a Python started by the test with its
own app on the same SQLite file (its caches are not this process's), and the page
templates a process compiles before serving (server/warm.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

OTHER_PROCESS = r"""
import json, sys
from scorekeeper import create_app
from support.web import hand_fields, new_session, version_of
database, hands, urls, new = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3]), int(sys.argv[4])
app = create_app({"DATABASE": database, "SECRET_KEY": "test", "TESTING": True, "SESSIONS_PER_MINUTE": 1000})
client = app.test_client()
urls = urls + [new_session(client, players=("Ann", "Ben", f"Cat {n}")) for n in range(new)]
for url in urls:
    for hand in hands:
        assert client.post(url + "/hands", data=hand_fields(hand, version_of(client, url))).status_code == 303
print(json.dumps(urls))
"""


def in_the_other_process(app, hands=(), urls=(), new=0) -> list[str]:
    """Save ``hands`` at each of ``urls`` (and at ``new`` new sessions) from another
    Python process on the same database. Returns the urls."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]))
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            OTHER_PROCESS,
            app.config["DATABASE"],
            json.dumps(list(hands)),
            json.dumps(list(urls)),
            str(new),
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def page_templates() -> list[str]:
    return sorted(p.relative_to(ROOT / "templates").as_posix() for p in (ROOT / "templates").rglob("*.html"))
