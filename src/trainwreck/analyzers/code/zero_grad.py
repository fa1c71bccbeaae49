"""A loop that calls backward() and optimizer.step() but does not reset the gradients in it.

backward() adds into each parameter's .grad; the loop must clear it once per
step (optimizer.zero_grad(), model.zero_grad(), or `p.grad = None`). Without
that, every step applies the sum of all earlier gradients and a run that first
improves turns around and diverges. A reset only in an enclosing loop (once per
epoch) is the same mistake within each epoch. Gradient accumulation resets
after its step, inside the loop, so it stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import method_calls, optimizer_steps
from trainwreck.analyzers.code.tree import Hit, Loop, Tree, dotted, last


def _backward(node: ast.AST) -> bool:
    """`loss.backward()`, `scaler.scale(loss).backward()`, `accelerator.backward(loss)`."""
    return bool(method_calls(node, "backward"))


def _resets(node: ast.AST) -> list[ast.AST]:
    """zero_grad() calls, and `.grad = None` / `.grad.zero_()` on a parameter, under `node`."""
    found: list[ast.AST] = []
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and (
            last(child) == "zero_grad" or (last(child) == "zero_" and ".grad" in dotted(child))
        ):
            found.append(child)
        if isinstance(child, ast.Assign) and any(
            isinstance(target, ast.Attribute) and target.attr == "grad" for target in child.targets
        ):
            found.append(child)
    return found


def _resets_grads(node: ast.AST) -> bool:
    return bool(_resets(node))


def _trains(loop: Loop) -> bool:
    return _backward(loop) and bool(optimizer_steps(loop))


def _innermost_training_loops(tree: Tree) -> list[Loop]:
    """Loops that hold both backward() and a step, with no inner loop that holds both."""
    loops = [node for node in tree.nodes if isinstance(node, Loop) and _trains(node)]
    return [
        loop
        for loop in loops
        if not any(other is not loop and loop in tree.ancestors(other) for other in loops)
    ]


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for loop in _innermost_training_loops(tree):
        if _resets_grads(loop):
            continue
        outer_reset = any(_resets_grads(outer) for outer in tree.loops(loop))
        step = optimizer_steps(loop)[0]
        reset = "only in an enclosing loop" if outer_reset else "nowhere in the loop"
        hits.append(tree.hit(step, reset=reset, step=ast.unparse(step)))
    return hits


DETECTOR = Detector(
    name="zero_grad_missing",
    title="The training loop never resets the gradients between optimizer steps",
    category="divergence",
    explain=(
        "{where}: the loop calls backward() and `{step}` but resets the gradients {reset}, "
        "so each step applies the sum of every earlier gradient"
    ),
    find=_find,
)


def _position(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def _find_reset_before_step(tree: Tree) -> list[Hit]:
    """backward(), then a reset, then the step, with no backward in between."""
    hits = []
    for loop in _innermost_training_loops(tree):
        backwards = sorted(_position(call) for call in method_calls(loop, "backward"))
        for step in optimizer_steps(loop):
            at_step = _position(step)
            last_backward = max((b for b in backwards if b < at_step), default=None)
            if last_backward is None:
                continue
            between = [r for r in _resets(loop) if last_backward < _position(r) < at_step]
            if between:
                hits.append(tree.hit(between[0], step=ast.unparse(step)))
    return hits


RESET_BEFORE_STEP = Detector(
    name="grads_cleared_before_step",
    title="The gradients are cleared between backward() and optimizer.step(), so every step "
    "applies a zero gradient",
    category="divergence",
    explain=(
        "{where}: `{code}` runs after backward() and before `{step}`: the step sees the "
        "gradients already cleared, so the weights never change"
    ),
    find=_find_reset_before_step,
)
