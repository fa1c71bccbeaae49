"""A loss rebuilt as a new leaf tensor, or forced to require grad, so no gradient reaches the model.

`torch.tensor(1 - dice, requires_grad=True)` copies the value into a fresh
tensor with no history, and `loss.requires_grad = True` marks a loss that
already lost its graph: backward() then runs without error and computes a
gradient for that new leaf only. Every model parameter keeps a None (or zero)
gradient, the optimizer changes nothing, and the loss stays flat. The usual
origin is silencing "element 0 of tensors does not require grad" this way
instead of finding where the graph was cut.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.losses import is_loss_name
from trainwreck.analyzers.code.tree import Function, Hit, Tree, dotted, keyword, last

_REBUILD = frozenset({"tensor", "as_tensor", "Variable"})


def _computed(value: ast.expr) -> bool:
    """An expression built from names or calls, not a literal number or list."""
    return any(isinstance(node, ast.Name | ast.Call | ast.Attribute) for node in ast.walk(value))


def _loss_place(tree: Tree, call: ast.Call) -> bool:
    """Bound to a loss-named name, or returned by a loss-named function."""
    parent = tree.parents.get(call)
    if isinstance(parent, ast.Assign):
        return any(is_loss_name(dotted(target)) for target in parent.targets)
    if isinstance(parent, ast.Return):
        function = tree.function(parent)
        return isinstance(function, Function) and is_loss_name(function.name)
    return False


def _forced(node: ast.AST) -> str | None:
    """`loss.requires_grad = True` or `loss.requires_grad_()`: the loss's name."""
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        if (
            isinstance(target, ast.Attribute)
            and target.attr == "requires_grad"
            and isinstance(node.value, ast.Constant)
            and node.value.value is True
            and is_loss_name(dotted(target.value))
        ):
            return dotted(target.value)
    if isinstance(node, ast.Call) and last(node) == "requires_grad_":
        owner = node.func.value if isinstance(node.func, ast.Attribute) else None
        if owner is not None and is_loss_name(dotted(owner)):
            return dotted(owner)
    return None


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        flag = keyword(call, "requires_grad")
        if (
            last(call) in _REBUILD
            and isinstance(flag, ast.Constant)
            and flag.value is True
            and call.args
            and _computed(call.args[0])
            and _loss_place(tree, call)
        ):
            hits.append(tree.hit(call, how="rebuilt as a new tensor"))
    for node in tree.nodes:
        if _forced(node) is not None:
            hits.append(tree.hit(node, how="marked as requiring grad after the fact"))
    return hits


DETECTOR = Detector(
    name="loss_rebuilt_as_leaf",
    title="The loss is rebuilt as a new leaf tensor (or forced to require grad), so no gradient "
    "reaches the model",
    category="divergence",
    explain=(
        "{where}: the loss is {how} (`{code}`): backward() starts from a tensor with no history, "
        "so the model's parameters get no gradient and the optimizer changes nothing"
    ),
    find=_find,
)
