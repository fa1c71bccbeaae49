"""An optimizer or LR scheduler constructed inside the training loop.

An optimizer carries state between steps: Adam's running moments and step
count, SGD's momentum buffers. Building a new one on every step (or every
epoch) throws that state away, so Adam's first update after each rebuild is a
full-size, sign-like step of about lr for every weight and momentum never
builds up; a scheduler rebuilt in the loop starts its schedule again each time,
so the learning rate never decays. Loops that rebuild both around a whole
training run of their own (a sweep over learning rates, folds, trials) stay
quiet: their training happens in a nested loop, and their loop variable is not
an epoch.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import OPTIMIZER_CLASSES, method_calls
from trainwreck.analyzers.code.tree import Hit, Loop, Tree, dotted, last

_SCHEDULERS = re.compile(
    r"^(?:StepLR|MultiStepLR|ExponentialLR|CosineAnnealingLR|CosineAnnealingWarmRestarts|"
    r"OneCycleLR|LambdaLR|LinearLR|CyclicLR|PolynomialLR|ReduceLROnPlateau|"
    r"get_(?:linear|cosine|constant|polynomial_decay)\w*schedule\w*)$"
)
_EPOCH = re.compile(r"(?i)^(?:epoch|epochs|ep|e|epoch_idx|epoch_num)$")


def _what(call: ast.Call) -> str | None:
    name = last(call)
    if name in OPTIMIZER_CLASSES:
        return "optimizer"
    if _SCHEDULERS.match(name):
        return "learning-rate scheduler"
    return None


def _epoch_loop(loop: Loop) -> bool:
    return isinstance(loop, ast.For) and bool(_EPOCH.match(dotted(loop.target)))


def _steps_here(tree: Tree, loop: Loop) -> bool:
    """The loop itself runs backward() (not only a loop nested inside it)."""
    return bool(tree.directly_in(loop, method_calls(loop, "backward")))


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        what = _what(call)
        loops = tree.loops(call)
        if what is None or not loops or not method_calls(loops[0], "backward"):
            continue
        if _steps_here(tree, loops[0]):
            hits.append(tree.hit(call, what=what, every="training step"))
        elif _epoch_loop(loops[0]):
            hits.append(tree.hit(call, what=what, every="epoch"))
    return hits


DETECTOR = Detector(
    name="optimizer_rebuilt_in_loop",
    title="The optimizer (or LR scheduler) is constructed inside the training loop, so its state "
    "restarts every step or epoch",
    category="divergence",
    explain=(
        "{where}: `{code}` builds a new {what} every {every}: its state (moments, momentum, step "
        "count, schedule position) starts again from zero each time"
    ),
    find=_find,
)
