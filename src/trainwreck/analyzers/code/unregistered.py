"""Layers kept in a plain Python list or dict on a module, so PyTorch never registers them.

nn.Module registers a submodule when it is assigned to an attribute directly, or
held in nn.ModuleList / nn.ModuleDict / nn.Sequential. A plain list or dict of
layers is an ordinary Python object: its layers still run in forward(), but
their weights are missing from model.parameters() (so the optimizer never
updates them), from state_dict() (so a saved and reloaded model gets fresh
random layers), and from .to(device) (so on a GPU their weights stay on the
CPU). A list later wrapped in ModuleList/Sequential, or registered with
add_module, stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import builds_layer, module_classes
from trainwreck.analyzers.code.tree import Function, Hit, Tree, dotted, last

_CONTAINERS = frozenset({"ModuleList", "ModuleDict", "Sequential", "ParameterList"})
_REGISTERS = frozenset({"add_module", "register_module"})


def _layers_in(value: ast.expr, classes: set[str]) -> bool:
    """`[nn.Linear(..) for _ in ...]`, `[Block(), Block()]`, `{"a": nn.Linear(..)}`."""
    if isinstance(value, ast.List | ast.Tuple):
        return any(builds_layer(item, classes) for item in value.elts)
    if isinstance(value, ast.ListComp):
        return builds_layer(value.elt, classes)
    if isinstance(value, ast.Dict):
        return any(item is not None and builds_layer(item, classes) for item in value.values)
    if isinstance(value, ast.DictComp):
        return builds_layer(value.value, classes)
    return False


def _empty_container(value: ast.expr) -> bool:
    return (isinstance(value, ast.List | ast.Dict) and not _elements(value)) or (
        isinstance(value, ast.Call) and dotted(value) in {"list", "dict"} and not value.args
    )


def _elements(value: ast.List | ast.Dict) -> list[ast.expr | None]:
    return list(value.elts) if isinstance(value, ast.List) else list(value.values)


def _filled_with_layers(init: Function, name: str, classes: set[str]) -> bool:
    """`self.blocks.append(Block(...))` or `self.heads[k] = nn.Linear(...)` in __init__."""
    for node in ast.walk(init):
        if isinstance(node, ast.Call) and last(node) in {"append", "extend", "insert"}:
            owner = node.func.value if isinstance(node.func, ast.Attribute) else None
            if dotted(owner) == name and any(builds_layer(arg, classes) for arg in node.args):
                return True
        if (
            isinstance(node, ast.Assign)
            and builds_layer(node.value, classes)
            and any(
                isinstance(target, ast.Subscript) and dotted(target.value) == name
                for target in node.targets
            )
        ):
            return True
    return False


def _registered(cls: ast.ClassDef, name: str) -> bool:
    """The list is wrapped in a container or added with add_module somewhere in the class."""
    for node in ast.walk(cls):
        if isinstance(node, ast.Call) and last(node) in _CONTAINERS | _REGISTERS:
            mentioned = {dotted(child) for child in ast.walk(node)}
            if name in mentioned or last(node) in _REGISTERS:
                return True
    return False


def _find(tree: Tree) -> list[Hit]:
    classes = module_classes(tree)
    hits = []
    for cls in (node for node in tree.nodes if isinstance(node, ast.ClassDef)):
        if cls.name not in classes:
            continue
        init = next(
            (item for item in cls.body if isinstance(item, Function) and item.name == "__init__"),
            None,
        )
        if init is None:
            continue
        for node in ast.walk(init):
            if not isinstance(node, ast.Assign) or len(node.targets) != 1:
                continue
            name = dotted(node.targets[0])
            if not name.startswith("self.") or _registered(cls, name):
                continue
            if _layers_in(node.value, classes) or (
                _empty_container(node.value) and _filled_with_layers(init, name, classes)
            ):
                hits.append(tree.hit(node, attribute=name, owner=cls.name))
    return hits


DETECTOR = Detector(
    name="unregistered_submodules",
    title="Layers are kept in a plain Python list or dict, so the module never registers them",
    category="divergence",
    explain=(
        "{where}: `{code}` keeps layers of {owner} in a plain Python container; they run in "
        "forward() but are missing from parameters() (never optimized), state_dict() (never "
        "saved) and .to(device)"
    ),
    find=_find,
)
