"""A training DataLoader that never shuffles: batches arrive in the order the data is stored.

`DataLoader(train_ds, batch_size=...)` without `shuffle=True` (or a sampler) reads the
dataset in index order on every epoch. Data stored grouped (one class after another, one
source file after another, sorted by length or date) then reaches the optimizer one
group at a time: the model fits each group in turn, the loss jumps at each boundary, and
the weights end each epoch tuned to the group read last, so a validation set predicts
that group's class and sits near chance. Quiet when the loader gets a sampler or batch
sampler, when the code shuffles anything itself (`random.shuffle`, `dataset.shuffle()`),
and for a loader no backward() loop reads.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.loaders import (
    built_loaders,
    has_sampler,
    shuffle_argument,
    trains_from,
)
from trainwreck.analyzers.code.tree import Hit, Tree, last

# Calls that put the data in a random order before the loader sees it (a permutation is as
# often a train/validation split whose halves are sorted again, so it does not count).
_SHUFFLES = re.compile(r"(?i)shuffle|RandomSampler")


def _unshuffled(call: ast.Call) -> bool:
    return not has_sampler(call) and shuffle_argument(call) is False


def _find(tree: Tree) -> list[Hit]:
    if any(_SHUFFLES.search(last(call)) for call in tree.calls):
        return []
    return [
        tree.hit(call, loader=loader)
        for node, call, loader in built_loaders(tree)
        if _unshuffled(call) and trains_from(tree, loader, node)
    ]


DETECTOR = Detector(
    name="training_loader_not_shuffled",
    title="A training DataLoader that reads the data in stored order (no shuffle, no sampler)",
    category="divergence",
    explain=(
        "{where}: `{code}` feeds the training loop without shuffle=True or a sampler: every "
        "epoch reads the data in the order it is stored"
    ),
    find=_find,
)
