"""A DistributedSampler whose epoch is never set: every epoch reads the data in one order.

DistributedSampler shuffles with a generator seeded by `seed + epoch`, and its
epoch only changes when the training loop calls `sampler.set_epoch(epoch)`
before iterating the loader. Without that call every epoch (on every rank)
draws exactly the permutation of epoch 0: the data order repeats, the loss curve
repeats its shape epoch after epoch, and the model trains as if on one fixed
ordering. Nothing errors. A sampler built with `shuffle=False`, or code that
calls `set_epoch` anywhere (on the sampler or on `loader.sampler`), stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import epoch_loop
from trainwreck.analyzers.code.tree import Hit, Tree, keyword, last

_SAMPLER = "DistributedSampler"


def _shuffles(call: ast.Call) -> bool:
    value = keyword(call, "shuffle")
    return not (isinstance(value, ast.Constant) and value.value is False)


def _find(tree: Tree) -> list[Hit]:
    if any(last(call) == "set_epoch" for call in tree.calls):
        return []
    if not any(
        isinstance(node, ast.For | ast.AsyncFor) and epoch_loop(node) for node in tree.nodes
    ):
        return []
    return [tree.hit(call) for call in tree.calls if last(call) == _SAMPLER and _shuffles(call)]


DETECTOR = Detector(
    name="distributed_sampler_without_set_epoch",
    title="A shuffling DistributedSampler whose set_epoch() is never called",
    category="wrong_output",
    explain=(
        "{where}: `{code}` shuffles with a seed of seed + epoch, but nothing calls set_epoch(): "
        "every epoch reads the data in epoch 0's order"
    ),
    find=_find,
)
