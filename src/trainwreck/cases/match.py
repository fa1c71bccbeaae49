"""From a run's evidence and context to the confirmed failures it resembles."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

from trainwreck.cases.index import CaseIndex, Scored
from trainwreck.cases.query import query_lines
from trainwreck.cases.records import BUNDLED, CaseRecord, read_records, thread_key
from trainwreck.context.frameworks import PACKAGE_FRAMEWORK
from trainwreck.kb.search import Described
from trainwreck.model import Evidence, RunContext, SimilarCase, SourceRef

# Shown under "Similar confirmed failures" from this similarity up: half the
# record's rare-word weight seen in the run, after the specificity discount.
SHOW_SIMILARITY = 0.35
MAX_SHOWN = 3
CANDIDATES = 20  # records the index returns before the context factors reorder them
# A record for a framework the run shows no sign of keeps this share: a vLLM thread
# can still share an NCCL error with a plain DDP run, but should not outrank one that
# shares the framework too.
ABSENT_FRAMEWORK_FACTOR = 0.5
# A record of another failure class than the one the user states keeps this share;
# milder than the page gate, since a thread's class is one collector's reading.
OTHER_CLASS_FACTOR = 0.7
# Descriptions kept per process: the bundled memory's, and a leave-out run's current one.
DESCRIBED_KEPT = 4
# Frameworks present in nearly every run say nothing about a record's fit.
UBIQUITOUS = frozenset({"pytorch", "cuda", "numpy", "python"})


@dataclass(frozen=True)
class CaseMemory:
    """The records searched (the bundled store's and a team's local ones), indexed once.

    `exclude` holds threads (`thread_key`) a search leaves out: a case being
    evaluated must not find itself (the index counts word weights without them,
    which is cheaper than indexing the store again).
    """

    index: CaseIndex
    exclude: frozenset[str] = frozenset()


@cache
def bundled_records() -> tuple[CaseRecord, ...]:
    """The bundled store's records, read once per process."""
    return tuple(read_records(BUNDLED))


@cache
def _bundled_index() -> CaseIndex:
    return CaseIndex([("bundled", bundled_records())])


def load_memory(
    local: Sequence[CaseRecord] = (), *, bundled: bool = True, exclude: Sequence[str] = ()
) -> CaseMemory:
    """The bundled store (indexed once per process) and a local store's records.

    `exclude` names threads (URLs) or record ids left out: a case being
    evaluated must not find itself.
    """
    skip = frozenset(thread_key(url) for url in exclude)
    if not local:
        return CaseMemory(_bundled_index() if bundled else CaseIndex([]), skip)
    kept = bundled_records() if bundled else ()
    return CaseMemory(CaseIndex([("bundled", kept), ("local", local)]), skip)


@lru_cache(maxsize=DESCRIBED_KEPT)
def described_pages(memory: CaseMemory) -> Described:
    """How users described the confirmed cases filed under each page, for the symptom
    search: (page, the case's symptoms) for every record that has both, in store order,
    without the threads the memory leaves out."""
    skipped = memory.index.left_out(memory.exclude)
    return tuple(
        (entry.record.page, entry.record.symptoms)
        for number, entry in enumerate(memory.index.entries)
        if entry.record.page and entry.record.symptoms and number not in skipped
    )


def _framework(package: str) -> str:
    name = package.lower().replace("_", "-")
    return PACKAGE_FRAMEWORK.get(name, PACKAGE_FRAMEWORK.get(package.lower(), name))


def _context_factor(record: CaseRecord, context: RunContext) -> float:
    factor = 1.0
    needed = {_framework(p) for p in record.frameworks} - UBIQUITOUS
    if needed and not needed & set(context.frameworks):
        factor *= ABSENT_FRAMEWORK_FACTOR
    stated = context.stated
    if stated is not None and stated.category != record.category:
        factor *= OTHER_CLASS_FACTOR
    return factor


def _similar_case(scored: Scored, similarity: float, refs: list[SourceRef]) -> SimilarCase:
    record = scored.record
    return SimilarCase(
        id=record.id,
        source=record.source,
        fix_url=record.fix_url,
        confirmed_by=record.confirmed_by,
        category=record.category,
        frameworks=record.frameworks,
        cause=record.cause,
        fix=record.fix,
        page=record.page,
        similarity=round(similarity, 3),
        lines=scored.lines,
        matched=tuple(refs[i] for i in scored.query),
        store=scored.store,
    )


def similar(
    memory: CaseMemory,
    evidence: Evidence,
    context: RunContext,
    limit: int = MAX_SHOWN,
    *,
    specific: bool = True,
) -> tuple[SimilarCase, ...]:
    """The closest confirmed failures, closest first.

    A diagnosis shows those at SHOW_SIMILARITY or more that share rare words;
    a search by words (`specific=False`) ranks every record sharing any.
    """
    threshold = SHOW_SIMILARITY if specific else 0.0
    pairs = query_lines(evidence)
    if not pairs:
        return ()
    refs = [ref for ref, _ in pairs]
    query = [found for _, found in pairs]
    found = []
    wanted = max(CANDIDATES, limit)
    for scored in memory.index.search(query, wanted, specific=specific, exclude=memory.exclude):
        similarity = scored.similarity * _context_factor(scored.record, context)
        if similarity >= threshold:
            found.append(_similar_case(scored, similarity, refs))
    found.sort(key=lambda case: (-case.similarity, case.id))
    return tuple(found[:limit])
