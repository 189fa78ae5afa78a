"""What the scorekeeper keeps on disk is its owner's only: the instance folder,
the database (and SQLite's ``-wal`` / ``-shm`` beside it), the secret key, the
snapshots and backups. Folders are made ``0700`` and files ``0600`` when they are
made, and at start-up (``fix_modes``) whatever an earlier release left readable
by others is put right. A snapshot folder is named by the session's id, which is
the scorer's link: listing ``instance/backups/`` would hand out every table.

(No imports of Flask: the command line and the store use these too.)
"""

from __future__ import annotations

import os
from pathlib import Path

DIR_MODE = 0o700
FILE_MODE = 0o600
SQLITE_SIDES = ("", "-wal", "-shm", "-journal", "-writer")  # -writer: the write turn (store/commits.py)


def private_dir(path: str | Path) -> Path:
    """``mkdir -p`` whose every folder it makes is ``0700`` (``Path.mkdir``
    gives missing parents the default mode, whatever ``mode`` says)."""
    path = Path(path)
    missing, folder = [], path
    while not folder.exists() and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=DIR_MODE)
        except FileExistsError:  # made meanwhile by another process
            continue
        folder.chmod(DIR_MODE)  # mkdir's mode is masked by the umask; this is exact
    return path


def private_file(path: str | Path) -> None:
    """Create ``path`` empty, ``0600``, if it is missing (SQLite then gives its
    ``-wal`` and ``-shm`` the database file's mode); make it ``0600`` if not."""
    path = Path(path)
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE))
    except FileExistsError:
        pass
    _tighten(path, FILE_MODE)


def _tighten(path: Path, mode: int) -> None:
    try:
        st = path.lstat()
    except FileNotFoundError:
        return
    if not path.is_symlink() and st.st_mode & 0o077:
        path.chmod(st.st_mode & 0o700 | (mode & 0o700))


def fix_tree(root: str | Path) -> None:
    """Every folder under ``root`` (itself included) ``0700``, every file ``0600``."""
    root = Path(root)
    if not root.is_dir():
        return
    _tighten(root, DIR_MODE)
    for folder, dirs, files in os.walk(root):
        base = Path(folder)
        for name in dirs:
            _tighten(base / name, DIR_MODE)
        for name in files:
            _tighten(base / name, FILE_MODE)


def fix_modes(instance: str | Path, database: str | Path, backups: str | Path) -> None:
    """At start-up: the instance folder, the database's files and the backups
    readable by their owner only, whatever made them (an earlier release made
    them 0644 and 0755)."""
    instance = Path(instance)
    if instance.is_dir():
        _tighten(instance, DIR_MODE)
        for name in ("secret_key", "config.py", "pdf.lock", "season-pdf.lock"):
            _tighten(instance / name, FILE_MODE)
    for side in SQLITE_SIDES:
        _tighten(Path(f"{database}{side}"), FILE_MODE)
    fix_tree(backups)
