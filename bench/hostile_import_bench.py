"""Benchmark: what hostile imports cost the server (each must cost it little).

1. **The worst PDF** (a zip bomb): a 2 MB PDF listing 862 attachments named
   ``session.json``, each inflating to 2 MB (``tests/support/hostile.py``), imported
   through the web app (``POST /import``) in a fresh process, next to the import of
   a real 1,000-hand sheet PDF (the baseline, in the same process): wall time, the
   process's CPU time, its peak memory growth (``ru_maxrss``) and the memory it
   still holds after (``VmRSS``). Now the reading is done by a child
   process under limits (48 MB, 1 s of CPU): its memory is not the server's.
2. **Refused imports** (one address, flat out): the real server as `make run` starts it; a
   trivial request (``GET /manifest.webmanifest``) every 50 ms from 127.0.0.1, alone,
   then while four clients from 127.0.0.2 post a refused 0.76 MB import (a record
   whose last hand's tricks do not add up) as fast as they can. Reported: the
   trivial request's p50/p95 in both phases and the ratio; the imports' answers.

``--circle`` floods a circle's import instead (``POST /circles/import``,
a refused 1.9 MB archive, as a form's file) and measures only that (2.): the door held
off ``/import`` but not a circle's imports, so every refused one was read whole.

``--root DIR`` runs another copy of the project (main before these limits:
``git archive 982e5c1 | tar -x -C DIR``) in the same sitting, for the before/after.

    .venv/bin/python bench/hostile_import_bench.py [--circle] [--seconds 30] [--root DIR --root-label TEXT] [--no-write]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "bench"))

from benchmarks_md import append_to_section, machine  # noqa: E402
from pdf_starvation_bench import Server, percentile  # noqa: E402
from support.sessions import long_session  # noqa: E402
from scorekeeper.printing.sheet import render_sheet_pdf  # noqa: E402
from support.hostile import many_attachments_pdf  # noqa: E402

HEADING = "## Hostile imports"
INTRO = """\
`.venv/bin/python bench/hostile_import_bench.py [--root DIR]`: (1) the 862-attachment
PDF (2 MB, each attachment inflating to 2 MB) imported through `POST /import` in a
fresh process, beside a real 1,000-hand sheet PDF imported in the same process as the
baseline: wall and CPU time, peak memory growth (`ru_maxrss`) and what the process still
holds afterwards (`VmRSS`), medians of 3 processes; (2) the real server as `make run`
starts it, a trivial request every 50 ms alone and then while four clients from
another address post refused 0.76 MB imports as fast as they can. `--root` is main's
code before these limits (982e5c1), run in the same sitting.
"""

# In a fresh process: imports ``sheet.pdf`` then ``worst.pdf``, prints what each cost.
IMPORT = """
import io, json, resource, sys, tempfile, time

def rss_kb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime

def main():
    from scorekeeper import create_app
    folder = tempfile.mkdtemp()
    app = create_app({"DATABASE": folder + "/b.db", "SECRET_KEY": "b", "BACKUP_DIR": folder + "/backups",
                      "SESSIONS_PER_MINUTE": 1000})
    client = app.test_client()
    client.get("/")
    out = {}
    for name in ("sheet.pdf", "worst.pdf", "sheet.pdf"):   # the first one warms up (and is measured again)
        data = open(sys.argv[1] + "/" + name, "rb").read()
        peak, held, used, began = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, rss_kb(), cpu(), time.monotonic()
        response = client.post("/import", data={"file": (io.BytesIO(data), name)}, content_type="multipart/form-data")
        out[name] = ({
            "status": response.status_code, "seconds": time.monotonic() - began, "cpu": cpu() - used,
            "peak_mb": (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak) / 1024,
            "held_mb": (rss_kb() - held) / 1024})
    print(json.dumps(out))

if __name__ == "__main__":
    main()
"""


def worst_pdf(root: Path, files: Path, runs: int) -> dict:
    script = files / "import_once.py"
    script.write_text(IMPORT)
    results = []
    for _ in range(runs):
        done = subprocess.run(
            [sys.executable, str(script), str(files)],
            capture_output=True,
            text=True,
            cwd=root,
            env=dict(os.environ, PYTHONPATH=str(root)),
            timeout=600,
        )
        if done.returncode != 0:
            raise RuntimeError(done.stderr[-3000:])
        results.append(json.loads(done.stdout.splitlines()[-1]))
    return {name: {k: statistics.median(r[name][k] for r in results) for k in results[0][name]} for name in results[0]}


def refused_flood(root: Path, seconds: float, circle: bool = False) -> dict:
    body = long_session(1000)
    body["hands"][-1]["tricks"] = [1, 1, 1]  # refused: the tricks do not add up
    payload = json.dumps(body).encode()
    payload += b" " * max(0, 760_000 - len(payload))  # 0.76 MB, as the attack sent
    path, content_type = "/import", "application/json"
    if circle:  # a circle's archive that is not one (refused), 1.9 MB, as a form's file
        path, content_type = "/circles/import", "multipart/form-data; boundary=gleek"
        payload = (
            b'--gleek\r\nContent-Disposition: form-data; name="file"; filename="circle.json"\r\n'
            b"Content-Type: application/json\r\n\r\n" + payload + b" " * 1_140_000 + b"\r\n--gleek--\r\n"
        )
    with tempfile.TemporaryDirectory(prefix="gleek-import-") as folder:
        server = Server(root, Path(folder))
        (server.instance / "config.py").write_text("")  # the default limits, as `make run` has them
        server.start()
        try:

            def trivial(stop: threading.Event, out: list) -> None:
                lock, threads = threading.Lock(), []

                def one():
                    began = time.monotonic()
                    try:
                        status = server.get("/manifest.webmanifest", timeout=30)[0]
                    except OSError as error:
                        status = type(error).__name__
                    with lock:
                        out.append((time.monotonic() - began, status))

                at = time.monotonic()
                while not stop.is_set():
                    thread = threading.Thread(target=one, daemon=True)
                    thread.start()
                    threads.append(thread)
                    at += 0.05
                    time.sleep(max(0.0, at - time.monotonic()))
                for thread in threads:
                    thread.join(timeout=35)

            def timed(flooding: bool) -> tuple[list, dict]:
                stop, out, answers, lock = threading.Event(), [], {}, threading.Lock()

                def flood():
                    while not stop.is_set():
                        conn = http.client.HTTPConnection(
                            "127.0.0.1", server.port, timeout=30, source_address=("127.0.0.2", 0)
                        )
                        try:
                            conn.request("POST", path, body=payload, headers={"Content-Type": content_type})
                            response = conn.getresponse()
                            response.read()
                            status = response.status
                            if status == 429 and response.getheader("Content-Type", "").startswith("text/plain"):
                                status = "429 at the door"  # its body unread (door.py); the app's 429 is a page
                        except OSError as error:
                            status = type(error).__name__
                        finally:
                            conn.close()
                        with lock:
                            answers[status] = answers.get(status, 0) + 1

                floods = [threading.Thread(target=flood, daemon=True) for _ in range(4 if flooding else 0)]
                for thread in floods:
                    thread.start()
                watcher = threading.Thread(target=trivial, args=(stop, out), daemon=True)
                watcher.start()
                time.sleep(seconds)
                stop.set()
                watcher.join(timeout=60)
                for thread in floods:
                    thread.join(timeout=60)
                return out, answers

            alone, _ = timed(False)
            during, answers = timed(True)
        finally:
            server.stop()
    return {
        "alone": alone,
        "during": during,
        "answers": answers,
        "seconds": seconds,
        "path": path,
        "megabytes": len(payload) / 1e6,
    }


def report(root_label: str, pdf: dict | None, flood: dict, info: dict) -> str:
    def ms(samples):
        values = [s[0] * 1000 for s in samples]
        return percentile(values, 50), percentile(values, 95), sum(1 for s in samples if s[1] != 200)

    a50, a95, a_err = ms(flood["alone"])
    d50, d95, d_err = ms(flood["during"])
    answers = ", ".join(f"{n} × {k}" for k, n in sorted(flood["answers"].items(), key=str))
    total = sum(flood["answers"].values())
    lines = [
        f"### {info['date']}: hostile imports ({root_label})",
        "",
        f"Machine: {info['nproc']} cores ({info['cpu']}), Python {info['python']}; load average "
        f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} at the end (the machine is shared).",
        "",
    ]
    if pdf is not None:
        lines += pdf_lines(pdf)
    lines += [
        "| trivial request (GET /manifest.webmanifest, every 50 ms) | count | p50 ms | p95 ms | failed |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| alone | {len(flood['alone'])} | {a50:.1f} | {a95:.1f} | {a_err} |",
        f"| during the refused imports | {len(flood['during'])} | {d50:.1f} | {d95:.1f} | {d_err} |",
        "",
        f"p50 during / alone: **{d50 / a50:.1f}×**, p95 **{d95 / a95:.1f}×**. Refused {flood['megabytes']:.2f} MB "
        f"uploads to `{flood['path']}` posted by four clients: {total} in {flood['seconds']:.0f} s "
        f"({total / flood['seconds']:.0f} a second): {answers}.",
    ]
    return "\n".join(lines) + "\n"


def pdf_lines(pdf: dict) -> list[str]:
    sheet, worst = pdf["sheet.pdf"], pdf["worst.pdf"]
    return [
        "| import (in one process) | answer | wall s | CPU s | peak memory growth MB | still held after MB |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        f"| baseline: a real 1,000-hand sheet | {sheet['status']:.0f} | {sheet['seconds']:.2f} | {sheet['cpu']:.2f} | "
        f"{sheet['peak_mb']:.1f} | {sheet['held_mb']:.1f} |",
        f"| 862 attachments of 2 MB | {worst['status']:.0f} | {worst['seconds']:.2f} | {worst['cpu']:.2f} | "
        f"{worst['peak_mb']:.1f} | {worst['held_mb']:.1f} |",
        "",
        f"The worst PDF: {worst['seconds'] / sheet['seconds']:.1f}× the real sheet's wall time, "
        f"{worst['peak_mb']:.0f} MB more at the peak, {worst['held_mb']:.0f} MB kept.",
        "",
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", default=None, help="run another copy of the project (before/after)")
    parser.add_argument("--root-label", default=None)
    parser.add_argument("--runs", type=int, default=3, help="fresh processes for the worst PDF (median)")
    parser.add_argument("--seconds", type=float, default=30.0, help="of each phase of the refused imports")
    parser.add_argument("--circle", action="store_true", help="flood a circle's import only")
    parser.add_argument("--no-write", action="store_true", help="print only; leave bench/history.md alone")
    args = parser.parse_args(argv)
    if not (1 <= args.runs <= 5 and 5 <= args.seconds <= 120):
        parser.error("keep it bounded: 1-5 runs, 5-120 s")
    root = Path(args.root).resolve() if args.root else ROOT
    label = "this branch" if not args.root else f"`--root` {args.root_label or args.root}"

    pdf = None
    if not args.circle:
        with tempfile.TemporaryDirectory(prefix="gleek-hostile-") as folder:
            files = Path(folder)
            (files / "sheet.pdf").write_bytes(render_sheet_pdf(long_session(1000)))
            (files / "worst.pdf").write_bytes(many_attachments_pdf())
            pdf = worst_pdf(root, files, args.runs)
    flood = refused_flood(root, args.seconds, args.circle)
    entry = report(label, pdf, flood, machine())
    print(entry)
    if not args.no_write:
        append_to_section(HEADING, INTRO, entry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
