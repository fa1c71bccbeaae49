"""The Trainer's best-model metric missing from evaluation (analyzers/best_metric.py).

The KeyErrors are the real messages transformers 5.24 printed in batch-11's reproductions.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from arith_helpers import ROOT, logged

from trainwreck.curation.cases import diagnose_folder

BATCH_11 = ROOT / "benchmarks" / "first_sight" / "batch-11"
MESSAGE = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 9, in <module>\n'
    "    trainer.train()\n"
    "KeyError: \"The `metric_for_best_model` training argument is set to '{metric}', which is "
    "not found in the evaluation metrics. The available evaluation metrics are: {keys}. Consider "
    'changing the `metric_for_best_model` via the TrainingArguments."\n'
)
TIMING = "'eval_runtime', 'eval_samples_per_second', 'eval_steps_per_second', 'epoch'"


@pytest.mark.parametrize(
    ("metric", "keys", "finding"),
    [
        ("eval_f1", f"['eval_loss', 'eval_macro_f1', {TIMING}]", "trainer.best_metric_misnamed"),
        ("eval_acc", f"['eval_loss', {TIMING}]", "trainer.best_metric_misnamed"),
        ("eval_acc", f"[{TIMING}]", "trainer.evaluation_without_labels"),
        ("eval_acc", "[]", "trainer.evaluation_without_labels"),
    ],
)
def test_the_listed_metrics_tell_a_wrong_name_from_missing_labels(
    tmp_path: Path, metric: str, keys: str, finding: str
) -> None:
    report = logged(tmp_path, MESSAGE.format(metric=metric, keys=keys))
    found = {f.id for f in report.findings if f.id.startswith("trainer.")}
    assert found == {finding}


def test_the_nearest_returned_name_is_offered(tmp_path: Path) -> None:
    keys = f"['eval_loss', 'eval_accuracy', 'eval_macro_f1', {TIMING}]"
    report = logged(tmp_path, MESSAGE.format(metric="eval_f1", keys=keys))
    misnamed = next(f for f in report.findings if f.id == "trainer.best_metric_misnamed")
    assert misnamed.values["nearest"] == "eval_macro_f1"


@pytest.mark.parametrize(
    ("case", "page"),
    [
        # batch-11 reproductions, judged family at 8a38e4c (a dataset-prefix thread and a
        # load-best-model strategy page led)
        (
            "r2-transformers-trainer-keyerror-after-first-eval-repro",
            "best-model-metric-name-not-returned",
        ),
        (
            "r1-transformers-sms-spam-trainer-keyerror-eval-acc-repro",
            "trainer-evaluation-without-labels",
        ),
    ],
)
def test_the_keyerror_reproductions_get_their_pages(case: str, page: str) -> None:
    assert diagnose_folder(BATCH_11 / case).hypotheses[0].id == page
