"""code.sequence_classifier_one_label: num_labels=1 on a classifier read with argmax."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.sequence_classifier_one_label"
BATCH_10 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-10"

CLASSIFIER = """
model = AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", num_labels=1)

def compute_metrics(p):
    return {"accuracy": (np.argmax(p.predictions, axis=-1) == p.label_ids).mean()}
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (CLASSIFIER, True),
        (CLASSIFIER.replace("num_labels=1", "num_labels=2"), False),
        (CLASSIFIER.replace("np.argmax(p.predictions, axis=-1)", "p.predictions[:, 0]"), False),
        (
            CLASSIFIER.replace(
                'AutoModelForSequenceClassification.from_pretrained("bert-base-uncased", '
                "num_labels=1)",
                "BertConfig(vocab_size=100, num_labels=1)",
            ),
            True,
        ),
    ],
)
def test_fires_only_for_one_label_read_with_argmax(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_review_classifier_whose_accuracy_is_flat_gets_its_page() -> None:
    # batch-10 reproduction, judged family at 2c91f17 (a token-metric page led)
    report = diagnose_folder(BATCH_10 / "r1-transformers-review-classifier-accuracy-flat-repro")
    assert report.hypotheses[0].id == "sequence-classifier-num-labels-one-is-regression"
