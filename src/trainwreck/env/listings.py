"""Captured environment listings -> Environment.

Reads what people paste into issues, in any mix: `pip freeze` (local versions
such as `torch==2.3.1+cu121`, direct references `pkg @ git+https://...`, `-e`
lines, markers, comments), `pip list` / `uv pip list` columns and
`--format=json`, `conda list` (build and channel columns, or `--json`),
`python -m torch.utils.collect_env` (`[pip3]` / `[conda]` lines and its
header), `nvidia-smi` and `nvcc --version`. A line that fits none of them is
skipped; nothing here raises on bad input.
"""

from __future__ import annotations

import json
import re
from urllib.parse import unquote

from trainwreck.env.facts import cuda_from_conda_build, cuda_from_variant, read_facts
from trainwreck.env.model import Environment, Facts, Package, normalise
from trainwreck.limits import MAX_VERSION_CHARS

_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
_VERSION = rf"[0-9][0-9A-Za-z.+!_-]{{0,{MAX_VERSION_CHARS - 1}}}"  # longer: not a version
_FREEZE = re.compile(rf"^({_NAME})\s*(?:\[[^\]]*\])?\s*===?\s*({_VERSION})$")
_DIRECT = re.compile(rf"^({_NAME})\s*(?:\[[^\]]*\])?\s+@\s+(\S+)$")
_EDITABLE = re.compile(r"^(?:-e|--editable)\s+(\S+)$")
_EGG = re.compile(r"[#&]egg=([A-Za-z0-9._-]+)")
_WHEEL_FILE = re.compile(r"/([A-Za-z0-9_.]+)-(\d[^-/]*)-[^-/]+-[^-/]+-[^-/]+\.whl$")
_SDIST_FILE = re.compile(r"/([A-Za-z0-9_.-]+?)-(\d[\w.+]*)\.(?:tar\.gz|zip)$")
_COLLECT_ENV = re.compile(rf"^\[(pip3?|conda)\]\s+({_NAME})(?:\s*==\s*|\s+)({_VERSION})(.*)$")
_COLUMNS = re.compile(rf"^({_NAME})\s+({_VERSION})((?:\s+\S+){{0,3}})\s*$")
_HEADER_WORDS = {"package", "name", "#", "version"}
# conda names whose PyPI distribution has another name
_CONDA_ALIASES = {"pytorch": "torch", "pytorch-cuda": "pytorch-cuda"}
# CUDA wheels whose version says which cuDNN / NCCL / CUDA runtime torch loads
_NVIDIA_WHEELS = (
    ("cudnn", re.compile(r"^nvidia-cudnn-cu\d+$")),
    ("nccl", re.compile(r"^nvidia-nccl-cu\d+$")),
    ("wheel_cuda", re.compile(r"^nvidia-cuda-runtime-cu\d+$")),
)


def _from_url(url: str) -> tuple[str | None, str | None]:
    """(name, version) a wheel or sdist URL names, if any."""
    path = unquote(url.split("#", 1)[0].split("?", 1)[0])
    match = _WHEEL_FILE.search(path) or _SDIST_FILE.search(path)
    return (match.group(1), match.group(2)) if match else (None, None)


def _strip(line: str) -> str:
    """Drop inline comments and environment markers from a requirement line."""
    if " #" in line:
        line = line.split(" #", 1)[0]
    if ";" in line and "@" not in line.split(";", 1)[0]:
        line = line.split(";", 1)[0]
    return line.strip()


def _requirement_line(line: str, where: str) -> Package | None:
    """A pip freeze line: pinned, a direct reference, or an editable install."""
    match = _FREEZE.match(line)
    if match:
        return Package(normalise(match.group(1)), match.group(2), match.group(1), source=where)
    match = _DIRECT.match(line)
    if match:
        _, version = _from_url(match.group(2))
        name = match.group(1)
        return Package(normalise(name), version, name, source=where, direct_url=match.group(2))
    match = _EDITABLE.match(line)
    if match:
        egg = _EGG.search(match.group(1))
        if egg:
            name = egg.group(1)
            return Package(
                normalise(name), None, name, source=where, direct_url=match.group(1), editable=True
            )
    return None


def _conda_package(name: str, version: str, columns: list[str], where: str) -> Package:
    """A conda row: its build string and channel columns, under pip's name for it."""
    name = _CONDA_ALIASES.get(name.lower(), name)
    return Package(
        normalise(name),
        version,
        name,
        source=where,
        build=columns[0] if columns else None,
        channel=columns[1] if len(columns) > 1 else None,
    )


def _collect_env_line(line: str, where: str) -> Package | None:
    """`[pip3] numpy==1.26.4` or `[conda] pytorch 2.3.1 py3.10_cuda12.1_0 pytorch`."""
    match = _COLLECT_ENV.match(line)
    if not match:
        return None
    tool, name, version, rest = match.groups()
    if tool == "conda":
        return _conda_package(name, version, rest.split(), where)
    return Package(normalise(name), version, name, source=where)


def _columns_line(line: str, where: str, conda: bool) -> Package | None:
    """A `pip list` / `uv pip list` row, or a `conda list` row with build and channel."""
    if ":" in line.split()[0] or "|" in line:
        return None
    match = _COLUMNS.match(line)
    if not match or match.group(1).lower() in _HEADER_WORDS:
        return None
    name, version, rest = match.group(1), match.group(2), match.group(3).split()
    if not conda and "." not in version:
        return None
    if conda:
        return _conda_package(name, version, rest, where)
    editable = bool(rest) and rest[0].startswith(("/", "~", ".", "C:", "c:"))
    return Package(normalise(name), version, name, source=where, editable=editable)


def _json_packages(text: str, source: str) -> list[Package] | None:
    """`pip list --format=json`, `uv pip list --format json` or `conda list --json`."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, list):
        return None
    found: list[Package] = []
    for index, item in enumerate(data, start=1):
        if not isinstance(item, dict) or "name" not in item or "version" not in item:
            continue
        if len(str(item["version"])) > MAX_VERSION_CHARS:
            continue
        name = str(item["name"])
        conda = "build_string" in item or "channel" in item
        if conda:
            name = _CONDA_ALIASES.get(name.lower(), name)
        found.append(
            Package(
                normalise(name),
                str(item["version"]),
                name,
                source=f"{source}[{index}]",
                editable=bool(item.get("editable_project_location")),
                build=str(item["build_string"]) if item.get("build_string") else None,
                channel=str(item["channel"]) if item.get("channel") else None,
            )
        )
    return found


def _line_packages(lines: list[str], source: str) -> tuple[list[Package], set[str]]:
    """Packages from a text listing, and the names of the formats seen."""
    found: list[Package] = []
    formats: set[str] = set()
    conda = False
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        where = f"{source}:{number}"
        if not line:
            continue
        if line.startswith("# packages in environment") or re.match(r"^#\s*Name\s+Version", line):
            conda = True
            formats.add("conda-list")
            continue
        if line.startswith(("#", "--", "-r ", "-c ", "-i ", "=")):
            continue
        package = _collect_env_line(line, where)
        if package:
            formats.add("collect-env")
        else:
            package = _requirement_line(_strip(line), where)
            if package:
                formats.add("pip-freeze")
            else:
                package = _columns_line(line, where, conda)
                if package:
                    formats.add("conda-list" if conda else "pip-list")
        if package:
            found.append(package)
    return found, formats


def _derived_facts(
    packages: dict[str, Package], facts: dict[str, str], origins: dict[str, str]
) -> None:
    """Facts the packages imply: torch's CUDA from its local label or conda build."""
    torch = packages.get("torch")
    if torch and "torch_cuda" not in facts:
        cuda = cuda_from_variant(torch.variant) or cuda_from_conda_build(torch.build)
        if cuda:
            facts["torch_cuda"], origins["torch_cuda"] = cuda, f"{torch.source} ({torch.version})"
    for name, package in packages.items():
        for key, pattern in _NVIDIA_WHEELS:
            if pattern.match(name) and package.version and key not in facts:
                facts[key], origins[key] = package.version, package.source
    python = packages.get("python")
    if python and python.version and "python" not in facts:
        facts["python"], origins["python"] = python.version, python.source


def parse_listing(text: str, source: str = "<listing>") -> Environment:
    """Every package and machine fact a captured listing states."""
    lines = text.splitlines()
    json_found = _json_packages(text, source) if text.lstrip()[:1] == "[" else None
    if json_found is not None:
        found, formats = json_found, {"json-list"}
    else:
        found, formats = _line_packages(lines, source)
    values, origins = read_facts(lines, source)
    if "NVIDIA-SMI" in text:
        formats.add("nvidia-smi")
    if "PyTorch version:" in text or "Collecting environment information" in text:
        formats.add("collect-env")
    if "nvcc_cuda" in values:
        formats.add("nvcc")
    packages: dict[str, Package] = {}
    for package in found:
        packages.setdefault(package.name, package)
    stated_torch = values.pop("torch", None)
    if stated_torch and "torch" not in packages:
        packages["torch"] = Package("torch", stated_torch, "torch", source=origins["torch"])
    origins.pop("torch", None)
    _derived_facts(packages, values, origins)
    return Environment(
        packages=packages,
        facts=Facts(values, origins),
        formats=tuple(sorted(formats)),
        sources=(source,),
    )


def merge(environments: list[Environment]) -> Environment:
    """One environment from several listings of the same machine; the first mention wins."""
    packages: dict[str, Package] = {}
    values: dict[str, str] = {}
    origins: dict[str, str] = {}
    for env in environments:
        for name, package in env.packages.items():
            packages.setdefault(name, package)
        for key, value in env.facts.values.items():
            if key not in values:
                values[key], origins[key] = value, env.facts.origins.get(key, "")
    return Environment(
        packages=packages,
        facts=Facts(values, origins),
        formats=tuple(sorted({f for env in environments for f in env.formats})),
        sources=tuple(s for env in environments for s in env.sources),
        notes=tuple(n for env in environments for n in env.notes),
        live=any(env.live for env in environments),
    )
