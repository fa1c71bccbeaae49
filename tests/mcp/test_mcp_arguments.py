"""An argument no tool takes is refused by name over stdio, for every tool (issue 18: `log`
for `logs` answered "nothing to diagnose"): the error names it, the nearest accepted
name, and every accepted one; the input schemas say no other property is allowed."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import ClientSession
from mcp_session import text_of, with_server

from trainwreck.mcp_server.inputs import MAX_NAMES_SHOWN, ToolInputError, known_arguments

# Each tool with its required arguments, and a misspelt or made-up extra one.
CALLS: dict[str, tuple[dict[str, Any], str]] = {
    "diagnose_failure": ({}, "log"),
    "search_knowledge": ({"query": "NCCL watchdog timeout"}, "contexts"),
    "get_page": ({"page_id": "cuda-oom-activations"}, "id"),
    "query_hyperparameter_priors": ({"query": "learning rate for LoRA"}, "framework"),
    "propose_hypothesis": ({"current_status": "loss NaN at step 1200"}, "experiments"),
    "check_config": ({"config": "learning_rate: 2e-5"}, "framework_version"),
    "estimate_memory": ({"model": "Qwen/Qwen3-8B"}, "batch"),
    "triage": ({"paths": ["runs"]}, "baseline"),
    "compare_runs": ({"good": "a", "bad": "b"}, "worse"),
    "check_answer": ({"answer": "## Diagnosis"}, "logs"),
}


async def _calls(session: ClientSession) -> dict[str, Any]:
    listed = {tool.name: tool.input_schema for tool in (await session.list_tools()).tools}
    answers = {}
    for tool, (required, extra) in CALLS.items():
        result = await session.call_tool(tool, {**required, extra: "x"})
        answers[tool] = (bool(result.is_error), text_of(result))
    typo = await session.call_tool("diagnose_failure", {"log": "RuntimeError: boom"})
    two = await session.call_tool("get_page", {"page_id": "x", "pageid": "y", "zz": 1})
    return {"schemas": listed, "answers": answers, "typo": text_of(typo), "two": text_of(two)}


def test_every_tool_refuses_an_unknown_argument_by_name() -> None:
    found = with_server()(_calls)
    assert set(found["answers"]) == set(found["schemas"]) == set(CALLS)
    for tool, (is_error, message) in found["answers"].items():
        extra = CALLS[tool][1]
        accepted = list(found["schemas"][tool]["properties"])
        assert is_error, (tool, message)
        assert len(message.splitlines()) == 1, message
        assert f"unknown argument {extra!r}" in message, message
        assert f"accepted: {', '.join(accepted)}" in message, message
        assert found["schemas"][tool]["additionalProperties"] is False
    assert "unknown argument 'log' (did you mean 'logs'?)" in found["typo"]
    assert "nothing to diagnose" not in found["typo"]
    assert "unknown arguments 'pageid', 'zz'" in found["two"]
    assert "(did you mean 'page_id'?)" in found["two"]


@pytest.mark.parametrize(("count", "more"), [(4, None), (5, None), (6, "and 1 more")])
def test_at_most_five_unknown_names_are_quoted(count: int, more: str | None) -> None:
    names = [f"extra{n}" for n in range(count)]
    with pytest.raises(ToolInputError) as raised:
        known_arguments(names, ["page_id"])
    message = str(raised.value)
    assert [name for name in names if repr(name) in message] == names[:MAX_NAMES_SHOWN]
    assert (more in message) if more else ("more" not in message)


def test_a_huge_argument_name_is_not_echoed() -> None:
    with pytest.raises(ToolInputError) as raised:
        known_arguments(["x" * 2**20], ["logs"])
    assert len(str(raised.value)) < 400 and "(1,048,576 chars)" in str(raised.value)
    known_arguments(["logs"], ["logs"])  # a known one passes
