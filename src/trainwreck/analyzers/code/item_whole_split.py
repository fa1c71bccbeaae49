"""__getitem__ processes the whole dataset to return one item.

A map-style dataset's `__getitem__(i)` runs once per sample. Tokenizing or
transforming the full list stored on the dataset (`tokenizer(self.texts)`) and
then picking row i out of the result makes every item cost as much as the whole
split: an epoch costs the split's size squared, and throughput falls as the
dataset grows (one step per second on a few thousand short texts).
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import indexes_a_result, item_methods
from trainwreck.analyzers.code.tree import Hit, Tree, calls, dotted

# Calls that turn text or samples into features: a tokenizer, an encoder, a transform.
_PROCESSES = re.compile(r"(?i)tok|encode|transform|process|featur")


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for function in item_methods(tree):
        if not indexes_a_result(function):
            continue
        for call in calls(function):
            whole = call.args[0] if call.args else None
            if (
                _PROCESSES.search(dotted(call.func))
                and isinstance(whole, ast.Attribute)
                and dotted(whole).startswith("self.")
            ):
                hits.append(tree.hit(call, whole=dotted(whole)))
                break
    return hits


DETECTOR = Detector(
    name="item_processes_whole_split",
    title="__getitem__ tokenizes or transforms the dataset's whole stored list to return one item",
    category="slow_throughput",
    explain=(
        "{where}: `{code}` processes all of `{whole}` inside __getitem__, once per item: every "
        "sample costs as much as the whole split"
    ),
    find=_find,
)
