"""The vocabulary of environment checks: what is installed, and what does not fit.

Plain frozen dataclasses: an environment listing can hold thousands of
packages and nothing here is part of the diagnosis JSON contract, so there is
no validation layer to pay for. `trainwreck env --format json` dumps them with
`dataclasses.asdict`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["error", "warning"]

_LOCAL_VARIANT = re.compile(r"^(cpu|cu\d{2,3}|rocm[\d.]+|xpu)$")


def normalise(name: str) -> str:
    """PEP 503 name: lowercase, runs of -_. become one dash."""
    return re.sub(r"[-_.]+", "-", name).lower()


@dataclass(frozen=True)
class Package:
    """One installed distribution, as a listing or the live interpreter shows it.

    `version` keeps the local label (`2.3.1+cu121`); `version` is None for a
    direct reference whose URL names no version. `requires` holds the
    Requires-Dist strings, known only for a live environment.
    """

    name: str
    version: str | None
    display_name: str = ""
    requires: tuple[str, ...] = ()
    source: str = ""
    direct_url: str | None = None
    editable: bool = False
    channel: str | None = None
    build: str | None = None

    @property
    def public_version(self) -> str | None:
        """The version without its local label: `2.3.1` for `2.3.1+cu121`."""
        return self.version.split("+", 1)[0] if self.version else None

    @property
    def variant(self) -> str | None:
        """The build variant a local label names (`cu121`, `cpu`, `rocm6.0`), if any."""
        if not self.version or "+" not in self.version:
            return None
        label = self.version.split("+", 1)[1].lower()
        return label if _LOCAL_VARIANT.match(label) else None


@dataclass(frozen=True)
class Facts:
    """Facts about the machine and the torch build, each with where it was read.

    Keys: python, platform, driver (NVIDIA kernel driver), driver_cuda (the
    highest CUDA the driver supports, nvidia-smi's "CUDA Version"), nvcc_cuda,
    torch_cuda (the CUDA runtime torch was built with), cudnn, nccl, gpu.
    """

    values: dict[str, str] = field(default_factory=dict)
    origins: dict[str, str] = field(default_factory=dict)

    def get(self, key: str) -> str | None:
        return self.values.get(key)


@dataclass(frozen=True)
class Environment:
    """Everything one environment holds: packages by PEP 503 name, and facts."""

    packages: dict[str, Package]
    facts: Facts = field(default_factory=Facts)
    formats: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    live: bool = False

    def version(self, name: str) -> str | None:
        package = self.packages.get(normalise(name))
        return package.version if package else None


@dataclass(frozen=True)
class Conflict:
    """Something installed that cannot work with something else installed.

    Reads like `pip check` (`message`), plus which side to move and to what
    (`fix`, `commands`), and where the rule comes from (`source`: the
    package's own Requires-Dist, or a cited matrix row's URL).
    """

    kind: str
    package: str
    version: str
    requirement: str
    dependency: str
    installed: str | None
    message: str
    fix: str
    source: str
    severity: Severity = "error"
    commands: tuple[str, ...] = ()
    detail: str = ""
    evidence: tuple[str, ...] = ()
