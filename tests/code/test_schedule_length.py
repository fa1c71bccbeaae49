"""code.schedule_shorter_than_training: a per-step schedule sized in epochs or to one epoch."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_16, file_findings, findings, fires

ID = "code.schedule_shorter_than_training"
LOOP = """
EPOCHS = 5
train_loader = DataLoader(train_ds, batch_size=32, shuffle=True)
{before}
scheduler = {built}
for epoch in range({epochs}):
    for x, y in train_loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        {per_batch}
    {per_epoch}
"""


def _loop(
    built: str = "get_linear_schedule_with_warmup(optimizer, 0, EPOCHS)",
    per_batch: str = "scheduler.step()",
    per_epoch: str = "pass",
    epochs: str = "EPOCHS",
    before: str = "",
) -> str:
    return LOOP.format(
        built=built, per_batch=per_batch, per_epoch=per_epoch, epochs=epochs, before=before
    )


@pytest.mark.parametrize(
    ("slug", "line", "sized"),
    [
        ("r16D-transformers-bert-loss-stuck-at-chance-repro", 41, "the epoch count"),
        ("r16E-pytorch-loss-frozen-after-epoch1-repro", 61, "one epoch"),
    ],
)
def test_fires_on_the_batch_16_reproductions(slug: str, line: int, sized: str) -> None:
    found = file_findings(BATCH_16 / slug / "train.py")[ID]
    assert (found.values["line"], found.values["sized"]) == (line, sized)


@pytest.mark.parametrize(
    ("built", "before"),
    [
        ("get_linear_schedule_with_warmup(optimizer, 0, EPOCHS)", ""),
        ("get_cosine_schedule_with_warmup(optimizer, 10, num_training_steps=args.epochs)", ""),
        ("get_linear_schedule_with_warmup(optimizer, 0, len(train_loader))", ""),
        ("get_scheduler('linear', optimizer, 0, total)", "total = len(train_loader)"),
        ("get_linear_schedule_with_warmup(optimizer, 0, steps)", "steps = len(train_loader) // 4"),
        ("LinearLR(optimizer, 1.0, 0.0, total_iters=len(train_loader))", ""),
        # batch-17's reproduction: one epoch's batches counted from the dataset
        ("get_linear_schedule_with_warmup(optimizer, 0, steps)", "steps = len(train_ds) // BATCH"),
        (
            "get_cosine_schedule_with_warmup(optimizer, 0, steps)",
            "steps = math.ceil(len(train_ds) / args.batch_size)",
        ),
    ],
)
def test_fires_when_the_total_counts_epochs_or_one_epoch(built: str, before: str) -> None:
    assert fires(_loop(built=built, before=before), ID)


@pytest.mark.parametrize(
    "source",
    [
        # the total the docs ask for: batches per epoch x epochs
        _loop(built="get_linear_schedule_with_warmup(optimizer, 0, len(train_loader) * EPOCHS)"),
        _loop(built="get_linear_schedule_with_warmup(optimizer, 0, total)", before="total = 5000"),
        # an epoch-sized schedule stepped once per epoch
        _loop(per_batch="pass", per_epoch="scheduler.step()"),
        # one epoch of training: one epoch's steps is the whole run
        _loop(built="get_linear_schedule_with_warmup(optimizer, 0, len(train_loader))", epochs="1"),
        # a sample count is longer than the run, not shorter
        _loop(built="get_linear_schedule_with_warmup(optimizer, 0, len(train_ds))"),
        _loop(
            built="get_linear_schedule_with_warmup(optimizer, 0, steps)",
            before="steps = len(train_ds) // BATCH * EPOCHS",
        ),
    ],
)
def test_quiet_when_the_total_covers_the_run(source: str) -> None:
    assert not fires(source, ID)


DECAY = """
total_steps = len(train_loader) // GRAD_ACCUM

def lr_lambda(step):
    if step < WARMUP:
        return (step + 1) / WARMUP
    return {decay}
"""
UNFLOORED = "1.0 - (step - WARMUP) / (total_steps - WARMUP)"


def test_an_unfloored_lambda_decay_sized_to_one_epoch_turns_the_rate_negative() -> None:
    """r19E-accelerate-loss-rises-after-first-epoch-repro (batch-19, judged wrong at 8c2ac608:
    'learning rate too high' led): its LambdaLR decay divides by one epoch's optimizer steps and
    has no floor, so from the second epoch the rate is negative and the loss climbs."""
    source = _loop("LambdaLR(optimizer, lr_lambda)", before=DECAY.format(decay=UNFLOORED))
    found = findings(source)[ID]
    assert found.values["length"] == "total_steps" and "negative" in str(found.values["then"])
    case = BATCH_16.parent / "batch-19" / "r19E-accelerate-loss-rises-after-first-epoch-repro"
    assert file_findings(case / "train.py")[ID].values["line"] == 56


@pytest.mark.parametrize(
    ("decay", "built", "per_batch", "negative"),
    [
        (f"max(0.0, {UNFLOORED})", "LambdaLR(optimizer, lr_lambda)", "scheduler.step()", False),
        (UNFLOORED, "LambdaLR(optimizer, lr_lambda=lr_lambda)", "scheduler.step()", True),
        (UNFLOORED, "LambdaLR(optimizer, lr_lambda)", "pass", None),  # stepped per epoch
    ],
)
def test_a_lambda_decay_is_read_per_batch_with_or_without_a_floor(
    decay: str, built: str, per_batch: str, negative: bool | None
) -> None:
    source = _loop(
        built,
        per_batch=per_batch,
        per_epoch="scheduler.step()" if per_batch == "pass" else "pass",
        before=DECAY.format(decay=decay),
    )
    found = findings(source).get(ID)
    if negative is None:
        assert found is None
    else:
        assert found is not None and ("negative" in str(found.values["then"])) is negative


def test_a_lambda_with_a_multi_epoch_total_stays_quiet() -> None:
    before = DECAY.format(decay=UNFLOORED).replace(
        "len(train_loader) // GRAD_ACCUM", "len(train_loader) * EPOCHS // GRAD_ACCUM"
    )
    assert not fires(_loop("LambdaLR(optimizer, lr_lambda)", before=before), ID)
