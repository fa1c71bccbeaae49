"""Talk to a real `trainwreck mcp` subprocess with the SDK's stdio client."""

from __future__ import annotations

import os
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import anyio
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.types import CallToolResult

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"
T = TypeVar("T")


def with_server(*options: str) -> Callable[[Callable[[ClientSession], Awaitable[T]]], T]:
    """Run `body(session)` against `python -m trainwreck mcp OPTIONS`, then stop the server."""

    def runner(body: Callable[[ClientSession], Awaitable[T]]) -> T:
        async def main() -> T:
            server = StdioServerParameters(
                command=sys.executable,
                args=["-m", "trainwreck", "mcp", *options],
                env=dict(os.environ),  # keeps the suite's private cache directory
                cwd=ROOT,
            )
            with open(os.devnull, "w") as quiet:
                async with (
                    stdio_client(server, errlog=quiet) as (read, write),
                    ClientSession(read, write) as session,
                ):
                    await session.initialize()
                    return await body(session)

        return anyio.run(main)

    return runner


def text_of(result: CallToolResult) -> str:
    first = result.content[0]
    assert first.type == "text"
    return first.text


def structured(result: CallToolResult) -> dict[str, Any]:
    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    return result.structured_content
