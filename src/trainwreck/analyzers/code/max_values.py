"""The values of a max over the classes compared with labels, instead of its indices.

`torch.max(logits, dim)` (and `logits.max(dim)`) returns two tensors, the
largest scores and where they are. Element `[1]` (`.indices`) is the predicted
class; element `[0]` (`.values`) is a score or a probability, a float that
equals an integer label almost never. Compared with the labels it gives an
accuracy near 0 (or at some fixed value) while the loss trains normally.
`_, pred = torch.max(out, 1)` is the usual correct spelling; `pred, _ = ...`
followed by `pred == y` is the mistake.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, keyword, last, number

_MAX = frozenset({"max"})
_VALUES = "values"
_COMPARE = (ast.Eq, ast.NotEq)
_COMPARE_METHODS = frozenset({"eq", "ne"})
_PAIR = 2  # max over a dim returns (values, indices)


def _max_over_dim(node: ast.expr) -> bool:
    """`torch.max(x, 1)`, `torch.max(x, dim=1)`, `x.max(1)`, `x.max(dim=-1)`: the tuple form."""
    if not isinstance(node, ast.Call) or last(node) not in _MAX:
        return False
    if keyword(node, "dim") is not None:
        return True
    # torch.max(x, d) takes the tensor first; x.max(d) takes only the dim
    positional = node.args[1:] if _is_function(node) else node.args
    return bool(positional) and number(positional[0]) is not None


def _is_function(call: ast.Call) -> bool:
    """`torch.max(...)` (a module function), not `x.max(...)` (a tensor method)."""
    return (
        isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == "torch"
    )


def _values_of_max(node: ast.expr) -> bool:
    """`torch.max(x, 1)[0]` or `x.max(1).values`."""
    if isinstance(node, ast.Subscript) and number(node.slice) == 0:
        return _max_over_dim(node.value)
    if isinstance(node, ast.Attribute) and node.attr == _VALUES:
        return _max_over_dim(node.value)
    return False


def _value_names(tree: Tree) -> set[str]:
    """Names bound to the values: `v = x.max(1)[0]`, and `v` in `v, i = torch.max(x, 1)`."""
    found = set()
    for node in tree.nodes:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        target = node.targets[0]
        if isinstance(target, ast.Name) and _values_of_max(node.value):
            found.add(target.id)
        elif (
            isinstance(target, ast.Tuple)
            and len(target.elts) == _PAIR
            and isinstance(target.elts[0], ast.Name)
            and target.elts[0].id != "_"
            and _max_over_dim(node.value)
        ):
            found.add(target.elts[0].id)
    return found


def _compared(node: ast.AST) -> list[ast.expr]:
    """The operands an equality test compares: `a == b`, `a.eq(b)`."""
    if isinstance(node, ast.Compare) and all(isinstance(op, _COMPARE) for op in node.ops):
        return [node.left, *node.comparators]
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in _COMPARE_METHODS
    ):
        return [node.func.value, *node.args]
    return []


def _find(tree: Tree) -> list[Hit]:
    names = _value_names(tree)
    hits = []
    for node in tree.nodes:
        for operand in _compared(node):
            if _values_of_max(operand) or (isinstance(operand, ast.Name) and operand.id in names):
                hits.append(tree.hit(node, values=ast.unparse(operand)))
                break
    return hits


DETECTOR = Detector(
    name="max_values_as_prediction",
    title="The maximum scores of a max over the classes are compared with the labels instead "
    "of the indices",
    category="wrong_output",
    explain=(
        "{where}: `{code}` compares `{values}`, the largest scores returned by max(), with the "
        "labels: the predicted class is the index ([1], .indices or argmax)"
    ),
    find=_find,
)
