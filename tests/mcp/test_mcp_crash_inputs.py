"""MCP `check_config` on the inputs that crashed it (issue 16): a one-line answer each.

Before, each ended in an opaque "Error executing tool" with an exception's text;
now a refused input is a tool error of one line naming the limit, over stdio with
the SDK client.
"""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest
from mcp import ClientSession
from mcp.server.mcpserver.exceptions import ToolError
from mcp_session import with_server

from trainwreck.mcp_server.inputs import Policy
from trainwreck.mcp_server.server import build

BIG_INT = "9" * 400
TEXTS = {
    "json-980-deep": '{"a":' * 980 + "1" + "}" * 980,
    "yaml-recursive-alias": "a: &x {b: *x}\n",
    "yaml-deep": "a: " + "[" * 980 + "]" * 980 + "\n",
    "bigint-values": f"learning_rate: {BIG_INT}\nwarmup_steps: [{BIG_INT}]\n",
    "version-5000-digits": "torch==2." + "1" * 5000 + "\n",
}


def test_check_config_answers_one_line_for_each_crash_input() -> None:
    async def body(session: ClientSession) -> dict[str, tuple[bool, str]]:
        answers = {}
        for name, text in TEXTS.items():
            result = await session.call_tool("check_config", {"config": text})
            first = result.content[0]
            answers[name] = (bool(result.is_error), getattr(first, "text", ""))
        return answers

    answers = with_server()(body)
    for name, (is_error, text) in answers.items():
        assert "Traceback" not in text and "internal error" not in text, (name, text)
        if is_error:
            assert len(text.strip().splitlines()) == 1, (name, text)
    assert "nested deeper than" in answers["json-980-deep"][1]
    assert "nested deeper than" in answers["yaml-recursive-alias"][1]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("search_knowledge", {"query": "CUDA out of memory \udcff"}),
        ("check_config", {"config": "learning_rate: 2e-5\nlr_\udcff: 1\n"}),
        ("diagnose_failure", {"logs": "RuntimeError: CUDA error\n", "symptoms": "NaN \ud800"}),
    ],
)
def test_a_lone_surrogate_in_an_argument_is_answered(tool: str, arguments: dict[str, str]) -> None:
    """Found by the MCP fuzzing pass through the server's call_tool: a lone surrogate (a
    JSON "\\udcff" escape) crashed the redaction net with UnicodeEncodeError."""
    server = build(Policy())
    result = anyio.run(server.call_tool, tool, arguments)
    text = result.content[0].text
    assert not result.is_error, text
    text.encode("utf-8")  # the answer can be sent


@pytest.mark.parametrize(
    ("tool", "argument"),
    [("estimate_memory", "model"), ("diagnose_failure", "paths"), ("estimate_memory", "")],
)
def test_a_name_past_name_max_is_refused_in_one_line(
    tmp_path: Path, tool: str, argument: str
) -> None:
    """Found by the MCP fuzzing pass over stdio (a mutated `model`): a file name past
    NAME_MAX (255) made Path.exists and Path.is_dir raise ENAMETOOLONG, an internal error."""
    long = str(tmp_path / ("x" * 300))
    arguments = {"paths": [long]} if argument == "paths" else {"model": long}
    if not argument:
        arguments = {"model": "t step,loss 1," + "x" * 300}  # no path: not under a root
    server = build(Policy.from_options([str(tmp_path)], online=False))
    with pytest.raises(ToolError) as raised:  # a refusal: the transport answers isError
        anyio.run(server.call_tool, tool, arguments)
    text = str(raised.value)
    assert len(text.splitlines()) == 1, text
    assert "internal error" not in text and "a bug in trainwreck" not in text, text
