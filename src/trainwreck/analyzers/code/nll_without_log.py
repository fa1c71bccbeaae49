"""A negative log-likelihood in a script that never takes a log of its model's output.

nn.NLLLoss and F.nll_loss take log-probabilities: they return minus the input's
entry at the target class, nothing more. So does the cross-entropy users write by
hand against one-hot targets, `-mean(sum(preds * targets))` (the form of JAX's and
Haiku's examples, where `preds` came out of a log_softmax). Handed raw logits, that is minus the
target logit, which training lowers without bound by growing every target logit,
so the loss turns negative and keeps falling while the classes never compete;
handed softmax probabilities, it is minus a probability, stuck between -1 and 0.
A script that computes a log anywhere (log_softmax, LogSoftmax, log, logsigmoid)
stays quiet: which output reaches the loss is then unclear. A `log` that records
(`self.log("loss", v)` in Lightning, `wandb.log({...})`) is no logarithm.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, last, receiver

_NLL = frozenset({"NLLLoss", "nll_loss"})
# Any of these in the script may be where the log-probabilities come from.
_LOG_PROBABILITIES = frozenset({"log_softmax", "LogSoftmax", "logsigmoid", "LogSigmoid"})
# A logarithm by name: `torch.log(p)`, `np.log(p)`, a bare imported `log(p)`, or `p.log()`.
_LOGS = frozenset({"log", "log2", "log10"})
_MATH_MODULES = frozenset({"", "torch", "np", "numpy", "math", "jnp", "F"})
_REDUCTIONS = frozenset({"mean", "sum"})
# The two factors of a hand-written cross-entropy: what the model returned and the one-hot
# targets, by the names scripts give them.
_OUTPUTS = re.compile(r"(?i)^(?:preds?|predictions?|logits?|outputs?|out|scores?|y_?(?:pred|hat))$")
_TARGETS = re.compile(r"(?i)^(?:targets?|labels?|y|y_?true|one_?hot\w*|\w*_one_?hot)$")


def _takes_log(call: ast.Call) -> bool:
    """Whether the call is one of the logarithms in _LOGS, from a math module or as a method."""
    no_arguments = not call.args and not call.keywords
    return last(call) in _LOGS and (receiver(call) in _MATH_MODULES or no_arguments)


def _names_log_probabilities(tree: Tree) -> bool:
    """A log-softmax called or used by name (`stax.serial(..., LogSoftmax)`), not only
    imported: every call's function is one of these name nodes too."""
    return any(
        isinstance(node, ast.Name | ast.Attribute) and last(node) in _LOG_PROBABILITIES
        for node in tree.nodes
    )


def _output_times_targets(node: ast.AST) -> bool:
    """A product of a model-output name and a one-hot-target name somewhere inside."""
    for child in ast.walk(node):
        if isinstance(child, ast.BinOp) and isinstance(child.op, ast.Mult):
            names = {last(child.left), last(child.right)}
            if any(_OUTPUTS.match(n) for n in names) and any(_TARGETS.match(n) for n in names):
                return True
    return False


def _hand_written(tree: Tree) -> list[ast.UnaryOp]:
    """`-mean(sum(preds * targets))` and `-(logits * y).sum()`: minus a reduced product."""
    return [
        node
        for node in tree.nodes
        if isinstance(node, ast.UnaryOp)
        and isinstance(node.op, ast.USub)
        and isinstance(node.operand, ast.Call)
        and last(node.operand) in _REDUCTIONS
        and _output_times_targets(node.operand)
    ]


def _find(tree: Tree) -> list[Hit]:
    calls = tree.calls
    if any(_takes_log(call) for call in calls) or _names_log_probabilities(tree):
        return []
    losses: list[ast.AST] = [call for call in calls if last(call) in _NLL]
    losses.extend(_hand_written(tree))
    return [tree.hit(loss, loss=ast.unparse(loss)) for loss in losses][:1]


DETECTOR = Detector(
    name="nll_loss_without_log_probabilities",
    title=(
        "A negative log-likelihood (NLLLoss, or minus the mean of outputs times one-hot targets) "
        "is used but the script never turns the model's output into log-probabilities"
    ),
    category="divergence",
    explain=(
        "{where}: `{loss}` is a negative log-likelihood, which expects log-probabilities, and "
        "nothing in this code takes a log "
        "(no log_softmax or LogSoftmax): given raw logits the loss is minus the target "
        "logit, negative and unbounded below"
    ),
    find=_find,
)
