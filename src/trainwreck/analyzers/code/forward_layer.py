"""A layer with weights constructed inside forward(), so every call uses new random weights.

`nn.Linear(...)` (or any layer that holds parameters) built inside forward()
is a fresh module with freshly initialised weights on every call. Its weights
are not attributes of the model, so the optimizer never sees them; the next
call throws them away anyway. The loss plateaus where the layer stands, two
forward passes on the same input disagree, and a saved model lacks the layer.
A construction guarded by a lazy-init check (`if self.head is None:`) is left
alone.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import builds_layer, module_classes
from trainwreck.analyzers.code.tree import Function, Hit, Tree, last

_LAZY_CHECKS = frozenset({"hasattr", "getattr"})


def _lazy_guard(tree: Tree, node: ast.AST) -> bool:
    """Built under `if self.x is None:` or `if not hasattr(self, ...)`: once, not per call."""
    for outer in tree.ancestors(node):
        if isinstance(outer, Function):
            return False
        if isinstance(outer, ast.If):
            test = ast.unparse(outer.test)
            if "None" in test or any(
                isinstance(call, ast.Call) and last(call) in _LAZY_CHECKS
                for call in ast.walk(outer.test)
            ):
                return True
    return False


def _find(tree: Tree) -> list[Hit]:
    classes = module_classes(tree)
    hits = []
    for call in tree.calls:
        function = tree.function(call)
        if not isinstance(function, Function) or function.name != "forward":
            continue
        if not (builds_layer(call, classes) or last(call) == "Parameter"):
            continue
        if not _lazy_guard(tree, call):
            hits.append(tree.hit(call, layer=last(call)))
    return hits


DETECTOR = Detector(
    name="layer_built_in_forward",
    title="A layer with weights is constructed inside forward(), so each call gets new random "
    "weights that are never trained",
    category="divergence",
    explain=(
        "{where}: `{code}` builds a new {layer} inside forward(): its weights are re-initialised "
        "on every call and are not among the model's parameters, so nothing trains them"
    ),
    find=_find,
)
