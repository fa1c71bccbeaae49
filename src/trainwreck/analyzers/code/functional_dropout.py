"""Functional dropout called in forward() without the module's mode: still on after eval().

`F.dropout(x, p)` (and dropout1d/2d/3d) take `training=True` by default. Unlike
nn.Dropout they do not follow `model.eval()`, so a forward() that calls them without
`training=self.training` keeps zeroing activations at evaluation and inference: two
passes over the same data disagree and every metric pays for the noise.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, argument, dotted

# torch.nn.functional's dropouts whose `training` argument defaults to True (alpha and
# feature-alpha dropout default to False), and the names scripts import the module as.
_ALWAYS_ON = frozenset({"dropout", "dropout1d", "dropout2d", "dropout3d"})
_FUNCTIONAL = frozenset({"F", "functional", "nn.functional", "torch.nn.functional"})
# `training` is the third parameter of each: dropout(input, p=0.5, training=True, inplace=False)
_TRAINING_POSITION = 2


def _find(tree: Tree) -> list[Hit]:
    hits: list[Hit] = []
    for call in tree.calls:
        module, _, name = dotted(call.func).rpartition(".")
        if name not in _ALWAYS_ON or module not in _FUNCTIONAL:
            continue
        if argument(call, "training", _TRAINING_POSITION) is not None:
            continue
        function = tree.function(call)
        if function is not None and function.name == "forward":
            hits.append(tree.hit(call, call=ast.unparse(call)))
    return hits


DETECTOR = Detector(
    name="functional_dropout_always_on",
    title="forward() calls functional dropout without training=self.training, so it stays on "
    "after model.eval()",
    category="wrong_output",
    explain=(
        "{where}: `{call}` in forward() passes no `training=` argument; functional dropout "
        "defaults to training=True and ignores model.eval(), so evaluation keeps dropping "
        "activations"
    ),
    find=_find,
)
