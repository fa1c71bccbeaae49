"""code.eval_loader_shuffled: a shuffled evaluation loader whose predictions meet stored labels."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

ID = "code.eval_loader_shuffled"
CASE = ROOT / "benchmarks/first_sight/batch-7/torch-eval-dataloader-shuffle-label-mismatch-repro"

# A classifier evaluated on a loader; {loader} builds it and {compare} scores its predictions.
TEMPLATE = """
test_ds = TensorDataset(X_test, y_test)
{loader}
model.eval()
preds = []
with torch.no_grad():
    for xb, yb in test_loader:
        preds.append(model(xb).argmax(1))
preds = torch.cat(preds)
{compare}
"""
SHUFFLED = "test_loader = DataLoader(test_ds, batch_size=64, shuffle=True)"


def test_fires_on_the_first_sight_repro_whose_test_accuracy_was_at_chance() -> None:
    """test_acc 0.483 on a binary task the model fits to 0.98: judged family at ff53c5d."""
    found = file_findings(CASE / "repro.py")[ID]
    assert found.values["line"] == 21
    assert found.values["loader"] == "test_loader"
    assert found.values["compared_line"] == 46


@pytest.mark.parametrize(
    "compare",
    [
        "acc = (preds == test_ds.tensors[1]).float().mean()",
        "acc = (preds == y_test).float().mean()",  # the array the dataset was built from
        "print(accuracy_score(y_test, preds.numpy()))",
        "acc = (preds == test_ds.targets).sum() / len(test_ds)",
    ],
)
def test_fires_when_the_labels_come_from_the_dataset_in_stored_order(compare: str) -> None:
    assert fires(TEMPLATE.format(loader=SHUFFLED, compare=compare), ID), compare


def test_fires_on_a_validation_loader_by_name_outside_no_grad() -> None:
    source = """
    val_loader = DataLoader(val_set, batch_size=32, shuffle=True)
    outputs = []
    for x, _ in val_loader:
        outputs.append(model(x).argmax(-1))
    print(f1_score(val_set.labels, torch.cat(outputs)))
    """
    assert fires(source, ID)


@pytest.mark.parametrize(
    ("loader", "compare"),
    [
        # not shuffled: the order is the stored order
        ("test_loader = DataLoader(test_ds, batch_size=64)", "acc = (preds == y_test).mean()"),
        ("test_loader = DataLoader(test_ds, shuffle=False)", "acc = (preds == y_test).mean()"),
        # shuffled, but the labels are compared against nothing stored
        (SHUFFLED, "print(preds.bincount())"),
    ],
)
def test_quiet_when_the_order_is_kept_or_nothing_stored_is_compared(
    loader: str, compare: str
) -> None:
    assert not fires(TEMPLATE.format(loader=loader, compare=compare), ID)


def test_quiet_when_the_labels_come_from_the_same_batches() -> None:
    source = """
    test_loader = DataLoader(test_ds, batch_size=64, shuffle=True)
    correct = 0
    with torch.no_grad():
        for xb, yb in test_loader:
            correct += (model(xb).argmax(1) == yb).sum().item()
    print(correct / len(test_ds))
    """
    assert not fires(source, ID)


def test_quiet_when_labels_are_gathered_in_the_loop() -> None:
    source = """
    test_loader = DataLoader(test_ds, batch_size=64, shuffle=True)
    preds, labels = [], []
    with torch.no_grad():
        for xb, yb in test_loader:
            preds.append(model(xb).argmax(1))
            labels.append(yb)
    print((torch.cat(preds) == torch.cat(labels)).float().mean())
    """
    assert not fires(source, ID)


def test_quiet_on_a_shuffled_training_loader() -> None:
    source = """
    train_loader = DataLoader(train_ds, batch_size=64, shuffle=True)
    for xb, yb in train_loader:
        loss = loss_fn(model(xb), yb)
    preds = model(train_ds.tensors[0]).argmax(1)
    print((preds == train_ds.tensors[1]).float().mean())
    """
    assert not fires(source, ID)


HELPER = """
val_loader = DataLoader(val_ds, batch_size=256, shuffle={shuffle})

@torch.no_grad()
def predict(loader):
    preds = []
    for x, _ in loader:
        preds.append(model(x).argmax(1))
    return torch.cat(preds)

preds = predict(val_loader)
acc = (preds == val_ds.labels).float().mean()
"""


def test_fires_when_the_loader_is_iterated_inside_a_helper() -> None:
    """r20D-pytorch-val-acc-at-chance-repro (batch-20, judged at 01690ec1): the shuffled
    validation loader is passed to predict(loader), which loops over its parameter."""
    assert fires(HELPER.format(shuffle="True"), ID)
    assert not fires(HELPER.format(shuffle="False"), ID)
