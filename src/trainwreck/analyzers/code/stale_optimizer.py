"""An optimizer built from one model's parameters, then the model name bound to a new module.

`torch.optim.SGD(model.parameters(), ...)` keeps references to those parameter
tensors. Rebinding `model` afterwards (a fresh `build_model()`, `torch.load`,
`from_pretrained`, `copy.deepcopy`) creates new tensors: the forward pass and
`backward()` use them, while `optimizer.step()` keeps updating the old ones,
which nothing reads. The loss never improves except by chance. Replacing one
submodule (`model.fc = nn.Linear(...)`, the new head of a fine-tune) does the
same to that part: the new head is never trained. In-place module
methods (`.to()`, `.cuda()`, `.half()`) return the same module and wrappers
that take the model (`DDP(model)`, `torch.compile(model)`) share its
parameters, so neither counts; nor does a rebind followed by a new optimizer.
An optimizer built by a helper of the script (`build_optimizer(model, lr)`, whose
body reads its argument's parameters into an optimizer) counts as built from
the model it is given.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import OPTIMIZER_CLASSES, model_names
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, last, names_in, receiver

_PARAMETER_METHODS = frozenset({"parameters", "named_parameters"})
# Module methods that return the module itself: rebinding to their result changes nothing.
_SAME_MODULE = frozenset(
    {"to", "cuda", "cpu", "half", "float", "double", "bfloat16", "train", "eval"}
)


def _optimized_model(call: ast.Call) -> str:
    """`model` for `SGD(model.parameters(), ...)`; "" when the call is not such an optimizer."""
    if last(call) not in OPTIMIZER_CLASSES:
        return ""
    for argument in (*call.args, *(kw.value for kw in call.keywords)):
        for inner in ast.walk(argument):
            if isinstance(inner, ast.Call) and last(inner) in _PARAMETER_METHODS:
                return receiver(inner)
    return ""


def _builders(tree: Tree) -> dict[str, int]:
    """Functions of the script that build an optimizer from one of their arguments'
    parameters, with that argument's position: `def build_optimizer(model, lr): ...
    for n, p in model.named_parameters(): ... return AdamW(groups, lr=lr)`."""
    found = {}
    for node in tree.nodes:
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        inner = [c for c in ast.walk(node) if isinstance(c, ast.Call)]
        if not any(last(c) in OPTIMIZER_CLASSES for c in inner):
            continue
        read = {receiver(c) for c in inner if last(c) in _PARAMETER_METHODS}
        positions = [i for i, a in enumerate(node.args.args) if a.arg in read]
        if positions:
            found[node.name] = positions[0]
    return found


def _model_of(call: ast.Call, builders: dict[str, int]) -> str:
    """The model whose parameters the call hands an optimizer, directly or through a helper."""
    position = builders.get(dotted(call.func))
    if position is not None and position < len(call.args):
        return dotted(call.args[position])
    return _optimized_model(call)


def _new_module(value: ast.expr, target: str, model: str) -> bool:
    """A value that is a different module from the one `target` (`model` or one of its
    submodules) held."""
    if not isinstance(value, ast.Call):
        return False
    if last(value) in _SAME_MODULE and receiver(value) == target:
        return False
    if target != model:  # nn.Linear(model.fc.in_features, n) is a new head all the same
        return True
    return model not in names_in(value)  # DDP(model), torch.compile(model) share parameters


def _replaced(tree: Tree, model: str, scope: ast.AST) -> list[ast.Assign]:
    """Assignments in `scope` that bind `model`, or an attribute of it, to a new module."""
    targets = [name for name in tree.bindings if name == model or name.startswith(f"{model}.")]
    return [
        node
        for target in targets
        for node in tree.assignments(target, within=scope)
        if isinstance(node, ast.Assign) and _new_module(node.value, target, model)
    ]


def _scope(tree: Tree, node: ast.AST) -> ast.AST:
    return tree.function(node) or tree.root


def _rebinds_after(
    tree: Tree, optimizer: ast.Call, model: str, builders: dict[str, int]
) -> ast.Assign | None:
    """The first statement after the optimizer that binds `model` (or a submodule of it)
    to a new module, unless an optimizer over the new parameters is built after it or
    they are added to it (`add_param_group`)."""
    scope = _scope(tree, optimizer)
    rebinds = sorted(
        (node for node in _replaced(tree, model, scope) if node.lineno > optimizer.lineno),
        key=lambda node: node.lineno,
    )
    if not rebinds:
        return None
    rebind = rebinds[0]
    rebuilt = any(
        (_model_of(call, builders) == model or last(call) == "add_param_group")
        and call.lineno > rebind.lineno
        for call in tree.calls
        if _scope(tree, call) is scope
    )
    return None if rebuilt else rebind


def _find(tree: Tree) -> list[Hit]:
    models = model_names(tree)
    builders = _builders(tree)
    hits = []
    for call in tree.calls:
        model = _model_of(call, builders)
        if not model or model not in models:
            continue
        rebind = _rebinds_after(tree, call, model, builders)
        if rebind is not None:
            hits.append(
                tree.hit(
                    rebind,
                    model=model,
                    optimizer=last(call),
                    optimizer_line=tree.parsed.where(call),
                    rebound=dotted(rebind.targets[0]),
                    rebound_to=dotted(rebind.value) or ast.unparse(rebind.value)[:60],
                )
            )
    return hits


DETECTOR = Detector(
    name="optimizer_stale_model",
    title="Optimizer built from a model's parameters before the model name was rebound",
    category="divergence",
    explain=(
        "{where}: `{code}` puts a new module in place of `{rebound}` after `{optimizer}(...)` "
        "(line {optimizer_line}) gave an optimizer the old one's parameters: the forward pass "
        "uses the new weights and optimizer.step() updates the old ones, so they never train"
    ),
    find=_find,
)
