"""The Trainer's best-model metric is missing from what evaluation returned, and the message
lists what evaluation did return.

`metric_for_best_model` names the metric that ranks checkpoints (and drives
early stopping and ReduceLROnPlateau). When the evaluation results lack it,
transformers raises a KeyError listing the metrics it has. That list tells two
mistakes apart: with metrics of compute_metrics in it (eval_macro_f1 beside a
requested eval_f1) the name is wrong; with only the timing entries (runtime,
samples and steps per second) and no eval_loss, evaluation found no labels, so
neither the loss nor compute_metrics ran (label_names naming a key the batches
do not carry, or a dataset without its label column).
"""

from __future__ import annotations

import ast
import re

from trainwreck.model import Evidence, Finding, SourceRef

MISNAMED = "trainer.best_metric_misnamed"
NO_LABELS = "trainer.evaluation_without_labels"
FINDING_IDS: tuple[str, ...] = (MISNAMED, NO_LABELS)

_MESSAGE = re.compile(
    r"`metric_for_best_model` training argument is set to '(?P<metric>[\w./-]+)', which is not "
    r"found in the evaluation metrics\. The available evaluation metrics are: (?P<keys>\[[^\]]*\])"
)
# Entries every evaluation reports, whatever the model and compute_metrics do.
_BOOKKEEPING = re.compile(r"_(?:runtime|samples_per_second|steps_per_second)$|^epoch$")


def _keys(listing: str) -> list[str]:
    try:
        parsed = ast.literal_eval(listing)
    except (ValueError, SyntaxError):
        return []
    return [str(key) for key in parsed] if isinstance(parsed, list) else []


def _finding(metric: str, keys: list[str], ref: SourceRef) -> Finding:
    computed = [key for key in keys if not _BOOKKEEPING.search(key)]
    wanted = metric.removeprefix("eval_")
    if not computed:
        summary = (
            f"metric_for_best_model asks for '{metric}', but evaluation returned only "
            f"bookkeeping entries ({', '.join(keys) or 'none'}): no eval_loss and no "
            "compute_metrics output, so the evaluation batches carried no labels"
        )
        return Finding(
            id=NO_LABELS,
            title="Evaluation found no labels: no loss and no metrics were computed",
            category="config_error",
            summary=summary,
            evidence=(ref,),
            values={"metric": metric, "available": ", ".join(keys)},
        )
    near = [key for key in computed if wanted in key or key.removeprefix("eval_") in wanted]
    summary = (
        f"metric_for_best_model asks for '{metric}', but evaluation returned "
        f"{', '.join(computed)}" + (f" (the nearest: '{near[0]}')" if near else "")
    )
    return Finding(
        id=MISNAMED,
        title="metric_for_best_model names a metric evaluation does not return",
        category="config_error",
        summary=summary,
        evidence=(ref,),
        values={
            "metric": metric,
            "available": ", ".join(computed),
            "nearest": near[0] if near else "",
        },
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """One finding from the first KeyError about metric_for_best_model."""
    for exc in evidence.exceptions:
        match = _MESSAGE.search(exc.message)
        if match is None:
            continue
        ref = SourceRef(source=exc.source, line=exc.message_ref_line, text=match.group(0)[:300])
        return [_finding(match["metric"], _keys(match["keys"]), ref)]
    return []
