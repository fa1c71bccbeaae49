"""`trainwreck mcp --http`: the streamable HTTP transport on loopback, with the SDK's client."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import anyio
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_session import ROOT, text_of


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _wait_for(port: int, server: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        assert server.poll() is None, server.stderr.read().decode() if server.stderr else ""
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listened on port {port} within 30 s")


def test_the_http_transport_serves_the_same_tools_on_loopback() -> None:
    port = _free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "trainwreck", "mcp", "--http", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=dict(os.environ),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        _wait_for(port, server)

        async def talk() -> tuple[set[str], str]:
            async with (
                streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                tools = {tool.name for tool in (await session.list_tools()).tools}
                page = await session.call_tool("get_page", {"page_id": "nccl-watchdog-timeout"})
                return tools, text_of(page)

        tools, page = anyio.run(talk)
    finally:
        server.terminate()
        server.wait(timeout=10)
    assert "diagnose_failure" in tools and len(tools) == 10
    assert "`kb:nccl-watchdog-timeout`" in page and "](https://" in page
