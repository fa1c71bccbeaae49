"""NLLLoss in a script that never takes a log of its model's output.

nn.NLLLoss and F.nll_loss take log-probabilities: they return minus the input's
entry at the target class, nothing more. Handed raw logits, that is minus the
target logit, which training lowers without bound by growing every target logit,
so the loss turns negative and keeps falling while the classes never compete;
handed softmax probabilities, it is minus a probability, stuck between -1 and 0.
A script that computes a log anywhere (log_softmax, LogSoftmax, log, logsigmoid)
stays quiet: which output reaches the loss is then unclear. A `log` that records
(`self.log("loss", v)` in Lightning, `wandb.log({...})`) is no logarithm.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, last, receiver

_NLL = frozenset({"NLLLoss", "nll_loss"})
# Any of these in the script may be where the log-probabilities come from.
_LOG_PROBABILITIES = frozenset({"log_softmax", "LogSoftmax", "logsigmoid", "LogSigmoid"})
# A logarithm by name: `torch.log(p)`, `np.log(p)`, a bare imported `log(p)`, or `p.log()`.
_LOGS = frozenset({"log", "log2", "log10"})
_MATH_MODULES = frozenset({"", "torch", "np", "numpy", "math", "jnp", "F"})


def _takes_log(call: ast.Call) -> bool:
    name = last(call)
    if name in _LOG_PROBABILITIES:
        return True
    no_arguments = not call.args and not call.keywords
    return name in _LOGS and (receiver(call) in _MATH_MODULES or no_arguments)


def _find(tree: Tree) -> list[Hit]:
    calls = tree.calls
    if any(_takes_log(call) for call in calls):
        return []
    return [tree.hit(call, loss=ast.unparse(call)) for call in calls if last(call) in _NLL][:1]


DETECTOR = Detector(
    name="nll_loss_without_log_probabilities",
    title="NLLLoss is used but the script never turns the model's output into log-probabilities",
    category="divergence",
    explain=(
        "{where}: `{loss}` expects log-probabilities, and nothing in this code takes a log "
        "(no log_softmax or LogSoftmax): given raw logits the loss is minus the target "
        "logit, negative and unbounded below"
    ),
    find=_find,
)
