"""Version pairs that cannot work together: nvcc vs torch's CUDA, a cuDNN older than the build.

A listing with an nvcc line shows the first pair; so does DeepSpeed's op builder
when it refuses to compile ("Installed CUDA version 12.2 does not match the
version torch was compiled with 11.7"). XLA prints the second when the cuDNN it
loads is older than the one it was compiled with ("Loaded runtime CuDNN library:
8.5.0 but source was compiled with: 8.6.0"); its rule is that the majors match
and the loaded minor is the same or newer. Either way the conflict names both
versions and the rule that refuses them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import replace
from typing import Protocol

from trainwreck.env import advice, matrix
from trainwreck.env.facts import variant_from_cuda
from trainwreck.env.matrix import ToolkitMatch
from trainwreck.env.model import Conflict, Environment

CUDNN_RULE = (
    "https://github.com/openxla/xla/blob/a51b0f552430fd60df6680c84e94219a39c0b459/"
    "xla/stream_executor/cuda/cuda_dnn.cc"
)
CUDNN_DETAIL = (
    "XLA's IsSourceCompatibleWithCudnnLibrary: the loaded cuDNN's major must equal the one "
    "XLA was compiled with and its minor must be the same or higher."
)
_DEEPSPEED = re.compile(
    r"Installed CUDA version (?P<nvcc>\d+\.\d+) does not match the version torch was "
    r"compiled with (?P<torch>\d+\.\d+)"
)
_CUDNN = re.compile(
    r"Loaded runtime CuDNN library: (?P<runtime>\d+\.\d+\.\d+) but source was compiled "
    r"with: (?P<built>\d+\.\d+\.\d+)"
)


class Said(Protocol):
    """A log line: its text and where it was read (`links.Line`)."""

    @property
    def text(self) -> str: ...

    @property
    def where(self) -> str: ...


def toolkit_conflict(
    env: Environment, row: ToolkitMatch, version: str, nvcc: str, torch_cuda: str
) -> Conflict:
    """An extension that compiles with nvcc `nvcc` next to a torch built with `torch_cuda`."""
    package = env.packages.get(row.package)
    name = (package.display_name if package else "") or row.package
    wanted = torch_cuda.split(".")[0] + ".x" if row.match == "major" else torch_cuda
    torch = env.packages.get("torch")
    return Conflict(
        kind="toolkit",
        package=row.package,
        version=version,
        requirement=f"nvcc CUDA {wanted} (torch was built with {torch_cuda})",
        dependency="nvcc",
        installed=nvcc,
        message=(
            f"{name} compiles its CUDA extensions with nvcc {nvcc}, "
            f"but torch was built with CUDA {torch_cuda}: the build refuses the mismatch."
        ),
        fix=(
            f"Point CUDA_HOME at a CUDA {wanted} toolkit, or install the torch build for "
            f"CUDA {nvcc}."
        ),
        source=row.source.url,
        detail=row.source.detail,
        commands=(
            f"pip install torch=={torch.public_version} --index-url "
            f"{advice.WHEEL_INDEX.format(variant=variant_from_cuda(nvcc))}",
        )
        if torch and torch.public_version
        else (),
    )


def _deepspeed(env: Environment, line: Said) -> Conflict | None:
    match = _DEEPSPEED.search(line.text)
    row = next((r for r in matrix.load().toolkits if r.package == "deepspeed"), None)
    if match is None or row is None:
        return None
    package = env.packages.get("deepspeed")
    version = (package.version if package else None) or "?"
    conflict = toolkit_conflict(env, row, version, match["nvcc"], match["torch"])
    return _with_evidence(conflict, line)


def _cudnn(line: Said) -> Conflict | None:
    match = _CUDNN.search(line.text)
    if match is None:
        return None
    runtime, built = match["runtime"], match["built"]
    major, minor = built.split(".")[:2]
    conflict = Conflict(
        kind="cudnn",
        package="framework",
        version=f"compiled with cuDNN {built}",
        requirement=f"cuDNN {major}.x with minor >= {minor}",
        dependency="loaded cuDNN",
        installed=runtime,
        message=(
            f"The cuDNN loaded at run time ({runtime}) cannot serve a build compiled with "
            f"cuDNN {built}: the major must match and the loaded minor be {minor} or newer."
        ),
        fix=(
            f"Make the process load cuDNN {major}.{minor} or newer (upgrade the cuDNN the "
            f"library path finds first), or install the framework build made for cuDNN {runtime}."
        ),
        source=CUDNN_RULE,
        detail=CUDNN_DETAIL,
    )
    return _with_evidence(conflict, line)


def _with_evidence(conflict: Conflict, line: Said) -> Conflict:
    return replace(conflict, evidence=(f"{line.where}: {line.text.strip()}",))


def trace_pairs(env: Environment, lines: Iterable[Said]) -> list[Conflict]:
    """One conflict per kind for the version pairs the log lines state."""
    found: dict[str, Conflict] = {}
    for line in lines:
        if "does not match the version torch" not in line.text and "CuDNN" not in line.text:
            continue
        conflict = _deepspeed(env, line) or _cudnn(line)
        if conflict is not None:
            found.setdefault(conflict.kind, conflict)
    return list(found.values())
