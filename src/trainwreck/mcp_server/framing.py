"""stdio serving where a malformed JSON-RPC line gets the protocol's error reply, not silence.

The SDK's stdio transport (mcp 2.3.0, `mcp/server/stdio.py`, `stdin_reader`) turns a
line it cannot validate into an Exception on the read stream, and the server's
dispatcher drops it: `mcp/shared/jsonrpc_dispatcher.py`, `_dispatch`: "if
self.on_stream_exception is None: logger.debug(...); return" (only the client
session sets that observer). A client that sent a broken line then waits forever.
So this thin layer sits between the transport and the server: it answers those
items itself (JSON-RPC 2.0, section 5.1: -32700 for invalid JSON, -32600 for JSON
that is no valid message, with the request's id when it can be read) and passes
every valid message through unchanged.
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared._context_streams import create_context_streams
from mcp.shared.message import SessionMessage
from mcp_types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError
from pydantic import ValidationError

from trainwreck.mcp_server.inputs import MAX_ID_CHARS
from trainwreck.redact import redact

MAX_ECHO_CHARS = 100  # how much of a bad line the error's data quotes back


async def serve_stdio(server: MCPServer[Any]) -> None:
    """Serve `server` over stdin/stdout as `MCPServer.run_stdio_async` does, plus the replies."""
    lowlevel = server._lowlevel_server  # what run_stdio_async serves, the same way
    async with stdio_server() as (read_stream, write_stream):
        relay_send, relay_receive = create_context_streams[SessionMessage | Exception](0)

        async def relay() -> None:
            async with relay_send:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        await _reply(write_stream, item)
                    else:
                        await relay_send.send(item)

        async with anyio.create_task_group() as group:
            group.start_soon(relay)
            await lowlevel.run(
                relay_receive, write_stream, lowlevel.create_initialization_options()
            )


async def _reply(write_stream: Any, error: Exception) -> None:
    reply = error_reply(error)
    if reply is None:
        return
    with suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):  # the server stopped
        await write_stream.send(SessionMessage(reply))


def error_reply(error: Exception) -> JSONRPCError | None:
    """The JSON-RPC error for a line the transport could not read; None for a blank line."""
    problems = error.errors() if isinstance(error, ValidationError) else []
    raw = problems[0].get("input") if problems else None
    if isinstance(raw, str) and not raw.strip():
        return None
    if not problems or any(problem["type"] == "json_invalid" for problem in problems):
        shown = redact(raw[:MAX_ECHO_CHARS]) if isinstance(raw, str) else None
        data = {"line": shown} if shown else None
        return JSONRPCError(
            jsonrpc="2.0",
            id=None,
            error=ErrorData(code=PARSE_ERROR, message="Parse error: not valid JSON", data=data),
        )
    return JSONRPCError(
        jsonrpc="2.0",
        id=_request_id(problems),
        error=ErrorData(
            code=INVALID_REQUEST,
            message="Invalid Request: valid JSON, but not a JSON-RPC 2.0 request, "
            "notification or response",
        ),
    )


def _request_id(problems: list[Any]) -> int | str | None:
    """The id of a message that is an object with a usable `id`, else None (as 5.1 says);
    an id past MAX_ID_CHARS is not echoed back."""
    for problem in problems:
        message = problem.get("input")
        if isinstance(message, dict):
            found = message.get("id")
            if isinstance(found, str) and len(found) <= MAX_ID_CHARS:
                return found
            if isinstance(found, int) and not isinstance(found, bool):
                return found
    return None
