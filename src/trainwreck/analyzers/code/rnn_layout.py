"""An RNN built time-major (the default) whose output is read batch-first.

nn.LSTM, nn.GRU and nn.RNN take and return (seq, batch, feature) unless built
with batch_first=True. Code that then reads the last time step as
`out[:, -1]` (the batch-first spelling) is treating the layer as batch-first;
fed batch-first data, the recurrence runs across the samples of the batch and
the "last step" it reads is the last sample's, so the model barely learns and no
shape error says so when the sizes happen to fit.

The mirror mistake: pad_sequence returns (longest length, batch, ...) unless it is
given batch_first=True, and a layer built with batch_first=True reads that first
axis as the batch. The model then sees as many "samples" as the longest sequence
has tokens, and the loss reports an input batch size equal to that length.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, is_true, keyword, last, number

_RECURRENT = frozenset({"LSTM", "GRU", "RNN"})
# Layers with a batch_first switch: the recurrent ones and torch's attention stack.
_BATCH_FIRST_LAYERS = _RECURRENT | {
    "Transformer",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
    "MultiheadAttention",
}
# What puts a time-major batch back in batch-first order.
_REORDERS = frozenset({"transpose", "permute", "t", "T", "mT", "swapaxes", "swapdims", "movedim"})


def _time_major_layers(tree: Tree) -> set[str]:
    """Names bound to an RNN layer built without batch_first=True."""
    names: set[str] = set()
    for node in tree.nodes:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        if last(node.value) not in _RECURRENT:
            continue
        if is_true(keyword(node.value, "batch_first")):
            continue
        names.update(dotted(target) for target in node.targets)
    return names - {""}


def _outputs(tree: Tree, layers: set[str]) -> set[str]:
    """Names that hold a layer's output: `out` of `out, _ = self.lstm(x)` or `out = rnn(x)`."""
    held: set[str] = set()
    for node in tree.nodes:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        if dotted(node.value.func) not in layers:
            continue
        target = node.targets[0]
        first = target.elts[0] if isinstance(target, ast.Tuple) and target.elts else target
        held.add(dotted(first))
    return held - {""}


def _last_step_batch_first(node: ast.AST) -> bool:
    """`x[:, -1]`, `x[:, -1, :]`: every row, the last position of the second axis."""
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple)):
        return False
    items = node.slice.elts
    return (
        len(items) >= 2
        and isinstance(items[0], ast.Slice)
        and items[0].lower is None
        and items[0].upper is None
        and number(items[1]) == -1.0
    )


def _find(tree: Tree) -> list[Hit]:
    outputs = _outputs(tree, _time_major_layers(tree))
    return [
        tree.hit(node, output=dotted(node.value))
        for node in tree.nodes
        if isinstance(node, ast.Subscript)
        and _last_step_batch_first(node)
        and dotted(node.value) in outputs
    ]


def _builds_batch_first_layer(tree: Tree) -> bool:
    return any(
        last(call) in _BATCH_FIRST_LAYERS and is_true(keyword(call, "batch_first"))
        for call in tree.calls
    )


def _find_time_major_padding(tree: Tree) -> list[Hit]:
    if not _builds_batch_first_layer(tree):
        return []
    return [
        tree.hit(call, call=ast.unparse(call))
        for call in tree.calls
        if last(call) == "pad_sequence"
        and not is_true(keyword(call, "batch_first"))
        and not tree.result_reworked(call, _REORDERS)
    ][:1]


PADDED_TIME_MAJOR = Detector(
    name="padded_time_major_into_batch_first_layer",
    title=(
        "pad_sequence without batch_first=True feeds a (length, batch) tensor to a layer "
        "built with batch_first=True"
    ),
    category="crash",
    explain=(
        "{where}: `{call}` returns (longest length, batch, ...) because batch_first is left at "
        "False, while this code builds its recurrent or attention layer with batch_first=True, "
        "which reads the first axis as the batch"
    ),
    find=_find_time_major_padding,
)

DETECTOR = Detector(
    name="rnn_time_major_read_batch_first",
    title="An RNN built without batch_first=True has its output read as batch-first",
    category="divergence",
    explain=(
        "{where}: `{code}` takes the last time step batch-first, but the recurrent layer "
        "that produced `{output}` was built without batch_first=True: its first axis is time"
    ),
    find=_find,
)
