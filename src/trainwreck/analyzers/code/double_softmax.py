"""A model whose output is a softmax, trained with a cross-entropy that applies one itself.

nn.CrossEntropyLoss and F.cross_entropy take raw logits and apply log_softmax
internally. A model that ends in nn.Softmax (the last layer of an nn.Sequential,
or a forward() that returns a softmax) hands them probabilities in [0, 1], so
the loss takes a softmax of a softmax: the loss has a floor far above zero, the
gradients shrink as the model grows confident, and the curve flattens while the
accuracy (an argmax, unchanged by softmax) can still look fine. The call-site
form, `criterion(F.softmax(logits), y)`, is matched by the page's own regex.
A script that uses NLLLoss or log_softmax on purpose stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Function, Hit, Tree, last

_CROSS_ENTROPY = frozenset({"CrossEntropyLoss", "cross_entropy"})
_LOG_PROBABILITIES = frozenset({"NLLLoss", "nll_loss", "log_softmax", "LogSoftmax"})
_SOFTMAX_LAYER = "Softmax"
_SOFTMAX_CALL = "softmax"


def _softmax_attributes(tree: Tree) -> set[str]:
    """`self.softmax` style names bound to an nn.Softmax layer."""
    return {
        ast.unparse(target)
        for node in tree.nodes
        if isinstance(node, ast.Assign)
        and isinstance(node.value, ast.Call)
        and last(node.value) == _SOFTMAX_LAYER
        for target in node.targets
    }


def _returns_softmax(value: ast.expr | None, layers: set[str]) -> bool:
    """`return F.softmax(x, 1)`, `return x.softmax(-1)`, `return self.softmax(x)`."""
    if not isinstance(value, ast.Call):
        return False
    return last(value) == _SOFTMAX_CALL or ast.unparse(value.func) in layers


def _output_softmaxes(tree: Tree) -> list[ast.AST]:
    """Where a model's output is made a softmax: a Sequential's last layer, forward()'s return."""
    layers = _softmax_attributes(tree)
    found: list[ast.AST] = []
    for call in tree.calls:
        if last(call) == "Sequential" and call.args:
            tail = call.args[-1]
            if isinstance(tail, ast.Call) and last(tail) == _SOFTMAX_LAYER:
                found.append(tail)
    for node in tree.nodes:
        if isinstance(node, ast.Return) and _returns_softmax(node.value, layers):
            function = tree.function(node)
            if isinstance(function, Function) and function.name == "forward":
                found.append(node)
    return found


def _find(tree: Tree) -> list[Hit]:
    names = {last(call) for call in tree.calls}
    if not names & _CROSS_ENTROPY or names & _LOG_PROBABILITIES:
        return []
    loss = next(call for call in tree.calls if last(call) in _CROSS_ENTROPY)
    return [tree.hit(place, loss=ast.unparse(loss)) for place in _output_softmaxes(tree)]


DETECTOR = Detector(
    name="softmax_into_cross_entropy",
    title="The model outputs a softmax and is trained with a cross-entropy that applies one itself",
    category="divergence",
    explain=(
        "{where}: the model's output is a softmax (`{code}`), and the loss is `{loss}`, which "
        "expects raw logits and applies log_softmax again"
    ),
    find=_find,
)
