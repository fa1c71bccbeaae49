"""The `check_answer` tool's body: an agent's own diagnosis against the rules, before it shows it.

Evidence paths are read only under the --allow roots, as every other tool's paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from trainwreck.answer_check import check_answer as run_rules
from trainwreck.answer_check.render import to_data, to_markdown
from trainwreck.mcp_server.answers import Answer
from trainwreck.mcp_server.inputs import Policy, ToolInputError, text_argument


def check_answer(policy: Policy, answer: str, evidence: Sequence[str] | None = None) -> Answer:
    """`trainwreck check-answer` on the answer's text: each rule pass or fail, with its line."""
    text = text_argument("answer", answer)
    if not text or not text.strip():
        raise ToolInputError("answer is empty: pass the Markdown diagnosis to check")
    paths = [Path(path) for path in policy.paths(evidence)] if evidence else []
    checked = run_rules(text, paths)
    return Answer(to_markdown(checked), to_data(checked))
