"""Where the package's files are: the project folder, templates/ and static/ (beside
the package in a checkout, inside it in a wheel) and the instance folder. A module of
its own, not the package's __init__, so that what needs only a folder (the printed
sheet, the replica) does not import the app factory and, through it, Flask."""

from __future__ import annotations

import os
from pathlib import Path


def project_root() -> Path:
    """The folder the package sits in (templates/, static/ and instance/ are beside it)."""
    return Path(__file__).resolve().parent.parent


def resource_dir(name: str) -> Path:
    """``templates`` or ``static``: beside the package in a checkout (and an editable
    install), inside it in an installed wheel."""
    beside = project_root() / name
    if beside.is_dir():
        return beside
    return Path(__file__).resolve().parent / name


def instance_folder() -> Path:
    """The folder SCOREKEEPER_INSTANCE names, else instance/ beside the project (in a
    checkout), else instance/ in the current folder (an installed wheel): the
    database, secret key, config.py and backups live there."""
    named = os.environ.get("SCOREKEEPER_INSTANCE")
    if named:
        return Path(named).resolve()
    root = project_root()
    return (root / "instance" if (root / "pyproject.toml").is_file() else Path.cwd() / "instance").resolve()
