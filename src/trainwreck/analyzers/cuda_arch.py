"""A CUDA runtime older than the first CUDA release that knows the GPU's architecture.

Each GPU generation needs a CUDA release that can compile for it: a framework built
on an older toolkit carries no native code for the card (CUDA 10.1 under an RTX 3090,
compute capability 8.6, which CUDA 11.1 introduced). Depending on the framework the
run then stops with "no kernel image", spends minutes JIT-compiling PTX at start-up,
or (TensorFlow 2.2 on Ampere) trains without learning. The GPU and its capability come
from gpu_arch's reading; the runtime from the library the framework loaded
(`libcudart.so.10.1`, `cudart64_101.dll`), as TensorFlow's loader prints it. A torch
build's CUDA is not read: torch warns on its own when the card is missing from its build,
and its wheels carry PTX the driver compiles for a newer card, so a torch run that trains
is not failing for this (batch-34's torch 1.11+cu102 on an RTX A6000, a BatchNorm cause).
From CUDA 11 on the library's file is
named for the major release only (`libcudart.so.11.0` and `cudart64_110.dll` ship with
every 11.x), so such a name says 11.x, and only a GPU that needs a later major is
flagged. nvidia-smi's "CUDA Version" is the driver's ceiling, not the runtime, and is
not read.
"""

from __future__ import annotations

import re

from trainwreck.analyzers.gpu_arch import Device, named_device
from trainwreck.analyzers.said import Said, statements
from trainwreck.model import Evidence, Finding

FINDING_ID = "gpu.cuda_older_than_architecture"
FINDING_IDS: tuple[str, ...] = (FINDING_ID,)

# The first CUDA release that compiles for each compute capability (NVIDIA's release notes
# and compatibility guides, cited by the KB page cuda-runtime-older-than-gpu-architecture);
# a capability between two rows takes the lower row's release.
MIN_CUDA: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((12, 0), (12, 8)),
    ((10, 0), (12, 8)),
    ((9, 0), (11, 8)),
    ((8, 9), (11, 8)),
    ((8, 7), (11, 4)),
    ((8, 6), (11, 1)),
    ((8, 0), (11, 0)),
    ((7, 5), (10, 0)),
    ((7, 2), (9, 1)),
    ((7, 0), (9, 0)),
)
# The first CUDA major whose runtime library is named for the major release alone.
MAJOR_ONLY_NAMES = 11
# The runtime library the framework loaded, as its loader names it.
_RUNTIME = re.compile(r"libcudart\.so\.(?P<so>\d+(?:\.\d+)?)|cudart64_(?P<dll>\d{2,3})\.dll")
_RUNTIME_WORDS = ("cudart",)
# The lines a long log must keep for this reading (the loader's line is printed once, early).
KEEP: tuple[str, ...] = (r"libcudart\.so\.\d|cudart64_\d",)


# A runtime release: (major, minor), the minor None where the name gives the major only.
Release = tuple[int, int | None]


def _version(match: re.Match[str]) -> Release:
    """`10.1` from `libcudart.so.10.1`; a library file named for its major
    (`libcudart.so.11.0`, `cudart64_12.dll`) gives 11.x."""
    major, minor = _numbered(match["so"] or match["dll"])
    return (major, None) if major >= MAJOR_ONLY_NAMES else (major, minor)


def _numbered(text: str) -> tuple[int, int]:
    """A library file's version: `10.1` and `12` (Linux), `101`, `92` and `12` (Windows dll
    names: three digits are major and minor, two are 9.2 below 10 and a major from 10 on)."""
    if "." in text:
        major, minor = text.split(".")[:2]
        return int(major), int(minor)
    if len(text) == 3:
        return int(text[:2]), int(text[2])
    if len(text) == 2 and not text.startswith("1"):
        return int(text[0]), int(text[1])
    return int(text), 0


def _older(release: Release, need: tuple[int, int]) -> bool:
    """Whether the runtime predates `need`; an 11.x runtime only when `need` is 12 or later."""
    major, minor = release
    if minor is None:
        return major < need[0]
    return (major, minor) < need


def _runtime(evidence: Evidence) -> tuple[Release, Said] | None:
    for said in statements(evidence, *_RUNTIME_WORDS):
        if (match := _RUNTIME.search(said.text)) is not None:
            return _version(match), said
    return None


def needed_cuda(capability: tuple[int, int]) -> tuple[int, int] | None:
    """The first CUDA release for `capability`; None below the table (older than Volta)."""
    return next((cuda for cc, cuda in MIN_CUDA if cc <= capability), None)


def _finding(device: Device, cuda: Release, said: Said, need: tuple[int, int]) -> Finding:
    have = ".".join(map(str, device.capability))
    runtime = f"{cuda[0]}.{'x' if cuda[1] is None else cuda[1]}"
    needed = ".".join(map(str, need))
    return Finding(
        id=FINDING_ID,
        title=f"The run's CUDA runtime {runtime} predates its GPU ({device.name}, "
        f"{device.architecture}, compute capability {have}): that architecture needs CUDA "
        f"{needed} or newer",
        summary=f"CUDA {runtime} named in {said.where}; {device.name} in {device.said.where}",
        evidence=(said.ref, device.said.ref),
        values={
            "gpu": device.name,
            "capability": have,
            "cuda": runtime,
            "needed": needed,
        },
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """One finding when the GPU named and the CUDA runtime loaded cannot work together."""
    device = named_device(evidence)
    if device is None:
        return []
    need = needed_cuda(device.capability)
    runtime = _runtime(evidence)
    if need is None or runtime is None or not _older(runtime[0], need):
        return []
    return [_finding(device, runtime[0], runtime[1], need)]
