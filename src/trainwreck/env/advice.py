"""Which side of a conflict to move, and the exact command that moves it.

A requirement `A needs B<spec>` can be met by moving B into `spec` or by moving
A to a release built for the installed B. Moving B is checked against every
other requirement on B in the environment; when torch is B and a matrix knows
the release of A built for the installed torch, A moves (reinstalling a small
companion is cheaper than changing torch under everything else).
"""

from __future__ import annotations

from dataclasses import dataclass

from packaging.requirements import InvalidRequirement, Requirement
from packaging.specifiers import SpecifierSet

from trainwreck.env import matrix
from trainwreck.env.markers import active
from trainwreck.env.model import Environment, normalise

PYTORCH_FAMILY = ("torch", "torchvision", "torchaudio")
WHEEL_INDEX = "https://download.pytorch.org/whl/{variant}"


@dataclass(frozen=True)
class Demand:
    """One package's requirement on another, and where it was stated."""

    package: str
    version: str
    spec: SpecifierSet
    source: str


def torch_variant(env: Environment) -> str | None:
    """The wheel index tag (cu121, cpu, rocm6.0) of the installed torch family."""
    for name in PYTORCH_FAMILY:
        package = env.packages.get(name)
        if package and package.variant:
            return package.variant
    return None


def install(pins: list[str], env: Environment) -> str:
    """`pip install` for the pins, on PyTorch's index when the torch family has a variant."""
    quoted = " ".join(f'"{pin}"' if any(c in pin for c in "<>*!,") else pin for pin in pins)
    command = f"pip install {quoted}"
    names = {normalise(pin.split("=")[0].split("<")[0].split(">")[0]) for pin in pins}
    variant = torch_variant(env)
    if variant and names & set(PYTORCH_FAMILY):
        command += f" --index-url {WHEEL_INDEX.format(variant=variant)}"
    return command


def target(spec: SpecifierSet) -> str | None:
    """The single version a `==X` specifier names (no wildcard), else None."""
    items = list(spec)
    if len(items) == 1 and items[0].operator in ("==", "===") and "*" not in items[0].version:
        return items[0].version
    return None


def demands_on(env: Environment, dependency: str) -> list[Demand]:
    """Every requirement on `dependency` the installed packages state (Requires-Dist)."""
    demands: list[Demand] = []
    for package in env.packages.values():
        for text in package.requires:
            try:
                requirement = Requirement(text)
            except InvalidRequirement:
                continue
            if normalise(requirement.name) == dependency and active(requirement, env):
                demands.append(
                    Demand(
                        package.name, package.version or "?", requirement.specifier, "Requires-Dist"
                    )
                )
    return demands


def breaks(env: Environment, dependency: str, version: str, exclude: str) -> list[str]:
    """Which other packages' requirements a move of `dependency` to `version` would violate."""
    parsed = matrix.version_of(version)
    if parsed is None:
        return []
    return [
        f"{d.package} {d.version} requires {dependency}{d.spec}"
        for d in demands_on(env, dependency)
        if d.package != exclude and not d.spec.contains(parsed, prereleases=True)
    ]


def choose(
    env: Environment, package: str, dependency: str, spec: SpecifierSet, installed: str | None
) -> tuple[str, tuple[str, ...]]:
    """(fix sentence, commands) for `package` needing `dependency<spec>`."""
    pin_dep = f"{dependency}=={target(spec)}" if target(spec) else f"{dependency}{spec}"
    wanted = target(spec) or str(spec)
    move_dep = f"move {dependency} to {wanted}"
    broken = breaks(env, dependency, target(spec) or "", package) if target(spec) else []
    if broken:
        move_dep += f" (but that breaks: {'; '.join(broken)})"
    companion = (
        matrix.companion_for(package, installed) if dependency == "torch" and installed else None
    )
    if companion:
        pin_pkg = f"{package}=={companion}"
        first = f"move {package} to {companion}, the release built for torch {installed}"
        return (
            f"{first[0].upper()}{first[1:]} (leaves torch alone); or {move_dep}.",
            (install([pin_pkg], env), install([pin_dep], env)),
        )
    if dependency == "torch" and installed and package in PYTORCH_FAMILY:
        keep = f"torch=={installed.split('+')[0]}"
        return (
            f"Reinstall {package} with torch pinned to {installed.split('+')[0]}, so pip picks the "
            f"{package} release built for it (leaves torch alone); or {move_dep}.",
            (install([keep, package], env), install([pin_dep], env)),
        )
    if dependency in PYTORCH_FAMILY or not broken:
        sentence = f"{move_dep[0].upper()}{move_dep[1:]}"
        other = f"; or move {package} to a release that accepts {dependency} {installed}"
        return sentence + (other if installed else "") + ".", (install([pin_dep], env),)
    return (
        f"Move {package} to a release that accepts {dependency} {installed}; "
        f"moving {dependency} instead would break other packages ({'; '.join(broken)}).",
        (f"pip install --upgrade {package}",),
    )
