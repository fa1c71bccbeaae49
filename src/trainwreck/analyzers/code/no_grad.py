"""Evaluation or inference run with autograd on: a forward pass outside no_grad.

model.eval() changes dropout and batch norm, not autograd: a forward pass
outside `torch.no_grad()` / `torch.inference_mode()` still records the graph
and keeps every activation it saved for a backward pass that never comes.
Three shapes of evaluation code, each with no backward() near the forward:
a loop after `model.eval()`, a loop inside a function named for evaluation
(unless every call of it sits in a no_grad block), and a script that loads a
pretrained model and never trains at all.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import (
    NO_GRAD_HOOKS,
    forward_target,
    frozen_modules,
    is_forward,
    loaded_models,
    method_calls,
    model_names,
    optimizer_steps,
)
from trainwreck.analyzers.code.tree import Function, Hit, Tree, last, receiver

_EVAL_FUNCTION = re.compile(
    r"(?i)^_*(?:eval|evaluat|valid|val_|val$|predict|infer|run_eval|compute_metrics)"
)


def _same_scope(tree: Tree, node: ast.AST, scope: Function | None) -> bool:
    return tree.function(node) is scope


def _after_eval(tree: Tree, call: ast.Call, scope: Function | None) -> bool:
    """A `.eval()` earlier in the same scope, with no `.train()` on that module in between."""
    for switch in tree.methods("eval"):
        if not _same_scope(tree, switch, scope) or switch.lineno >= call.lineno:
            continue
        back = [
            train
            for train in tree.methods("train")
            if receiver(train) == receiver(switch)
            and _same_scope(tree, train, scope)
            and switch.lineno < train.lineno < call.lineno
        ]
        if not back:
            return True
    return False


def _evaluation_function(tree: Tree, scope: Function | None) -> bool:
    """A function named for evaluation that is never called inside a no_grad block."""
    if scope is None or not _EVAL_FUNCTION.match(scope.name):
        return False
    callers = [call for call in tree.calls if last(call) == scope.name]
    return not any(tree.grad_off(call) for call in callers)


def _trains_nearby(tree: Tree, call: ast.Call, scope: Function | None) -> bool:
    """A backward() in the loop around the forward, or in its function when there is no loop."""
    loops = tree.loops(call)
    around = loops[0] if loops else scope
    return bool(method_calls(around, "backward") if around else tree.methods("backward"))


def _never_trains(tree: Tree) -> bool:
    return not tree.methods("backward") and not optimizer_steps(tree.root)


def _why(tree: Tree, call: ast.Call, loaded: set[str]) -> str | None:
    """Which shape of evaluation code the forward is in, or None."""
    scope = tree.function(call)
    if (scope is not None and scope.name in NO_GRAD_HOOKS) or _trains_nearby(tree, call, scope):
        return None
    in_loop = bool(tree.loops(call))
    if in_loop and _after_eval(tree, call, scope):
        return "in a loop after .eval()"
    if in_loop and _evaluation_function(tree, scope):
        return f"in a loop inside {scope.name}()" if scope else None
    if forward_target(call) in loaded and _never_trains(tree):
        return "in a script that never calls backward()"
    return None


def _find(tree: Tree) -> list[Hit]:
    if tree.grad_off_everywhere:
        return []
    frozen = frozen_modules(tree)
    models = model_names(tree) - frozen
    loaded = loaded_models(tree) - frozen
    hits = []
    for call in tree.calls:
        if not is_forward(call, models) or tree.grad_off(call):
            continue
        why = _why(tree, call, loaded)
        if why is not None:
            hits.append(tree.hit(call, model=forward_target(call), why=why))
    return hits


DETECTOR = Detector(
    name="eval_without_no_grad",
    title="Evaluation or inference runs with autograd on (no torch.no_grad)",
    category="oom",
    explain=(
        "{where}: `{code}` runs a forward pass {why} outside torch.no_grad(), so autograd "
        "records the graph and keeps its saved activations"
    ),
    find=_find,
)
