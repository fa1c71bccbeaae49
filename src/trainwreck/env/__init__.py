"""Environment evidence and conflict analysis: what is installed, and what cannot work together.

    read_live()           this interpreter: distributions, versions, Requires-Dist (and,
                          on request, torch's CUDA / cuDNN / NCCL)
    read_listing(text)    a captured listing: pip freeze / list, conda list, uv pip list,
                          collect_env, nvidia-smi, nvcc --version
    check(env)            every Conflict: declared requirements, cited matrices
                          (companions, pins, driver, Python, NumPy 2 ABI, extensions
                          against torch's CUDA and the nvcc toolkit)

The CLI (`trainwreck env`) and the `environment` analyzer are thin shells over
these. Nothing here prints.
"""

from __future__ import annotations

from trainwreck.env import compat, requirements
from trainwreck.env.listings import merge, parse_listing
from trainwreck.env.live import read_live
from trainwreck.env.model import Conflict, Environment, Facts, Package, normalise

__all__ = [
    "Conflict",
    "Environment",
    "Facts",
    "Package",
    "check",
    "merge",
    "normalise",
    "read_listing",
    "read_live",
]

read_listing = parse_listing


def check(env: Environment) -> list[Conflict]:
    """Every conflict, errors first; a matrix row repeating a Requires-Dist conflict is dropped."""
    declared = requirements.check_requirements(env)
    seen = {(c.package, c.dependency) for c in declared}
    cited = [
        c
        for check_one in compat.CITED_CHECKS
        for c in check_one(env)
        if (c.package, c.dependency) not in seen
    ]
    return sorted([*declared, *cited], key=lambda c: c.severity != "error")
