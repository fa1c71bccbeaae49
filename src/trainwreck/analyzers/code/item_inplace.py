"""A dataset item augmented in place: the augmentation writes back into the stored data.

`x = self.data[i]` on a tensor or an array is a view of the stored sample (on
a list, the stored object itself). Augmenting it in place (`x += noise`,
`x *= gain`, `x[mask] = 0`, `x.add_(...)`) changes the dataset, so each epoch
adds its random changes on top of every earlier epoch's: the training samples
drift further from the validation ones every epoch and the training loss rises
while nothing else changed. An item copied first (`.clone()`, `.copy()`) or
augmented out of place (`x = x + noise`) stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import IN_PLACE_METHODS, RANDOM_CALL, item_methods
from trainwreck.analyzers.code.tree import Function, Hit, Tree, dotted, receiver


def _stored_items(function: Function) -> dict[str, int]:
    """Names bound to `self.<attr>[...]` in the function, with the line of the last binding
    (any later rebinding, such as `x = x.clone()`, ends the view)."""
    bound: dict[str, int] = {}
    for node in ast.walk(function):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        name = dotted(node.targets[0])
        if not isinstance(node.targets[0], ast.Name):
            continue
        value = node.value
        stored = isinstance(value, ast.Subscript) and dotted(value).startswith("self.")
        if stored and name not in bound:
            bound[name] = node.lineno
        elif name in bound:
            bound[name] = -1  # rebound: no longer known to be the stored view
    return {name: line for name, line in bound.items() if line > 0}


def _draws(node: ast.AST) -> bool:
    return any(
        isinstance(call, ast.Call) and RANDOM_CALL.search(dotted(call.func))
        for call in ast.walk(node)
    )


def _changed_in_place(node: ast.AST) -> str:
    """The name an augmentation changes in place: a random `x += ...` / `x *= ...`,
    `x[...] = ...`, `x.add_(...)`, `np.random.shuffle(x)`; "" otherwise."""
    if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and _draws(node):
        return node.target.id
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        # `x[mask] = 0` writes into the view; `item["labels"] = ...` only sets a key
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and not isinstance(target.slice, ast.Constant)
        ):
            return target.value.id
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == "shuffle" and node.args:
            return dotted(node.args[0])
        if node.func.attr in IN_PLACE_METHODS:
            return receiver(node)
    return ""


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for function in item_methods(tree):
        items = _stored_items(function)
        for node in ast.walk(function):
            name = _changed_in_place(node)
            if name in items and getattr(node, "lineno", 0) > items[name]:
                hits.append(tree.hit(node, name=name))
    return hits


DETECTOR = Detector(
    name="dataset_item_modified_in_place",
    title="__getitem__ augments the stored sample in place, so every epoch's changes accumulate "
    "in the dataset",
    category="divergence",
    explain=(
        "{where}: `{code}` changes `{name}`, a view of the dataset's stored sample, in place: the "
        "augmentation is written back and compounds epoch after epoch"
    ),
    find=_find,
)
