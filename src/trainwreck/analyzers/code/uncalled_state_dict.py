"""`torch.save(model.state_dict, path)`: the method saved instead of the dictionary it returns.

Without the parentheses, torch.save pickles a bound method, which drags the
whole model object (its class by import path) into the file. The save
succeeds, so the mistake shows only at load time: torch.load with the default
weights_only=True (PyTorch 2.6 and later) refuses the file's globals, and a
full unpickle returns a method, which load_state_dict rejects as not a
mapping.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last

_STATE_METHODS = frozenset({"state_dict"})


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        if last(call) != "save" or not call.args:
            continue
        saved = call.args[0]
        if isinstance(saved, ast.Attribute) and saved.attr in _STATE_METHODS:
            hits.append(tree.hit(call, owner=dotted(saved.value)))
    return hits


DETECTOR = Detector(
    name="state_dict_not_called",
    title="torch.save is given model.state_dict (the method) instead of model.state_dict()",
    category="crash",
    explain=(
        "{where}: `{code}` saves the bound method `{owner}.state_dict`, not the dictionary it "
        "returns: the file holds the pickled model object and loading it as a state dict fails"
    ),
    find=_find,
)
