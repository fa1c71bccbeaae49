"""No terminal control sequence reaches an MCP answer raw (mcp16, issue 16 item 5): a real
traceback with OSC 52/OSC 8/BEL/backspace/8-bit CSI planted in its lines, in the symptoms
and in a file name, over stdio with the SDK's client; the diagnosis is still made."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp_session import CASES, structured, text_of, with_server

from trainwreck.curation.cases import load_case

CASE = load_case(CASES / "minimind-deepspeed-cuda-home-48")
RAW_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
CLIPBOARD = "\x1b]52;c;cHduZWQ=\x07"
LINK = "\x1b]8;;https://evil.example/\x1b\\"


def _hostile(text: str) -> str:
    """Every line wrapped in a clipboard write, a link, colour, a bell, backspaces, 8-bit CSI."""
    return "\n".join(
        f"{CLIPBOARD}{LINK}\x1b[1;31m{line}\x1b[0m\x07\x08\x08\x9b2J" if line else line
        for line in text.splitlines()
    )


def test_no_control_sequence_reaches_an_mcp_answer(tmp_path: Path) -> None:
    logs = _hostile(CASE.inputs[0].read_text(encoding="utf-8"))
    named = tmp_path / f"rank0{CLIPBOARD}.log"
    named.write_text(logs, encoding="utf-8")

    async def body(session: ClientSession) -> dict[str, Any]:
        symptoms = f"{LINK}deepspeed build fails\x07\u202e"
        return {
            "text": await session.call_tool(
                "diagnose_failure", {"logs": logs, "symptoms": symptoms}
            ),
            "path": await session.call_tool("diagnose_failure", {"paths": [str(named)]}),
            "status": await session.call_tool("propose_hypothesis", {"current_status": symptoms}),
        }

    results = with_server("--allow", str(tmp_path))(body)
    for name, result in results.items():
        answer = text_of(result) + json.dumps(structured(result), ensure_ascii=False)
        assert not RAW_CONTROL.search(answer), (name, set(RAW_CONTROL.findall(answer)))
        assert "cHduZWQ" not in answer and "evil.example" not in answer, name
    for name in ("text", "path"):
        assert structured(results[name])["hypotheses"][0]["id"] == CASE.top_pattern
    shown = json.dumps(structured(results["text"])["hypotheses"][0]["evidence"])
    assert "\\\\x07\\\\x08\\\\x08" in shown  # shown escaped (in JSON: doubled), not obeyed
