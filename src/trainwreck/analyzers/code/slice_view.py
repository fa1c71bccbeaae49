"""Small slices of a large tensor kept or saved: each one holds the whole storage.

Basic indexing (`x[:, a:b]`, `x[a:b]`) returns a view that shares the base
tensor's storage. Appending such views to a list (windows, crops, chunks) keeps
the entire base alive for as long as any view lives, and `torch.save` of a view
writes the whole storage: memory or file size follow the base tensor, not the
pieces. A multi-dimensional slice (`[:, a:b]`) only exists on arrays and
tensors, so it is what this detector reads; a copied slice (`.clone()`,
`.copy()`) stays quiet, and so does a one-dimensional slice, which on a Python
list is already a copy. `torch.save` of one row picked by the loop's own
variable (`for j in range(n): torch.save({"feats": feats[j]}, ...)`) is the
per-item cache written from a batch tensor: each file holds the whole batch
(batch-36's feature-cache reproduction: 1 MB per 16 KB clip).
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, is_method, last


def _multi_dim_slice(node: ast.expr) -> bool:
    """`x[:, a:b]`, `x[i, a:b]`: a tuple index holding a slice, taken from a name."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Tuple)
        and any(isinstance(part, ast.Slice) for part in node.slice.elts)
        and bool(dotted(node.value))
    )


def _loop_names(tree: Tree, node: ast.AST) -> set[str]:
    """The names the loops around a node bind on each pass (`j` in `for j in range(n)`)."""
    return {
        name.id
        for loop in tree.loops(node)
        if isinstance(loop, ast.For | ast.AsyncFor)
        for name in ast.walk(loop.target)
        if isinstance(name, ast.Name)
    }


def _row_of_loop(node: ast.expr, names: set[str]) -> bool:
    """`feats[j]` where `j` is the enclosing loop's variable: one row of a batch tensor."""
    return (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Name)
        and node.slice.id in names
        and bool(dotted(node.value))
    )


def _saved(call: ast.Call) -> list[ast.expr]:
    """What a torch.save call writes: its object, or each value of a dict literal."""
    kept = call.args[0]
    return list(kept.values) if isinstance(kept, ast.Dict) else [kept]


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        if not call.args:
            continue
        if is_method(call, "append") and tree.loops(call):
            kept = [call.args[0]] if _multi_dim_slice(call.args[0]) else []
        elif dotted(call) == "torch.save":
            names = _loop_names(tree, call)
            kept = [x for x in _saved(call) if _multi_dim_slice(x) or _row_of_loop(x, names)]
        else:
            kept = []
        if kept:
            hits.append(tree.hit(call, view=ast.unparse(kept[0]), action=last(call)))
    return hits


DETECTOR = Detector(
    name="slice_view_retained",
    title="Slices of a large tensor are kept or saved as views, so each holds the whole storage",
    category="oom",
    explain=(
        "{where}: `{code}` keeps `{view}`, a view sharing the whole base tensor's storage: "
        "memory (or the saved file) grows with the base, not with the slice; .clone() keeps "
        "only the slice"
    ),
    find=_find,
)
