"""code.inference_in_train_mode: a restored Dropout/BatchNorm model predicts in training mode."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_15, BATCH_16, file_findings, fires

ID = "code.inference_in_train_mode"
NET = """
import torch
from torch import nn

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 2)
        self.{layer} = nn.{kind}
"""
PREDICT = """
model = Net().to(device)
model.load_state_dict(torch.load("best.pt"))
{switch}
with torch.no_grad():
    print(model(x).argmax(1))
"""


def _source(switch: str = "", kind: str = "Dropout(0.3)", layer: str = "drop") -> str:
    return NET.format(kind=kind, layer=layer) + PREDICT.format(switch=switch)


def test_fires_on_the_batch_15_reproduction() -> None:
    """r15D: a predict wrapper that loads the weights and never calls self.model.eval()."""
    found = file_findings(
        BATCH_15 / "r15D-pytorch-single-sample-predictions-random-repro" / "train.py"
    )[ID]
    assert found.values["model"] == "self.model"
    assert found.values["klass"] == "DefectNet"


@pytest.mark.parametrize("kind", ["Dropout(0.3)", "BatchNorm1d(8)", "Dropout2d(0.1)"])
def test_fires_for_each_mode_dependent_layer(kind: str) -> None:
    assert fires(_source(kind=kind), ID)


@pytest.mark.parametrize(
    "switch", ["model.eval()", "model.train(False)", "model.train(mode=False)", "evaluate(model)"]
)
def test_quiet_when_something_switches_the_model_to_eval(switch: str) -> None:
    helper = "\ndef evaluate(m):\n    m.eval()\n"
    assert not fires(_source(switch=switch) + helper, ID)


def test_quiet_for_a_model_without_dropout_or_batchnorm() -> None:
    assert not fires(_source(kind="LayerNorm(8)", layer="norm"), ID)


def test_quiet_when_the_forward_trains() -> None:
    source = _source().replace(
        "with torch.no_grad():\n    print(model(x).argmax(1))",
        "loss = model(x).sum()\nloss.backward()",
    )
    assert not fires(source, ID)


def test_fires_on_evaluation_of_a_model_trained_in_the_same_script() -> None:
    """r16D (batch-16): evaluate() runs the module-level model under no_grad, never in eval."""
    found = file_findings(
        BATCH_16 / "r16D-pytorch-val-accuracy-chance-despite-train-99-repro" / "train.py"
    )[ID]
    assert found.values["klass"] == "FaultNet"


LOCAL = """
def train():
    model = Net()
    model.eval()

def predict():
    model = Net()
    model.load_state_dict(torch.load("best.pt"))
    with torch.no_grad():
        return model(x)
"""


def test_an_eval_on_another_functions_local_model_does_not_count() -> None:
    """r16E (batch-16): train() calls model.eval() on its own model; predict() builds another."""
    assert fires(NET.format(kind="BatchNorm1d(8)", layer="bn") + LOCAL, ID)
    switched = LOCAL.replace("with torch.no_grad():", "model.eval()\n    with torch.no_grad():")
    assert not fires(NET.format(kind="BatchNorm1d(8)", layer="bn") + switched, ID)
