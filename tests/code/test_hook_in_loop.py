"""code.hook_registered_repeatedly: a module hook registered once per step, never removed."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.hook_registered_repeatedly"
BATCH_10 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-10"

PER_STEP_HELPER = """
def attach(model):
    for name, m in model.named_modules():
        m.register_forward_hook(hook)

def train_step(x, y):
    attach(model)
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
"""
ONCE_BEFORE_TRAINING = """
def attach(model):
    for name, m in model.named_modules():
        m.register_forward_hook(hook)

attach(model)
for x, y in loader:
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
"""
REMOVED_EACH_STEP = """
for x, y in loader:
    handle = model.fc.register_forward_hook(hook)
    loss = loss_fn(model(x), y)
    loss.backward()
    opt.step()
    handle.remove()
"""
IN_FORWARD = """
class Net(nn.Module):
    def forward(self, x):
        self.fc.register_forward_hook(capture)
        return self.fc(x)
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (PER_STEP_HELPER, True),
        (ONCE_BEFORE_TRAINING, False),
        (REMOVED_EACH_STEP, False),
        (IN_FORWARD, True),
    ],
)
def test_fires_only_for_hooks_added_once_per_step(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_mlp_whose_steps_get_slower_every_epoch_gets_its_page() -> None:
    # batch-10 reproduction, judged family at 2c91f17 (a too-many-workers page led)
    report = diagnose_folder(BATCH_10 / "r2-pytorch-mlp-steps-get-slower-each-epoch-repro")
    assert report.hypotheses[0].id == "module-hooks-pile-up-each-step"
