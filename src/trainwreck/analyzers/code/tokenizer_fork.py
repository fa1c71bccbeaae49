"""A fast tokenizer run in the parent process, then again inside forked data-loader workers.

Hugging Face's Rust tokenizers encode on an internal thread pool, started by the
first encode in a process. DataLoader workers (and multiprocessing pools) are
forked on Linux, and a forked child inherits the pool's locks but not its
threads, so the first encode in a worker can wait forever: the loader freezes
with no error. The rule fires when the code encodes with a tokenizer at module
level (the parent, before any worker starts) and a dataset's `__getitem__`
encodes with a tokenizer too (what each worker runs), unless the code sets
TOKENIZERS_PARALLELISM, which turns the pool off.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import bound_to, item_methods
from trainwreck.analyzers.code.tree import Hit, Tree, calls, dotted, last, receiver

# Constructors of Hugging Face tokenizers: the `tokenizers` classes (ByteLevelBPETokenizer,
# Tokenizer.from_file) and transformers' (AutoTokenizer, BertTokenizerFast, ...).
_TOKENIZER = re.compile(r"Tokenizer(?:Fast)?(?:\.from_\w+)?$")
_ENCODES = frozenset({"encode", "encode_batch", "batch_encode_plus", "encode_plus", "tokenize"})
_SWITCH = "TOKENIZERS_PARALLELISM"


def _tokenizers(tree: Tree) -> set[str]:
    """Names bound to a tokenizer built here, and the `self.` attributes that keep one."""
    built = bound_to(tree, _TOKENIZER)
    kept = {
        dotted(target)
        for node in tree.nodes
        if isinstance(node, ast.Assign) and dotted(node.value) in built
        for target in node.targets
    }
    return built | kept


def _encodes(call: ast.Call, tokenizers: set[str]) -> bool:
    return last(call) in _ENCODES and receiver(call) in tokenizers


def _find(tree: Tree) -> list[Hit]:
    if _SWITCH in tree.source:
        return []
    tokenizers = _tokenizers(tree)
    in_items = [
        call
        for function in item_methods(tree)
        for call in calls(function)
        if last(call) in _ENCODES
        and (receiver(call) in tokenizers or "tokenizer" in receiver(call).lower())
    ]
    if not in_items:
        return []
    for call in tree.calls:
        if tree.function(call) is None and _encodes(call, tokenizers):
            return [tree.hit(call, tokenizer=receiver(call), item=ast.unparse(in_items[0]))]
    return []


DETECTOR = Detector(
    name="tokenizer_used_before_fork",
    title="A fast tokenizer encodes in the parent process before data-loader workers fork, and "
    "again inside them",
    category="hang",
    explain=(
        "{where}: `{code}` encodes with `{tokenizer}` in the parent process, and each worker "
        "runs `{item}` in __getitem__: the forked workers inherit the tokenizer's started "
        "thread pool and can block in their first encode"
    ),
    find=_find,
)
