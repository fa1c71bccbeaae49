"""__getitem__ processes the whole dataset to return one item.

A map-style dataset's `__getitem__(i)` runs once per sample. Tokenizing or
transforming the full list stored on the dataset (`tokenizer(self.texts)`) and
then picking row i out of the result makes every item cost as much as the whole
split: an epoch costs the split's size squared, and throughput falls as the
dataset grows (one step per second on a few thousand short texts). Computing a
statistic of the stored array to normalise row i (`self.X.mean(axis=0)`,
`np.std(self.X)`) is the same mistake: the column statistics are recomputed over
all N rows for every sample instead of once. So is reading the whole stored file
(`np.load(self.features_path)`, `pd.read_csv(self.csv)`) to pick row i out of it: every
sample reads and parses the full file; a memory-mapped load (`mmap_mode=`) reads only
the rows it touches and stays quiet.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import indexes_a_result, item_methods, item_subscripts
from trainwreck.analyzers.code.tree import (
    Function,
    Hit,
    Tree,
    calls,
    dotted,
    keyword,
    last,
    receiver,
)

# Calls that turn text or samples into features: a tokenizer, an encoder, a transform.
_PROCESSES = re.compile(r"(?i)tok|encode|transform|process|featur")
# Reductions over an array (NumPy, torch and pandas spell them alike).
_REDUCTIONS = frozenset(
    {"mean", "std", "var", "min", "max", "sum", "median", "quantile", "percentile", "nanmean"}
)


def _processing_hit(tree: Tree, function: Function) -> Hit | None:
    """`tokenizer(self.texts)[idx]`: a processing call on the whole stored list."""
    if not indexes_a_result(function):
        return None
    for call in calls(function):
        whole = call.args[0] if call.args else None
        if (
            _PROCESSES.search(dotted(call.func))
            and isinstance(whole, ast.Attribute)
            and dotted(whole).startswith("self.")
        ):
            return tree.hit(call, whole=dotted(whole), does="processes")
    return None


# Readers that load and parse a whole file (NumPy, torch, pandas, json, pickle).
_WHOLE_FILE_READERS = frozenset(
    {"load", "loadtxt", "genfromtxt", "read_csv", "read_parquet", "read_json", "read_pickle"}
)


def _loading_hit(tree: Tree, function: Function) -> Hit | None:
    """`np.load(self.path)` in a __getitem__ that then indexes what it read."""
    if not item_subscripts(function):
        return None
    for call in calls(function):
        path = call.args[0] if call.args else None
        if (
            last(call) in _WHOLE_FILE_READERS
            and isinstance(path, ast.Attribute)
            and dotted(path).startswith("self.")
            and keyword(call, "mmap_mode") is None
        ):
            return tree.hit(call, whole=dotted(path), does="reads")
    return None


def _reduced(call: ast.Call) -> str:
    """The `self.<attr>` a reduction runs over: `self.X.mean(0)`, `np.std(self.X, axis=0)`."""
    if last(call) not in _REDUCTIONS:
        return ""
    target = receiver(call) if isinstance(call.func, ast.Attribute) else ""
    if not target.startswith("self.") and call.args:
        target = dotted(call.args[0])
    return target if target.startswith("self.") else ""


def _reduction_hit(tree: Tree, function: Function) -> Hit | None:
    """A statistic of a stored array that the same __getitem__ also indexes by its index."""
    indexed = {dotted(node.value) for node in item_subscripts(function)}
    for call in calls(function):
        if (whole := _reduced(call)) and whole in indexed:
            return tree.hit(call, whole=whole, does="computes a statistic over")
    return None


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for function in item_methods(tree):
        hit = (
            _processing_hit(tree, function)
            or _reduction_hit(tree, function)
            or _loading_hit(tree, function)
        )
        if hit is not None:
            hits.append(hit)
    return hits


DETECTOR = Detector(
    name="item_processes_whole_split",
    title="__getitem__ processes the dataset's whole stored data to return one item",
    category="slow_throughput",
    explain=(
        "{where}: `{code}` {does} all of `{whole}` inside __getitem__, once per item: every "
        "sample costs as much as the whole split"
    ),
    find=_find,
)
