"""code.leaf_updated_in_place: a leaf that requires grad changed in place with autograd on."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

ID = "code.leaf_updated_in_place"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("W = torch.randn(3, 2, requires_grad=True)\nloss.backward()\nW -= lr * W.grad", True),
        ("w = torch.zeros(5).requires_grad_()\nw[0] = 1.0", True),
        ("b = nn.Parameter(torch.zeros(4))\nb.add_(1)", True),
        ("for p in model.parameters():\n    p -= lr * p.grad", True),
        # the same updates with autograd off: the correct hand-written step
        (
            "W = torch.randn(3, 2, requires_grad=True)\n"
            "with torch.no_grad():\n    W -= lr * W.grad\n    W.grad.zero_()",
            False,
        ),
        (
            "@torch.no_grad()\ndef sgd(params):\n    for p in params:\n        p.sub_(p.grad)\n"
            "w = torch.ones(2, requires_grad=True)\nw.sub_(1)",
            True,
        ),
        ("for p in model.parameters():\n    p.data -= lr * p.grad\n    p.grad.zero_()", False),
        # a plain tensor, not a leaf that requires grad
        ("x = torch.randn(3)\nx -= 1", False),
    ],
)
def test_fires_only_on_a_leaf_changed_with_grad_on(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_hand_written_sgd_step_is_found_at_its_line() -> None:
    script = BATCH_12 / "r3-pytorch-softmax-regression-manual-sgd-runtimeerror-repro" / "train.py"
    finding = file_findings(script)[ID]
    assert (finding.values["line"], finding.values["places"]) == (
        63,
        2,
    )  # W -= LR * W.grad, before b
