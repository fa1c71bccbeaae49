"""`load_state_dict(..., strict=False)` whose report of unmatched keys nobody reads.

With strict=False, load_state_dict copies only the tensors whose dotted names
match and returns the rest as `missing_keys` and `unexpected_keys` instead of
raising. When every key carries a prefix the model does not have (`module.`
from a DataParallel/DDP save, `model.` from a Lightning module), nothing is
copied at all: the model keeps its random initialisation and its outputs are
wrong with no error. A call whose result is discarded is such a load; one whose
result is assigned or checked is left alone.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, keyword, last, receiver


def _lenient(call: ast.Call) -> bool:
    """`x.load_state_dict(sd, strict=False)` (by keyword or as the second argument)."""
    if last(call) != "load_state_dict":
        return False
    strict = keyword(call, "strict")
    if strict is None and len(call.args) > 1:
        strict = call.args[1]
    return isinstance(strict, ast.Constant) and strict.value is False


def _find(tree: Tree) -> list[Hit]:
    return [
        tree.hit(node.value, module=receiver(node.value))
        for node in tree.nodes
        if isinstance(node, ast.Expr)  # a bare statement: the returned key lists are dropped
        and isinstance(node.value, ast.Call)
        and _lenient(node.value)
    ]


DETECTOR = Detector(
    name="state_dict_loaded_leniently",
    title="load_state_dict(strict=False) with its unmatched keys unread",
    category="wrong_output",
    explain=(
        "{where}: `{code}` loads without strict checking and drops the returned missing and "
        "unexpected keys, so a checkpoint whose names do not match `{module}` (a `module.` "
        "prefix, another architecture) leaves its layers at their initial values, silently"
    ),
    find=_find,
)
