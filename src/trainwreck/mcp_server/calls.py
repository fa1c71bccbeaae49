"""How every tool call is checked and answered, whichever tool it is, and stdio served.

Before a tool runs: an argument it does not take is refused by name. After: a
TrainwreckError or a bug becomes one error line, and every answer passes the
redaction net and then the size cap (`bounded.py`).
"""

from __future__ import annotations

from typing import Any, cast

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import ValidationError

from trainwreck.errors import TrainwreckError, internal_error
from trainwreck.mcp_server import answers
from trainwreck.mcp_server.bounded import cap_answer, cap_error
from trainwreck.mcp_server.framing import serve_stdio
from trainwreck.mcp_server.inputs import ToolInputError, known_arguments
from trainwreck.redact import redact, redact_data


class Server(MCPServer[Any]):
    """MCPServer whose argument-validation errors read as one line the agent can act on,
    and which refuses arguments its tools do not take instead of dropping them."""

    async def run_stdio_async(self) -> None:
        """stdio, with a JSON-RPC error reply to a malformed line (see framing.py)."""
        await serve_stdio(self)

    def close_schemas(self) -> None:
        """Say in every tool's input schema that no other argument is accepted."""
        for tool in self._tool_manager.list_tools():
            tool.parameters["additionalProperties"] = False

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        tool = self._tool_manager.get_tool(name)
        if tool is not None:
            try:
                known_arguments(arguments or {}, list(tool.parameters.get("properties", {})))
            except ToolInputError as exc:
                raise ToolError(cap_error(redact(f"Error executing tool {name}: {exc}"))) from exc
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(f"Error executing tool {name}: {_first_problem(cause)}") from cause
            raise


def _first_problem(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "arguments"
    if first["type"] == "missing":
        return f"missing required argument {where!r}"
    return f"argument {where!r}: {first['msg']}"


def result(tool: str, run: Any, *args: Any) -> CallToolResult:
    """Run an answer; a TrainwreckError becomes a tool error with its first line, and
    any other exception (a bug of ours) one line saying so, never an opaque failure.

    Every answer and error passes the redaction net here, whatever the tool echoes,
    and then the size cap.
    """
    try:
        answer: answers.Answer = run(*args)
    except TrainwreckError as exc:
        raise ToolError(cap_error(redact(answers.one_line(exc)))) from exc
    except Exception as exc:  # the server's last resort, as the CLI's exit status 3
        raise ToolError(cap_error(redact(internal_error(exc)))) from exc
    data = cast(dict[str, Any], redact_data(answer.data))
    markdown, data = cap_answer(tool, redact(answer.markdown), data)
    return CallToolResult(
        content=[TextContent(type="text", text=markdown)], structured_content=data
    )
