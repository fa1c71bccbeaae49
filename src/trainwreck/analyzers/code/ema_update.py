"""An exponential moving average of weights updated without the (1 - decay) factor.

An EMA (mean teacher, target network, EMA model) moves each averaged weight a
fraction of the way to the live one: `t = decay * t + (1 - decay) * s`, or
`t.mul_(decay).add_(s, alpha=1 - decay)`, or `t.lerp_(s, 1 - decay)`. Dropping
the `(1 - decay)` factor, `t.mul_(decay).add_(s)`, sums instead of averaging:
the weights settle near `s / (1 - decay)`, a hundred times the live weights for
a decay of 0.99, and the averaged model's outputs and losses explode. A
momentum buffer of gradients (`buf.mul_(momentum).add_(grad)`, as SGD keeps it)
is a sum by design and stays quiet.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, is_method, keyword, names_in

# What names an average of weights (or its factor) in EMA code.
_AVERAGE = re.compile(r"(?i)ema|teacher|target|shadow|averag|avg|decay|tau")
_GRADIENT = re.compile(r"(?i)grad|\bg\b")


def _names_of(node: ast.AST) -> str:
    return " ".join(sorted(names_in(node)))


def _unscaled_sum(call: ast.Call) -> ast.Call | None:
    """`t.mul_(d).add_(s)` with no alpha: returns the inner `mul_` call."""
    if not (is_method(call, "add_") and call.args and keyword(call, "alpha") is None):
        return None
    inner = call.func.value if isinstance(call.func, ast.Attribute) else None
    if not (isinstance(inner, ast.Call) and is_method(inner, "mul_") and inner.args):
        return None
    added = call.args[0]
    if len(call.args) > 1 or isinstance(added, ast.BinOp) or _GRADIENT.search(_names_of(added)):
        return None
    return inner


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        inner = _unscaled_sum(call)
        if inner is None:
            continue
        scope = tree.function(call)
        # the receiver, the factor, the function's name and what the loops walk over
        averaged = " ".join(
            [
                _names_of(inner.func),
                _names_of(inner.args[0]),
                scope.name if scope else "",
                *(
                    _names_of(loop.iter)
                    for loop in tree.loops(call)
                    if not isinstance(loop, ast.While)
                ),
            ]
        )
        if _AVERAGE.search(averaged):
            hits.append(tree.hit(call, factor=ast.unparse(inner.args[0])))
    return hits


DETECTOR = Detector(
    name="ema_update_without_complement",
    title="A moving average of weights adds the live weights without the (1 - decay) factor",
    category="divergence",
    explain=(
        "{where}: `{code}` multiplies by {factor} and adds the live weights unscaled: a sum, "
        "not an average, so the averaged weights grow towards 1 / (1 - decay) times the live ones"
    ),
    find=_find,
)
