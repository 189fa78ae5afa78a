"""server/front_polls.py's folder when a real port is taken: a second `make run-https`
stops at the port the first holds and leaves the first's answers for the front
(the rest of front_polls.py, in one process: tests/web/test_front_polls.py)."""

from __future__ import annotations

import pytest


def test_a_server_that_cannot_have_its_port_leaves_the_running_ones_folder(tmp_path, monkeypatch):
    """``make run-https`` started twice: the second stops at the port the first holds,
    and must not remove the first's answers for the front on its way out."""
    import socket

    from scorekeeper.server import serve
    from scorekeeper.server import front_polls

    if not front_polls.MEMORY.is_dir():
        pytest.skip("no /dev/shm on this machine")
    instance = tmp_path / "instance"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(instance))
    folder = front_polls.default_folder(instance)
    held = socket.socket()
    try:
        held.bind(("127.0.0.1", 0))
        held.listen()
        with pytest.raises(OSError):
            serve.main(
                ["--host", "127.0.0.1", "--port", str(held.getsockname()[1]), "--front", "https://localhost:8443"]
            )
        assert folder.is_dir()
    finally:
        held.close()
        front_polls.remove_memory_folder(folder)
