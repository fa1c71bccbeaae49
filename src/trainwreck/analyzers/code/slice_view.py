"""Small slices of a large tensor kept or saved: each one holds the whole storage.

Basic indexing (`x[:, a:b]`, `x[a:b]`) returns a view that shares the base
tensor's storage. Appending such views to a list (windows, crops, chunks) keeps
the entire base alive for as long as any view lives, and `torch.save` of a view
writes the whole storage: memory or file size follow the base tensor, not the
pieces. A multi-dimensional slice (`[:, a:b]`) only exists on arrays and
tensors, so it is what this detector reads; a copied slice (`.clone()`,
`.copy()`) stays quiet, and so does a one-dimensional slice, which on a Python
list is already a copy.
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


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        kept_in_loop = is_method(call, "append") and bool(tree.loops(call))
        if not (kept_in_loop or dotted(call) == "torch.save") or not call.args:
            continue
        kept = call.args[0]
        if _multi_dim_slice(kept):
            hits.append(tree.hit(call, view=ast.unparse(kept), action=last(call)))
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
