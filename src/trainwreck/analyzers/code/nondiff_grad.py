"""A function differentiated through a point where one of its parts has no finite derivative.

Reverse-mode autodiff multiplies local derivatives. At x = 0, sqrt's derivative
is infinite and a norm's is x / norm(x) = 0/0, so the product is NaN even when
the function's own derivative is finite there: the gradient of norm(x) ** 2 at
0 is NaN in JAX although that of sum(x ** 2) is 0. A `where` (or `torch.where`) that
picks a safe branch does not help: both branches are differentiated and the
untaken one's inf, times the zero cotangent `where` gives it, is NaN. The
remedy is to keep the unsafe input away from its singular point (the "double
where": `sqrt(where(c, safe, x))`), or to write the function without it.
Fires only in code that differentiates (`grad`, `backward`, ...), since the
forward values are fine.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, calls, dotted, last, number

# Functions whose derivative is infinite at a boundary of their domain (0 for sqrt and log).
_SINGULAR = frozenset({"sqrt", "rsqrt", "log", "log2", "log10", "arcsin", "arccos"})
# NumPy-style `linalg.norm` (JAX, autograd): torch's norms return the subgradient 0 at 0
# instead (pytorch/pytorch#2775), so torch spellings are left out of the squared-norm rule.
_NUMPY_NORM = "linalg.norm"
_WHERE = frozenset({"where"})
# Calls that differentiate: JAX transforms, torch autograd.
_AUTODIFF = frozenset(
    {"grad", "value_and_grad", "jacrev", "jacfwd", "vjp", "jvp", "hessian", "backward"}
)


def _differentiates(tree: Tree) -> bool:
    return any(last(call) in _AUTODIFF for call in tree.calls)


def _guarded(call: ast.Call) -> bool:
    """The singular function's input is itself chosen by a `where` (the double-where trick)."""
    if call.args:
        argument: ast.expr | None = call.args[0]  # jnp.sqrt(x)
    else:
        argument = call.func.value if isinstance(call.func, ast.Attribute) else None  # x.sqrt()
    return argument is not None and any(last(inner) in _WHERE for inner in calls(argument))


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


def _unsafe_branches(tree: Tree) -> list[Hit]:
    """A `where(cond, a, b)` whose a or b calls a singular function on an unguarded input."""
    hits = []
    for call in tree.calls:
        if last(call) not in _WHERE or len(call.args) != 3:
            continue
        for branch in call.args[1:]:
            unsafe = next(
                (c for c in calls(branch) if last(c) in _SINGULAR and not _guarded(c)), None
            )
            if unsafe is not None:
                hits.append(
                    tree.hit(
                        call, operation=f"{last(unsafe)} inside where", branch=ast.unparse(unsafe)
                    )
                )
                break
    return hits


def _find(tree: Tree) -> list[Hit]:
    if not _differentiates(tree):
        return []
    return _squared_norms(tree) + _unsafe_branches(tree)


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
