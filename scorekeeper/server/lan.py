"""This machine's address on the local network, for the link phones open."""

from __future__ import annotations

import ipaddress
import socket
import subprocess
from functools import lru_cache


@lru_cache(maxsize=1)
def lan_address() -> str | None:
    """The first private IPv4 address of this machine, or None (no packets sent)."""
    candidates = []
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout
        candidates += out.split()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        candidates += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    for text in candidates:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if address.version == 4 and address.is_private and not address.is_loopback:
            return text
    return None
