"""Every page's examples through the real pipeline, not only against its bare regexes.

A `fires` example, diagnosed as a log, must make its page the top hypothesis; a
`quiet` example must keep the page out of the hypotheses. `kb lint` checks only
that the examples match (or miss) a signature; this shows they fire the page.
"""

from __future__ import annotations

import io
from functools import cache

import pytest

from trainwreck.cases import CaseMemory, load_memory
from trainwreck.kb import KnowledgeBase, load
from trainwreck.kb.schema import Pattern
from trainwreck.pipeline import diagnose

KB = load()

# Pages whose fires examples may leave them a candidate below another page, because that
# page legitimately wins on the example's line alone. Keep this small: each is a reason.
OUTRANKED: dict[str, str] = {
    "all-labels-ignored-nan-loss": "TRL's 'Could not find response key' warning is the more "
    "specific trl-response-template-not-found; a bare NaN eval_loss is loss-non-finite",
    "autograd-anomaly-nan": "anomaly mode names the backward function, and a page for that "
    "function (SqrtBackward0, DivBackward0 of a log) is more specific than anomaly mode",
    "ctc-loss-infinite-alignment": "an icefall 'loss[loss=nan ...' line alone shows a NaN "
    "loss, which loss-non-finite covers; the CTC page needs its CTC evidence",
    "dataloader-workers-copy-python-objects": "a worker the kernel killed is host-oom-killed's "
    "own line; the course the user describes (RAM climbing with workers) tells this page apart",
    "fsdp-wrap-layer-class-not-in-model": "the bare exception is shared with "
    "accelerate-stale-default-config (a stale default config naming the class)",
    "state-dict-key-mismatch": "the 'Error(s) in loading state_dict' header is shared with "
    "checkpoint-size-mismatch; the lines after it tell them apart",
    "torch-compile-recompile-limit": "under fullgraph=True the limit is raised as "
    "torch._dynamo.exc.Unsupported, which torch-compile-fullgraph-graph-break matches",
}

# Pages with fires examples that do not fire through the pipeline alone. Strict xfail: the
# entry must go once the page has a real multi-line example (the error with the line naming
# its cause) from its sources; none was found for these in the stored public text.
_ERROR_WITHOUT_CAUSE = (
    "its examples are the cause's lines (a frame, a setting, a code line) without the OOM "
    "they end in; no source seen shows both in one excerpt"
)
FIRES_MISSES: dict[str, str] = {
    "deepspeed-zero3-gather-on-save-oom": _ERROR_WITHOUT_CAUSE,
    "from-pretrained-default-fp32-weights": _ERROR_WITHOUT_CAUSE,
    "vllm-logprobs-oom": _ERROR_WITHOUT_CAUSE,
    "transformers-grad-accum-loss-scaled": "needs the accumulation setting and the scaled "
    "loss in one example; its loss line could not be traced to a source's run",
}
# Pages a quiet example still makes a candidate. Strict xfail, as above.
QUIET_MISSES: dict[str, str] = {}


@cache
def _memory() -> CaseMemory:
    return load_memory()


def _hypothesis_ids(text: str, kb: KnowledgeBase) -> list[str]:
    """The shown hypotheses' ids when `text` is the whole log, best first."""
    stdin = io.BytesIO(text.encode("utf-8"))
    return [h.id for h in diagnose(["-"], stdin=stdin, kb=kb, cases=_memory()).hypotheses]


def _params(examples: str, misses: dict[str, str]) -> list[object]:
    return [
        pytest.param(
            pattern,
            id=pattern.id,
            marks=[pytest.mark.xfail(strict=True, reason=misses[pattern.id])]
            if pattern.id in misses
            else [],
        )
        for pattern in KB.patterns
        if getattr(pattern.examples, examples)
    ]


def test_exception_tables_name_real_pages() -> None:
    ids = {pattern.id for pattern in KB.patterns}
    assert sorted({*OUTRANKED, *FIRES_MISSES, *QUIET_MISSES} - ids) == []


@pytest.mark.parametrize("pattern", _params("fires", FIRES_MISSES))
def test_fires_examples_rank_their_page_first(pattern: Pattern) -> None:
    misses = []
    for text in pattern.examples.fires:
        ids = _hypothesis_ids(text, KB)
        first = ids[:1] == [pattern.id]
        if not first and not (pattern.id in OUTRANKED and pattern.id in ids):
            misses.append((text[:80], ids[:3]))
    assert misses == []


@pytest.mark.parametrize("pattern", _params("quiet", QUIET_MISSES))
def test_quiet_examples_keep_their_page_out(pattern: Pattern) -> None:
    fired = [
        text[:80] for text in pattern.examples.quiet if pattern.id in _hypothesis_ids(text, KB)
    ]
    assert fired == []
