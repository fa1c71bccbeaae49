"""ReduceLROnPlateau left in its default 'min' mode but stepped on a score that rises.

The scheduler cuts the learning rate when its monitored value has stopped improving,
and 'min', the default, counts a fall as an improvement (PyTorch's scheduler docs).
Handed an accuracy, an F1 or an AUC, a run that is learning looks stalled from the
first epoch: every rise is "no improvement", the rate is cut by `factor` after each
`patience` epochs, and within a few cuts the model stops learning. A scheduler built
with mode="max", or stepped on a loss or an error, stays quiet.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import bound_calls
from trainwreck.analyzers.code.tree import Hit, Tree, argument, last, receiver

_SCHEDULER = "ReduceLROnPlateau"
# Names of scores where higher is better; a value named for a loss or an error is not one.
_RISING = re.compile(r"(?i)acc|f1|auc|auroc|precision|recall|\bmap\b|bleu|rouge|iou|dice|score")
_FALLING = re.compile(r"(?i)loss|err|mse|mae|rmse|perplexity|ppl|wer|cer")


def _minimising(call: ast.Call) -> bool:
    """Whether the scheduler runs in 'min' mode (the default, or said so)."""
    mode = argument(call, "mode", 1)
    return mode is None or (isinstance(mode, ast.Constant) and mode.value == "min")


def _rising(value: ast.expr | None) -> bool:
    text = ast.unparse(value) if value is not None else ""
    return bool(_RISING.search(text)) and not _FALLING.search(text)


def _find(tree: Tree) -> list[Hit]:
    schedulers = bound_calls(tree, lambda call: last(call) == _SCHEDULER and _minimising(call))
    return [
        tree.hit(call, scheduler=ast.unparse(built), step=ast.unparse(call))
        for call in tree.methods("step")
        if (built := schedulers.get(receiver(call))) is not None
        and _rising(argument(call, "metrics", 0))
    ]


DETECTOR = Detector(
    name="plateau_scheduler_minimises_a_score",
    title="ReduceLROnPlateau in its default 'min' mode is stepped on a score that should rise",
    category="divergence",
    explain=(
        "{where}: `{step}` hands a score that rises as the model improves to `{scheduler}`, "
        "which counts only a fall as improvement (mode='min' by default): the rate is cut "
        "every `patience` epochs while the model is still learning"
    ),
    find=_find,
)
