"""Ids handed out in the iteration order of a set: a mapping that changes between processes.

Python salts the hash of every str (PYTHONHASHSEED), so a set of strings is
iterated in a different order in each interpreter. A vocabulary or label map
built by enumerating that set (`{w: i for i, w in enumerate(set(words))}`,
`labels = list(set(df.label))` then `labels.index(y)`) gives each token or
class a different id in the training process than in the prediction script
(or on another rank): a reloaded model reads ids it was never trained on and
its predictions look random. `sorted(set(...))` fixes the order and stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, is_method, last

_SEQUENCES = frozenset({"list", "tuple"})
MAX_DEPTH = 3


def _set_valued(node: ast.expr, tree: Tree, depth: int = 0) -> bool:
    """`set(x)`, `{...}`, a set comprehension, `list(set(x))`, or a name bound only to one."""
    if isinstance(node, ast.Set | ast.SetComp):
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        if node.func.id == "set":
            return True
        if node.func.id in _SEQUENCES and node.args:
            return _set_valued(node.args[0], tree, depth + 1)
    if isinstance(node, ast.Name) and depth < MAX_DEPTH:
        # the bindings in the name's own function: another function may reuse the name
        scope = tree.function(node) or tree.root
        values = [
            bound.value
            for bound in tree.assignments(node.id, within=scope)
            if isinstance(bound, ast.Assign)
        ]
        return bool(values) and all(_set_valued(value, tree, depth + 1) for value in values)
    return False


def _enumerated_set(node: ast.expr, tree: Tree) -> bool:
    """`enumerate(<set>)` or `zip(<set>, ...)`: positions handed out in set order."""
    return (
        isinstance(node, ast.Call)
        and last(node) in {"enumerate", "zip"}
        and bool(node.args)
        and _set_valued(node.args[0], tree)
    )


def _numbers_keys(loop: ast.For) -> bool:
    """The loop body stores a running number under each key: `ids[w] = len(ids)`, `ids[w] = i`
    with `i` the enumerate position, or a counter the loop increments."""
    counters = {dotted(n.target) for n in ast.walk(loop) if isinstance(n, ast.AugAssign)}
    if isinstance(loop.target, ast.Tuple) and loop.target.elts:
        counters.add(dotted(loop.target.elts[0]))
    for node in ast.walk(loop):
        if not (
            isinstance(node, ast.Assign) and any(isinstance(t, ast.Subscript) for t in node.targets)
        ):
            continue
        if (isinstance(node.value, ast.Call) and last(node.value) == "len") or dotted(
            node.value
        ) in counters - {""}:
            return True
    return False


def _indexed_lists(tree: Tree) -> list[ast.Call]:
    """`labels.index(y)` on a name bound to `list(set(...))`."""
    return [
        call
        for call in tree.methods("index")
        if isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Name)
        and _set_valued(call.func.value, tree)
    ]


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for node in tree.nodes:
        if isinstance(node, ast.DictComp) and (
            enumerated := next(
                (gen.iter for gen in node.generators if _enumerated_set(gen.iter, tree)), None
            )
        ):
            hits.append(tree.hit(node, name=ast.unparse(enumerated)))
        elif (
            isinstance(node, ast.For)
            and (_enumerated_set(node.iter, tree) or _set_valued(node.iter, tree))
            and _numbers_keys(node)
        ):
            hits.append(tree.hit(node.iter, name=ast.unparse(node.iter)))
        elif (
            isinstance(node, ast.Call)
            and last(node) == "dict"
            and node.args
            and _enumerated_set(node.args[0], tree)
            and not is_method(node, "dict")
        ):
            hits.append(tree.hit(node, name=ast.unparse(node.args[0])))
    hits.extend(tree.hit(call, name=dotted(call.func)) for call in _indexed_lists(tree))
    return hits


DETECTOR = Detector(
    name="ids_from_set_order",
    title="Ids are assigned in a set's iteration order, which changes with each process's "
    "string-hash seed",
    category="wrong_output",
    explain=(
        "{where}: `{code}` numbers items in the order a set yields them; for strings that order "
        "changes with every interpreter (PYTHONHASHSEED), so another process builds a different "
        "mapping"
    ),
    find=_find,
)
