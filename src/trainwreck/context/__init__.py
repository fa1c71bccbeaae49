"""The context model of a run, built from the evidence before anything is ranked.

It holds what a person reads first in a bug report: which failure the user
says they have, which frameworks and hardware the run used, in which phase it
failed, and which versions (and version changes) are involved. The engine
gates and orders knowledge-base pages by it; the report shows it.
"""

from __future__ import annotations

from trainwreck.context.denied import denied_setups
from trainwreck.context.frameworks import KEEP, frameworks_seen
from trainwreck.context.growth import memory_growth
from trainwreck.context.hardware import hardware_of
from trainwreck.context.logged import from_exception
from trainwreck.context.phase import phase_of
from trainwreck.context.stated import from_symptoms, ran_out, refined
from trainwreck.context.unset import unset_in_script
from trainwreck.context.versions import version_changes, versions_of
from trainwreck.model import Evidence, RunContext

__all__ = ["KEEP", "build"]


def build(evidence: Evidence) -> RunContext:
    """The run's context: stated class, frameworks, hardware, phase, versions, the
    setups the user says it does not use or its whole script never turns on, and whether
    they say memory grows."""
    logged = from_exception(evidence.final_exception)
    grows = memory_growth(evidence.symptoms)
    stated = ran_out(refined(from_symptoms(evidence.symptoms), logged), grows)
    return RunContext(
        stated=stated,
        logged=logged,
        frameworks=frameworks_seen(evidence),
        hardware=hardware_of(evidence),
        phase=phase_of(evidence, stated),
        versions=versions_of(evidence),
        version_changes=version_changes(evidence),
        denied=denied_setups(evidence.symptoms),
        unset=unset_in_script(evidence),
        memory_grows=grows,
    )
