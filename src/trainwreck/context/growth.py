"""Whether the user says memory grows over the run ("GPU memory grows after every step").

An out-of-memory error has two courses with different causes. Memory that is already too
high at the first step is a capacity question (weights, batch, a matrix too large); memory
that climbs step after step, epoch after epoch, is something kept that should have been
freed (a loss tensor with its graph, epoch outputs a framework holds, forked DataLoader
workers touching the parent's Python objects). Users say which course they saw; on the
first-sight batches (1-20) 24 descriptions did, and the pages the word search put first
for them were mostly capacity pages, which name a cause that does not grow.
"""

from __future__ import annotations

import re

_MEMORY = r"(?:(?:gpu|cpu|host|system|process|resident|cuda|device) )?(?:memory|ram|vram|rss)"
_RISES = (
    r"(?:grow(?:s|ing)?|grew|increas(?:es|ing|ed)|ris(?:es|ing)|rose|climb(?:s|ing|ed)?|"
    r"creep(?:s|ing)? up|goes up|going up|went up|steps? up|stepping up|builds? up|"
    r"keeps? (?:growing|increasing|rising|climbing|going up))"
)
# "memory usage slowly increases", "RAM climbs steadily", "GPU memory keeps growing": a memory
# noun, at most three words (usage, slowly, steadily), then a word of rising.
_GROWS = re.compile(
    rf"\b{_MEMORY}(?: \w+){{0,3}}? {_RISES}\b|"
    r"\bmemory leak\w*|\bleak(?:s|ing)? (?:\w+ )?memory\b|"
    # "each forward pass allocates new memory that is not released" (batch-34's DGL thread):
    # what every step takes and keeps adds up
    rf"\b{_MEMORY} (?:that |which )?(?:is |was |gets |are )?(?:not|never) (?:released|freed)\b",
)
# "memory does not grow", "RAM never increases": the course the user rules out.
_RULED_OUT = re.compile(
    rf"\b{_MEMORY}(?: \w+){{0,3}}? (?:does ?n[o']t|did ?n[o']t|do ?n[o']t|never|no longer|not) "
    rf"(?:\w+ )?{_RISES}"
)


def memory_growth(symptoms: str | None) -> tuple[str, ...]:
    """The words that say memory grows over the run, in the order written; () when none."""
    if not symptoms:
        return ()
    text = _RULED_OUT.sub(" ", " ".join(symptoms.lower().split()))
    return tuple(dict.fromkeys(m.group(0) for m in _GROWS.finditer(text)))
