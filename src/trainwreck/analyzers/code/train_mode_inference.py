"""A Dropout/BatchNorm model run for predictions without being put in eval mode.

Every nn.Module is built in training mode, and neither `load_state_dict(...)` nor
`torch.no_grad()` changes that. An evaluation or predict path that never calls
`.eval()` (or `.train(False)`) on the model runs Dropout with a fresh random mask
on every call and normalises each BatchNorm input by the statistics of its own
batch, so a single sample is normalised by itself, a validation batch of one
class looks like every other, and two calls on the same input disagree. The rule
fires only when all of these hold, so it errs towards staying quiet: the model's
class is defined in the same code and holds a Dropout or BatchNorm layer (without
one the mode changes nothing); the forward runs with autograd off or in a function
named for prediction, with no backward() in that function; and nothing switches
that model to eval mode: no `.eval()` / `.train(False)` on its name (in the
forward's own function, for a name local to one), none in that function at all,
and no call there that hands it to a function of the code that calls `.eval()`.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import (
    constructor,
    forward_target,
    method_calls,
    module_classes,
)
from trainwreck.analyzers.code.tree import (
    Function,
    Hit,
    Tree,
    calls,
    dotted,
    keyword,
    last,
    receiver,
)

# Layers whose output depends on the module's mode.
_MODE_LAYERS = re.compile(r"(?:^|\.)(?:Dropout\w*|AlphaDropout|BatchNorm\w*|SyncBatchNorm)$")
# Functions a reader takes for a prediction path.
_PREDICT_FUNCTION = re.compile(r"(?i)^_*(?:predict|infer|inference|classify|__call__|serve)")


def _mode_dependent(tree: Tree) -> dict[str, str]:
    """Names built from the code's own module classes that hold Dropout or BatchNorm."""
    classes = {
        node.name
        for node in tree.nodes
        if isinstance(node, ast.ClassDef)
        and node.name in module_classes(tree)
        and any(_MODE_LAYERS.search(dotted(call)) for call in calls(node))
    }
    built: dict[str, str] = {}
    for node in tree.nodes:
        if isinstance(node, ast.Assign) and (klass := constructor(node.value)) in classes:
            built.update({dotted(t): klass for t in node.targets})
    return built


def _switches_off_training(call: ast.Call) -> bool:
    if last(call) == "eval":
        return True
    mode = call.args[0] if call.args else keyword(call, "mode")
    return last(call) == "train" and isinstance(mode, ast.Constant) and mode.value is False


def _switched(tree: Tree, name: str, scope: Function | None) -> bool:
    """Whether anything in the code puts `name` (or the forward's own scope) in eval mode.

    A local name is its function's own: `model.eval()` in train() says nothing of the
    `model` that predict() builds; an attribute (`self.model`) is shared by the class."""
    switches = [call for call in tree.calls if _switches_off_training(call)]
    shared = "." in name or _module_level(tree, name)
    if any(
        receiver(call) == name and (shared or tree.function(call) is scope) for call in switches
    ):
        return True
    if scope is not None and any(tree.function(call) is scope for call in switches):
        return True
    switching = {f.name for call in switches if (f := tree.function(call)) is not None}
    return any(
        last(call) in switching and any(dotted(arg) == name for arg in call.args)
        for call in tree.calls
        if shared or tree.function(call) is scope
    )


def _module_level(tree: Tree, name: str) -> bool:
    """A name the module binds at its top level: every function that uses it shares it."""
    return any(
        isinstance(node, ast.Assign) and any(dotted(t) == name for t in node.targets)
        for node in tree.root.body
    )


def _prediction(tree: Tree, call: ast.Call, scope: Function | None) -> bool:
    if scope is not None and method_calls(scope, "backward"):
        return False
    named = scope is not None and bool(_PREDICT_FUNCTION.match(scope.name))
    return named or tree.grad_off(call)


def _find(tree: Tree) -> list[Hit]:
    models = _mode_dependent(tree)
    for call in tree.calls:
        name = forward_target(call)
        if name not in models:
            continue
        scope = tree.function(call)
        if _prediction(tree, call, scope) and not _switched(tree, name, scope):
            return [tree.hit(call, model=name, klass=models[name])]
    return []


DETECTOR = Detector(
    name="inference_in_train_mode",
    title="A model with Dropout or BatchNorm predicts while still in training mode",
    category="wrong_output",
    explain=(
        "{where}: `{code}` runs `{model}` (a {klass}, which holds Dropout/BatchNorm) for "
        "predictions, and nothing in the code calls `{model}.eval()` first, so Dropout stays on "
        "and BatchNorm normalises each batch by its own statistics"
    ),
    find=_find,
)
