"""code.scheduler_stepped_per_micro_batch: the scheduler outside the accumulation branch."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_15, file_findings, fires

ID = "code.scheduler_stepped_per_micro_batch"
LOOP = """
scheduler = {built}
for i, (x, y) in enumerate(loader):
    loss = criterion(model(x), y) / k
    loss.backward()
    if {test}:
        optimizer.step()
        optimizer.zero_grad()
        {inside}
    {outside}
"""


def _loop(
    inside: str = "pass",
    outside: str = "scheduler.step()",
    test: str = "(i + 1) % k == 0",
    built: str = "torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.1, total_steps=100)",
) -> str:
    return LOOP.format(inside=inside, outside=outside, test=test, built=built)


def test_fires_on_the_batch_15_reproduction() -> None:
    found = file_findings(
        BATCH_15 / "r15E-pytorch-onecycle-valueerror-midtraining-repro" / "train.py"
    )[ID]
    assert (found.values["line"], found.values["scheduler"]) == (70, "scheduler")


@pytest.mark.parametrize(
    "built",
    [
        "get_linear_schedule_with_warmup(optimizer, 10, 100)",
        "LambdaLR(optimizer, lambda s: min(1.0, s / 10))",
        "make_schedule(optimizer)",  # not a known constructor: the name `scheduler` says it
    ],
)
def test_fires_for_any_per_step_scheduler(built: str) -> None:
    assert fires(_loop(built=built), ID)


@pytest.mark.parametrize(
    "source",
    [
        _loop(inside="scheduler.step()", outside="pass"),  # stepped with the optimizer
        _loop(test="i > 10"),  # a branch that is no accumulation window
        _loop(built="ReduceLROnPlateau(optimizer)", outside="scheduler.step(val_loss)"),
    ],
)
def test_quiet_when_the_scheduler_follows_the_updates(source: str) -> None:
    assert not fires(source, ID)


def test_quiet_without_accumulation() -> None:
    source = _loop().replace(
        "    if (i + 1) % k == 0:\n        optimizer.step()",
        "    optimizer.step()\n    if False:\n        pass",
    )
    assert not fires(source, ID)
