"""Packages added, removed or moved between two runs' environments, and machine facts changed.

Names are compared in their PEP 503 form (`env.normalise`), so `Flash_Attn` in one
listing and `flash-attn` in the other are one package. The environment is what the
evidence layer read: listings first, then versions the logs print.
"""

from __future__ import annotations

from trainwreck.compare.model import Change
from trainwreck.env.model import Environment, Facts, Package, normalise
from trainwreck.model import Evidence


def environment(evidence: Evidence) -> Environment:
    """One run's packages and machine facts as the env layer's Environment."""
    packages = {
        normalise(name): Package(name, version, name, source="environment listing")
        for name, version in evidence.environment.items()
    }
    return Environment(packages=packages, facts=Facts(dict(evidence.environment_facts)))


def package_changes(good: Environment, bad: Environment) -> list[Change]:
    """Each package whose version differs, or that only one run has, by name."""
    changes = []
    for name in sorted(good.packages.keys() | bad.packages.keys()):
        before, after = good.version(name), bad.version(name)
        if before != after:
            changes.append(Change(kind="package", key=name, before=before, after=after))
    return changes


def machine_changes(good: Environment, bad: Environment) -> list[Change]:
    """Each machine fact (driver, CUDA of the driver and of torch, GPU, Python) that differs;
    a fact only one listing states is not a change, as the other may not have printed it."""
    shared = good.facts.values.keys() & bad.facts.values.keys()
    return [
        Change(kind="machine", key=key, before=good.facts.values[key], after=bad.facts.values[key])
        for key in sorted(shared)
        if good.facts.values[key] != bad.facts.values[key]
    ]
