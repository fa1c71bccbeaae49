"""Tokens added to the tokenizer without resizing the model's embedding matrix.

`tokenizer.add_special_tokens(...)` / `add_tokens(...)` gives the new tokens
ids at the end of the vocabulary, past the last row of the model's input
embedding (and LM head). Unless `model.resize_token_embeddings(len(tokenizer))`
follows, the first batch that contains a new token indexes past the
embedding: "index out of range in self" on the CPU, a device-side assert on
CUDA.
"""

from __future__ import annotations

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, last

_ADDS = frozenset({"add_special_tokens", "add_tokens"})
_RESIZES = frozenset({"resize_token_embeddings"})


def _find(tree: Tree) -> list[Hit]:
    names = {last(call) for call in tree.calls}
    if names & _RESIZES:
        return []
    return [tree.hit(call) for call in tree.calls if last(call) in _ADDS]


DETECTOR = Detector(
    name="tokens_added_without_resize",
    title="Tokens are added to the tokenizer but the model's embeddings are never resized",
    category="crash",
    explain=(
        "{where}: `{code}` gives new tokens ids past the model's embedding rows, and the code "
        "never calls resize_token_embeddings"
    ),
    find=_find,
)
