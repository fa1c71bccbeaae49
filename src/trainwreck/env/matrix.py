"""Compatibility matrices as cited data (env/data/*.yaml), loaded once.

Every row names a source whose URL and detail say what the page shows; a
lookup returns the row with its source so that a report can cite it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from packaging.specifiers import InvalidSpecifier, SpecifierSet
from packaging.version import Version

from trainwreck.errors import KnowledgeBaseError
from trainwreck.tables import read_yaml

DATA_DIR = Path(__file__).parent / "data"
COMPANIONS = ("torchvision", "torchaudio")  # released in lockstep with torch
RULE_FILES = (
    "companions.yaml",
    "pins.yaml",
    "triton.yaml",
    "protobuf.yaml",
    "hf_minimums.yaml",
    "extensions.yaml",
)


@dataclass(frozen=True)
class Source:
    key: str
    url: str
    detail: str


@dataclass(frozen=True)
class Rule:
    """A distribution whose version is in `versions` needs `requires`."""

    package: str
    versions: SpecifierSet
    requires: str
    source: Source


@dataclass(frozen=True)
class TorchRelease:
    torch: str
    python: SpecifierSet
    cuda: tuple[str, ...]
    sources: tuple[Source, ...]


@dataclass(frozen=True)
class DriverFloor:
    cuda: str
    min_driver: str
    source: Source


@dataclass(frozen=True)
class FirstNumpy2:
    package: str
    first: str
    source: Source


@dataclass(frozen=True)
class CudaRange:
    """Releases of `package` in `versions` support only CUDA in `cuda`."""

    package: str
    versions: SpecifierSet
    cuda: SpecifierSet
    source: Source


@dataclass(frozen=True)
class ToolkitMatch:
    """`package` compiles CUDA code on the user's machine: nvcc must match torch's CUDA.

    `match` is "major" (12.1 builds for a torch built with 12.4) or "minor" (exactly equal).
    """

    package: str
    versions: SpecifierSet
    match: str
    source: Source


@dataclass(frozen=True)
class Matrices:
    rules: tuple[Rule, ...]
    torch_releases: tuple[TorchRelease, ...]
    drivers: tuple[DriverFloor, ...]
    numpy2: tuple[FirstNumpy2, ...]
    cuda_ranges: tuple[CudaRange, ...] = ()
    toolkits: tuple[ToolkitMatch, ...] = ()


def _read(name: str) -> tuple[dict[str, Any], dict[str, Source]]:

    path = DATA_DIR / name
    try:
        data = read_yaml(path)
        sources = {
            key: Source(key, str(value["url"]), " ".join(str(value["detail"]).split()))
            for key, value in data["sources"].items()
        }
    except (OSError, yaml.YAMLError, KeyError, TypeError) as error:
        raise KnowledgeBaseError(f"{path}: bad matrix file: {error}") from error
    return data, sources


def _spec(text: str, where: str) -> SpecifierSet:
    try:
        return SpecifierSet(text)
    except InvalidSpecifier as error:
        raise KnowledgeBaseError(f"{where}: bad specifier {text!r}") from error


def _match(text: str, where: str) -> str:
    if text not in ("major", "minor"):
        raise KnowledgeBaseError(f"{where}: match must be major or minor, not {text!r}")
    return text


@cache
def load() -> Matrices:
    """Every matrix, validated; a broken data file is a KnowledgeBaseError."""
    rules: list[Rule] = []
    for name in RULE_FILES:
        data, sources = _read(name)
        for row in data["rules"]:
            where = f"{name}: {row}"
            rules.append(
                Rule(
                    row["package"],
                    _spec(row["versions"], where),
                    row["requires"],
                    sources[row["source"]],
                )
            )
    data, sources = _read("torch_releases.yaml")
    releases = tuple(
        TorchRelease(
            str(row["torch"]),
            _spec(row["python"], str(row)),
            tuple(row["cuda"]),
            tuple(sources[key] for key in row["sources"]),
        )
        for row in data["releases"]
    )
    data, sources = _read("cuda_drivers.yaml")
    drivers = tuple(
        DriverFloor(str(row["cuda"]), str(row["min_driver"]), sources[row["source"]])
        for row in data["drivers"]
    )
    data, sources = _read("numpy2.yaml")
    numpy2 = tuple(
        FirstNumpy2(row["package"], str(row["first"]), sources[row["source"]])
        for row in data["packages"]
    )
    data, sources = _read("extensions.yaml")
    cuda_ranges = tuple(
        CudaRange(
            row["package"],
            _spec(row["versions"], str(row)),
            _spec(row["cuda"], str(row)),
            sources[row["source"]],
        )
        for row in data["cuda"]
    )
    toolkits = tuple(
        ToolkitMatch(
            row["package"],
            _spec(row["versions"], str(row)),
            _match(row["match"], str(row)),
            sources[row["source"]],
        )
        for row in data["toolkit"]
    )
    return Matrices(tuple(rules), releases, drivers, numpy2, cuda_ranges, toolkits)


def version_of(text: str | None) -> Version | None:
    """A parsed version, or None when the text is not PEP 440."""
    if not text:
        return None
    try:
        return Version(text)
    except ValueError:  # InvalidVersion, or digits past int()'s limit
        return None


def rules_for(package: str, version: str) -> list[Rule]:
    """The rules that apply to this installed version, most specific first (exact pins lead)."""
    parsed = version_of(version)
    if parsed is None:
        return []
    public = Version(parsed.public)
    found = [r for r in load().rules if r.package == package and r.versions.contains(public, True)]
    return sorted(found, key=lambda r: "*" in str(r.versions))


def companion_for(package: str, torch_version: str) -> str | None:
    """The release of `package` (torchvision, torchaudio) built for this torch, if known.

    Only exact rows (`==0.21.0` for `torch==2.6.0`) or a minor line (`0.23.*`)
    answer; for a line the answer is the line itself, e.g. `0.23.*`.
    """
    parsed = version_of(torch_version)
    if parsed is None or package not in COMPANIONS:
        return None
    public = Version(parsed.public)
    for rule in sorted(load().rules, key=lambda r: "*" in str(r.versions)):
        if rule.package != package or not rule.requires.startswith("torch"):
            continue
        spec = _spec(rule.requires.removeprefix("torch"), rule.requires)
        if spec.contains(public, True):
            return str(rule.versions).removeprefix("==")
    return None


def torch_release(torch_version: str) -> TorchRelease | None:
    parsed = version_of(torch_version)
    if parsed is None:
        return None
    minor = f"{parsed.major}.{parsed.minor}"
    return next((r for r in load().torch_releases if r.torch == minor), None)


def driver_floor(cuda: str) -> DriverFloor | None:
    """The minimum driver for a CUDA runtime: its own row (10.x) or its major family."""
    major = cuda.split(".")[0]
    minor = ".".join(cuda.split(".")[:2])
    rows = {row.cuda: row for row in load().drivers}
    return rows.get(minor) or rows.get(major)
