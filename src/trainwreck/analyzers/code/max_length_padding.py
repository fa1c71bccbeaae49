"""Every batch padded to a fixed maximum length instead of its own longest sequence.

A tokenizer called with `padding="max_length"` (or the older `pad_to_max_length=True`)
pads every sequence to `max_length` tokens whatever its real length. For short texts
most of each batch is padding: an encoder's cost grows with the padded length
(attention with its square), so a batch of 20-token reviews padded to 512 costs
tens of times what dynamic padding to the batch's longest sequence would. The rule
fires on such a call with a max_length of at least MIN_PADDED_LENGTH tokens (or none
given, which means the model's own maximum).
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted, keyword, number

# Below this, fixed-length padding costs little next to the rest of a step (and short
# fixed lengths are common on purpose for static shapes, e.g. on TPUs).
MIN_PADDED_LENGTH = 256
_FIXED = "max_length"


def _pads_to_maximum(call: ast.Call) -> bool:
    padding = keyword(call, "padding")
    legacy = keyword(call, "pad_to_max_length")
    fixed = isinstance(padding, ast.Constant) and padding.value == _FIXED
    return fixed or (isinstance(legacy, ast.Constant) and legacy.value is True)


def _find(tree: Tree) -> list[Hit]:
    for call in tree.calls:
        if "tokeniz" not in dotted(call.func).lower() or not _pads_to_maximum(call):
            continue
        length = number(keyword(call, "max_length"))
        if length is None or length >= MIN_PADDED_LENGTH:
            shown = "the model's maximum" if length is None else f"{int(length)} tokens"
            return [tree.hit(call, length=shown)]
    return []


DETECTOR = Detector(
    name="padding_to_max_length",
    title="The tokenizer pads every batch to a fixed maximum length",
    category="slow_throughput",
    explain=(
        "{where}: `{code}` pads every sequence to {length}, whatever its real length, so "
        "short inputs are computed mostly as padding"
    ),
    find=_find,
)
