"""NumPy's legacy sampling without replacement, called once per step on a large population.

`np.random.choice(n, k, replace=False)` (the legacy RandomState API) draws its sample by
permuting all n candidates and keeping the first k, so every call costs O(n) whatever k is:
a batch of 512 drawn from 2.45 M rows shuffles 2.45 M indices per step, and a tiny model
trains at a few steps per second. `np.random.default_rng().choice` (Generator) samples
without replacement in time that grows with k, not n; so do `torch.randperm` once per epoch
sliced into batches, or `torch.randint` when repeats are acceptable.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, argument, dotted, keyword, last

# The legacy module-level sampler; a Generator's `rng.choice` samples without permuting all.
_LEGACY = frozenset({"np.random.choice", "numpy.random.choice"})


def _without_replacement(call: ast.Call) -> bool:
    flag = argument(call, "replace", 2)
    return isinstance(flag, ast.Constant) and flag.value is False


def _repeated(tree: Tree, call: ast.Call) -> bool:
    """In a loop, or in a function the code calls from a loop (a `sample_batch()` helper)."""
    if tree.loops(call):
        return True
    function = tree.function(call)
    return function is not None and any(
        last(caller) == function.name and tree.loops(caller) for caller in tree.calls
    )


def _find(tree: Tree) -> list[Hit]:
    return [
        tree.hit(call, population=ast.unparse(population))
        for call in tree.calls
        if dotted(call.func) in _LEGACY
        and _without_replacement(call)
        and _repeated(tree, call)
        and (population := argument(call, "a", 0)) is not None
        and keyword(call, "p") is None  # weighted sampling has no cheaper legacy path
    ]


DETECTOR = Detector(
    name="choice_without_replacement_in_loop",
    title="np.random.choice(..., replace=False) in a loop permutes the whole population every call",
    category="slow_throughput",
    explain=(
        "{where}: `np.random.choice({population}, ..., replace=False)` inside a loop: the legacy "
        "sampler shuffles every candidate on each call, so each step costs the population's size"
    ),
    find=_find,
)
