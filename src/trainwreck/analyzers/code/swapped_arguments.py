"""Hyperparameters handed to a function of the same script in each other's positions.

Helpers such as `configure_optimizers(weight_decay, learning_rate, betas)` take
several floats in an order that differs from script to script; a call that passes
`cfg.lr, cfg.weight_decay` positionally runs with the learning rate as the weight
decay and the other way round. Nothing fails: AdamW at lr 0.1 diverges, or a tiny
lr makes a model that never learns. The rule compares the names: an argument named
for one hyperparameter sits where the function has a parameter named for another,
and the function does have a parameter named for the first.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Function, Hit, Tree, dotted, last

# Names of one hyperparameter as scripts spell them; a name in no row says nothing.
_SAME_KNOB: tuple[frozenset[str], ...] = (
    frozenset({"lr", "learning_rate", "base_lr", "max_lr", "init_lr"}),
    frozenset({"weight_decay", "wd"}),
    frozenset({"betas"}),
    frozenset({"eps", "epsilon", "adam_eps", "adam_epsilon"}),
    frozenset({"momentum"}),
    frozenset({"batch_size", "bs"}),
    frozenset({"epochs", "num_epochs", "n_epochs", "max_epochs"}),
    frozenset({"warmup", "warmup_steps", "warmup_iters"}),
    frozenset({"dropout", "dropout_rate", "drop_rate"}),
)


def _knob(name: str) -> int | None:
    """Which hyperparameter a name is spelled for, by its row in _SAME_KNOB."""
    lowered = name.lower()
    return next((row for row, names in enumerate(_SAME_KNOB) if lowered in names), None)


def _parameters(function: Function, method_call: bool) -> list[str]:
    names = [arg.arg for arg in (*function.args.posonlyargs, *function.args.args)]
    if method_call and names[:1] in (["self"], ["cls"]):
        names = names[1:]
    return names


def _defined(tree: Tree) -> dict[str, Function]:
    """Functions defined once in the code, by name (a name defined twice is ambiguous)."""
    found: dict[str, list[Function]] = {}
    for node in tree.nodes:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.setdefault(node.name, []).append(node)
    return {name: defs[0] for name, defs in found.items() if len(defs) == 1}


def _swapped(call: ast.Call, function: Function) -> tuple[str, str] | None:
    """The first positional argument named for another of the function's parameters."""
    parameters = _parameters(function, isinstance(call.func, ast.Attribute))
    taken = {_knob(name) for name in parameters}
    for argument, parameter in zip(call.args, parameters, strict=False):
        given, expected = _knob(last(argument)), _knob(parameter)
        if given is None or expected is None or given == expected:
            continue
        if given in taken:
            return dotted(argument), parameter
    return None


def _find(tree: Tree) -> list[Hit]:
    functions = _defined(tree)
    hits: list[Hit] = []
    for call in tree.calls:
        function = functions.get(last(call))
        if function is None or any(isinstance(arg, ast.Starred) for arg in call.args):
            continue
        if (found := _swapped(call, function)) is not None:
            argument, parameter = found
            hits.append(
                tree.hit(call, argument=argument, parameter=parameter, function=function.name)
            )
    return hits[:1]


DETECTOR = Detector(
    name="hyperparameters_passed_in_swapped_positions",
    title="A hyperparameter is passed positionally where the function takes a different one",
    category="divergence",
    explain=(
        "{where}: `{argument}` is passed to `{function}` in the position of its parameter "
        "`{parameter}`, and `{function}` takes a parameter of `{argument}`'s kind elsewhere: "
        "the two values are swapped"
    ),
    find=_find,
)
