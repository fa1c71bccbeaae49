"""A Hugging Face attention mask handed to PyTorch as a key padding mask: the polarity flips.

A tokenizer's `attention_mask` holds 1 for a real token and 0 for padding. PyTorch's
`key_padding_mask` / `src_key_padding_mask` (nn.MultiheadAttention,
nn.TransformerEncoder) means the opposite: True marks a key to ignore. Passing
`attention_mask.bool()` straight through masks every real token and attends only to
padding; a row with no padding has every key masked, its softmax is 0/0, and the
outputs and loss are NaN (or, where padding exists, the model attends to padding
only). The inverted forms (`~mask.bool()`, `mask == 0`, `1 - mask`, `logical_not`)
stay quiet.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, calls, last, names_in

_KEY_PADDING = frozenset({"key_padding_mask", "src_key_padding_mask", "tgt_key_padding_mask"})
_HF_MASK = re.compile(r"(?i)attention_mask|attn_mask")
_INVERTING = frozenset({"logical_not", "eq", "bitwise_not"})


def _inverted(value: ast.expr) -> bool:
    """`~m`, `not m`, `m == 0`, `1 - m`, `m.eq(0)`, `torch.logical_not(m)` anywhere in it."""
    for node in ast.walk(value):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Invert | ast.Not):
            return True
        if isinstance(node, ast.Compare):
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
            return True
    return any(last(call) in _INVERTING for call in calls(value))


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        for kw in call.keywords:
            if kw.arg not in _KEY_PADDING:
                continue
            keys = [n.value for n in ast.walk(kw.value) if isinstance(n, ast.Constant)]
            names = " ".join([*names_in(kw.value), *map(str, keys)])  # batch["attention_mask"]
            if _HF_MASK.search(names) and not _inverted(kw.value):
                hits.append(tree.hit(call, keyword=kw.arg, mask=ast.unparse(kw.value)))
    return hits


DETECTOR = Detector(
    name="attention_mask_as_key_padding_mask",
    title="A 1-means-attend attention mask is passed as PyTorch's True-means-ignore key padding "
    "mask",
    category="nan_inf",
    explain=(
        "{where}: `{code}` passes `{mask}` as {keyword}; PyTorch ignores the keys marked True, so "
        "the real tokens are masked and the padding attended (a row without padding is all "
        "masked: NaN)"
    ),
    find=_find,
)
