"""A first logged training loss far above what a uniform guess over the vocabulary scores.

A mean token cross-entropy starts near ln V for an untrained head (ln 32,000 =
10.4, ln 262,144 = 12.5) and well below it for a pretrained model being
fine-tuned. A first value several times ln V is not a mean over tokens: the
loss is being summed somewhere, most often over gradient-accumulation
micro-steps whose division was skipped (the Trainer leaves it to models that
accept loss kwargs, and a model that ignores num_items_in_batch never does it).
Only the HF Trainer's logging dicts are read: their `loss` is a token mean by
contract, where a hand-written loop may legitimately log a sum or an MSE.
"""

from __future__ import annotations

import math
import re

from trainwreck.analyzers.loss import Point, series
from trainwreck.analyzers.sizes import of, sizes
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding, SourceRef

FINDING_IDS: tuple[str, ...] = ("loss.above_uniform_guess",)

# Gemma 3's tokenizer (262,144 entries) is the largest vocabulary in common use; a loss above
# a multiple of its ln is above the uniform-guess loss of any common language model.
LARGEST_COMMON_VOCAB = 262_144
# How far above ln V the first logged loss must be before it reads as a sum, not a mean.
# Twice ln V leaves room for a badly initialised head, which starts above ln V but not far.
FACTOR = 2.0
# The HF Trainer's per-step logging dict (quoted values in transformers 5).
_TRAINER_DICT = re.compile(r"\{['\"]loss['\"]:\s*['\"]?[\d.]")


def _vocab(evidence: Evidence) -> tuple[int, str]:
    stated = of(sizes(evidence), "vocab")
    if stated:
        return stated[0].value, stated[0].source
    return LARGEST_COMMON_VOCAB, "[assumed] the largest common LM vocabulary (Gemma 3, 262,144)"


def _finding(first: Point, vocab: int, source: str) -> Finding:
    uniform = math.log(vocab)
    ratio = first.value / uniform
    summary = (
        f"first logged loss {first.value:g} is {ratio:.1f}x ln {vocab} = {uniform:.2f}, the loss "
        "of a uniform guess over the vocabulary: it is a sum (e.g. over accumulation "
        "micro-steps), not a per-token mean"
    )
    where = f"{first.line.source}:{first.line.line}"
    lines = (
        ArithmeticLine(label="first logged loss", formula="read", value=first.value, source=where),
        ArithmeticLine(label="vocabulary V", formula="stated/assumed", value=vocab, source=source),
        ArithmeticLine(
            label="uniform-guess loss", formula="ln V", value=f"{uniform:.2f}", source="computed"
        ),
        ArithmeticLine(
            label="ratio", formula="first loss / ln V", value=f"{ratio:.1f}", source="computed"
        ),
    )
    return Finding(
        id="loss.above_uniform_guess",
        title=f"first loss {first.value:g} is {ratio:.1f}x the uniform-guess loss ln V",
        category="divergence",
        summary=summary,
        evidence=(SourceRef(source=first.line.source, line=first.line.line, text=first.line.text),),
        values={"loss": first.value, "vocab": vocab, "ratio": round(ratio, 2)},
        arithmetic=Arithmetic(title="First loss against ln V", lines=lines, result=summary),
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """One finding when the Trainer's first logged loss exceeds FACTOR x ln V."""
    logged = [p for p in series(evidence.lines, "loss") if _TRAINER_DICT.search(p.line.text)]
    if not logged or not math.isfinite(logged[0].value):
        return []
    vocab, source = _vocab(evidence)
    if logged[0].value <= FACTOR * math.log(vocab):
        return []
    return [_finding(logged[0], vocab, source)]
