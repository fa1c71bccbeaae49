"""A function differentiated through a point where one of its parts has no finite derivative.

Reverse-mode autodiff multiplies local derivatives. At x = 0, sqrt's derivative
is infinite and a norm's is x / norm(x) = 0/0, so the product is NaN even when
the function's own derivative is finite there: the gradient of norm(x) ** 2 at
0 is NaN in JAX although that of sum(x ** 2) is 0. A `where` (or `torch.where`) that
picks a safe branch does not help: both branches are differentiated and the
untaken one's inf, times the zero cotangent `where` gives it, is NaN. The
remedy is to keep the unsafe input away from its singular point (the "double
where": `sqrt(where(c, safe, x))`), or to write the function without it. A
division whose divisor the condition tests (`where(d > 0, a / d, 0)`, to skip
zero targets) fails the same way: a / 0 is inf and its gradient times zero NaN.
A hand-written distance, `sqrt(sum(d ** 2))` with no epsilon, is the common case:
it is exactly 0 between a point and itself. Fires only in code that
differentiates (`grad`, `backward`, ...), since the forward values are fine.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, calls, dotted, last, names_in, number

# Functions whose derivative is infinite at a boundary of their domain (0 for sqrt and log).
_SINGULAR = frozenset({"sqrt", "rsqrt", "log", "log2", "log10", "arcsin", "arccos"})
# NumPy-style `linalg.norm` (JAX, autograd): torch's norms return the subgradient 0 at 0
# instead (pytorch/pytorch#2775), so torch spellings are left out of the squared-norm rule.
_NUMPY_NORM = "linalg.norm"
_WHERE = frozenset({"where"})
# In a where's untaken branch a function that overflows is as bad as a singular one: exp of a
# large input is inf, and the inf times where's zero cotangent is NaN (pytorch/pytorch#68425).
_BRANCH_UNSAFE = _SINGULAR | {"exp", "expm1", "reciprocal"}
_BOUNDS = frozenset({"clamp", "clip", "clamp_min", "clamp_max", "minimum", "maximum"})
_SQUARE = 2
# Calls that differentiate: JAX transforms, torch autograd.
_AUTODIFF = frozenset(
    {"grad", "value_and_grad", "jacrev", "jacfwd", "vjp", "jvp", "hessian", "backward"}
)


def _differentiates(tree: Tree) -> bool:
    return any(last(call) in _AUTODIFF for call in tree.calls)


def _guarded(call: ast.Call) -> bool:
    """The function's input is itself chosen by a `where` (the double-where trick) or bounded
    by a clamp, so the untaken branch stays finite."""
    argument = _argument(call)
    return argument is not None and any(
        last(inner) in _WHERE | _BOUNDS for inner in calls(argument)
    )


def _squared_norms(tree: Tree) -> list[Hit]:
    """`linalg.norm(x) ** k` for a numeric k: the power's derivative is finite, the norm's 0/0."""
    hits = []
    for node in tree.nodes:
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Pow)
            and isinstance(node.left, ast.Call)
            and dotted(node.left).endswith(_NUMPY_NORM)
            and not dotted(node.left).startswith("torch")
            and number(node.right) is not None
        ):
            hits.append(tree.hit(node, operation="norm(...) ** power", branch="-"))
    return hits


def _argument(call: ast.Call) -> ast.expr | None:
    """What a singular function is applied to: `x` in `sqrt(x)` and in `x.sqrt()`."""
    if call.args:
        return call.args[0]
    return call.func.value if isinstance(call.func, ast.Attribute) else None


def _is_square(node: ast.AST) -> bool:
    """`x ** 2`, `x.pow(2)`, `square(x)`."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        return number(node.right) == _SQUARE
    if isinstance(node, ast.Call):
        if last(node) == "square":
            return True
        return last(node) == "pow" and any(number(arg) == _SQUARE for arg in node.args)
    return False


def _sqrt_of_square_sums(tree: Tree) -> list[Hit]:
    """`sqrt(sum(d ** 2))` with nothing added or clamped in between: a hand-written distance
    or norm, exactly 0 for a point and itself (the diagonal of a pairwise matrix). A gradient
    norm logged from the parameters' `.grad` (or Python's `math.sqrt` of numbers) is never
    differentiated."""
    hits = []
    for call in tree.calls:
        if last(call) != "sqrt" or dotted(call.func).startswith("math."):
            continue
        argument = _argument(call)
        if argument is not None and _reads_grads(argument):
            continue
        if (
            isinstance(argument, ast.Call)
            and last(argument) == "sum"
            and any(_is_square(inner) for inner in ast.walk(argument))
        ):
            hits.append(tree.hit(call, operation="sqrt of a sum of squares", branch="-"))
    return hits


def _reads_grads(node: ast.expr) -> bool:
    """`p.grad` somewhere inside: a norm of the gradients themselves, computed after backward."""
    return any(
        isinstance(inner, ast.Attribute) and inner.attr == "grad" for inner in ast.walk(node)
    )


def _unsafe_branches(tree: Tree) -> list[Hit]:
    """A `where(cond, a, b)` whose a or b calls a singular function on an unguarded input."""
    hits = []
    for call in tree.calls:
        if last(call) not in _WHERE or len(call.args) != 3:
            continue
        for branch in call.args[1:]:
            unsafe: ast.expr | None = next(
                (c for c in calls(branch) if last(c) in _BRANCH_UNSAFE and not _guarded(c)),
                None,
            )
            operation = f"{last(unsafe)} inside where"
            if unsafe is None:
                unsafe = _division_by_tested(branch, call.args[0])
                operation = "division inside where"
            if unsafe is not None:
                hits.append(tree.hit(call, operation=operation, branch=ast.unparse(unsafe)))
                break
    return hits


def _division_by_tested(branch: ast.expr, condition: ast.expr) -> ast.BinOp | None:
    """`a / d` in a branch of `where(d > 0, ...)`: the condition tests the divisor, so the
    rows it rejects divide by 0 there, and x / 0's gradient times where's zero is NaN."""
    tested = names_in(condition)
    for node in ast.walk(branch):
        if (
            isinstance(node, ast.BinOp)
            and isinstance(node.op, ast.Div)
            and names_in(node.right) & tested
            and not any(last(inner) in _WHERE | _BOUNDS for inner in calls(node.right))
        ):
            return node
    return None


def _find(tree: Tree) -> list[Hit]:
    if not _differentiates(tree):
        return []
    return _squared_norms(tree) + _sqrt_of_square_sums(tree) + _unsafe_branches(tree)


DETECTOR = Detector(
    name="grad_through_singular_point",
    title="differentiated through sqrt/norm at 0, or through a where's untaken branch",
    category="nan_inf",
    explain=(
        "{where}: `{code}` ({operation}) is differentiated: at an input of 0 the local "
        "derivative is inf or 0/0, and autodiff multiplies it in even where it cancels, "
        "giving a NaN gradient"
    ),
    find=_find,
)
