"""Error lines reduced to the words that identify a failure.

Two reports of one bug differ in numbers, paths, addresses, tensor sizes and
rank ids, and agree in exception types, API names, framework words and the
message's wording. So a line becomes the set of its identifier-like words
(lowercased; a path keeps only its file name), and numbers, hex addresses and
the most common English words are dropped.
"""

from __future__ import annotations

import re

from trainwreck.kb.search import WEB_ADDRESS

_HEX = re.compile(r"\b0x[0-9a-fA-F]+\b")
# A directory prefix of a path: what varies between machines, unlike the file name.
# It starts only where a run of path characters starts, or at a drive (the `s:` of
# `https:`): tried inside a run too, a long run without a slash cost time quadratic in
# its length (54k characters of an MCP query took 15 s). The same matches as before.
_DIRECTORIES = re.compile(r"(?:[A-Za-z]:|(?<![\w.~+-]))(?:[\w.~+-]*[/\\])+")
# Identifier-like words: start with a letter, may hold digits and underscores
# (`bf16`, `sm_121`, `zero_grad`); dotted names split into their parts.
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# Words too common in English and in every log to tell two failures apart.
STOPWORDS = frozenset(
    (
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "may",
        "might",
        "more",
        "most",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "please",
        "should",
        "so",
        "such",
        "than",
        "that",
        "the",
        "their",
        "then",
        "there",
        "these",
        "this",
        "those",
        "to",
        "too",
        "try",
        "was",
        "we",
        "were",
        "when",
        "which",
        "while",
        "will",
        "with",
        "would",
        "you",
        "your",
        "line",
        "file",
        "self",
        "py",
    )
)
# The fixed wording torch's CUDA out-of-memory message prints in every instance, past its
# first sentence ("Including non-PyTorch memory, ...", "reserved by PyTorch but unallocated.
# If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=
# expandable_segments:True to avoid fragmentation. See documentation for Memory Management",
# and torch 2.0's "try setting max_split_size_mb"): it says an OOM happened, not which. Most
# records keep only the message's start, so these words looked rare (1 to 6 records of 832)
# and made any full OOM message look close to the few records that kept its end.
# The same holds for the summary torchrun's elastic agent prints for any failed worker
# ("api.py:833] failed (exitcode: 1) local_rank: 0 (pid: 155690) of binary: .../python3",
# "error_file: <N/A>"): it says a worker exited, not why, yet 1 to 3 records of 880 kept it,
# and a batch-9 torchrun config refusal recalled a fp16 NaN record on it (similarity 0.64).
BOILERPLATE = frozenset(
    (
        "exitcode",
        "local_rank",
        "binary",
        "error_file",
        "pid",
        "including",
        "unallocated",
        "fragmentation",
        "documentation",
        "management",
        "pytorch_cuda_alloc_conf",
        "max_split_size_mb",
        "expandable_segments",
    )
)
MIN_WORD = 2


def words(text: str) -> frozenset[str]:
    """The identifying words of one line of evidence."""
    text = _DIRECTORIES.sub("", _HEX.sub(" ", WEB_ADDRESS.sub(" ", text)))
    return frozenset(
        word
        for word in (w.lower() for w in _WORD.findall(text))
        if len(word) >= MIN_WORD and word not in STOPWORDS and word not in BOILERPLATE
    )
