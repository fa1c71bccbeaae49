"""The running interpreter's environment, from importlib.metadata.

Nothing is imported to read package metadata. torch is imported only when the
caller asks (`with_torch=True`) and only if it is installed, because importing
it takes seconds and may initialise CUDA.
"""

from __future__ import annotations

import contextlib
import importlib.metadata as metadata
import importlib.util
import platform
import re
import sys
from typing import Any

from trainwreck.env.model import Environment, Facts, Package, normalise


def _packages(paths: list[str] | None) -> tuple[dict[str, Package], list[str]]:
    """Every distribution on sys.path (or `paths`), first one wins; later duplicates are notes."""
    packages: dict[str, Package] = {}
    notes: list[str] = []
    found = metadata.distributions(path=paths) if paths else metadata.distributions()
    for dist in found:
        raw_name = dist.name  # the Name field of the METADATA file
        if not raw_name:
            continue
        name = normalise(raw_name)
        where = str(getattr(dist, "_path", "") or "")
        if name in packages:
            notes.append(
                f"{raw_name} {dist.version} at {where} is shadowed by "
                f"{packages[name].version} at {packages[name].source}"
            )
            continue
        direct = dist.read_text("direct_url.json") or ""
        packages[name] = Package(
            name=name,
            version=dist.version,
            display_name=raw_name,
            requires=tuple(dist.requires or ()),
            source=where,
            editable='"editable": true' in direct,
        )
    return packages, notes


def _torch_facts() -> tuple[dict[str, str], list[str]]:
    """CUDA / cuDNN / NCCL versions torch was built with, if torch imports."""
    if importlib.util.find_spec("torch") is None:
        return {}, ["torch is not installed; --torch has nothing to report"]
    try:
        import torch as torch_module
    except Exception as error:  # an ABI or driver problem is exactly what we report
        return {}, [f"import torch failed: {type(error).__name__}: {error}"]
    torch: Any = torch_module  # only reads attributes that every release since 1.0 has
    values: dict[str, str] = {}
    cuda = getattr(torch.version, "cuda", None)  # a CPU build has None
    if cuda:
        values["torch_cuda"] = str(cuda)
    with contextlib.suppress(Exception):  # a build without cuDNN raises here: value unknown
        cudnn = torch.backends.cudnn.version()
        if cudnn:
            values["cudnn"] = str(cudnn)
    try:
        if torch.cuda.is_available():
            nccl = torch.cuda.nccl.version()
            values["nccl"] = ".".join(map(str, nccl)) if isinstance(nccl, tuple) else str(nccl)
            values["gpu"] = torch.cuda.get_device_name(0)
        values["cuda_available"] = str(torch.cuda.is_available())
    except Exception as error:
        return values, [f"torch.cuda query failed: {type(error).__name__}: {error}"]
    return values, []


def read_live(with_torch: bool = False, paths: list[str] | None = None) -> Environment:
    """This interpreter's distributions (with Requires-Dist) and, on request, torch's build.

    `paths` reads another environment's site-packages instead (torch is then not imported,
    and Python's version comes from the `lib/pythonX.Y/` part of the path when present).
    """
    packages, notes = _packages(paths)
    values = {
        "python": platform.python_version(),
        "platform": f"{platform.system()} {platform.machine()}",
    }
    origins = {"python": sys.executable, "platform": "platform module"}
    if paths:
        match = re.search(r"python(\d+\.\d+)", paths[0])
        values.pop("python")
        if match:
            values["python"], origins["python"] = match.group(1), paths[0]
        with_torch = False
    if with_torch:
        torch_values, torch_notes = _torch_facts()
        values.update(torch_values)
        origins.update({key: "torch (imported)" for key in torch_values})
        notes.extend(torch_notes)
    return Environment(
        packages=packages,
        facts=Facts(values, origins),
        formats=("importlib.metadata",),
        sources=tuple(paths) if paths else (sys.prefix,),
        notes=tuple(notes),
        live=True,
    )
