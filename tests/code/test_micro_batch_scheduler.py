"""code.scheduler_stepped_per_micro_batch: the scheduler outside the accumulation branch."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_15, ROOT, file_findings, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.scheduler_stepped_per_micro_batch"
BATCH_20 = ROOT / "benchmarks" / "first_sight" / "batch-20"
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


ACCUMULATE = """
accelerator = Accelerator(gradient_accumulation_steps=4)
scheduler = OneCycleLR(optimizer, max_lr=1e-3, total_steps=total_updates)
model, optimizer, loader = accelerator.prepare(model, optimizer, loader{prepared})
for batch in loader:
    with accelerator.accumulate(model):
        loss = model(batch)
        accelerator.backward(loss)
        optimizer.step()
        {step}
        optimizer.zero_grad()
"""


def test_fires_on_an_unprepared_scheduler_stepped_inside_accumulate() -> None:
    """r20D-accelerate-grad-accum-onecycle-crash-repro (batch-20, High but family at 01690ec1:
    the OneCycleLR page named the overrun, not why): OneCycleLR is left out of prepare()."""
    assert fires(ACCUMULATE.format(prepared="", step="scheduler.step()"), ID)
    case = BATCH_20 / "r20D-accelerate-grad-accum-onecycle-crash-repro"
    assert diagnose_folder(case).hypotheses[0].id == "lr-scheduler-stepped-every-micro-batch"


@pytest.mark.parametrize(
    ("prepared", "step"),
    [
        # a prepared scheduler skips its step on the micro-batches that do not sync
        (", scheduler", "scheduler.step()"),
        # stepped only when the gradients sync
        ("", "if accelerator.sync_gradients:\n            scheduler.step()"),
    ],
)
def test_quiet_on_a_prepared_or_sync_guarded_scheduler(prepared: str, step: str) -> None:
    assert not fires(ACCUMULATE.format(prepared=prepared, step=step), ID)
