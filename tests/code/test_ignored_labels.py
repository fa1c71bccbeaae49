"""code.metric_counts_ignored_labels: accuracy over label positions the loss ignores."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.metric_counts_ignored_labels"
BATCH_9 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-9"

METRIC = """
collator = DataCollatorForTokenClassification(tokenizer)

def compute_metrics(p):
    preds = np.argmax(p.predictions, axis=-1)
    labels = p.label_ids
    return {"accuracy": (preds == labels).mean()}
"""
MASKED = """
collator = DataCollatorForTokenClassification(tokenizer)

def compute_metrics(p):
    preds = np.argmax(p.predictions, axis=-1)
    labels = p.label_ids
    keep = labels != -100
    return {"accuracy": (preds[keep] == labels[keep]).mean()}
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (METRIC, True),
        (MASKED, False),
        (METRIC.replace("DataCollatorForTokenClassification", "DataCollatorWithPadding"), False),
        # -100 written into the labels by the script's own labelling
        (
            METRIC.replace(
                "collator = DataCollatorForTokenClassification(tokenizer)",
                "labels = [-100] + tags + [-100]",
            ),
            True,
        ),
    ],
)
def test_fires_only_when_labels_hold_minus_100_and_the_metric_keeps_them(
    source: str, fires: bool
) -> None:
    assert (ID in findings(source)) is fires


def test_the_ner_model_whose_token_accuracy_is_stuck_at_0_30_gets_its_page() -> None:
    # first-sight batch-9 reproduction, judged wrong at 1e00051 (its "stuck" read as a hang)
    report = diagnose_folder(BATCH_9 / "r3-transformers-ner-token-accuracy-stuck-low-repro")
    assert report.hypotheses[0].id == "metric-counts-ignored-label-positions"
