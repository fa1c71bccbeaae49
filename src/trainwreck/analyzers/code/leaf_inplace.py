"""A tensor that requires grad, updated in place while autograd records.

A tensor made with `requires_grad=True` (or an `nn.Parameter`, or each tensor
a loop takes from `.parameters()`) is a leaf of the graph. Autograd refuses an
in-place change to such a leaf while it is recording, because the change would
have to be part of the graph the leaf starts: `W -= lr * W.grad`, `w[0] = 1`
or `w.normal_()` outside `torch.no_grad()` raises "a leaf Variable that
requires grad is being used in an in-place operation" (or "a view of a leaf
Variable ..." for a slice of it). A hand-written SGD step is the usual case;
under `with torch.no_grad():` (or a function decorated with it) the same line
is the correct way to update the weights and stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import IN_PLACE_METHODS
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, is_method, keyword, last, receiver

_PARAMETERS = frozenset({"parameters"})


def _switches_grad_on(call: ast.Call) -> bool:
    """`x.requires_grad_()` or `x.requires_grad_(True)`."""
    return is_method(call, "requires_grad_") and not (
        call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value is False
    )


def _makes_leaf(value: ast.expr) -> bool:
    """`torch.randn(..., requires_grad=True)`, `x.requires_grad_()`, `nn.Parameter(...)`."""
    for call in (node for node in ast.walk(value) if isinstance(node, ast.Call)):
        flag = keyword(call, "requires_grad")
        if isinstance(flag, ast.Constant) and flag.value is True:
            return True
        if _switches_grad_on(call) or last(call) == "Parameter":
            return True
    return False


def _leaves(tree: Tree) -> set[str]:
    """Names bound to a leaf that requires grad, and loop variables over `.parameters()`."""
    found: set[str] = set()
    for node in tree.nodes:
        if isinstance(node, ast.Assign) and _makes_leaf(node.value):
            found.update(dotted(target) for target in node.targets)
        elif (
            isinstance(node, ast.For)
            and isinstance(node.target, ast.Name)
            and isinstance(node.iter, ast.Call)
            and last(node.iter) in _PARAMETERS
        ):
            found.add(node.target.id)
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and _switches_grad_on(node.value)  # a separate `W.requires_grad_()` statement
        ):
            found.add(receiver(node.value))
    return found - {""}


def _updated(node: ast.AST) -> str:
    """The name a statement or call changes in place: `w` for `w -= ...`, `w[0] = ...`,
    `w.sub_(...)`; "" otherwise."""
    if isinstance(node, ast.AugAssign):
        changed = node.target
        return dotted(changed.value if isinstance(changed, ast.Subscript) else changed)
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        return dotted(target.value) if isinstance(target, ast.Subscript) else ""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return receiver(node) if node.func.attr in IN_PLACE_METHODS else ""
    return ""


def _find(tree: Tree) -> list[Hit]:
    leaves = _leaves(tree)
    if not leaves:
        return []
    hits = []
    for node in tree.nodes:
        name = _updated(node)
        if name in leaves and not tree.grad_off(node):
            hits.append(tree.hit(node, name=name))
    return hits


DETECTOR = Detector(
    name="leaf_updated_in_place",
    title="A tensor that requires grad is updated in place outside torch.no_grad()",
    category="crash",
    explain=(
        "{where}: `{code}` changes `{name}`, a leaf that requires grad, in place while autograd "
        "records: PyTorch refuses it ('a leaf Variable that requires grad is being used in an "
        "in-place operation'); under torch.no_grad() the same update is allowed"
    ),
    find=_find,
)
