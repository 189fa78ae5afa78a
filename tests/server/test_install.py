"""A non-editable ``pip install .`` serves the app with its templates and static
files (they sit beside the package in the project, inside it in the wheel)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import tempfile, scorekeeper
assert scorekeeper.__file__.startswith({target!r}), scorekeeper.__file__
folder = tempfile.mkdtemp()
app = scorekeeper.create_app({{"DATABASE": folder + "/t.db", "SECRET_KEY": "x", "TESTING": True,
                              "BACKUP_DIR": folder + "/b"}})
client = app.test_client()
for path in ("/", "/rules", "/static/app.css", "/static/app.js", "/static/vendor/htmx-2.0.11.min.js",
             "/static/icons/icon-192.png"):
    assert client.get(path).status_code == 200, path
made = client.post("/sessions", data={{"player_0": "Ann", "player_1": "Ben", "player_2": "Cat",
                                      "rulebook": "parlett", "first_dealer": "0", "stake": ""}})
url = made.headers["Location"]
assert "Turned-up card" in client.get(url + "/hands/new").get_data(as_text=True)
assert client.get(url + "/sheet").status_code == 200
print("served")
"""


def test_a_plain_pip_install_serves_the_app(tmp_path):
    target = tmp_path / "site"
    built = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-2000:]
    assert (target / "scorekeeper" / "templates" / "fields" / "seat.html").is_file()
    assert (target / "scorekeeper" / "static" / "vendor" / "htmx-2.0.11.min.js").is_file()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)  # the installed copy, not the checkout
    run = subprocess.run(
        [
            sys.executable,
            "-I",
            "-c",
            f"import sys; sys.path.insert(0, {str(target)!r})\n" + CHECK.format(target=str(target)),
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and "served" in run.stdout, run.stderr[-3000:]
