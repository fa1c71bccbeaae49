"""The `check_answer` tool over stdio from the SDK's real client: an answer's rules as
structured content, evidence paths only under --allow, an empty answer refused."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp_session import CASES, ROOT, structured, text_of, with_server

from trainwreck.curation.cases import load_case

ANSWERS = ROOT / "tests" / "answer_check" / "answers" / "free"
CLEAN = ANSWERS / "clean-vllm-kv-cache.md"
BROKEN = ANSWERS / "broken-unknown-key.md"
CASE = CASES / "vllm-max-model-len-bonito-7"


def test_the_mcp_tool_checks_an_answer_and_refuses_evidence_outside_allow(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    for source in load_case(CASE).inputs:
        (allowed / source.name).write_bytes(source.read_bytes())

    async def body(session: ClientSession) -> dict[str, Any]:
        return {
            "clean": await session.call_tool(
                "check_answer", {"answer": CLEAN.read_text(), "evidence": [str(allowed)]}
            ),
            "broken": await session.call_tool("check_answer", {"answer": BROKEN.read_text()}),
            "outside": await session.call_tool(
                "check_answer", {"answer": CLEAN.read_text(), "evidence": [str(CASE)]}
            ),
            "empty": await session.call_tool("check_answer", {"answer": " "}),
        }

    calls = with_server("--allow", str(allowed))(body)
    assert structured(calls["clean"])["passed"] is True
    assert structured(calls["clean"])["evidence"] == [str(allowed.resolve())]
    broken = structured(calls["broken"])
    assert [r["rule"] for r in broken["results"] if not r["passed"]] == ["unknown-key"]
    assert "FAIL `unknown-key` line 26" in text_of(calls["broken"])
    for refused, says in (("outside", "outside the allowed paths"), ("empty", "answer is empty")):
        assert calls[refused].is_error and says in text_of(calls[refused])
