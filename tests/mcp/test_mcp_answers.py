"""The tools' bodies in-process: argument checks, the path allow-list, hypothesis demotion."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from helpers import assert_one_line_error, run
from trainwreck.mcp_server import answers
from trainwreck.mcp_server.hypotheses import RULED_OUT_FACTOR, rank
from trainwreck.mcp_server.inputs import MAX_LOG_BYTES, Policy, ToolInputError, log_stream
from trainwreck.mcp_server.network import parse_http
from trainwreck.pipeline import diagnose

NAN_STATUS = (
    "loss becomes NaN after 1200 steps in fp16 mixed precision, loss scale keeps decreasing"
)


def test_a_progress_bar_log_is_text_but_random_bytes_are_not() -> None:
    tqdm = "\x1b[32m 45%|████▌     | 450/1000 [01:02<01:16,  7.2it/s]\r" * 500
    stream = log_stream(tqdm + "\nRuntimeError: CUDA out of memory.\n")
    assert stream is not None and b"CUDA out of memory" in stream.getvalue()
    with pytest.raises(ToolInputError, match="does not look like text"):
        log_stream(bytes(range(256)).decode("latin-1") * 10)
    with pytest.raises(ToolInputError, match="the limit is 20 MiB"):
        log_stream("x" * (MAX_LOG_BYTES + 1))


def test_paths_resolve_inside_the_allowed_roots_only(tmp_path: Path) -> None:
    root = tmp_path / "runs"
    root.mkdir()
    (root / "train.log").write_text("hello\n")
    (root / "escape").symlink_to(tmp_path)
    policy = Policy.from_options([str(root)], online=False)
    assert policy.path(str(root / "train.log")) == str(root / "train.log")
    for outside in (str(tmp_path), str(root / ".." / "x.log"), str(root / "escape" / "x.log")):
        with pytest.raises(ToolInputError, match="outside the allowed paths"):
            policy.path(outside)
    with pytest.raises(ToolInputError, match="file paths are disabled"):
        Policy().path(str(root / "train.log"))


def test_an_experiment_that_tried_a_fix_without_success_demotes_that_hypothesis() -> None:
    diagnosis = diagnose(symptoms=NAN_STATUS)
    before = [r.hypothesis.id for r in rank(diagnosis, [])]
    assert before == [h.id for h in diagnosis.hypotheses]  # nothing tried: the engine's order

    tried = "added a longer warmup, still NaN at the same step"
    after = rank(diagnosis, [tried])
    demoted = [r for r in after if r.ruled_out_by]
    warmup_fixers = [
        h.id for h in diagnosis.hypotheses
        if any("warmup" in c.path for f in h.fixes for c in f.changes)
    ]  # fmt: skip
    assert warmup_fixers and [r.hypothesis.id for r in demoted] == warmup_fixers
    for item in demoted:
        assert item.score == round(item.hypothesis.score * RULED_OUT_FACTOR, 4)
        assert item.ruled_out_by == (tried,)
    positions = {r.hypothesis.id: i for i, r in enumerate(after)}
    assert all(positions[i] > before.index(i) for i in warmup_fixers)

    # Trying it and seeing it work is no evidence against the hypothesis.
    assert not any(
        r.ruled_out_by for r in rank(diagnosis, ["added a longer warmup, loss is fine now"])
    )


def test_propose_hypothesis_names_the_check_its_cost_and_the_demotion() -> None:
    answer = answers.propose_hypothesis(Policy(), NAN_STATUS, ["switched to bf16=True, same NaN"])
    rows = answer.data["hypotheses"]
    assert all(row["check"] and row["check_cost"] for row in rows)
    bf16_fixers = [row for row in rows if row["ruled_out_by"]]
    assert bf16_fixers and "tried without success" in answer.markdown
    assert rows[0] not in bf16_fixers


def test_http_binds_loopback_unless_told_otherwise() -> None:
    assert parse_http("127.0.0.1:8765", allow_remote=False) == ("127.0.0.1", 8765)
    assert parse_http("[::1]:9000", allow_remote=False) == ("::1", 9000)
    assert parse_http("0.0.0.0:8765", allow_remote=True) == ("0.0.0.0", 8765)
    assert_one_line_error(run("mcp", "--http", "0.0.0.0:8765"))
    assert_one_line_error(run("mcp", "--http", "localhost"))


def test_without_online_the_server_process_cannot_reach_the_network() -> None:
    code = (
        "import socket\n"
        "from trainwreck.mcp_server.network import forbid_network\n"
        "forbid_network(bind_host='0.0.0.0')\n"
        "print('bind host resolves:', bool(socket.getaddrinfo('0.0.0.0', 8765)))\n"
        "for target in [('192.0.2.1', 80), ('example.com', 443)]:\n"
        "    try:\n"
        "        socket.create_connection(target, timeout=1)\n"
        "    except PermissionError as exc:\n"
        "        print('refused:', exc)\n"
        "a, b = socket.socketpair(); a.sendall(b'ok'); print(b.recv(2).decode())\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("refused:") == 2 and "--online" in result.stdout
    assert "bind host resolves: True" in result.stdout
    assert result.stdout.strip().endswith("ok")


def test_without_the_sdk_the_command_says_how_to_install_it() -> None:
    code = (
        "import sys\n"
        "sys.modules['mcp'] = None  # what an environment without the extra looks like\n"
        "from trainwreck.cli.app import main\n"
        "main(['mcp'])\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "trainwreck: error: the MCP server needs the MCP SDK: pip install 'trainwreck[mcp]'"
    ]


def test_diagnose_imports_neither_the_sdk_nor_torch(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    code = (
        "import sys; from trainwreck.cli.app import main\n"
        "try:\n    main(['diagnose', sys.argv[1], '-f', 'json'])\n"
        "except SystemExit:\n    pass\n"
        "leaked = [m for m in ('mcp', 'torch') if m in sys.modules]\n"
        "assert not leaked, leaked\n"
    )
    result = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True)
    assert result.returncode == 0, result.stderr.decode()


def test_a_key_is_matched_as_a_word_not_inside_another() -> None:
    from trainwreck.mcp_server.hypotheses import _touched

    assert _touched("set eps=1e-6, still NaN", {"eps"})
    assert not _touched("trained for fewer steps, still NaN", {"eps"})
    assert _touched("raised warmup_ratio, still NaN", {"warmup_steps"})


def test_search_knowledge_lists_confirmed_cases_and_get_page_opens_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The case memory beside the pages: the peft target-modules threads for that error."""
    monkeypatch.setenv("TRAINWRECK_CASES", str(tmp_path / "none.sqlite"))
    found = answers.search_knowledge(
        "ValueError: Target modules ['q_proj', 'v_proj'] not found in the base model"
    )
    ids = [case["id"] for case in found.data["cases"]]
    assert "peft-target-modules-baichuan-43" in ids
    assert "[case:peft-target-modules-baichuan-43]" in found.markdown
    opened = answers.get_page("case:peft-target-modules-baichuan-43")
    assert opened.data["store"] == "bundled"
    assert "W_pack" in opened.markdown and "https://github.com/" in opened.markdown
    with pytest.raises(ToolInputError):
        answers.get_page("case:no-such-case")
