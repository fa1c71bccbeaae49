"""PEP 508 markers evaluated for the environment under study, not for this interpreter alone.

Shared by the requirement check, the advice that moves a package and the
compatibility checks: a requirement whose marker does not hold here is no demand.
"""

from __future__ import annotations

from packaging.markers import UndefinedEnvironmentName, default_environment
from packaging.requirements import Requirement

from trainwreck.env.model import Environment


def marker_environment(env: Environment) -> dict[str, str]:
    """PEP 508 marker values: this interpreter's when live, else the listing's Python."""
    values: dict[str, str] = {key: str(value) for key, value in default_environment().items()}
    python = env.facts.get("python")
    if python and not env.live:
        parts = python.split(".")
        values["python_version"] = ".".join(parts[:2])
        values["python_full_version"] = python
    values["extra"] = ""
    return values


def active(requirement: Requirement, env: Environment) -> bool:
    """Whether the requirement's marker holds here; unknown markers count as holding."""
    if requirement.marker is None:
        return True
    try:
        return requirement.marker.evaluate(marker_environment(env))
    except UndefinedEnvironmentName:
        return True
