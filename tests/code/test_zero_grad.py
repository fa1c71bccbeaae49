"""code.zero_grad_missing: backward() and optimizer.step() in a loop with no gradient reset."""

from __future__ import annotations

from code_helpers import BATCH_1, file_findings, findings, fires

ID = "code.zero_grad_missing"
LOOP = """
    for epoch in range(10):
        {epoch_reset}
        for x, y in loader:
            {reset}
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
"""


def _loop(reset: str = "pass", epoch_reset: str = "pass") -> str:
    return LOOP.format(reset=reset, epoch_reset=epoch_reset)


def test_fires_on_the_batch_1_reproduction() -> None:
    finding = file_findings(BATCH_1 / "repro-torch-missing-zero-grad-divergence" / "repro.py")[ID]
    assert (finding.values["line"], finding.values["reset"]) == (25, "nowhere in the loop")
    assert finding.evidence[0].text == "optimizer.step()"


def test_quiet_with_any_reset_inside_the_loop() -> None:
    resets = (
        "optimizer.zero_grad()",
        "optimizer.zero_grad(set_to_none=True)",
        "model.zero_grad()",
        "for p in model.parameters(): p.grad = None",
        "for p in model.parameters(): p.grad.zero_()",
    )
    assert fires(_loop(), ID)
    for reset in resets:
        assert not fires(_loop(reset=reset), ID), reset


def test_a_reset_once_per_epoch_still_fires_and_says_so() -> None:
    finding = findings(_loop(epoch_reset="optimizer.zero_grad()"))[ID]
    assert finding.values["reset"] == "only in an enclosing loop"


def test_quiet_on_gradient_accumulation_that_resets_after_its_step() -> None:
    source = """
        for step, (x, y) in enumerate(loader):
            loss = criterion(model(x), y) / accumulation_steps
            loss.backward()
            if (step + 1) % accumulation_steps == 0:
                optimizer.step()
                optimizer.zero_grad()
    """
    assert not fires(source, ID)


def test_quiet_when_the_step_is_not_an_optimizers() -> None:
    # DeepSpeed's engine.step() zeroes the gradients itself; a scheduler's step is no update.
    source = """
        for batch in loader:
            loss = model_engine(batch)
            model_engine.backward(loss)
            model_engine.step()
            scheduler.step()
    """
    assert not fires(source, ID)


def test_quiet_on_a_frames_one_line() -> None:
    assert not fires("loss.backward()", ID)
