"""MCP limits over stdio with the SDK client: symlinks out of an allowed root, oversized
arguments and ids (issue 16). Each is refused with one line that echoes nothing large."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mcp import ClientSession
from mcp_session import with_server

from trainwreck.mcp_server.inputs import Policy, ToolInputError

TEN_MIB = 10 * 2**20
PEAK_KIB = 2**20  # issue 16's acceptance: peak RSS <= 1 GB (it took 1.3 GB for 100k paths)


def _run_with_escape(tmp_path: Path) -> tuple[Path, Path]:
    """An allowed run folder holding a log and a link to a secret file outside it."""
    root, secret = tmp_path / "runs", tmp_path / "secret.txt"
    root.mkdir()
    secret.write_text("RuntimeError: the secret outside the sandbox\n")
    (root / "train.log").write_text("RuntimeError: CUDA error: device-side assert\n")
    (root / "zz.log").symlink_to(secret)
    return root, secret


def test_a_folder_with_a_link_out_of_the_root_is_refused(tmp_path: Path) -> None:
    root, _ = _run_with_escape(tmp_path)
    policy = Policy.from_options([str(root)], online=False)
    with pytest.raises(ToolInputError, match="a link out of it"):
        policy.path(str(root))
    assert policy.path(str(root / "train.log")) == str(root / "train.log")
    with pytest.raises(ToolInputError, match="outside the allowed paths"):
        policy.path(str(root / "zz.log"))  # the link itself, as before: the same rule


def test_duplicate_paths_are_read_once_and_too_many_refused(tmp_path: Path) -> None:
    root, _ = _run_with_escape(tmp_path)
    policy = Policy.from_options([str(root)], online=False)
    log = str(root / "train.log")
    assert policy.paths([log] * 100_000) == [log]
    with pytest.raises(ToolInputError, match="the limit is 1,000"):
        policy.paths([str(root / f"rank{n}.log") for n in range(1001)])


def test_escape_and_oversized_arguments_over_stdio(tmp_path: Path) -> None:
    root, secret = _run_with_escape(tmp_path)

    async def body(session: ClientSession) -> dict[str, tuple[bool, str]]:
        calls = {
            "escape": ("diagnose_failure", {"paths": [str(root)]}),
            "page": ("get_page", {"page_id": "x" * TEN_MIB}),
            "config": ("check_config", {"config": "a: 1\n" * (TEN_MIB // 5)}),
        }
        answers = {}
        for name, (tool, arguments) in calls.items():
            result = await session.call_tool(tool, arguments)
            answers[name] = (bool(result.is_error), getattr(result.content[0], "text", ""))
        return answers

    answers = with_server("--allow", str(root))(body)
    for name, (is_error, text) in answers.items():
        assert is_error, name
        assert len(text.splitlines()) == 1 and len(text) < 1000, (name, text[:300])
    assert "a link out of it" in answers["escape"][1]
    assert "the secret outside" not in answers["escape"][1]
    assert "the limit is 200" in answers["page"][1]
    assert "the limit is 200,000" in answers["config"][1]
    assert secret.exists()


def _server_peak_kib() -> int:
    """VmHWM (peak resident memory) of the `trainwreck mcp` process this test started."""
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":", 1) for line in status.read_text().splitlines())
            command = (status.parent / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        if int(fields["PPid"]) == os.getpid() and command[1:4] == [b"-m", b"trainwreck", b"mcp"]:
            return int(fields["VmHWM"].split()[0])
    raise AssertionError("no trainwreck mcp child process")


def test_oversized_calls_are_answered_in_bounded_memory_and_serving_goes_on(
    tmp_path: Path,
) -> None:
    root, _ = _run_with_escape(tmp_path)
    (root / "zz.log").unlink()
    log = str(root / "train.log")

    async def body(session: ClientSession) -> dict[str, tuple[bool, str] | int]:
        calls = {
            "distinct": {"paths": [str(root / f"rank{n}.log") for n in range(100_000)]},
            "duplicates": {"paths": [log] * 100_000},
            "logs": {"logs": "RuntimeError: CUDA error\n" * (50 * 10**6 // 25)},  # 50 MB
        }
        answers: dict[str, tuple[bool, str] | int] = {}
        for name, arguments in calls.items():
            result = await session.call_tool("diagnose_failure", arguments)
            answers[name] = (bool(result.is_error), getattr(result.content[0], "text", ""))
        after = await session.call_tool("search_knowledge", {"query": "CUDA out of memory"})
        answers["after"] = (bool(after.is_error), getattr(after.content[0], "text", ""))
        answers["peak_kib"] = _server_peak_kib()
        return answers

    answers = with_server("--allow", str(root))(body)
    assert answers["distinct"] == (
        True,
        "Error executing tool diagnose_failure: 100,000 paths; the limit is 1,000",
    )
    is_error, text = answers["duplicates"]  # type: ignore[misc]
    assert not is_error and "device-side assert" in text  # the one log, read once
    is_error, text = answers["logs"]  # type: ignore[misc]
    assert is_error and "logs is 47.7 MiB; the limit is 20 MiB" in text
    assert answers["after"][0] is False  # type: ignore[index]
    assert answers["peak_kib"] < PEAK_KIB  # type: ignore[operator]
