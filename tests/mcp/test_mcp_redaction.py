"""The MCP server's answers hold no planted secret, whatever tool echoes the input.

`diagnose_failure` by text and by path, `check_config` and `propose_hypothesis`
(which quotes the experiments back) get the forms of `redaction_battery.py`,
over stdio from the SDK's real client.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession
from mcp_session import text_of, with_server

from redaction_battery import SECRETS, SYMPTOMS, write_run


async def _calls(session: ClientSession, files: dict[str, Path]) -> dict[str, Any]:
    logs = files["log"].read_text(encoding="utf-8")
    return {
        "diagnose_failure (text)": await session.call_tool(
            "diagnose_failure", {"logs": logs, "symptoms": SYMPTOMS}
        ),
        "diagnose_failure (paths)": await session.call_tool(
            "diagnose_failure", {"paths": [str(files["yaml"].parent)], "symptoms": SYMPTOMS}
        ),
        "check_config": await session.call_tool(
            "check_config", {"config": files["yaml"].read_text(encoding="utf-8")}
        ),
        "propose_hypothesis": await session.call_tool(
            "propose_hypothesis",
            {"current_status": SYMPTOMS, "recent_experiments": [SYMPTOMS], "logs": logs},
        ),
        "an error naming a path": await session.call_tool(
            "diagnose_failure", {"paths": [str(files["log"].with_suffix(".missing"))]}
        ),
    }


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    files = write_run(tmp_path_factory.mktemp("run"))
    calls = with_server("--allow", str(files["yaml"].parent))(lambda s: _calls(s, files))
    return {
        name: text_of(result) + json.dumps(result.structured_content or {})
        for name, result in calls.items()
    }


@pytest.mark.parametrize(
    "tool",
    [
        "diagnose_failure (text)",
        "diagnose_failure (paths)",
        "check_config",
        "propose_hypothesis",
        "an error naming a path",
    ],
)
def test_no_planted_secret_reaches_an_answer(answers: dict[str, str], tool: str) -> None:
    assert [secret for secret in SECRETS if secret in answers[tool]] == []


def test_names_are_shown_redacted_and_the_diagnosis_is_still_made(answers: dict[str, str]) -> None:
    # The inputs list and an error both name the log, whose name holds a token.
    for tool in ("diagnose_failure (paths)", "an error naming a path"):
        assert "worker-<redacted:hf-token>" in answers[tool]
    for tool in ("diagnose_failure (text)", "diagnose_failure (paths)"):
        assert "fp16-loss-scale-collapse" in answers[tool]
