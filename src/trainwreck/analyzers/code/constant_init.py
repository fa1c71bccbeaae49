"""Every layer's weights initialised to the same constant (often zero): the units never differ.

Hidden units of a layer differ only because their initial weights differ. An
init function applied to every Linear/Conv layer (through model.apply or a
loop over model.modules()) that sets the weights to zeros or to one constant
makes all units of a layer compute the same value and receive the same
gradient, so they stay identical for the whole run; with zeros, hidden
layers also pass no gradient to the layers below them. The loss stalls near
its starting value. Zeroing only biases, or only one named output layer, is a
known good practice and stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Function, Hit, Tree, dotted, last

_CONSTANT_INITS = frozenset({"zeros_", "constant_", "ones_"})
_CONSTANT_FILLS = frozenset({"fill_", "zero_"})


def _weight_constant(call: ast.Call) -> bool:
    """`nn.init.zeros_(m.weight)`, `nn.init.constant_(m.weight, 0.5)`, `m.weight.data.fill_(0)`."""
    if last(call) in _CONSTANT_INITS and call.args:
        return dotted(call.args[0]).endswith(".weight")
    if last(call) in _CONSTANT_FILLS and isinstance(call.func, ast.Attribute):
        return ".weight" in dotted(call.func.value)
    return False


def _applied_to_every_layer(tree: Tree, call: ast.Call) -> bool:
    """Inside a function passed to .apply(), or a loop over .modules()/.children()."""
    function = tree.function(call)
    if isinstance(function, Function) and any(
        last(other) == "apply" and any(dotted(arg) == function.name for arg in other.args)
        for other in tree.calls
    ):
        return True
    return any(
        isinstance(loop, ast.For)
        and isinstance(loop.iter, ast.Call)
        and last(loop.iter) in {"modules", "children"}
        for loop in tree.loops(call)
    )


def _find(tree: Tree) -> list[Hit]:
    return [
        tree.hit(call)
        for call in tree.calls
        if _weight_constant(call) and _applied_to_every_layer(tree, call)
    ]


DETECTOR = Detector(
    name="constant_weight_init",
    title="Every layer's weights are initialised to one constant (zero), so units stay identical",
    category="divergence",
    explain=(
        "{where}: `{code}` sets the weights of every layer it is applied to to one constant: "
        "all units of a layer compute and learn the same thing"
    ),
    find=_find,
)
