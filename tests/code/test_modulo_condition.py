"""code.modulo_remainder_as_condition: `if step % n:` runs the periodic work on the wrong steps."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_36, file_findings, fires

ID = "code.modulo_remainder_as_condition"
LOOP = """
for step, batch in enumerate(loader):
    loss = train_step(batch)
    if {test}:
        {body}
"""


def test_fires_on_the_batch_36_reproduction() -> None:
    """batch-36's return-risk reproduction: validation on 99 of every 100 steps."""
    found = file_findings(
        BATCH_36 / "r36a-pytorch-return-risk-mlp-600-samples-per-sec-repro" / "train.py"
    )
    assert found[ID].values["interval"] == "args.eval_every"
    assert found[ID].values["action"] == "evaluate"
    assert found[ID].values["line"] == 76


@pytest.mark.parametrize(
    "body",
    ["evaluate(model)", "torch.save(model.state_dict(), 'ckpt.pt')", "print(step, loss)"],
)
def test_fires_on_periodic_work_under_a_bare_remainder(body: str) -> None:
    assert fires(LOOP.format(test="step % 100", body=body), ID)


@pytest.mark.parametrize(
    ("test", "body"),
    [
        ("step % 100 == 0", "evaluate(model)"),  # compared with zero
        ("not step % 100", "evaluate(model)"),  # the negation is the idiom
        ("step % 100", "continue"),  # skipping the other steps on purpose
        ("'%d' % step", "print(step)"),  # string formatting
        ("step % 100", "lr = schedule(step)"),  # nothing periodic in the body
    ],
)
def test_quiet_when_the_remainder_is_compared_or_only_skips(test: str, body: str) -> None:
    assert not fires(LOOP.format(test=test, body=body), ID)


def test_quiet_outside_a_loop() -> None:
    assert not fires("if total % batch_size:\n    print('last batch is partial')\n", ID)
