"""code.trainer_model_loss_not_first: a Trainer-driven forward returning the loss second."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_34, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.trainer_model_loss_not_first"
HEADER = "from transformers import Trainer\n"
DRIVEN = "\ntrainer = Trainer(model=Net(), args=args)\n"


def _model(returned: str) -> str:
    return (
        HEADER
        + "class Net(nn.Module):\n    def forward(self, x, labels=None):\n"
        + "        logits = self.fc(x)\n        loss = self.criterion(logits, labels)\n"
        + f"        return {returned}\n"
        + DRIVEN
    )


@pytest.mark.parametrize("returned", ["logits, loss", "(logits, F.cross_entropy(logits, labels))"])
def test_fires_when_the_loss_follows_another_output(returned: str) -> None:
    assert fires(_model(returned), ID)


@pytest.mark.parametrize(
    "source",
    [
        _model("loss, logits"),
        _model('{"loss": loss, "logits": logits}'),
        _model("(logits,)"),
        # a plain training loop, no Trainer reading outputs[0]
        _model("logits, loss").replace(HEADER, "").replace(DRIVEN, ""),
        # Lightning's Trainer reads no tuple output
        _model("logits, loss")
        .replace(HEADER, "import lightning as L\n")
        .replace("Trainer(model=Net(), args=args)", "L.Trainer(max_epochs=1)"),
    ],
)
def test_stays_quiet_when_the_trainer_finds_the_loss(source: str) -> None:
    assert not fires(source, ID)


def test_the_custom_model_reproduction_gets_its_page() -> None:
    # batch-34's GRU classifier under the Trainer: at ada73364 the non-scalar-backward page led
    # at High, naming an unreduced loss.
    folder = BATCH_34 / "r34a-transformers-trainer-custom-model-runtimeerror-first-step-repro"
    assert diagnose_folder(folder).hypotheses[0].id == "trainer-model-loss-not-first-output"
