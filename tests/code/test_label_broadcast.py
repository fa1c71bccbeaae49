"""code.label_column_broadcast: (N,) predictions compared with an (N, 1) label column."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_15, ROOT, file_findings, findings, fires

ID = "code.label_column_broadcast"
REPRO = (
    ROOT / "benchmarks/first_sight/batch-2/repro-pytorch-label-column-broadcast-accuracy/repro.py"
)


def test_fires_on_the_first_sight_repro_where_accuracy_sat_at_chance() -> None:
    found = file_findings(REPRO)[ID]
    assert found.values["line"] == 37
    assert found.values["labels"] == "y_val"


@pytest.mark.parametrize(
    "labels",
    [
        "y = logits_true.argmax(dim=1, keepdim=True)",
        "y = targets.unsqueeze(1)",
        "y = targets.view(-1, 1)",
        "y = targets.reshape(-1, 1)",
    ],
)
def test_fires_on_each_way_of_making_a_label_column(labels: str) -> None:
    source = f"""
        {labels}
        preds = model(x).argmax(dim=1)
        acc = (preds == y).float().mean()
    """
    assert fires(source, ID), labels


def test_a_name_squeezed_before_the_loss_counts_as_a_column() -> None:
    source = """
        loss = loss_fn(logits, y_batch.squeeze(1))
        acc = (logits.argmax(1) == y_batch).float().mean()
    """
    assert findings(source)[ID].values["predictions"] == "logits.argmax(1)"


@pytest.mark.parametrize(
    "compare",
    [
        "(preds == y.squeeze(1))",  # the fix
        "(logits.argmax(dim=1, keepdim=True) == y)",  # both columns: (N, 1) == (N, 1)
        "(preds == labels)",  # labels never shown to be a column
    ],
)
def test_quiet_when_the_shapes_agree_or_are_unknown(compare: str) -> None:
    source = f"""
        y = targets.unsqueeze(1)
        preds = logits.argmax(dim=1)
        acc = {compare}.float().mean()
    """
    assert not fires(source, ID), compare


def test_the_mechanism_is_an_all_pairs_comparison_near_chance() -> None:
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    labels = torch.randint(0, 4, (400, 1))
    perfect = labels.squeeze(1)
    assert (perfect == labels).shape == (400, 400)
    assert abs((perfect == labels).float().mean().item() - 0.25) < 0.05
    assert (perfect == labels.squeeze(1)).float().mean().item() == 1.0


ERROR_ID = "code.column_minus_vector"
METRIC = """
for xb, yb in loader:
    loss = loss_fn(model(xb).squeeze(-1), yb)
with torch.no_grad():
    preds = {preds}
    err = {term}
"""


@pytest.mark.parametrize(
    "term",
    [
        "((preds - y_val) ** 2).mean().sqrt()",
        "torch.abs(preds - y_val).mean()",
        "(y_val - preds) ** 2",
    ],
)
def test_error_term_fires_on_an_unsqueezed_head_output(term: str) -> None:
    assert fires(METRIC.format(preds="model(x_val) * sd + mu", term=term), ERROR_ID)


@pytest.mark.parametrize(
    ("preds", "term"),
    [
        ("model(x_val).squeeze(-1)", "((preds - y_val) ** 2).mean()"),  # squeezed here too
        ("model(x_val)", "((preds - y_val.view(-1, 1)) ** 2).mean()"),  # target made a column
        ("model(x_val)", "(preds - y_val).mean()"),  # no error term: a plain difference
    ],
)
def test_error_term_quiet_when_the_shapes_agree(preds: str, term: str) -> None:
    assert not fires(METRIC.format(preds=preds, term=term), ERROR_ID)


def test_error_term_quiet_when_nothing_says_the_head_is_a_column() -> None:
    source = METRIC.format(preds="model(x_val)", term="((preds - y_val) ** 2).mean()")
    assert not fires(source.replace(".squeeze(-1)", ""), ERROR_ID)


def test_error_term_fires_on_the_batch_15_reproduction() -> None:
    """r15D: RMSE over 120,000 validation rows with an (N, 1) prediction: 57.6 GB asked for."""
    found = file_findings(
        BATCH_15 / "r15D-pytorch-val-rmse-cannot-allocate-memory-repro" / "train.py"
    )[ERROR_ID]
    assert (found.values["column"], found.values["vector"], found.values["line"]) == (
        "preds",
        "y_val",
        52,
    )
