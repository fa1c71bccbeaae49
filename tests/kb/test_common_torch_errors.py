"""The most common PyTorch errors, raised for real on the CPU, each lead with its page.

The messages come from the installed torch (the dev extra pins 2.13.0), not from a copy, so a
release that rewords one fails here rather than silently leaving the page unmatched."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import torch_error
from trainwreck.pipeline import diagnose

# (the page, a statement that raises the error)
RAISED = [
    ("backward-on-non-scalar-loss", "torch.ones(3, requires_grad=True).mul(2).backward()"),
    ("tensor-to-numpy-without-detach-cpu", "torch.ones(2, requires_grad=True).numpy()"),
    ("tensor-bool-ambiguous", "bool(torch.ones(2))"),
    ("float-result-into-integer-tensor", "torch.zeros(3, dtype=torch.long).add_(0.5)"),
    ("view-shape-invalid-for-input-size", "torch.zeros(8 * 3 * 4 * 4).view(32, 3, 4, 4)"),
    (
        "conv-input-wrong-number-of-dimensions",
        "torch.nn.Conv2d(3, 8, 3)(torch.zeros(2, 3, 8, 8, 8))",
    ),
    ("conv-input-channel-count-mismatch", "torch.nn.Conv2d(3, 8, 3)(torch.zeros(2, 1, 8, 8))"),
    (
        "loss-input-target-batch-size-mismatch",
        "F.cross_entropy(torch.zeros(64, 10), torch.zeros(32, dtype=torch.long))",
    ),
    (
        "bce-target-shape-differs-by-singleton-dim",
        "F.binary_cross_entropy_with_logits(torch.zeros(32, 1), torch.zeros(32))",
    ),
    (
        "loss-target-not-class-index-vector",
        "F.cross_entropy(torch.zeros(4, 3), torch.zeros(4, 1, dtype=torch.long))",
    ),
    ("stack-or-cat-of-empty-list", "torch.stack([])"),
    (
        "collate-unsupported-sample-type",
        "torch.utils.data.default_collate([object(), object()])",
    ),
    ("rnn-input-size-differs-from-feature-dim", "torch.nn.LSTM(10, 4)(torch.zeros(5, 2, 20))"),
    (
        "rnn-hidden-state-batch-size-mismatch",
        "torch.nn.GRU(8, 4, batch_first=True)(torch.zeros(16, 5, 8), torch.zeros(1, 32, 4))",
    ),
    (
        "image-channels-differ-from-normalize-or-rgb-transform",
        "torch.zeros(1, 28, 28).sub_(torch.zeros(3, 1, 1))",
    ),
    ("class-index-target-not-int64", "F.nll_loss(torch.zeros(4, 3), torch.zeros(4))"),
    (
        "dataloader-empty-dataset-num-samples-zero",
        "torch.utils.data.DataLoader([], batch_size=4, shuffle=True)",
    ),
    ("path-setting-left-unset-none", "import os; os.path.join(None, 'checkpoints')"),
    (
        "onecycle-stepped-past-total-steps",
        "opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)\n"
        "s = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=3)\n"
        "for _ in range(4):\n    opt.step()\n    s.step()",
    ),
    (
        "checkpoint-zip-truncated-or-corrupt",
        "import io; b = io.BytesIO(); torch.save({'w': torch.zeros(64)}, b); "
        "torch.load(io.BytesIO(b.getvalue()[:-64]))",
    ),
]


@pytest.mark.parametrize(("page", "statement"), RAISED, ids=[page for page, _ in RAISED])
def test_the_raised_message_leads_with_its_page(page: str, statement: str, tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(torch_error(statement) + "\n", encoding="utf-8")
    assert diagnose([str(log)]).hypotheses[0].id == page
