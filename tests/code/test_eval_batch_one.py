"""code.eval_loader_default_batch_size_one: an evaluation loader left at batch size 1."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.eval_loader_default_batch_size_one"
CASE = (
    ROOT
    / "benchmarks/first_sight/batch-31/r31a-pytorch-har-cnn-validation-slower-than-training-repro"
)

LOOP = """
train_dl = DataLoader(train_ds, batch_size=256, shuffle=True)
val_dl = DataLoader(val_ds, shuffle=False)
for epoch in range(3):
    for x, y in train_dl:
        loss = criterion(model(x), y)
        loss.backward()
    with torch.no_grad():
        for x, y in val_dl:
            correct += (model(x).argmax(1) == y).sum()
"""


@pytest.mark.parametrize(
    ("change", "fires"),
    [
        (("", ""), True),
        (("DataLoader(val_ds, shuffle=False)", "DataLoader(val_ds, batch_size=512)"), False),
        (("DataLoader(val_ds, shuffle=False)", "DataLoader(val_ds, 512)"), False),
        # one sample at a time on purpose is written out
        (("DataLoader(val_ds, shuffle=False)", "DataLoader(val_ds, batch_size=1)"), False),
        (("DataLoader(val_ds, shuffle=False)", "DataLoader(val_ds, batch_sampler=bs)"), False),
        # a training loader at the default too: nothing to compare with
        (("DataLoader(train_ds, batch_size=256, shuffle=True)", "DataLoader(train_ds)"), False),
    ],
)
def test_fires_on_an_evaluation_loader_left_at_batch_size_one(
    change: tuple[str, str], fires: bool
) -> None:
    assert (ID in findings(LOOP.replace(*change))) is fires


def test_the_reproduction_whose_validation_was_slower_than_training_is_found() -> None:
    """batch-31: validation of 6,000 windows ran at ~1,000 samples/s against ~2,800 for
    training; first sight at f4ddcf4b led with a KV-cache generation page."""
    assert "val_dl" in file_findings(CASE / "train.py")[ID].summary
    assert diagnose_folder(CASE).hypotheses[0].id == "eval-dataloader-default-batch-size-one"
