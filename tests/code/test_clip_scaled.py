"""code.clip_before_unscale: gradients clipped while GradScaler's loss scale is still in them."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.clip_before_unscale"
CASE = ROOT / "benchmarks/first_sight/batch-27/r27a-pytorch-bf16-amp-loss-flat-at-chance-repro"

CLIP = "torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)"
BACKWARD = "scaler.scale(loss).backward()"
LOOP = """
scaler = torch.amp.GradScaler("cuda")
for x, y in loader:
    with torch.autocast("cuda", dtype=torch.float16):
        loss = criterion(model(x), y)
    optimizer.zero_grad()
    scaler.scale(loss).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    scaler.step(optimizer)
    scaler.update()
"""


@pytest.mark.parametrize(
    ("change", "fires"),
    [
        (("", ""), True),
        (
            (
                "clip_grad_norm_(model.parameters(), 1.0)",
                "clip_grad_value_(model.parameters(), 0.5)",
            ),
            True,
        ),
        (("torch.nn.utils.clip_grad_norm_", "clip_grad_norm_"), True),
        # unscaled first: the documented order
        (
            ("    torch.nn.utils.clip", "    scaler.unscale_(optimizer)\n    torch.nn.utils.clip"),
            False,
        ),
        # no scaler: a plain backward's gradients carry no scale
        (("scaler.scale(loss).backward()", "loss.backward()"), False),
        # Accelerate's clip unscales the gradients itself, however the accelerator is reached
        (("torch.nn.utils.clip_grad_norm_", "accelerator.clip_grad_norm_"), False),
        (("torch.nn.utils.clip_grad_norm_", "self.accelerator.clip_grad_norm_"), False),
        # a clip before this iteration's scaled backward is not a clip of its gradients
        (
            (
                f"    {BACKWARD}\n    {CLIP}\n",
                f"    {CLIP}\n    {BACKWARD}\n",
            ),
            False,
        ),
    ],
)
def test_fires_on_a_clip_of_still_scaled_gradients(change: tuple[str, str], fires: bool) -> None:
    assert (ID in findings(LOOP.replace(*change))) is fires


def test_a_clip_outside_the_training_loop_is_not_read() -> None:
    once = (
        "scaler.scale(loss).backward()\ntorch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)\n"
    )
    assert ID not in findings(once)


def test_the_reproduction_whose_loss_stays_at_chance_is_found() -> None:
    """batch-27: bf16 autocast with a GradScaler, clip_grad_norm_(..., 1.0) before any unscale_;
    the loss stayed at about 2.31 (ln 10) and accuracy at 0.10 for six epochs."""
    found = file_findings(CASE / "train.py")[ID]
    assert "clip_grad_norm_" in found.summary


def test_its_page_leads_the_reproduction_it_was_judged_wrong_on() -> None:
    """First sight at e0b33e66 (batch-27) answered 'no trainable parameters' first."""
    assert diagnose_folder(CASE).hypotheses[0].id == "amp-grad-clipped-before-unscale"
