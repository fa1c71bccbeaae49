"""code.training_loader_not_shuffled: a training DataLoader that reads the data in stored order."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.training_loader_not_shuffled"
ROOT = Path(__file__).parents[2]
SCRIPT = """
train_ds = ImageFolderLike(root)
train_dl = DataLoader(train_ds, batch_size=64{loader_args})
{extra}
for epoch in range(epochs):
    for x, y in train_dl:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
"""


def _script(loader_args: str = "", extra: str = "") -> str:
    return SCRIPT.format(loader_args=loader_args, extra=extra)


@pytest.mark.parametrize("loader_args", ["", ", shuffle=False", ", num_workers=2"])
def test_fires_on_a_training_loader_without_shuffle(loader_args: str) -> None:
    assert fires(_script(loader_args), ID)


@pytest.mark.parametrize(
    ("loader_args", "extra"),
    [
        (", shuffle=True", ""),
        (", sampler=WeightedRandomSampler(weights, len(weights))", ""),
        (", sampler=sampler", ""),
        # the data is put in a random order before the loader sees it
        ("", "random.shuffle(train_ds.samples)"),
        ("", "train_ds = train_ds.shuffle(seed=0)"),
    ],
)
def test_quiet_when_something_shuffles(loader_args: str, extra: str) -> None:
    assert not fires(_script(loader_args, extra), ID)


def test_fires_when_a_permutation_only_splits_the_data() -> None:
    """Batch-6's class-sorted reproduction: randperm picks the validation rows, sorted again."""
    assert fires(_script(extra="perm = torch.randperm(len(train_ds)).sort().values"), ID)


def test_quiet_for_an_evaluation_loader_that_shares_the_training_loaders_name() -> None:
    """Batch-19's DDP reproduction: `dl` is built with a DistributedSampler in train() and
    without one in evaluate(), which never calls backward()."""
    source = """
def train():
    dl = DataLoader(ds, batch_size=64, sampler=sampler)
    for x, y in dl:
        criterion(model(x), y).backward()

def evaluate():
    dl = DataLoader(TensorDataset(x, y), batch_size=500)
    for xb, yb in dl:
        correct += (model(xb).argmax(1) == yb).sum()
"""
    assert not fires(source, ID)


def test_quiet_for_an_evaluation_loader() -> None:
    source = _script().replace("loss.backward()", "correct += (model(x).argmax(1) == y).sum()")
    assert not fires(source, ID)


def test_a_class_ordered_dataset_leads_with_the_data_order_page() -> None:
    """Batch-21 reproduction: samples stored class by class, no shuffle; validation accuracy
    0.125 with every prediction one class (0.979 with shuffle=True)."""
    case = (
        ROOT
        / "benchmarks/first_sight/batch-21/r21D-pytorch-val-acc-near-chance-low-train-loss-repro"
    )
    assert diagnose_folder(case).hypotheses[0].id == "unshuffled-data-order-loss-spikes"
