"""code.nll_loss_without_log_probabilities: NLLLoss in code that never takes a log."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.nll_loss_without_log_probabilities"
BATCH_26 = ROOT / "benchmarks/first_sight/batch-26"
CASE = BATCH_26 / "r26a-transformers-weighted-trainer-loss-negative-repro"

LOOP = """
import torch.nn as nn

criterion = nn.NLLLoss(weight=class_weights)
for x, y in loader:
    logits = model(x)
    loss = criterion(logits, y)
    loss.backward()
"""


@pytest.mark.parametrize(
    ("change", "fires"),
    [
        (("", ""), True),
        (("logits = model(x)", "logits = F.log_softmax(model(x), dim=-1)"), False),
        (("logits = model(x)", "logits = model(x).log_softmax(-1)"), False),
        (("logits = model(x)", "logits = torch.log(model(x).softmax(-1))"), False),
        (("nn.NLLLoss(", "nn.CrossEntropyLoss("), False),
        (("criterion = nn.NLLLoss(weight=class_weights)", "criterion = None"), False),
        (("loss = criterion(logits, y)", "loss = F.nll_loss(logits, y)"), True),
        # a log that records a value is no logarithm
        (("loss.backward()", "wandb.log({'loss': loss.item()})"), True),
        (("loss.backward()", "self.log('train_loss', loss)"), True),
        (("logits = model(x)", "logits = model(x).softmax(-1).log()"), False),
    ],
)
def test_fires_on_nll_loss_in_code_that_takes_no_log(change: tuple[str, str], fires: bool) -> None:
    assert (ID in findings(LOOP.replace(*change))) is fires


def test_the_reproduction_whose_loss_falls_below_zero_is_found() -> None:
    """batch-26: a custom Trainer.compute_loss hands raw logits to nn.NLLLoss; the training
    loss went from -0.10 to about -10 while eval accuracy stayed at 0.436."""
    found = file_findings(CASE / "train.py")[ID]
    assert "NLLLoss" in found.summary


def test_its_page_leads_the_reproduction_it_was_judged_wrong_on() -> None:
    """First sight at 8f808881 (batch-26) answered with three out-of-memory pages."""
    assert diagnose_folder(CASE).hypotheses[0].id == "nll-loss-on-raw-logits"


HAND_WRITTEN = """
import jax
import jax.numpy as jnp

def loss(params, batch):
    inputs, targets = batch
    preds = net.apply(params, inputs)
    return -jnp.mean(jnp.sum(preds * targets, axis=1))
"""


@pytest.mark.parametrize(
    ("change", "fires"),
    [
        (("", ""), True),
        (("-jnp.mean(jnp.sum(preds * targets, axis=1))", "-(logits * one_hot).sum()"), True),
        # the examples' form is right when the model's output went through a log-softmax
        (
            (
                "preds = net.apply(params, inputs)",
                "preds = jax.nn.log_softmax(net.apply(params, inputs))",
            ),
            False,
        ),
        (("import jax\n", "import jax\nmodel = stax.serial(Dense(10), LogSoftmax)\n"), False),
        # a product of other quantities is no cross-entropy
        (("preds * targets", "weights * mask"), False),
        # minus a reduced product, not the loss: the sign is what makes it an NLL
        (
            (
                "-jnp.mean(jnp.sum(preds * targets, axis=1))",
                "jnp.mean(jnp.sum(preds * targets, axis=1))",
            ),
            False,
        ),
    ],
)
def test_fires_on_a_hand_written_nll_of_raw_outputs(change: tuple[str, str], fires: bool) -> None:
    assert (ID in findings(HAND_WRITTEN.replace(*change))) is fires


def test_the_haiku_thread_whose_convnet_did_not_learn_is_found() -> None:
    """batch-31's optax#18 / dm-haiku#81: a Haiku MNIST convnet ending in hk.Linear(10) trained on
    -mean(sum(preds * targets)); first sight at f4ddcf4b led with an Adam beta2 page."""
    case = ROOT / "benchmarks/first_sight/batch-31/t31h-haiku-optax-mnist-convnet-does-not-learn"
    assert "preds * targets" in file_findings(case / "train.py")[ID].summary
    assert diagnose_folder(case).hypotheses[0].id == "nll-loss-on-raw-logits"
