"""A module hook registered on every step (or every forward) and never removed.

register_forward_hook and its relatives append to the module's hook dict and
return a handle; nothing replaces the previous hook. Registered inside the
training loop or inside forward() without `handle.remove()`, the hooks pile up:
step n runs n copies of the hook, so each step is slower than the one before
and whatever the hooks keep (activations, lists) grows with them.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import method_calls, optimizer_steps
from trainwreck.analyzers.code.tree import Function, Hit, Tree, calls, last

_REGISTER = frozenset(
    {
        "register_forward_hook",
        "register_forward_pre_hook",
        "register_full_backward_hook",
        "register_full_backward_pre_hook",
        "register_backward_hook",
    }
)


def _trains(scope: ast.AST) -> bool:
    """A loop or function that runs a backward pass or an optimizer step."""
    return bool(method_calls(scope, "backward") or optimizer_steps(scope))


def _removed_within(scope: ast.AST) -> bool:
    return any(last(call) == "remove" for call in calls(scope))


def _per_step(tree: Tree, node: ast.AST, seen: frozenset[str] = frozenset()) -> ast.AST | None:
    """The scope that runs the node once per step: a training loop or training function
    around it, or around a call of the function that holds it; forward() itself."""
    function = tree.function(node)
    if isinstance(function, Function) and function.name == "forward":
        return function
    for scope in tree.ancestors(node):
        if isinstance(scope, ast.For | ast.While | Function) and _trains(scope):
            return scope
    if isinstance(function, Function) and function.name not in seen:
        for call in tree.calls:
            if isinstance(call.func, ast.Name) and call.func.id == function.name:
                outer = _per_step(tree, call, seen | {function.name})
                if outer is not None:
                    return outer
    return None


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        if last(call) not in _REGISTER:
            continue
        scope = _per_step(tree, call)
        if scope is not None and not _removed_within(scope):
            name = scope.name if isinstance(scope, Function) else "the training loop"
            hits.append(tree.hit(call, scope=f"{name}()" if isinstance(scope, Function) else name))
    return hits


DETECTOR = Detector(
    name="hook_registered_repeatedly",
    title="A module hook is registered on every step and never removed, so hooks pile up",
    category="slow_throughput",
    explain=(
        "{where}: `{code}` runs inside {scope} with no `.remove()` of its handle there; each "
        "pass adds another hook, so step n runs n of them"
    ),
    find=_find,
)
