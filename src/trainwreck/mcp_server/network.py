"""No network unless the server was started with --online, and loopback-only HTTP by default.

The library is offline already; this makes it a guarantee for the server
process: an audit hook refuses every outbound connection and name lookup to
anything but loopback, whatever code (ours or a dependency's) attempts it.
"""

from __future__ import annotations

import ipaddress
import sys
from typing import Any

from trainwreck.errors import UsageError

_LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


def is_loopback(host: str) -> bool:
    """True for 127.0.0.0/8, ::1 and the usual names for them."""
    if host.lower() in _LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def forbid_network(bind_host: str | None = None) -> None:
    """Refuse non-loopback connections and lookups for the rest of this process.

    `bind_host`, the address `--http` listens on, may still be resolved: binding
    a listening socket sends nothing anywhere.
    """
    allowed = {bind_host} if bind_host else set()

    def guard(event: str, args: tuple[Any, ...]) -> None:
        if event == "socket.connect":
            address = args[1]
            host = address[0] if isinstance(address, tuple) else None
        elif event == "socket.getaddrinfo":
            host = args[0]
            host = host.decode() if isinstance(host, bytes) else host
            if host in allowed:
                return
        else:
            return
        if host is not None and not is_loopback(str(host)):
            raise PermissionError(
                f"trainwreck mcp: network access to {host} refused (start the server with --online)"
            )

    sys.addaudithook(guard)


def parse_http(text: str, allow_remote: bool) -> tuple[str, int]:
    """`HOST:PORT` for the streamable HTTP transport; a non-loopback host needs allow_remote."""
    host, sep, port_text = text.rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise UsageError(f"--http {text}: give HOST:PORT, e.g. 127.0.0.1:8765")
    if not allow_remote and not is_loopback(host):
        raise UsageError(
            f"--http {text}: {host} is not a loopback address; the server has no authentication, "
            "so binding it to a network needs --allow-remote"
        )
    return host, int(port_text)
