"""The pipeline: collect -> context -> analyze -> recall cases -> match -> rank -> Diagnosis.

Every stage is imported at the top, so a reader follows the data from `diagnose()`
into each one; the package loads this module on first use of `trainwreck.diagnose`,
so `trainwreck --help` and the commands that need no diagnosis do not pay for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import BinaryIO

from trainwreck import analyzers, context
from trainwreck.cases import CaseMemory, described_pages, load_memory, similar
from trainwreck.engine.assemble import build
from trainwreck.engine.candidates import rank_candidates
from trainwreck.errors import EvidenceError
from trainwreck.evidence.collect import collect
from trainwreck.kb import KnowledgeBase, load
from trainwreck.model import Diagnosis, Evidence, Gap


def _usable(evidence: Evidence) -> bool:
    read_something = any(f.lines_read for f in evidence.files) or bool(
        evidence.configs or evidence.metrics
    )
    return bool(read_something or evidence.environment or evidence.symptoms)


def _nothing_read(evidence: Evidence) -> EvidenceError:
    if not evidence.gaps:
        return EvidenceError(
            "nothing to diagnose: give a log file, a run directory, '-' or --symptoms"
        )
    first = evidence.gaps[0]
    more = f" (and {len(evidence.gaps) - 1} more)" if len(evidence.gaps) > 1 else ""
    return EvidenceError(f"nothing to diagnose: {first.source}: {first.reason}{more}")


def examine(
    paths: Sequence[str] = (),
    *,
    symptoms: str | None = None,
    config_files: Sequence[str] = (),
    env_files: Sequence[str] = (),
    model_config_files: Sequence[str] = (),
    stdin: BinaryIO | None = None,
    kb: KnowledgeBase | None = None,
    cases: CaseMemory | None = None,
) -> tuple[Evidence, Diagnosis]:
    """The evidence read and the diagnosis made from it (see `diagnose`).

    Callers that draw the run's curves need the evidence too: the Diagnosis
    leaves out the NumPy metric tables.
    """
    knowledge = kb or load()
    keep = knowledge.keep_parts((*analyzers.KEEP, *context.KEEP))
    evidence = collect(
        paths,
        symptoms=symptoms,
        config_files=config_files,
        env_files=env_files,
        model_config_files=model_config_files,
        stdin=stdin,
        keep=keep,
    )
    if not _usable(evidence):
        raise _nothing_read(evidence)
    run_context = context.build(evidence)
    failed: list[Gap] = []
    findings = analyzers.run(evidence, failed)
    if failed:  # listed among the report's warnings, like any input that was not read
        evidence = evidence.model_copy(update={"gaps": (*evidence.gaps, *failed)})
    memory = cases if cases is not None else load_memory()
    alike = similar(memory, evidence, run_context)
    ranked = rank_candidates(knowledge, evidence, findings, run_context, described_pages(memory))
    return evidence, build(knowledge, evidence, run_context, findings, ranked, alike)


def diagnose(
    paths: Sequence[str] = (),
    *,
    symptoms: str | None = None,
    config_files: Sequence[str] = (),
    env_files: Sequence[str] = (),
    model_config_files: Sequence[str] = (),
    stdin: BinaryIO | None = None,
    kb: KnowledgeBase | None = None,
    cases: CaseMemory | None = None,
) -> Diagnosis:
    """Diagnose a failed run from what it left behind.

    `cases` is the case memory searched for similar confirmed failures (the
    bundled store by default; `load_memory(bundled=False)` switches it off).
    Raises EvidenceError only when nothing at all could be read; unreadable
    inputs otherwise become warnings in the Diagnosis.
    """
    return examine(
        paths,
        symptoms=symptoms,
        config_files=config_files,
        env_files=env_files,
        model_config_files=model_config_files,
        stdin=stdin,
        kb=kb,
        cases=cases,
    )[1]
