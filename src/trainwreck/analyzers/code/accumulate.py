"""A loss or output tensor added to a total (or a list) that outlives the iteration.

`total_loss += loss` keeps `loss`'s autograd graph reachable from the total,
and in a loop with no backward (evaluation without no_grad) the activations the
graph saved as well: memory grows every iteration until an allocation fails.
PyTorch's FAQ gives this very line as its example. `loss += aux_loss` inside
the step is not this: the total must be bound before the loop (or live on
`self`, across calls) and not reset inside it; and a module's forward(), whose
locals die when it returns, is model code, not a loop over batches.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.live import Liveness
from trainwreck.analyzers.code.names import NO_GRAD_HOOKS, model_names
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, names_in

# With no loop in view (a traceback frame's one line), only a name that says it is a
# running total counts as one.
_TOTAL = re.compile(r"(?i)^(?:self\.)?(?:total|running|sum|cum|epoch|avg|mean|val|valid|eval|test)")


def _forward(name: str) -> bool:
    return name == "forward" or name.startswith(("forward_", "_forward"))


def _accumulations(tree: Tree) -> Iterator[tuple[ast.stmt, str, ast.expr, str]]:
    """(statement, total, added value, how) for `t += v`, `t = t + v` and `t.append(v)`."""
    for node in tree.nodes:
        if isinstance(node, ast.AugAssign) and isinstance(node.op, ast.Add):
            yield node, dotted(node.target), node.value, "+="
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.value, ast.BinOp)
            and isinstance(node.value.op, ast.Add)
            and dotted(node.value.left) == dotted(node.targets[0]) != ""
        ):
            yield node, dotted(node.targets[0]), node.value.right, "+"
        elif (
            isinstance(node, ast.Expr)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "append"
            and len(node.value.args) == 1
        ):
            yield node, dotted(node.value.func.value), node.value.args[0], "append"


def _resets(tree: Tree, statement: ast.stmt, total: str, within: ast.AST) -> bool:
    """Whether `total` is bound afresh inside `within` (other than by the accumulation)."""
    return any(
        node is not statement
        and not (isinstance(node, ast.AugAssign))
        and not (isinstance(node, ast.Assign) and total in names_in(node.value))
        for node in tree.assignments(total, within=within)
    )


def _outlives(tree: Tree, statement: ast.stmt, total: str) -> bool:
    """Whether the total lives across iterations (or calls) of the code that adds to it."""
    loops = tree.loops(statement)
    function = tree.function(statement)
    if not loops:
        if function is not None:
            return total.startswith("self.")  # an attribute keeps the sum between calls
        return bool(_TOTAL.match(total))
    inner = loops[0]
    bound_before = any(inner not in tree.ancestors(node) for node in tree.assignments(total))
    return bound_before and not _resets(tree, statement, total, inner)


def _find(tree: Tree) -> list[Hit]:
    if tree.grad_off_everywhere:
        return []
    liveness = Liveness(tree, model_names(tree))
    hits = []
    for statement, total, value, how in _accumulations(tree):
        function = tree.function(statement)
        if total == "" or tree.grad_off(statement):
            continue
        if function is not None and (function.name in NO_GRAD_HOOKS or _forward(function.name)):
            continue
        if _outlives(tree, statement, total) and liveness.live(value, function):
            hits.append(tree.hit(statement, total=total, added=ast.unparse(value), how=how))
    return hits


DETECTOR = Detector(
    name="loss_accumulated_live",
    title="A loss or output tensor is accumulated with its autograd graph",
    category="oom",
    explain=(
        "{where}: `{code}` adds `{added}` to `{total}`, which outlives the iteration, without "
        ".item() or .detach(): every iteration's autograd graph stays reachable from it"
    ),
    find=_find,
)
