"""Whether an expression in user code is a tensor that still carries its autograd graph.

A loss or a model output computed with autograd on keeps a reference to the
graph that made it, and through the graph to the activations saved for
backward. `.item()`, `float()` and `.detach()` cut that link; a `no_grad`
block never makes it. The accumulation detector asks this of what is added
to a running total, and follows a name to what it was bound to.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.losses import is_loss_call, is_loss_name
from trainwreck.analyzers.code.names import detached, is_forward
from trainwreck.analyzers.code.tree import Function, Tree

# Methods that return a tensor still attached to the same graph.
_GRAPH_KEEPING = frozenset(
    {
        "mean",
        "sum",
        "cpu",
        "cuda",
        "to",
        "squeeze",
        "unsqueeze",
        "view",
        "reshape",
        "float",
        "clone",
    }
)
# Attributes of a model's output object that hold tensors (transformers' ModelOutput).
_OUTPUT_TENSORS = frozenset({"loss", "logits"})
# Following a name to its binding and on: deep enough for `loss = out[0]` after `out = model(x)`.
MAX_DEPTH = 3


class Liveness:
    """Answers `live(expr)` inside one tree, knowing which names hold modules."""

    def __init__(self, tree: Tree, models: set[str]) -> None:
        self.tree = tree
        self.models = models

    def live(self, value: ast.expr, scope: Function | None, depth: int = 0) -> bool:
        if depth > MAX_DEPTH or detached(value):
            return False
        if isinstance(value, ast.Call):
            return self._live_call(value, scope, depth)
        if isinstance(value, ast.Attribute):
            return value.attr in _OUTPUT_TENSORS
        if isinstance(value, ast.BinOp):
            return self.live(value.left, scope, depth + 1) or self.live(
                value.right, scope, depth + 1
            )
        if isinstance(value, ast.Subscript):
            return self.live(value.value, scope, depth + 1)
        if isinstance(value, ast.Name):
            return self._live_name(value.id, scope, depth)
        return False

    def _live_call(self, call: ast.Call, scope: Function | None, depth: int) -> bool:
        if is_forward(call, self.models):
            return True
        if is_loss_call(call):  # live unless its inputs are known to carry no graph
            if any(self.live(arg, scope, depth + 1) for arg in call.args):
                return True
            return not any(
                isinstance(arg, ast.Name) and self._dead(arg.id, scope) for arg in call.args
            )
        if isinstance(call.func, ast.Attribute) and call.func.attr in _GRAPH_KEEPING:
            return self.live(call.func.value, scope, depth + 1)
        return False

    def _bindings(self, name: str, scope: Function | None) -> list[ast.Assign | ast.AnnAssign]:
        return [
            node
            for node in self.tree.assignments(name, within=scope)
            if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
        ]

    def _live_name(self, name: str, scope: Function | None, depth: int) -> bool:
        bindings = self._bindings(name, scope)
        if not bindings:
            return is_loss_name(name)  # a parameter or a fragment: `loss` holds a loss
        return any(
            node.value is not None
            and not self.tree.grad_off(node)
            and self.live(node.value, scope, depth + 1)
            for node in bindings
        )

    def _dead(self, name: str, scope: Function | None) -> bool:
        """Bound only to detached values, or only where autograd was off."""
        bindings = self._bindings(name, scope)
        return bool(bindings) and all(
            self.tree.grad_off(node) or (node.value is not None and detached(node.value))
            for node in bindings
        )
