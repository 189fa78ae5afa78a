"""Automatic JSON snapshots of a session after each change, and whole-database
backup/restore commands (``flask --app scorekeeper backup`` / ``restore``)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from . import store

KEEP = 20


def write_json(path: Path, data, durable: bool = False) -> None:
    """Write atomically: a crash leaves the old file or the new one, never half.
    ``durable`` also waits for the disk (the per-save snapshots skip it: the
    database, committed with synchronous=FULL, is the record; they are a spare)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")))  # dumps, not dump: the C encoder
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def snapshot_session(session: store.Session, directory: str | Path, keep: int = KEEP) -> Path:
    """Save ``session`` as ``<directory>/<id>/v<version>.json``; keep the last ``keep``."""
    folder = session_file(directory, session.id, session.id)
    path = folder / f"v{session.version:06d}.json"
    write_json(path, store.snapshot(session))
    for old in sorted(folder.glob("v*.json"))[:-keep]:
        old.unlink(missing_ok=True)
    return path


def session_file(folder: str | Path, session_id: str, name: str) -> Path:
    """``<folder>/<name>`` for a session, refusing an id that is not one the app
    makes: a name from the database must never lead outside the backup folder."""
    if not store.is_token(session_id):
        raise ValueError(f"its id {store.printable(session_id)} is not one the app makes")
    return Path(folder) / name


def backup_all(db, out: str | Path) -> tuple[list[Path], list[str]]:
    """Every session, one file each, into ``out``; a session that cannot be
    written is reported (one line each) and the others are still backed up."""
    paths, problems = [], []
    for session_id in store.all_session_ids(db):
        try:
            session = store.get_session(db, session_id)
            path = session_file(out, session.id, f"{session.id}.json")
            write_json(path, store.snapshot(session), durable=True)
        except UnicodeEncodeError:
            problems.append(f"session {store.printable(session_id)}: not backed up: it holds text "
                            "that is not valid (a lone surrogate)")
        except (ValueError, TypeError, KeyError, OSError) as error:
            problems.append(f"session {store.printable(session_id)}: not backed up: {error}")
        else:
            paths.append(path)
    return paths, problems


def restore_files(db, paths) -> list[str]:
    """Restore each backup file (a snapshot, or a folder of them: the newest per session)."""
    restored = []
    for path in expand(paths):
        with open(path, encoding="utf-8") as f:
            backup = json.load(f)
        restored.append(store.restore(db, backup).id)
    return restored


def expand(paths) -> list[Path]:
    files = []
    for p in map(Path, paths):
        if p.is_dir():
            singles = sorted(p.glob("*.json"))
            files += singles
            for folder in sorted(q for q in p.iterdir() if q.is_dir()):
                newest = sorted(folder.glob("v*.json"))
                files += newest[-1:]
        else:
            files.append(p)
    return files
