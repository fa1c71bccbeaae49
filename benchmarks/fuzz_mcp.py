"""The MCP paths of the mutation fuzzer (fuzz.py): mutated inputs given to the MCP tools.

`in_process` calls the server `trainwreck mcp` builds, through its own `call_tool`
(argument checks, the tool, the redaction net, the size cap), with each mutated
input as the text or path argument of a tool that takes one. `Stdio` talks raw
bytes to a real `trainwreck mcp` process: JSON-RPC lines mutated byte by byte and
calls with oversized arguments, each followed by a ping that must be answered.

A bug shows as an exception raised here: the server's last resort turns one into
a tool error naming REPORT_HINT, and this module raises its cause again.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult

from trainwreck.errors import REPORT_HINT
from trainwreck.mcp_server.inputs import Policy
from trainwreck.mcp_server.server import build

FRAMEWORKS = (None, "transformers", "trl", "peft", "accelerate", "deepspeed", "vllm")
# Arguments past the server's input limits (inputs.py): 50 MB of log text (the limit is
# 20 MiB), 100k paths (1,000), 10 MiB ids and texts (200 and 200,000 characters).
OVERSIZED: tuple[Callable[[], tuple[str, dict[str, Any]]], ...] = (
    lambda: ("diagnose_failure", {"logs": "RuntimeError: x\n" * (50 * 10**6 // 16)}),
    lambda: ("diagnose_failure", {"paths": [f"/runs/rank{n}.log" for n in range(100_000)]}),
    lambda: ("get_page", {"page_id": "x" * 2**20 * 10}),
    lambda: ("check_config", {"config": "a: 1\n" * (2**20 * 2)}),
    lambda: ("search_knowledge", {"query": "CUDA out of memory " * 2**19}),
)
OVERSIZED_SHARE = 0.05  # of stdio inputs; each costs a second or two of the server's time


def tool_calls(name: str, data: bytes, path: Path, rng: random.Random) -> list[tuple[str, Any]]:
    """The tool calls that take this input as text or as a path, by what its name says."""
    # surrogateescape keeps undecodable bytes as lone surrogates, as a JSON "\udcxx" gives
    text = data.decode("utf-8", errors=rng.choice(("replace", "surrogateescape")))
    plain = name.removesuffix(".gz").removesuffix(".xz")
    by_path = ("diagnose_failure", {"paths": [str(path)]})
    words = text[: rng.choice((50, 300, 5_000))]
    calls: list[tuple[str, Any]] = [
        by_path,
        ("search_knowledge", {"query": words, "context": text[:100] or None}),
        ("get_page", {"page_id": text[: rng.choice((20, 200))]}),
        ("query_hyperparameter_priors", {"query": words, "framework_versions": {"torch": words}}),
    ]
    if plain.endswith((".yaml", ".yml", ".toml", ".json")) and "trainer_state" not in plain:
        framework = rng.choice(FRAMEWORKS)
        calls.append(("check_config", {"config": text, "framework": framework}))
        calls.append(("estimate_memory", {"model": str(path), "batch_size": 1}))
    else:
        calls.append(("diagnose_failure", {"logs": text, "symptoms": text[:200]}))
        status = {"current_status": text[:500], "recent_experiments": text.splitlines()[:20]}
        calls.append(("propose_hypothesis", {**status, "logs": text}))
    return calls


def _raise_bug(error: BaseException) -> None:
    """Raise what the server's last resort caught, so the fuzzer names its frame."""
    cause = error.__cause__
    while isinstance(cause, ToolError):  # the SDK wraps the server's tool error again
        cause = cause.__cause__
    raise cause if isinstance(cause, Exception) else RuntimeError(str(error)[:200])


def in_process(server: Any, tool: str, arguments: dict[str, Any]) -> None:
    """One call through the server's own call_tool; a refusal is fine, a bug raises."""
    try:
        result = anyio.run(server.call_tool, tool, arguments)
    except ToolError as error:
        if REPORT_HINT in str(error) or type(error).__name__ == "UnexpectedToolError":
            _raise_bug(error)
        return
    if isinstance(result, CallToolResult) and result.is_error:
        text = getattr(result.content[0], "text", "")
        if REPORT_HINT in text:
            raise RuntimeError(text[:200])


def server_for(folder: str) -> Any:
    """The server `trainwreck mcp --allow FOLDER` serves."""
    return build(Policy.from_options([folder], online=False))


class ServerError(RuntimeError):
    """The stdio server died, or answered a call with an internal error."""


class Stdio:
    """A real `trainwreck mcp --allow FOLDER` process, spoken to in raw JSON-RPC lines."""

    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.process: subprocess.Popen[bytes] | None = None
        self.peak_kib = 0  # the largest VmHWM of any server this session started
        self.next_id = 0

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "trainwreck", "mcp", "--allow", self.folder],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "TRAINWRECK_DEBUG": ""},  # the server's own last resort
        )
        init = {"protocolVersion": "2025-06-18", "capabilities": {}}
        init["clientInfo"] = {"name": "fuzz", "version": "0"}
        self._answer({self._request("initialize", init)})
        self._send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}\n')

    def line(
        self, tool: str, arguments: Any, rng: random.Random, mutate: Callable[[bytes], bytes]
    ) -> str:
        """Send one tools/call line, mutated or oversized, then a ping; what was sent."""
        if self.process is None or self.process.poll() is not None:
            self.start()
        kind = "call"
        if rng.random() < OVERSIZED_SHARE:
            tool, arguments = rng.choice(OVERSIZED)()
            kind = "oversized"
        self.next_id += 1
        call = {"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call"}
        call["params"] = {"name": tool, "arguments": arguments}
        raw = json.dumps(call).encode("utf-8", errors="surrogatepass")
        if kind == "call" and rng.random() < 0.5:
            raw, kind = mutate(raw).replace(b"\n", b" "), "mutated"
        self._send(raw + b"\n")
        ping = self._request("ping", {})
        self._answer({ping} if kind == "mutated" else {ping, ping - 1}, ping - 1)
        return f"{kind} {tool}"

    def stop(self) -> None:
        if self.process is None:
            return
        self._measure()
        self.process.kill()
        self.process.wait()
        self.process = None

    def _request(self, method: str, params: dict[str, Any]) -> int:
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}
        self._send(json.dumps(message).encode() + b"\n")
        return self.next_id

    def _send(self, raw: bytes) -> None:
        assert self.process is not None and self.process.stdin is not None
        try:
            self.process.stdin.write(raw)
            self.process.stdin.flush()
        except BrokenPipeError:
            raise self._died() from None

    def _answer(self, wanted: set[int], call: int | None = None) -> None:
        """Read replies until each of `wanted` is answered; an internal error on the way
        raises. Blocks until then: the fuzzer's alarm bounds the wait. (A mutated line
        may have lost its id: its reply is checked whenever it comes. A call the server
        could not parse, e.g. for a lone surrogate escape, is answered with id null.)"""
        assert self.process is not None and self.process.stdout is not None
        while wanted:
            reply_line = self.process.stdout.readline()
            if not reply_line:
                raise self._died()
            reply = json.loads(reply_line)
            _check(reply)
            answered = reply.get("id")
            wanted.discard(call if answered is None and "error" in reply else answered)
        self._measure()

    def _measure(self) -> None:
        assert self.process is not None
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                self.peak_kib = max(self.peak_kib, int(line.split()[1]))

    def _died(self) -> ServerError:
        assert self.process is not None
        code = self.process.wait()
        self.process = None
        return ServerError(f"the server exited with status {code}")


def _check(reply: dict[str, Any]) -> None:
    """A JSON-RPC internal error, or a tool error from the last resort, is a bug."""
    error = reply.get("error") or {}
    if error.get("code") == -32603:
        raise ServerError(f"JSON-RPC internal error: {str(error.get('message'))[:150]}")
    result = reply.get("result") or {}
    for item in result.get("content") or []:
        if result.get("isError") and REPORT_HINT in str(item.get("text", "")):
            raise ServerError(str(item["text"])[:150])
