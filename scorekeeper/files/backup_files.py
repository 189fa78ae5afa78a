"""Automatic JSON snapshots of a session after each change, and whole-database
backup/restore commands (``flask --app scorekeeper backup`` / ``restore``)."""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path

from .. import store
from ..private import private_dir
from ..rules.record import NotJSON, decode_json

KEEP = 20


def dumps(data) -> str:
    """JSON as the backups are written: compact, UTF-8 text as it is."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))  # dumps, not dump: the C encoder


def write_json(path: Path, data, durable: bool = False) -> None:
    """Write atomically: a crash leaves the old file or the new one, never half.
    ``durable`` also waits for the disk (the per-save snapshots skip it: the
    database, committed with synchronous=FULL, is the record; they are a spare)."""
    write_text(path, dumps(data), durable)


def write_text(path: Path, text: str, durable: bool = False) -> None:
    """``write_json`` for JSON already encoded (0600, in folders made 0700)."""
    private_dir(path.parent)
    # the writer's pid in the name: start-up removes only the files of writers that are gone
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".tmp-{os.getpid()}-", suffix=".json")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


ORPHAN_WRITER = re.compile(r"\.tmp-(?:(\d+)-)?")


def _running(pid: int) -> bool:
    """Whether process ``pid`` is alive (a zombie, dead but not yet reaped, is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except (OSError, IndexError):  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except (PermissionError, OverflowError):
            return pid <= 2**22  # someone else's process (or a number no pid reaches)
        return True


def remove_orphans(folder: str | Path) -> list[Path]:
    """Remove the ``.tmp-*.json`` files a killed writer left under ``folder``
    (``write_json`` replaces its temporary file or removes it, unless it dies
    first). A file whose writer is still running is left alone."""
    removed = []
    for path in Path(folder).rglob(".tmp-*.json"):
        match = ORPHAN_WRITER.match(path.name)
        if match[1] is not None and _running(int(match[1])):
            continue
        try:
            path.unlink()
            removed.append(path)
        except OSError:
            pass
    return removed


def snapshot_session(session: store.Session, directory: str | Path, keep: int = KEEP) -> Path:
    """Save ``session`` as ``<directory>/<id>/v<version>.json``; keep the last ``keep``."""
    folder = session_file(directory, session.id, session.id)
    path = folder / f"v{session.version:06d}.json"
    write_text(path, snapshot_text(session))
    # names, not Paths: pathlib's glob and sorting cost more than the snapshot's own write
    for old in sorted(name for name in os.listdir(folder) if name.startswith("v") and name.endswith(".json"))[:-keep]:
        (folder / old).unlink(missing_ok=True)
    return path


class EncodedHands:
    """The JSON text of the hands of the sessions snapshotted lately, with the hand
    objects each was encoded from. A change builds a new list of hands around the
    same objects (the store never changes a hand in place: see ``store._Hands``),
    so a snapshot after a save encodes one hand, not the whole session. ``size``
    sessions are kept, ``budget`` hands in all (as ``store._HANDS``: the hands
    kept here are mostly the same objects)."""

    def __init__(self, size: int = 1024, budget: int = 40_000):
        self.size, self.budget, self.kept, self.lock = size, budget, OrderedDict(), threading.Lock()

    def text(self, session_id: str, hands: list) -> str:
        with self.lock:
            objects, texts = self.kept.get(session_id, ([], []))
        texts = store.texts_kept(hands, objects, texts, dumps)
        with self.lock:
            self.kept.pop(session_id, None)
            self.kept[session_id] = (list(hands), texts)  # the objects kept alive: ``is`` stays meaningful
            while len(self.kept) > 1 and (
                len(self.kept) > self.size or sum(len(objects) for objects, _ in self.kept.values()) > self.budget
            ):
                self.kept.popitem(last=False)
        return "[" + ",".join(texts) + "]"


ENCODED_HANDS = EncodedHands()


def snapshot_text(session: store.Session) -> str:
    """``dumps(store.snapshot(session))``, the same text, with the hands' JSON
    kept from the session's last snapshot where a hand is the same object."""

    def obj(pairs) -> str:
        return "{" + ",".join(f"{dumps(key)}:{text}" for key, text in pairs) + "}"

    data = store.snapshot(session)
    record = obj(
        (key, ENCODED_HANDS.text(session.id, value) if key == "hands" else dumps(value))
        for key, value in data["record"].items()
    )
    return obj((key, record if key == "record" else dumps(value)) for key, value in data.items())


def session_file(folder: str | Path, session_id: str, name: str) -> Path:
    """``<folder>/<name>`` for a session, refusing an id that is not one the app
    makes: a name from the database must never lead outside the backup folder."""
    if not store.is_token(session_id):
        raise ValueError(f"its id {store.id_label(session_id)} is not one the app makes")
    return Path(folder) / name


def backup_all(db, out: str | Path) -> tuple[list[Path], list[str]]:
    """Every session, one file each, into ``out``; a session that cannot be
    written is reported (one line each) and the others are still backed up.

    Each file is first checked exactly as ``restore`` will check it
    (``store.backup_problems``, on the JSON as written): a backup never holds a
    file that would not restore. A hand in progress with answers an older
    release stored and a restore would not read is backed up without them, and
    reported."""
    paths, problems = [], []
    for session_id in store.all_session_ids(db):
        try:
            session = store.get_session(db, session_id)
            path = session_file(out, session.id, f"{session.id}.json")
            data = store.full_snapshot(db, session)
            text = dumps(data)
            text.encode("utf-8")  # a lone surrogate: reported below
            wrong = store.backup_problems(json.loads(text))
            if wrong and "in_progress" in data:
                left_out = store.readable_in_progress(data, session)
                text = dumps(data)
                wrong = store.backup_problems(json.loads(text))
                if not wrong:
                    problems.append(
                        f"session {session.id}: hand {data['in_progress']['number']} in progress "
                        f"backed up without answers that could not be read ({', '.join(left_out)})"
                    )
            if wrong:
                problems.append(
                    f"session {store.id_label(session_id)}: not backed up: it would not restore: "
                    + "; ".join(wrong[:5])
                )
                continue
            write_text(path, text, durable=True)
        except UnicodeEncodeError:
            problems.append(
                f"session {store.id_label(session_id)}: not backed up: it holds text "
                "that is not valid (a lone surrogate)"
            )
        except (ValueError, TypeError, KeyError, OSError) as error:
            problems.append(f"session {store.id_label(session_id)}: not backed up: {error}")
        else:
            paths.append(path)
    # a circle and a night are each backed up whole, checked to restore before it is written
    kinds = (
        ("circle", store.all_circle_ids, store.circle_snapshot, store.circle_backup_problems),
        ("night", store.all_night_ids, store.night_snapshot, store.night_backup_problems),
    )
    for kind, all_ids, snapshot, backup_problems in kinds:
        for kept_id in all_ids(db):
            try:
                path = session_file(out, kept_id, f"{kind}-{kept_id}.json")
                text = dumps(snapshot(db, kept_id))
                text.encode("utf-8")
                wrong = backup_problems(json.loads(text))
                if wrong:
                    problems.append(
                        f"{kind} {store.id_label(kept_id)}: not backed up: it would not restore: "
                        + "; ".join(wrong[:5])
                    )
                    continue
                write_text(path, text, durable=True)
            except (UnicodeEncodeError, ValueError, TypeError, KeyError, OSError) as error:
                problems.append(f"{kind} {store.id_label(kept_id)}: not backed up: {error}")
            else:
                paths.append(path)
    return paths, problems


MAX_BACKUP_BYTES = 4 * 1024 * 1024  # a 1,000-hand session with long notes is under 1 MB


def restore_files(db, paths) -> tuple[list[str], list[str]]:
    """Restore backup files (snapshots, or folders of them: the newest per session).
    Every file is read and checked before any is restored, and then all are
    restored in one transaction or none: ``store.Refused`` lists every problem,
    one line each, naming its file. Returns the sessions' ids, and a line for
    each file restored over an existing session (what it restored, what the
    session kept)."""
    files, problems = expand(paths)
    backups, circles, nights = [], [], []
    for path in files:
        label = store.printable(str(path))
        found = read_backup(path)
        if isinstance(found, str):
            problems.append(f"{label}: {found}")
            continue
        circle = store.is_circle_backup(found)  # a circle's file (circle-<id>.json), beside its sessions'
        night = store.is_night_backup(found)  # a club night's (night-<id>.json)
        file_problems = (
            store.circle_backup_problems(found)
            if circle
            else store.night_backup_problems(found)
            if night
            else store.backup_problems(found)
        )
        if file_problems:
            problems += [f"{label}: {p}" for p in file_problems]
        else:
            (circles if circle else nights if night else backups).append((label, found))
    if problems:
        raise store.Refused(problems)
    sessions, notes = store.restore_all(db, backups, circles, nights)
    return [session.id for session in sessions], notes


def read_backup(path: Path):
    """The parsed JSON of one backup file, or a line saying why it cannot be read."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BACKUP_BYTES + 1)
    except OSError as error:
        return f"cannot read it: {error.strerror}"
    if len(data) > MAX_BACKUP_BYTES:
        return f"too large for a backup (at most {MAX_BACKUP_BYTES // (1024 * 1024)} MB)"
    try:
        return decode_json(data)
    except NotJSON as why:
        return f"not valid JSON ({why})"


def expand(paths) -> tuple[list[Path], list[str]]:
    """The backup files named, or found in the folders named (a full backup's
    ``*.json``, and the newest ``v*.json`` of each session folder); and a line
    for each name that leads to none. Hidden files (``.tmp-*``) are never taken."""
    files, problems = [], []
    for p in map(Path, paths):
        if p.is_dir():
            found = sorted(q for q in p.glob("*.json") if not q.name.startswith(".") and q.is_file())
            for folder in sorted(q for q in p.iterdir() if q.is_dir()):
                found += sorted(folder.glob("v*.json"))[-1:]
            if not found:
                problems.append(f"{store.printable(str(p))}: no backup files in this folder")
            files += found
        elif p.exists():
            files.append(p)
        else:
            problems.append(f"{store.printable(str(p))}: no such file or folder")
    return files, problems
