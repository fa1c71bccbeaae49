"""Every MCP answer stays under MAX_ANSWER_BYTES (issue 16: a 10 MiB argument made a 42 MB
answer); a cut answer says so, what was cut, and how to get all of it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import ClientSession
from mcp_session import structured, text_of, with_server

from trainwreck.mcp_server.bounded import MAX_ANSWER_BYTES, MAX_ERROR_CHARS, cap_answer, cap_error

# A query at the 200,000-character argument limit: the answer echoes it, twice.
LONG_QUERY = ("CUDA out of memory " * 10_500)[:200_000]


def _bytes(markdown: str, data: dict[str, Any]) -> int:
    return len(markdown.encode()) + len(json.dumps(data, ensure_ascii=False).encode())


def _answer(size: int) -> tuple[str, dict[str, Any]]:
    """Markdown and data of exactly `size` bytes together, mostly in a ranked list."""
    data: dict[str, Any] = {"items": [{"id": n, "text": "x" * 90} for n in range(size // 200)]}
    markdown = "# answer\n\n```\ncode\n```\n" + "line\n" * 2
    filler = size - _bytes(markdown, data)
    markdown += ("y" * 99 + "\n") * (filler // 100) + "y" * (filler % 100)
    assert _bytes(markdown, data) == size
    return markdown, data


@pytest.mark.parametrize("size", [MAX_ANSWER_BYTES - 1, MAX_ANSWER_BYTES])
def test_an_answer_within_the_cap_is_unchanged(size: int) -> None:
    markdown, data = _answer(size)
    assert cap_answer("search_knowledge", markdown, data) == (markdown, data)


@pytest.mark.parametrize("size", [MAX_ANSWER_BYTES + 1, 10 * MAX_ANSWER_BYTES])
def test_an_answer_past_the_cap_is_cut_and_says_so(size: int) -> None:
    markdown, data = _answer(size)
    cut_markdown, cut_data = cap_answer("get_page", markdown, data)
    assert _bytes(cut_markdown, cut_data) <= MAX_ANSWER_BYTES
    assert f"this answer is {size:,} bytes" in cut_markdown
    assert "`trainwreck kb show PAGE_ID`" in cut_markdown
    assert cut_data["truncated"]["bytes"] == size
    assert cut_markdown.startswith(markdown[: len(cut_markdown) // 2])  # the head is kept
    kept = cut_data["items"]
    assert kept and kept == data["items"][: len(kept)]  # the head of the ranked list
    if size > 2 * MAX_ANSWER_BYTES:
        assert "items" in cut_data["truncated"]["cut"] and len(kept) < len(data["items"])
    assert cut_markdown.count("```") % 2 == 0  # no fence left open
    assert len(data["items"]) == size // 200  # the caller's data is not changed


def test_one_huge_line_is_cut_mid_line() -> None:
    markdown, _ = cap_answer("get_page", "z" * 10 * MAX_ANSWER_BYTES, {})
    assert markdown.startswith("z" * (MAX_ANSWER_BYTES // 2))


def test_a_mapping_with_nothing_to_cut_is_replaced_by_the_note() -> None:
    data = {f"key{n}": n for n in range(20_000)}  # no list, no long string
    markdown, cut = cap_answer("check_config", "short", data)
    assert list(cut) == ["truncated"] and _bytes(markdown, cut) <= MAX_ANSWER_BYTES


@pytest.mark.parametrize("extra", [-1, 0, 1])
def test_an_error_line_is_capped(extra: int) -> None:
    message = "e" * (MAX_ERROR_CHARS + extra)
    capped = cap_error(message)
    assert capped == message if extra <= 0 else capped.endswith(f"({len(message):,} chars)")
    assert len(capped) <= MAX_ERROR_CHARS + 40


async def _big_calls(session: ClientSession) -> dict[str, Any]:
    search = await session.call_tool("search_knowledge", {"query": LONG_QUERY})
    error = await session.call_tool("query_hyperparameter_priors", {"query": "z" * 200_000})
    return {"search": search, "error": error}


def test_oversized_answers_over_stdio_are_cut_with_a_note() -> None:
    calls = with_server()(_big_calls)
    markdown, data = text_of(calls["search"]), structured(calls["search"])
    assert _bytes(markdown, data) <= MAX_ANSWER_BYTES
    assert "capped at 100,000" in markdown and "`trainwreck kb search QUERY`" in markdown
    assert data["truncated"]["bytes"] > MAX_ANSWER_BYTES and data["pages"]
    assert data["pages"][0]["id"]  # the best page is kept
    error = text_of(calls["error"])
    assert calls["error"].is_error and "no prior matches" in error
    assert len(error) <= MAX_ERROR_CHARS + 80 and "chars)" in error
