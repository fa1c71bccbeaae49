"""A dataset item tokenized into batch tensors: every field keeps a leading dimension of 1.

A Hugging Face tokenizer called on one text with `return_tensors="pt"` (or "np",
"tf") returns a batch of one: `input_ids` of shape (1, seq_len). Returned from
`__getitem__` as they are, the collator stacks the items into (batch, 1,
seq_len), and the model, which reads (batch, seq_len), fails (BERT's
embeddings: "too many values to unpack (expected 2)") or mixes up its
dimensions. Items that drop the leading dimension (`squeeze(0)`, `[0]`,
`flatten()`, `view(-1)`) stay quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import indexes_a_result, item_methods
from trainwreck.analyzers.code.tree import Function, Hit, Tree, calls, keyword, last, number

_BATCH_TENSORS = frozenset({"pt", "np", "tf"})
_DROPS_LEADING_DIM = frozenset({"squeeze", "squeeze_", "flatten", "ravel", "view", "reshape"})


def _tokenized_to_tensors(function: Function) -> list[ast.Call]:
    """Calls in the function with `return_tensors="pt"` (or "np", "tf")."""
    found = []
    for call in calls(function):
        kind = keyword(call, "return_tensors")
        if isinstance(kind, ast.Constant) and kind.value in _BATCH_TENSORS:
            found.append(call)
    return found


def _drops_leading_dim(function: Function) -> bool:
    """Any `squeeze`/`flatten`/`view` call or `[0]` index in the function."""
    return any(last(call) in _DROPS_LEADING_DIM for call in calls(function)) or any(
        isinstance(node, ast.Subscript) and number(node.slice) == 0 for node in ast.walk(function)
    )


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for function in item_methods(tree):
        tokenized = _tokenized_to_tensors(function)
        # a batch tokenized whole and indexed by the item (`v[idx]`) loses its leading dimension
        if tokenized and not _drops_leading_dim(function) and not indexes_a_result(function):
            hits.append(tree.hit(tokenized[0]))
    return hits


DETECTOR = Detector(
    name="tokenizer_tensors_in_getitem",
    title="__getitem__ returns tokenizer batch tensors of shape (1, seq_len) for one text",
    category="crash",
    explain=(
        "{where}: `{code}` inside __getitem__ returns tensors with a leading dimension of 1; "
        "the collator stacks them into (batch, 1, seq_len), one dimension more than the model "
        "reads"
    ),
    find=_find,
)
