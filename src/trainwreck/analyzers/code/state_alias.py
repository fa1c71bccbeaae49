"""The "best" weights kept as `model.state_dict()`, which references the live tensors.

state_dict() returns a dict of the module's own parameter and buffer tensors,
not copies, and the optimizer updates those tensors in place. A snapshot taken
inside the training loop (`best_state = model.state_dict()` when the validation
loss improves) therefore keeps changing with every later step; restoring or
saving it at the end gives the last weights, not the best ones. The same holds for an
early-stopping helper that keeps `self.best_state` and is called once per epoch. `.copy()` and
`dict(...)` copy only the dict, not the tensors. copy.deepcopy, a comprehension
that clones, or torch.save at the moment of the snapshot keep the values.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, is_method, last

# Ways of copying only the dict, which still hold the same tensors.
_SHALLOW = frozenset({"copy", "dict", "OrderedDict"})
# Where a kept state is used as the weights to restore or to save.
_USES = frozenset({"load_state_dict", "save"})


def _live_state(value: ast.expr) -> bool:
    """`m.state_dict()`, `m.state_dict().copy()`, `dict(m.state_dict())`."""
    if not isinstance(value, ast.Call):
        return False
    if is_method(value, "state_dict"):
        return True
    if last(value) in _SHALLOW:
        inner = value.args[0] if value.args else getattr(value.func, "value", None)
        return isinstance(inner, ast.Call) and is_method(inner, "state_dict")
    return False


def _used_after_loop(tree: Tree, name: str, loop: ast.AST) -> bool:
    """`name` restored or saved outside the loop that took it: after more training.
    A save inside the loop, right after the snapshot, writes the values of that moment."""
    return any(
        last(call) in _USES
        and any(dotted(arg) == name for arg in call.args)
        and loop not in tree.ancestors(call)
        for call in tree.calls
    )


def _kept_by_helper(tree: Tree, name: str, node: ast.AST) -> bool:
    """`self.best_state = model.state_dict()` in a method (an early-stopping helper the
    epoch loop calls), restored or saved outside that method as `stopper.best_state`."""
    owner, _, attribute = name.partition(".")
    method = tree.function(node)
    if owner != "self" or not attribute or method is None:
        return False
    return any(
        last(call) in _USES
        and any(dotted(arg).endswith(f".{attribute}") for arg in call.args)
        and method not in tree.ancestors(call)
        for call in tree.calls
    )


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for node in tree.nodes:
        if not isinstance(node, ast.Assign) or len(node.targets) != 1:
            continue
        name = dotted(node.targets[0])
        if not name or not _live_state(node.value):
            continue
        loops = tree.loops(node)
        kept = (
            _used_after_loop(tree, name, loops[-1]) if loops else _kept_by_helper(tree, name, node)
        )
        if kept:
            hits.append(tree.hit(node, name=name))
    return hits


DETECTOR = Detector(
    name="state_dict_snapshot_aliases_weights",
    title="The kept 'best' state_dict references the live weights, so it keeps training",
    category="wrong_output",
    explain=(
        "{where}: `{code}` keeps references to the model's tensors inside the training loop; "
        "later optimizer steps change them in place, so restoring or saving `{name}` gives "
        "the last weights, not the ones it was taken from"
    ),
    find=_find,
)
