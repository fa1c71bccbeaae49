"""A model's parameters bound once as an iterator and handed to two consumers.

`model.parameters()` returns a generator, and `filter(...)` or a generator expression
over it is one too: the first consumer (usually the optimizer) exhausts it, so the
second gets nothing. Gradient clipping handed the spent iterator clips nothing and
reports a norm of 0, a second optimizer has no parameters, a parameter count reads 0.
`list(...)` around the first binding makes it reusable.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, is_method, last

_ITERATORS = frozenset({"parameters", "named_parameters"})
_WRAPPERS = frozenset({"filter", "map"})


def _is_parameter_iterator(value: ast.expr | None) -> bool:
    """`m.parameters()`, `filter(f, m.parameters())`, `(p for p in m.parameters() if ...)`."""
    if isinstance(value, ast.Call):
        if any(is_method(value, name) for name in _ITERATORS):
            return True
        return last(value) in _WRAPPERS and any(_is_parameter_iterator(a) for a in value.args)
    if isinstance(value, ast.GeneratorExp):
        return any(_is_parameter_iterator(loop.iter) for loop in value.generators)
    return False


def _consumers(tree: Tree, name: str, scope: ast.AST | None) -> list[ast.expr | ast.stmt]:
    """Calls that take `name` as an argument and loops over it, in source order."""
    found: list[ast.expr | ast.stmt] = []
    for node in tree.nodes:
        if tree.function(node) is not scope:
            continue
        if isinstance(node, ast.Call):
            passed = [*node.args, *(kw.value for kw in node.keywords)]
            if any(isinstance(arg, ast.Name) and arg.id == name for arg in passed):
                found.append(node)
        elif isinstance(node, ast.For) and dotted(node.iter) == name:
            found.append(node)
        elif isinstance(node, ast.comprehension) and dotted(node.iter) == name:
            feeds = tree.parents[node]  # the generator or list the comprehension builds
            if isinstance(feeds, ast.expr):
                found.append(feeds)
    return sorted(found, key=lambda node: (node.lineno, node.col_offset))


def _find(tree: Tree) -> list[Hit]:
    hits: list[Hit] = []
    for name, statements in tree.bindings.items():
        if len(statements) != 1 or "." in name:
            continue
        statement = statements[0]
        if not isinstance(statement, ast.Assign) or not _is_parameter_iterator(statement.value):
            continue
        consumers = _consumers(tree, name, tree.function(statement))
        if len(consumers) >= 2:
            first = consumers[0]
            first_name = dotted(first) if isinstance(first, ast.Call) else f"for ... in {name}"
            hits.append(tree.hit(consumers[1], name=name, first=first_name))
    return hits


DETECTOR = Detector(
    name="parameters_iterator_reused",
    title="The model's parameters are bound once as an iterator and consumed twice: the second "
    "consumer (gradient clipping, a second optimizer) gets nothing",
    category="divergence",
    explain=(
        "{where}: `{name}` is an iterator over the model's parameters, already consumed by "
        "`{first}`; here (`{code}`) it yields nothing"
    ),
    find=_find,
)
