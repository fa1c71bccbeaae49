"""A standard deviation over the batch dimension, on batches that can hold one sample.

`x.std(dim=0)` (or `.var(0)`) inside `forward` or the training loop computes a
statistic across the samples of the current batch. torch.std defaults to
Bessel's correction (divide by N - 1), so a batch of one sample gives 0/0 = NaN
for every feature, and an epsilon added afterwards does not help (NaN + eps is
NaN). A DataLoader keeps its last partial batch unless `drop_last=True`, so a
dataset whose size leaves a remainder of one yields exactly such a batch once an
epoch: the loss turns NaN at the end of the first epoch. `correction=0` (or
`unbiased=False`) and `drop_last=True` stay quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, argument, keyword, last, number

_SPREADS = frozenset({"std", "var", "std_mean", "var_mean"})
_POPULATION = (("correction", 0), ("unbiased", False))


def _over_batch(call: ast.Call) -> bool:
    """`x.std(0)`, `x.std(dim=0)`, `torch.std(x, 0)` without a population correction."""
    if any(
        (value := keyword(call, name)) is not None
        and isinstance(value, ast.Constant)
        and value.value == population
        for name, population in _POPULATION
    ):
        return False
    method = isinstance(call.func, ast.Attribute) and not (
        isinstance(call.func.value, ast.Name) and call.func.value.id in {"torch", "np", "numpy"}
    )
    dim = argument(call, "dim", 0 if method else 1) or keyword(call, "axis")
    return number(dim) == 0


def _per_batch(tree: Tree, call: ast.Call) -> bool:
    """Inside a `forward` method or a loop: computed on each batch, not once on the dataset."""
    function = tree.function(call)
    return (function is not None and function.name == "forward") or bool(tree.loops(call))


def _drops_last(tree: Tree) -> bool:
    return any(
        last(call) == "DataLoader"
        and isinstance(value := keyword(call, "drop_last"), ast.Constant)
        and value.value is True
        for call in tree.calls
    )


def _find(tree: Tree) -> list[Hit]:
    if not any(last(call) == "DataLoader" for call in tree.calls) or _drops_last(tree):
        return []
    return [
        tree.hit(call, statistic=last(call))
        for call in tree.calls
        if last(call) in _SPREADS and _over_batch(call) and _per_batch(tree, call)
    ]


DETECTOR = Detector(
    name="batch_std_with_bessel_correction",
    title="A std/var over the batch dimension, computed per batch, with batches that can hold "
    "one sample",
    category="nan_inf",
    explain=(
        "{where}: `{code}` takes the {statistic} over the batch dimension with Bessel's "
        "correction, and the DataLoader keeps its last partial batch: a batch of one sample "
        "divides by N - 1 = 0 and every feature becomes NaN"
    ),
    find=_find,
)
