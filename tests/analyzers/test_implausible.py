"""A failed allocation no machine holds is a shape bug, not a reason to add swap (issue 18).

`fixtures/cpu_alloc_4tib.log` is the error torch 2.13 raised on this project's CPU
machine for `torch.empty(1048576, 1048576)` (4 TiB of fp32).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck import diagnose
from trainwreck.analyzers.implausible import IMPLAUSIBLE_BYTES

FIXTURES = Path(__file__).parent / "fixtures"
MESSAGE = (
    "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't "
    "allocate memory: you tried to allocate {} bytes. Error code 12 (Cannot allocate memory)\n"
)


def test_four_tib_request_is_decoded_and_swap_is_not_advised() -> None:
    report = diagnose([str(FIXTURES / "cpu_alloc_4tib.log")])
    top = report.hypotheses[0]
    assert "1,048,576 x 1,048,576 fp32 matrix" in top.root_cause
    actions = [fix.action for fix in top.fixes]
    assert actions[0].startswith("This size is a shape bug")
    assert not any("swap" in action for action in actions)
    assert not any("swapon" in cmd for fix in top.fixes for cmd in fix.commands)
    table = next(a for a in report.arithmetic if a.title.startswith("What the failed allocation"))
    assert any(line.value == 1_048_576 for line in table.lines)


@pytest.mark.parametrize(
    ("n_bytes", "shape_bug"),
    [(IMPLAUSIBLE_BYTES - 4, False), (IMPLAUSIBLE_BYTES, True), (IMPLAUSIBLE_BYTES + 4, True)],
)
def test_the_threshold_is_one_tib(tmp_path: Path, n_bytes: int, shape_bug: bool) -> None:
    log = tmp_path / "train.log"
    log.write_text(MESSAGE.format(n_bytes), encoding="utf-8")
    report = diagnose([str(log)])
    assert any(f.id == "alloc.implausible_size" for f in report.findings) is shape_bug
    advice = " ".join(fix.action for fix in report.hypotheses[0].fixes)
    assert ("swap" in advice) is not shape_bug
