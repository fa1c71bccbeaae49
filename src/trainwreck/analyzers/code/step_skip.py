"""A training step skipped on a value each rank computes for itself.

Under DDP (and Lightning's multi-device strategies, which wrap DDP) every rank must
run backward on every step: backward is where the gradient all-reduce happens.
A step skipped because this rank's own loss is NaN or a random draw came up
(`if torch.isnan(loss): continue` before `loss.backward()`, or a Lightning
`training_step` that returns None) leaves the other ranks waiting in an
all-reduce this rank never joins; the job freezes without an error until the
collective timeout. Lightning documents returning None from `training_step` as
unsupported on multiple GPUs. A skip on the step count (`batch_idx`,
`global_step`), which is the same on every rank, stays quiet, and so does a
plain loop in code that shows no distributed setup.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import distributed
from trainwreck.analyzers.code.tree import Hit, Tree, last, names_in

# Names that hold the same value on every rank: a skip on them is taken by all ranks alike.
_RANK_UNIFORM = frozenset(
    {
        "self",
        "self.trainer",
        "batch_idx",
        "batch_nb",
        "step",
        "global_step",
        "epoch",
        "self.global_step",
        "self.current_epoch",
        "self.trainer.global_step",
        "self.trainer.current_epoch",
    }
)
_LIGHTNING_STEP = "training_step"


def _continues(body: list[ast.stmt]) -> bool:
    """The branch moves the loop to its next batch."""
    return any(isinstance(node, ast.Continue) for node in body)


def _returns_none(body: list[ast.stmt]) -> bool:
    """The branch ends the step with `return` or `return None`."""
    return any(
        isinstance(node, ast.Return) and (node.value is None or _is_none(node.value))
        for node in body
    )


def _is_none(value: ast.expr) -> bool:
    return isinstance(value, ast.Constant) and value.value is None


def _rank_local(test: ast.expr) -> bool:
    """The condition reads something other than the step count: a loss, a random draw, data."""
    return not names_in(test) <= _RANK_UNIFORM


def _lightning_skips(tree: Tree) -> Iterator[Hit]:
    for function in tree.nodes:
        if not (isinstance(function, ast.FunctionDef) and function.name == _LIGHTNING_STEP):
            continue
        for node in ast.walk(function):
            if (
                isinstance(node, ast.If)
                and tree.function(node) is function
                and _returns_none(node.body)
                and _rank_local(node.test)
            ):
                yield tree.hit(node, how="returns None from training_step")


def _backward_lines(loop: ast.For | ast.While) -> list[int]:
    return [
        node.lineno
        for node in ast.walk(loop)
        if isinstance(node, ast.Call) and last(node) == "backward"
    ]


def _loop_skips(tree: Tree) -> Iterator[Hit]:
    if not distributed(tree):
        return
    for loop in tree.nodes:
        if not isinstance(loop, ast.For | ast.While):
            continue
        backwards = _backward_lines(loop)
        if not backwards:
            continue
        first_backward = min(backwards)
        for node in ast.walk(loop):
            if (
                isinstance(node, ast.If)
                and tree.loops(node)[:1] == [loop]
                and node.lineno < first_backward
                and _continues(node.body)
                and _rank_local(node.test)
            ):
                yield tree.hit(node, how="skips backward with `continue`")


def _find(tree: Tree) -> list[Hit]:
    return [*_lightning_skips(tree), *_loop_skips(tree)]


DETECTOR = Detector(
    name="rank_local_step_skip",
    title="A training step is skipped on a value each rank computes for itself (its own loss)",
    category="hang",
    explain=(
        "{where}: `{code}` {how} when this rank's own value says so; under DDP or any "
        "multi-GPU strategy the other ranks still all-reduce gradients in backward and wait "
        "for this one"
    ),
    find=_find,
)
