"""Every MCP answer fits a byte cap, and a shortened one says so and how to get the rest.

An agent's client refuses or sets aside a tool result past its own limit: Claude
Code warns above 10,000 tokens and by default refuses more than 25,000
(MAX_MCP_OUTPUT_TOKENS; https://code.claude.com/docs/en/mcp, "MCP output limits
and warnings"). So the Markdown and the structured content together stay under
MAX_ANSWER_BYTES; lists are cut from their end (they are ranked best first) and
long strings from theirs, and the answer names what was cut.
"""

from __future__ import annotations

import json
from typing import Any

# 25,000 tokens at about 4 bytes per token of English text or JSON. The largest answer
# over the 149 real cases (a diagnosis of two FSDP runs) is 75 KB, so none is cut.
MAX_ANSWER_BYTES = 100_000
# An error is one line; Claude Code cuts error text near 11,000 characters.
MAX_ERROR_CHARS = 1_000
_MIN_STRING_CHARS = 200  # strings shorter than this are never cut: ids, keys, numbers
_STRING_CUT = " ... [cut]"
_NOTE_BYTES = 1_000  # room kept for the note and the `truncated` entry themselves
_CUTS_LISTED = 10  # where the data was cut, as paths

# How to get the whole answer, per tool: the CLI gives the same answer without a cap.
FULL_ANSWER = {
    "diagnose_failure": "run `trainwreck diagnose PATHS --format json -o report.json` (save "
    "pasted logs to a file first) for the whole report, or pass fewer paths or a shorter log",
    "search_knowledge": "use a shorter, more specific query, or `trainwreck kb search QUERY`",
    "get_page": "run `trainwreck kb show PAGE_ID`",
    "query_hyperparameter_priors": "ask about one knob and one method at a time",
    "propose_hypothesis": "pass a shorter status and log, or use diagnose_failure",
    "check_config": "run `trainwreck check CONFIG --format json` for every problem, or check "
    "the config in parts",
    "estimate_memory": "run `trainwreck memory` with the same settings",
    "triage": "run `trainwreck triage PATHS --format json -o triage.json` for every group",
    "compare_runs": "run `trainwreck compare GOOD BAD --format json` for every change",
}


def _size(value: object) -> int:
    return len(json.dumps(value, ensure_ascii=False).encode("utf-8"))


def cap_answer(tool: str, markdown: str, data: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The answer unchanged when it fits MAX_ANSWER_BYTES, else cut to fit, saying so."""
    total = len(markdown.encode("utf-8")) + _size(data)
    if total <= MAX_ANSWER_BYTES:
        return markdown, data
    budget = MAX_ANSWER_BYTES - _NOTE_BYTES
    markdown_budget = max(budget // 2, budget - _size(data))
    how = FULL_ANSWER.get(tool, "ask for less")
    note = (
        f"\n\n[truncated: this answer is {total:,} bytes and MCP answers are capped at "
        f"{MAX_ANSWER_BYTES:,}; to get all of it, {how}.]\n"
    )
    markdown = _cut_markdown(markdown, markdown_budget) + note
    cut: list[str] = []
    trimmed = _cut_data(data, budget - len(markdown.encode("utf-8")), cut)
    truncated = {"bytes": total, "limit": MAX_ANSWER_BYTES, "cut": cut[:_CUTS_LISTED], "full": how}
    trimmed["truncated"] = truncated
    if len(markdown.encode("utf-8")) + _size(trimmed) > MAX_ANSWER_BYTES:
        trimmed = {"truncated": truncated}  # nothing cuttable left (a mapping of many keys)
    return markdown, trimmed


def cap_error(message: str) -> str:
    """One error line of at most MAX_ERROR_CHARS (an argument it quotes can be huge)."""
    if len(message) <= MAX_ERROR_CHARS:
        return message
    return f"{message[:MAX_ERROR_CHARS]}... ({len(message):,} chars)"


def _cut_markdown(markdown: str, budget: int) -> str:
    """The head of `markdown` within `budget` bytes, at a line end unless that loses half
    of it, with code fences closed."""
    head = markdown.encode("utf-8")[:budget].decode("utf-8", errors="ignore")
    line_end = head.rfind("\n")
    head = head[: line_end + 1] if line_end >= len(head) // 2 else head  # one huge line: mid-line
    fences = sum(1 for line in head.splitlines() if line.lstrip().startswith("```"))
    return head + ("```\n" if fences % 2 else "")


def _cut_data(data: dict[str, Any], budget: int, cut: list[str]) -> dict[str, Any]:
    """Shorten the largest list or string until `data` fits `budget` bytes."""
    data = json.loads(json.dumps(data))  # a copy to cut, never the caller's
    while (size := _size(data)) > budget:
        candidates: list[tuple[int, list[Any]]] = []
        _measure(data, [], candidates)
        if not candidates:
            break
        largest, path = max(candidates, key=lambda item: item[0])
        _shorten(data, path, largest - (size - budget))
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)[1:201]
        cut.extend([where] if where not in cut else [])
    return data


def _measure(node: object, path: list[Any], out: list[tuple[int, list[Any]]]) -> int:
    """The JSON size of `node`; every list of 2+ items and long string goes into `out`."""
    if isinstance(node, dict):
        size = 2 + sum(_size(k) + 2 + _measure(v, [*path, k], out) for k, v in node.items())
    elif isinstance(node, list):
        size = 2 + sum(2 + _measure(v, [*path, i], out) for i, v in enumerate(node))
        if len(node) > 1:
            out.append((size, path))
    else:
        size = _size(node)
        if isinstance(node, str) and len(node) > _MIN_STRING_CHARS:
            out.append((size, path))
    return size


def _shorten(data: Any, path: list[Any], target: int) -> None:
    """Cut the list or string at `path` to about `target` bytes, and at least by half."""
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    node = parent[path[-1]]
    share = max(0.0, min(0.5, target / max(_size(node), 1)))
    if isinstance(node, list):
        parent[path[-1]] = node[: max(1, int(len(node) * share))]
    else:
        keep = max(_MIN_STRING_CHARS // 2, int(len(node) * share))
        parent[path[-1]] = node[:keep] + _STRING_CUT
