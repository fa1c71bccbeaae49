"""`requires_grad = False` assigned to a module, which freezes nothing.

`requires_grad` is a property of tensors. On an nn.Module, `model.bert.requires_grad
= False` only creates a plain Python attribute that autograd never reads: every
parameter inside keeps requires_grad=True, the optimizer (given model.parameters())
updates them all, and the "frozen" part trains anyway (a fine-tuned shared encoder
drifts and the task it served degrades). `module.requires_grad_(False)` or a loop that
sets each parameter's flag does freeze it. A loop variable over `.parameters()` /
`.named_parameters()` is a tensor, so `p.requires_grad = False` stays quiet, and so do
names of parameters themselves (`.weight`, `.bias`).
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import model_names
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last

_PARAMETER_ATTRS = frozenset({"weight", "bias", "data", "grad"})
_PARAMETER_ITERATORS = frozenset({"parameters", "named_parameters", "values"})


def _loop_tensors(tree: Tree) -> set[str]:
    """Names a for loop binds to parameters: `for p in model.parameters()`."""
    found: set[str] = set()
    for node in tree.nodes:
        if (
            isinstance(node, ast.For | ast.AsyncFor)
            and isinstance(node.iter, ast.Call)
            and last(node.iter) in _PARAMETER_ITERATORS
        ):
            found.update(n.id for n in ast.walk(node.target) if isinstance(n, ast.Name))
    return found


def _is_module(target: ast.expr, models: set[str], tensors: set[str]) -> bool:
    name = dotted(target)
    if not name or name in tensors or name.rsplit(".", 1)[-1] in _PARAMETER_ATTRS:
        return False
    return any(name == model or name.startswith(f"{model}.") for model in models)


def _find(tree: Tree) -> list[Hit]:
    models = model_names(tree)
    tensors = _loop_tensors(tree)
    return [
        tree.hit(node, module=dotted(target.value))
        for node in tree.nodes
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Attribute)
        and target.attr == "requires_grad"
        and _is_module(target.value, models, tensors)
    ]


DETECTOR = Detector(
    name="requires_grad_set_on_module",
    title="requires_grad assigned to a module, which leaves its parameters trainable",
    category="wrong_output",
    explain=(
        "{where}: `{code}` sets an attribute on the module `{module}`, not on its parameters: "
        "they keep requires_grad=True and the optimizer still updates them "
        "(use `{module}.requires_grad_(False)`)"
    ),
    find=_find,
)
