"""code.ema_update_without_complement: an EMA of weights that sums instead of averaging."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

ID = "code.ema_update_without_complement"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("def update_teacher(t, s, decay):\n    t.mul_(decay).add_(s)", True),
        (
            "for e, p in zip(ema.parameters(), model.parameters()):\n"
            "    e.mul_(0.999).add_(p.data)",
            True,
        ),
        # the averaging forms
        ("def update_teacher(t, s, decay):\n    t.mul_(decay).add_(s, alpha=1 - decay)", False),
        ("def update_teacher(t, s, decay):\n    t.mul_(decay).add_((1 - decay) * s)", False),
        ("def update_teacher(t, s, decay):\n    t.lerp_(s, 1 - decay)", False),
        # a momentum buffer of gradients is a sum by design
        ("buf.mul_(momentum).add_(p.grad)", False),
        ("buf.mul_(beta).add_(g)", False),
    ],
)
def test_fires_only_on_an_unscaled_weight_average(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_mean_teacher_script_is_found() -> None:
    script = BATCH_12 / "r1-accelerate-mean-teacher-regressor-loss-explodes" / "train.py"
    assert file_findings(script)[ID].values["factor"] == "decay"
