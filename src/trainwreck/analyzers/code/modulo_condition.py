"""A periodic action in a loop guarded by a modulo remainder, not by `== 0`.

`if step % eval_every:` tests the remainder's truth: every step whose remainder is
non-zero passes, so the evaluation, checkpoint or log meant for one step in
`eval_every` runs on all the others and skips exactly the steps it was meant for.
A full validation per step makes training many times slower (batch-36's
return-risk reproduction: 640 samples/s, 16,000 with `== 0`). The rule fires on
an `if` inside a loop whose whole test is `a % b` and whose body calls something
named for periodic work; a body with no such call (`if i % 10: continue`) is the
idiom for skipping, and a string on the left is %-formatting.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, calls, last

# The names of the work a training loop does once every N steps.
_PERIODIC = re.compile(r"eval|valid|save|checkpoint|log|print|write|report|sync|test", re.I)


def _remainder(test: ast.expr) -> ast.BinOp | None:
    """The test when it is a bare `a % b` over numbers (not a %-formatted string)."""
    if not (isinstance(test, ast.BinOp) and isinstance(test.op, ast.Mod)):
        return None
    if isinstance(test.left, ast.Constant | ast.JoinedStr) and not isinstance(
        getattr(test.left, "value", None), int | float
    ):
        return None
    return test


def _periodic_call(branch: list[ast.stmt]) -> str | None:
    """The first call in the branch named for periodic work (`evaluate`, `save_checkpoint`)."""
    for statement in branch:
        for call in calls(statement):
            if _PERIODIC.search(last(call)):
                return last(call)
    return None


def _find(tree: Tree) -> list[Hit]:
    for node in tree.nodes:
        if not isinstance(node, ast.If) or not tree.loops(node):
            continue
        remainder = _remainder(node.test)
        action = _periodic_call(node.body) if remainder is not None else None
        if remainder is not None and action is not None:
            return [tree.hit(node.test, interval=ast.unparse(remainder.right), action=action)]
    return []


DETECTOR = Detector(
    name="modulo_remainder_as_condition",
    title="A periodic action runs whenever a step's remainder is non-zero (`if step % n:`)",
    category="slow_throughput",
    explain=(
        "{where}: `if {code}:` is true whenever the remainder is non-zero, so `{action}()` "
        "runs on every step except the multiples of {interval}, the ones it was meant for; "
        "compare the remainder with 0"
    ),
    find=_find,
)
