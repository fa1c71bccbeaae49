"""A model whose output already went through the activation its loss applies itself.

nn.CrossEntropyLoss and F.cross_entropy take raw logits and apply log_softmax
internally; nn.BCEWithLogitsLoss and F.binary_cross_entropy_with_logits apply
a sigmoid internally. A model that ends in that activation (the last layer of
an nn.Sequential, or a forward() that returns it) hands the loss
probabilities, so the loss applies the activation twice: its outputs are
squeezed into a narrow band, the loss has a floor far above zero, the
gradients shrink, and the curve flattens while an argmax or a 0.5 threshold
on the output can still look reasonable. The call-site form,
`criterion(F.softmax(logits), y)`, is matched by the softmax page's own
regex. A script that also uses the loss meant for probabilities (NLLLoss,
log_softmax, BCELoss) stays quiet: which one trains is then unclear.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Function, Hit, Tree, last


@dataclass(frozen=True)
class _Pair:
    """An output activation and the losses that apply it themselves."""

    layer: str  # the nn layer class: Softmax
    call: str  # the function or method: softmax
    losses: frozenset[str]  # losses that apply the activation internally
    meant_for_probabilities: frozenset[str]  # losses that expect it applied already


_SOFTMAX = _Pair(
    "Softmax",
    "softmax",
    frozenset({"CrossEntropyLoss", "cross_entropy"}),
    frozenset({"NLLLoss", "nll_loss", "log_softmax", "LogSoftmax"}),
)
_SIGMOID = _Pair(
    "Sigmoid",
    "sigmoid",
    frozenset({"BCEWithLogitsLoss", "binary_cross_entropy_with_logits"}),
    frozenset({"BCELoss", "binary_cross_entropy"}),
)


def _layer_attributes(tree: Tree, layer: str) -> set[str]:
    """`self.softmax` style names bound to the activation layer."""
    return {
        ast.unparse(target)
        for node in tree.nodes
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and last(node.value) == layer
        for target in node.targets
    }


# Calls that only reshape: `torch.sigmoid(x).squeeze(-1)` still returns a sigmoid.
_RESHAPES = frozenset({"squeeze", "unsqueeze", "view", "reshape", "flatten"})


def _returns_activation(value: ast.expr | None, pair: _Pair, layers: set[str]) -> bool:
    """`return F.softmax(x, 1)`, `return x.sigmoid().squeeze(-1)`, `return self.softmax(x)`."""
    while (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in _RESHAPES
    ):
        value = value.func.value
    if not isinstance(value, ast.Call):
        return False
    return last(value) == pair.call or ast.unparse(value.func) in layers


def _output_activations(tree: Tree, pair: _Pair) -> list[ast.AST]:
    """Where a model's output goes through the activation: a Sequential's last layer,
    forward()'s return."""
    layers = _layer_attributes(tree, pair.layer)
    found: list[ast.AST] = []
    for call in tree.calls:
        if last(call) == "Sequential" and call.args:
            tail = call.args[-1]
            if isinstance(tail, ast.Call) and last(tail) == pair.layer:
                found.append(tail)
    for node in tree.nodes:
        if isinstance(node, ast.Return) and _returns_activation(node.value, pair, layers):
            function = tree.function(node)
            if isinstance(function, Function) and function.name == "forward":
                found.append(node)
    return found


def _finder(pair: _Pair) -> Callable[[Tree], list[Hit]]:
    def find(tree: Tree) -> list[Hit]:
        names = {last(call) for call in tree.calls}
        if not names & pair.losses or names & pair.meant_for_probabilities:
            return []
        loss = next(call for call in tree.calls if last(call) in pair.losses)
        return [
            tree.hit(place, loss=ast.unparse(loss)) for place in _output_activations(tree, pair)
        ]

    return find


DETECTOR = Detector(
    name="softmax_into_cross_entropy",
    title="The model outputs a softmax and is trained with a cross-entropy that applies one itself",
    category="divergence",
    explain=(
        "{where}: the model's output is a softmax (`{code}`), and the loss is `{loss}`, which "
        "expects raw logits and applies log_softmax again"
    ),
    find=_finder(_SOFTMAX),
)
SIGMOID_DETECTOR = Detector(
    name="sigmoid_into_bce_with_logits",
    title="The model outputs a sigmoid and is trained with BCEWithLogitsLoss, which applies one "
    "itself",
    category="divergence",
    explain=(
        "{where}: the model's output is a sigmoid (`{code}`), and the loss is `{loss}`, which "
        "expects raw logits and applies a sigmoid again"
    ),
    find=_finder(_SIGMOID),
)
