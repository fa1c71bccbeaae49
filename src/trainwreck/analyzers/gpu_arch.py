"""A number format the run asks for that its GPU's architecture has no hardware for.

bfloat16 tensor cores arrived with Ampere (compute capability 8.0) and FP8 ones with
Ada and Hopper (8.9 and 9.0). A recipe written on an A100 or H100 and run on a V100,
a T4 or an RTX 3090 either crawls (bf16 emulated at fp32 speed) or stops at a
library's capability check (FP8). The GPU is named in a start-up banner, an
nvidia-smi table or the user's words; the format in a config, the code, a log line
or the description. Both together make the finding, with the capability and where
each was said.

Compute capabilities: NVIDIA's tables at https://developer.nvidia.com/cuda-gpus
(Ampere and newer) and https://developer.nvidia.com/cuda-legacy-gpus (Volta and older).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from trainwreck.analyzers.said import Said, statements
from trainwreck.model import Evidence, Finding

BF16_FINDING = "gpu.bf16_without_native_support"
FP8_FINDING = "gpu.fp8_without_native_support"
FINDING_IDS: tuple[str, ...] = (BF16_FINDING, FP8_FINDING)

# The first compute capability with the format in hardware: bf16 tensor cores from Ampere
# (8.0, the A100), FP8 from Ada (8.9, the L4/RTX 4090) and Hopper (9.0); the KB pages
# bf16-on-gpu-without-native-bf16 and fp8-needs-ada-or-hopper cite the vendors' statements.
BF16_MIN_CAPABILITY = (8, 0)
FP8_MIN_CAPABILITY = (8, 9)

# GPU names by compute capability, from NVIDIA's two tables (module docstring). Names that
# are common words or part numbers elsewhere (A2, A16, L4 alone) need NVIDIA before them.
_GPUS: tuple[tuple[tuple[int, int], str, str], ...] = (
    ((12, 0), "Blackwell", r"\bRTX ?50[5-9]0(?: ?Ti)?\b|RTX PRO \d000 Blackwell"),
    ((10, 0), "Blackwell", r"\bG?B200\b"),
    ((9, 0), "Hopper", r"\bG?H[12]00\b"),
    ((8, 9), "Ada", r"\bL40S?\b|NVIDIA L4\b|\bRTX ?40[5-9]0(?: ?Ti)?\b|\bRTX \d000 Ada\b"),
    ((8, 6), "Ampere", r"\bA40\b|\bA10\b|NVIDIA A(?:16|2)\b|\bRTX A[2-6]000\b|\bRTX ?30[5-9]0"),
    ((8, 0), "Ampere", r"\bA100\b|\bA30\b"),
    ((7, 5), "Turing", r"\bT4\b|\bRTX ?20[6-8]0|\bQuadro RTX [4-8]000\b|\bTITAN RTX\b|\bT[46]00\b"),
    ((7, 0), "Volta", r"\bG?V100\b|\bTITAN V\b"),
    ((6, 1), "Pascal", r"\bP40\b|\bTesla P4\b|\bGTX ?10[5-8]0|\bTITAN Xp?\b"),
    ((6, 0), "Pascal", r"\bG?P100\b"),
)
_GPU_NAME = re.compile("|".join(f"(?P<g{n}>{regex})" for n, (_, _, regex) in enumerate(_GPUS)))
# Words one of the names above holds: a substring test before any regex runs on a line.
_NAME_WORDS = ("RTX", "GTX", "TITAN", "NVIDIA", "Tesla", "A100", "A30", "A40", "A10", "T4", "V100",
               "P40", "P100", "H100", "H200", "B200", "L40", "T400", "T600")  # fmt: skip
# The device's own capability as nvidia-smi (`compute_cap`), TensorFlow's device banner
# (`computeCapability: 8.6`) or a user states it; not a requirement ("compute capability 8.9
# or higher required").
_CAPABILITY = re.compile(
    r"(?i)\bcompute[_ ]?cap(?:ability)?\W{0,3}(?P<major>\d{1,2})\.(?P<minor>\d)\b"
    r"(?! ?(?:or (?:higher|above|newer|later)|\+|(?:is )?(?:required|needed)))"
)
_BF16 = re.compile(r"(?i)\bbf16\b|bfloat16")
_FP8 = re.compile(r"(?i)\bfp8|float8|\be4m3|\be5m2")
KEEP: tuple[str, ...] = (r"(?i)compute[_ ]?cap\w*\W{0,3}\d+\.\d",)


@dataclass(frozen=True)
class Device:
    """The GPU the evidence names, its compute capability and where it was said."""

    name: str
    capability: tuple[int, int]
    architecture: str
    said: Said


def named_device(evidence: Evidence) -> Device | None:
    """The first GPU named, with a stated capability taking the table's place (it is exact)."""
    named = next(
        (
            (match, said)
            for said in statements(evidence, *_NAME_WORDS)
            if (match := _GPU_NAME.search(said.text)) is not None
        ),
        None,
    )
    for said in statements(evidence, "ompute"):
        if (stated := _CAPABILITY.search(said.text)) is not None:
            capability = (int(stated["major"]), int(stated["minor"]))
            name = named[0].group(0) if named else "the GPU"
            return Device(name, capability, _architecture(capability), said)
    if named is None:
        return None
    match, said = named
    capability, architecture, _ = _GPUS[int(str(match.lastgroup)[1:])]
    return Device(match.group(0), capability, architecture, said)


def _architecture(capability: tuple[int, int]) -> str:
    return next((arch for cc, arch, _ in _GPUS if cc <= capability), "pre-Pascal")


def _format_said(evidence: Evidence, regex: re.Pattern[str]) -> str | None:
    """Where the run asks for the format: a config's precision, a log line, the code, or the
    description."""
    if evidence.setup.precision and regex.search(evidence.setup.precision):
        return "the run's config"
    for said in statements(evidence):
        if regex.search(said.text):
            return said.where
    for snippet in evidence.code:
        if regex.search(snippet.text):
            return snippet.source
    return None


def _finding(
    finding_id: str, dtype: str, needed: tuple[int, int], device: Device, where: str
) -> Finding:
    have = ".".join(map(str, device.capability))
    need = ".".join(map(str, needed))
    title = (
        f"The run uses {dtype}, but its GPU ({device.name}, {device.architecture}, compute "
        f"capability {have}) has no {dtype} tensor cores: they need compute capability {need}"
    )
    return Finding(
        id=finding_id,
        title=title,
        summary=f"{dtype} named in {where}; {device.name} named in {device.said.where}",
        evidence=(device.said.ref,),
        values={
            "gpu": device.name,
            "architecture": device.architecture,
            "capability": have,
            "needed": need,
            "number_format": dtype,
            "format_said": where,
        },
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """A finding per format (bf16, FP8) the run uses that its named GPU cannot run natively."""
    device = named_device(evidence)
    if device is None:
        return []
    findings = []
    for finding_id, dtype, regex, needed in (
        (BF16_FINDING, "bf16", _BF16, BF16_MIN_CAPABILITY),
        (FP8_FINDING, "FP8", _FP8, FP8_MIN_CAPABILITY),
    ):
        if device.capability < needed and (where := _format_said(evidence, regex)) is not None:
            findings.append(_finding(finding_id, dtype, needed, device, where))
    return findings
