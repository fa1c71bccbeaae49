"""Declared requirements: every installed distribution's Requires-Dist against what is installed.

Like `pip check`, with markers evaluated for this environment (an `extra ==`
marker counts as not requested) and local labels allowed (`2.3.1+cu121`
satisfies `==2.3.1`). Pre-releases that are installed count as installed.
"""

from __future__ import annotations

from packaging.requirements import InvalidRequirement, Requirement

from trainwreck.env import advice, matrix
from trainwreck.env.markers import active
from trainwreck.env.model import Conflict, Environment, normalise


def check_requirements(env: Environment) -> list[Conflict]:
    """A Conflict for every requirement that is missing or not satisfied."""
    conflicts: list[Conflict] = []
    for package in sorted(env.packages.values(), key=lambda p: p.name):
        for text in package.requires:
            try:
                requirement = Requirement(text)
            except InvalidRequirement:
                continue
            if not active(requirement, env):
                continue
            conflict = _one(env, package.name, package.version or "?", requirement)
            if conflict:
                conflicts.append(conflict)
    return conflicts


def _one(env: Environment, name: str, version: str, requirement: Requirement) -> Conflict | None:
    dependency = normalise(requirement.name)
    installed = env.packages.get(dependency)
    display = env.packages[name].display_name or name
    source = f"{display} {version} Requires-Dist: {requirement}"
    if installed is None:
        return Conflict(
            kind="requirement",
            package=name,
            version=version,
            requirement=str(requirement),
            dependency=dependency,
            installed=None,
            message=f"{display} {version} requires {requirement.name}, which is not installed.",
            fix=f"Install {requirement.name}{requirement.specifier}.",
            source=source,
            commands=(advice.install([f"{requirement.name}{requirement.specifier}"], env),),
        )
    parsed = matrix.version_of(installed.version)
    if parsed is None or requirement.specifier.contains(parsed, prereleases=True):
        return None
    fix, commands = advice.choose(env, name, dependency, requirement.specifier, installed.version)
    return Conflict(
        kind="requirement",
        package=name,
        version=version,
        requirement=f"{requirement.name}{requirement.specifier}",
        dependency=dependency,
        installed=installed.version,
        message=(
            f"{display} {version} has requirement {requirement.name}{requirement.specifier}, "
            f"but you have {requirement.name} {installed.version}."
        ),
        fix=fix,
        source=source,
        commands=commands,
    )
