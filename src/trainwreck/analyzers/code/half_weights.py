"""A model's own weights loaded or cast to float16 and trained with no mixed precision.

`model.half()`, `from_pretrained(..., torch_dtype=torch.float16)` or a wrapper's
model kwargs holding that dtype make the parameters themselves float16. Trained
that way (an optimizer built in the script, or a library's `fit()`/`train()`
with autocast and loss scaling off), the gradients, the optimizer's moments and
each update live in float16, whose range ends at 65,504 and whose resolution
near 1.0 is about 1e-3: within a few steps an update overflows or underflows
and the weights turn NaN. Mixed precision keeps fp32 master weights; a script
that turns on autocast, a GradScaler or a library's AMP flag is not this mistake,
and float16 weights under an Adam whose eps float16 rounds to 0 are half_adam.py's
sharper diagnosis: this detector yields to it.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code import half_adam
from trainwreck.analyzers.code.casts import weight_casts
from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import OPTIMIZER_CLASSES
from trainwreck.analyzers.code.tree import Hit, Tree, keyword, last

_FLOAT16 = re.compile(r"\b(?:float16|half)\b")
# Library entry points that run the optimizer loop themselves (sentence-transformers and
# Keras-style `fit`, the Hugging Face and Lightning `Trainer`s' `train`/`fit`).
_TRAINING_CALLS = frozenset({"fit", "train"})
# Mixed precision in any of its spellings: torch's autocast and GradScaler, Lightning's and
# Accelerate's precision flags, the Trainer's and sentence-transformers' AMP switches.
_MIXED_PRECISION_CALLS = frozenset({"autocast", "GradScaler"})
_MIXED_PRECISION_FLAGS = ("use_amp", "fp16", "bf16", "amp", "mixed_precision", "precision")
# Values of those flags that keep full precision.
_FULL_PRECISION = frozenset({False, None, "no", 32, "32", "32-true", "fp32"})


def _trains(tree: Tree) -> bool:
    """An optimizer built in the script, or a library's training loop started with
    arguments (a bare `model.train()` only switches the mode)."""
    return any(
        last(call) in OPTIMIZER_CLASSES
        or (last(call) in _TRAINING_CALLS and bool(call.args or call.keywords))
        for call in tree.calls
    )


def _turns_on(value: ast.expr | None) -> bool:
    return value is not None and not (
        isinstance(value, ast.Constant) and value.value in _FULL_PRECISION
    )


def _mixed_precision(tree: Tree) -> bool:
    return any(
        last(call) in _MIXED_PRECISION_CALLS
        or any(_turns_on(keyword(call, flag)) for flag in _MIXED_PRECISION_FLAGS)
        for call in tree.calls
    )


def _find(tree: Tree) -> list[Hit]:
    if not _trains(tree) or _mixed_precision(tree) or half_adam.DETECTOR.find(tree):
        return []
    casts = weight_casts(tree, _FLOAT16)
    return [tree.hit(casts[0])] if casts else []


DETECTOR = Detector(
    name="weights_cast_to_float16_for_training",
    title="The model's weights are float16 and trained without mixed precision (no fp32 master)",
    category="nan_inf",
    explain=(
        "{where}: `{code}` makes the parameters themselves float16, and the script trains them "
        "with no autocast or loss scaling: updates overflow or round away and the weights turn NaN"
    ),
    find=_find,
)
