"""Adam's two betas given in reversed order: the gradient's average outlasts its scale's.

`betas=(beta1, beta2)` sets the decay of the first moment m (the gradient's running
mean, ~1/(1-beta1) steps) and of the second moment v (its squared scale). The usual
pair is (0.9, 0.999): the scale is averaged ten times longer than the direction.
Reversed, (0.999, 0.9), the step m/sqrt(v) divides a thousand-step mean by a ten-step
scale: when recent gradients shrink, v collapses while m still remembers the large
ones, and the update grows far past the learning rate until the loss explodes.
A first beta above the second is the mistake; equal or ordered betas are a choice.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, entry, number


def _pair(value: ast.expr, tree: Tree) -> tuple[float, float] | None:
    """Two numbers written as a tuple or list (a name followed to its one assignment)."""
    value = tree.resolved(value)
    if not isinstance(value, ast.Tuple | ast.List) or len(value.elts) != 2:
        return None
    first, second = (number(element) for element in value.elts)
    return (first, second) if first is not None and second is not None else None


def _betas(tree: Tree) -> list[tuple[ast.AST, ast.expr]]:
    """Every `betas=...` keyword (an optimizer call, a `dict(...)` of its settings) and every
    `"betas": ...` entry of a dict literal."""
    found: list[tuple[ast.AST, ast.expr]] = [
        (call, given.value)
        for call in tree.calls
        for given in call.keywords
        if given.arg == "betas"
    ]
    found += [
        (node, value)
        for node in ast.walk(tree.root)
        if isinstance(node, ast.Dict) and (value := entry(node, "betas")) is not None
    ]
    return found


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for node, value in _betas(tree):
        pair = _pair(value, tree)
        if pair is not None and pair[0] > pair[1]:
            hits.append(tree.hit(node, beta1=pair[0], beta2=pair[1]))
    return hits


DETECTOR = Detector(
    name="adam_betas_reversed",
    title="Adam's betas are given in reversed order (beta1 above beta2)",
    category="divergence",
    explain=(
        "{where}: `{code}` gives betas=({beta1:g}, {beta2:g}): the gradient's mean averages over "
        "longer than its scale, so updates outgrow the learning rate when gradients shrink"
    ),
    find=_find,
)
