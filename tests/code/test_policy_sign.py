"""code.policy_gradient_not_negated: log-probability times return minimised as it is."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.policy_gradient_not_negated"
CASE = (
    ROOT / "benchmarks/first_sight/batch-30/r30a-pytorch-reinforce-cartpole-return-falls-to-9-repro"
)
STEP = "\noptimizer.zero_grad()\nloss.backward()\noptimizer.step()"


@pytest.mark.parametrize(
    ("code", "fired"),
    [
        ("loss = (torch.stack(log_probs) * returns).sum()" + STEP, True),
        ("loss = torch.mean(dist.log_prob(actions) * advantages)" + STEP, True),
        # an advantage's own subtraction is no negation
        ("loss = (log_probs * (returns - baseline)).sum()" + STEP, True),
        # negated: the REINFORCE loss as torch.distributions' docs write it
        ("loss = -(torch.stack(log_probs) * returns).sum()" + STEP, False),
        ("loss = (-log_probs * returns).mean()" + STEP, False),
        ("loss = 0\nfor lp, r in zip(log_probs, returns):\n    loss = loss - lp * r" + STEP, False),
        ("loss = (log_probs * returns).sum()\nloss = -loss" + STEP, False),
        ("loss = (log_probs * returns).sum()\n(-loss).backward()", False),
        # gradient ascent asked of the optimiser
        (
            "opt = torch.optim.Adam(params, maximize=True)\nloss = (log_probs * returns).sum()"
            + STEP,
            False,
        ),
        # not minimised here
        ("objective = (log_probs * returns).sum()\nprint(objective.item())", False),
    ],
)
def test_fires_on_a_policy_loss_without_its_minus(code: str, fired: bool) -> None:
    assert fires(code, ID) is fired


def test_the_cartpole_reproduction_gets_its_page() -> None:
    """batch-30: REINFORCE on CartPole minimises (log_probs * returns).sum(); the return falls
    from 17.4 to 9.3 by episode 400. At 2c9e35a3 no page came near it."""
    report = diagnose_folder(CASE)
    assert report.hypotheses[0].id == "policy-gradient-loss-not-negated"
