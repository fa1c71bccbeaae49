"""The OOM snapshot snippet is valid Python calling APIs the pinned torch really has."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from trainwreck import diagnose

CASES = Path(__file__).parent.parent / "cases"


def test_oom_report_carries_a_runnable_snapshot_snippet() -> None:
    torch = pytest.importorskip("torch")
    diagnosis = diagnose([str(CASES / "pytorch-oom-fragmentation-35901")])
    (snippet,) = diagnosis.snippets
    tree = ast.parse(snippet.code)  # raises on a syntax error
    called = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    for name in ("_record_memory_history", "_dump_snapshot"):
        assert name in called and hasattr(torch.cuda.memory, name)
    assert hasattr(torch, "OutOfMemoryError")
    assert snippet.citation.startswith("https://pytorch.org/docs/2.")


def test_reports_without_an_oom_carry_no_snippet() -> None:
    diagnosis = diagnose(symptoms="loss goes NaN after a few hundred steps in fp16 on V100")
    assert diagnosis.snippets == ()
