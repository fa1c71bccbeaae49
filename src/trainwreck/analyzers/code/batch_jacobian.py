"""A Jacobian taken over a whole batch at once, where per-sample gradients were wanted.

`torch.autograd.functional.jacobian(f, X)` (and `torch.func.jacrev(f)(X)`,
`jacfwd(f)(X)`) differentiates every output with respect to every input: for a
model applied to a batch of B samples it returns a tensor shaped
(B, out..., B, in...), B times larger than the per-sample Jacobians, almost all of
it zeros because sample i's output does not depend on sample j's input. The memory
and the number of backward passes grow with B squared: 6,000 samples of 64
features to 10 outputs is 6,000 x 10 x 6,000 x 64 x 4 bytes = 92 GB, where the
per-sample Jacobians are 15 MB. Per-sample input gradients come from one backward
of the summed output, or from `vmap(jacrev(f))` over the samples.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, last

_JACOBIANS = frozenset({"jacobian", "jacrev", "jacfwd"})
# The transforms that map a Jacobian over the samples instead.
_PER_SAMPLE = frozenset({"vmap", "functional_call_vmap"})


def _function(call: ast.Call) -> tuple[ast.expr, ast.expr] | None:
    """(the function differentiated, the input) for `jacobian(f, X)` or `jacrev(f)(X)`."""
    if last(call) == "jacobian" and len(call.args) >= 2:
        return call.args[0], call.args[1]
    inner = call.func
    if isinstance(inner, ast.Call) and last(inner) in _JACOBIANS - {"jacobian"} and inner.args:
        return (inner.args[0], call.args[0]) if call.args else None
    return None


def _whole_model(tree: Tree, function: ast.expr) -> bool:
    """A model or a named function, not a lambda or a `def` that reduces over the batch
    first (`lambda x: model(x).sum(0)` gives per-sample gradients by design)."""
    if isinstance(function, ast.Lambda):
        return False
    if isinstance(function, ast.Name):
        defined = [
            node
            for node in tree.nodes
            if isinstance(node, ast.FunctionDef) and node.name == function.id
        ]
        return not any(
            last(call) in {"sum", "mean"}
            for node in defined
            for call in ast.walk(node)
            if isinstance(call, ast.Call)
        )
    return isinstance(function, ast.Attribute)


def _per_sample(tree: Tree, call: ast.Call, given: ast.expr) -> bool:
    """Inside a vmap, in a loop (one sample at a time), or on one indexed sample `X[i]`."""
    mapped = any(
        isinstance(outer, ast.Call) and last(outer) in _PER_SAMPLE for outer in tree.ancestors(call)
    )
    return mapped or bool(tree.loops(call)) or isinstance(given, ast.Subscript)


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        found = _function(call)
        if found is None:
            continue
        function, given = found
        if _whole_model(tree, function) and not _per_sample(tree, call, given):
            hits.append(tree.hit(call, function=ast.unparse(function), inputs=ast.unparse(given)))
    return hits


DETECTOR = Detector(
    name="jacobian_over_batch",
    title="A Jacobian is taken over the whole batch at once: its size grows with the batch squared",
    category="oom",
    explain=(
        "{where}: the Jacobian of `{function}` over `{inputs}` in one call: for a batch it holds "
        "every output's derivative with respect to every sample's input, (B, out, B, in)"
    ),
    find=_find,
)
