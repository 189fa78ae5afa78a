"""Issue 3 benchmarks: server time to save a hand and render the updated table,
for sessions of 12 and 200 hands, against a trivial Flask route measured in the
same run; and the bytes a phone downloads for the table page and an htmx update.

    .venv/bin/python bench/app_bench.py [--rounds 60]

Real app, real SQLite (a temp file), Flask's test client (no network).
"""

from __future__ import annotations

import argparse
import gzip
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from scorekeeper import create_app  # noqa: E402
from support.web import hand_fields  # noqa: E402

BROWSER_ENCODING = {"Accept-Encoding": "gzip, deflate, br, zstd"}


def evening_hands(count: int) -> list[dict]:
    """``count`` valid parlett hands (dealer rotating, a ruff contest every hand)."""
    base = json.loads((ROOT / "tests/data/parlett-evening.json").read_text())["hands"]
    hands = []
    for i in range(count):
        hand = json.loads(json.dumps(base[i % 3]))
        hand["dealer"] = i % 3
        hands.append(hand)
    # every hand's ruff must be a contest at stake 2 (no doubling)
    for hand in hands:
        hand["ruff"] = {"winner": hand["dealer"], "paid": [0 if s == hand["dealer"] else 2 for s in range(3)]}
        eldest = (hand["dealer"] + 1) % 3
        hand["auction"] = {"buyer": eldest, "price": 12}
    return hands


def record(count: int) -> dict:
    return {"format": "gleek-session/1", "rulebook": "parlett", "options": {},
            "players": ["Ann", "Ben", "Cat"], "hands": evening_hands(count)}


def percentile(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def time_save(client, url, hand, rounds, number) -> list[float]:
    """Save hand ``number`` and render the updated table; untimed, delete it again."""
    times = []
    version = int(client.get(url).get_data(as_text=True).split("?v=")[1].split('"')[0])
    for _ in range(rounds):
        start = time.perf_counter()
        response = client.post(url + "/hands", data=hand_fields(hand, version))
        assert response.status_code == 303, response.status_code
        page = client.get(response.headers["Location"])
        assert page.status_code == 200
        times.append(time.perf_counter() - start)
        assert client.post(f"{url}/hands/{number}/delete", data={"version": str(version + 1)}).status_code == 303
        version += 2
    return times


def time_trivial(client, rounds) -> list[float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        assert client.get("/_bench/trivial").status_code == 200
        times.append(time.perf_counter() - start)
    return times


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args(argv)
    tmp = tempfile.mkdtemp()
    app = create_app({"DATABASE": f"{tmp}/bench.db", "SECRET_KEY": "bench", "BACKUP_DIR": f"{tmp}/backups"})
    app.add_url_rule("/_bench/trivial", "trivial", lambda: "ok")
    client = app.test_client()

    results = {}
    for count in (12, 200):
        response = client.post("/import", data=json.dumps(record(count)), content_type="application/json")
        url = response.headers["Location"]
        next_hand = evening_hands(count + 1)[-1]
        time_save(client, url, next_hand, 5, count + 1)  # warm up
        trivial = time_trivial(client, args.rounds * 2)
        save = time_save(client, url, next_hand, args.rounds, count + 1)
        trivial += time_trivial(client, args.rounds * 2)
        results[count] = (save, trivial, url)

    print(f"machine: {platform.machine()}, {_cpu()}, {_cores()} cores, Python {platform.python_version()}")
    print(f"{'session':>10} {'save+render p50':>16} {'p95':>8} {'trivial p50':>12} {'p95':>8} {'ratio p50':>10}")
    for count, (save, trivial, _) in results.items():
        s50, s95 = statistics.median(save) * 1000, percentile(save, 95) * 1000
        t50, t95 = statistics.median(trivial) * 1000, percentile(trivial, 95) * 1000
        print(f"{count:>7} hands {s50:>13.2f} ms {s95:>5.2f} ms {t50:>9.3f} ms {t95:>5.3f} ms {s50 / t50:>9.1f}×")

    url = results[12][2]
    html = client.get(url, headers=BROWSER_ENCODING)
    css = client.get("/static/app.css", headers=BROWSER_ENCODING)
    js = client.get("/static/vendor/htmx-2.0.11.min.js", headers=BROWSER_ENCODING)
    served = sum(len(r.get_data()) for r in (html, css, js))
    plain = [client.get(p).get_data() for p in (url, "/static/app.css", "/static/vendor/htmx-2.0.11.min.js")]
    gz = sum(len(gzip.compress(b, 6)) for b in plain)
    version = int(client.get(url).get_data(as_text=True).split("?v=")[1].split('"')[0])
    client.post(url + "/hands", data=hand_fields(evening_hands(13)[-1], version))
    update = client.get(f"{url}/live?v={version}", headers={"HX-Request": "true", **BROWSER_ENCODING})
    update_plain = client.get(f"{url}/live?v={version}", headers={"HX-Request": "true"}).get_data()
    print(f"first visit of a 12-hand table: {served / 1024:.1f} KB as served "
          f"({html.headers.get('Content-Encoding')}), {gz / 1024:.1f} KB gzip -6, "
          f"{sum(map(len, plain)) / 1024:.1f} KB uncompressed")
    print(f"one htmx update (live fragment after a save): {len(update.get_data()) / 1024:.2f} KB as served, "
          f"{len(gzip.compress(update_plain, 6)) / 1024:.2f} KB gzip -6, {len(update_plain) / 1024:.1f} KB uncompressed; "
          f"an unchanged poll: {len(client.get(f'{url}/live?v={version + 1}').get_data())} bytes (204)")
    return 0


def _cpu() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _cores() -> int:
    import os

    return os.cpu_count() or 0


if __name__ == "__main__":
    sys.exit(main())
