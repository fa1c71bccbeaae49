"""Slow work repeated per step or per sample: a checkpoint written every step, a tokenizer or
model loaded inside __getitem__ or the training loop.

torch.save of a full checkpoint (or save_pretrained) serialises every weight
and optimizer tensor to disk; unguarded inside the step loop it runs on every
step and the run spends most of its time writing files. `from_pretrained`
reads and parses files from disk (a tokenizer's vocabulary, a model's
weights); inside `__getitem__` it runs once per sample, inside the training
loop once per step. Both show as a throughput far below what the model's
compute allows. A save guarded by an `if` (every N steps, on improvement)
stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import method_calls, optimizer_steps
from trainwreck.analyzers.code.tree import Function, Hit, Loop, Tree, last

_SAVES = frozenset({"save", "save_pretrained", "save_state", "save_model", "save_checkpoint"})
_LOADS = frozenset({"from_pretrained"})


def _steps_in(tree: Tree, loop: Loop) -> bool:
    """The loop itself steps the optimizer (not only a loop nested in it: an epoch loop)."""
    return bool(method_calls(loop, "backward")) and bool(
        tree.directly_in(loop, optimizer_steps(loop))
    )


def _unguarded_in_step_loop(tree: Tree, call: ast.Call) -> bool:
    loops = tree.loops(call)
    if not loops or not _steps_in(tree, loops[0]):
        return False
    for outer in tree.ancestors(call):
        if outer is loops[0]:
            return True
        if isinstance(outer, ast.If | ast.Try):
            return False
    return False


def _in_getitem(tree: Tree, call: ast.Call) -> bool:
    function = tree.function(call)
    return isinstance(function, Function) and function.name == "__getitem__"


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        name = last(call)
        if name in _SAVES and _unguarded_in_step_loop(tree, call):
            hits.append(tree.hit(call, what="a checkpoint is written", every="training step"))
        elif name in _LOADS and _in_getitem(tree, call):
            hits.append(tree.hit(call, what="files are loaded and parsed", every="sample"))
        elif name in _LOADS and tree.loops(call) and _steps_in(tree, tree.loops(call)[0]):
            hits.append(tree.hit(call, what="files are loaded and parsed", every="training step"))
    return hits


DETECTOR = Detector(
    name="disk_work_every_step",
    title="A checkpoint is saved, or a tokenizer/model loaded from disk, on every step or sample",
    category="slow_throughput",
    explain=(
        "{where}: `{code}` runs on every {every}: {what} each time, and that disk work, not "
        "the model, sets the step time"
    ),
    find=_find,
)
