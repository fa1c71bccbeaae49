"""The hardware the run used: CUDA, ROCm, Apple MPS, TPU, or CPU only."""

from __future__ import annotations

import re

from trainwreck.context.scan import Texts
from trainwreck.model import Evidence, Hardware

# First match wins: a ROCm build prints "cuda" too, and an MPS run mentions no CUDA.
_HARDWARE_WORDS: tuple[tuple[Hardware, re.Pattern[str]], ...] = (
    (
        "rocm",
        re.compile(
            # not collect_env's "ROCM used to build PyTorch: N/A", printed on every CUDA machine
            r"\brocm\b(?! used to build \w+: n/a)|\bhip\w*error|\bamdgpu\b|\bMI[123]\d{2}X?\b|"
            r"\bgfx9\d\w\b",
            re.I,
        ),
    ),
    ("mps", re.compile(r"\bmps\b|apple (?:silicon|m[1-4])|metal performance", re.I)),
    # not JAX's "No GPU/TPU found, falling back to CPU.", which names both only to deny them
    ("tpu", re.compile(r"(?<!gpu/)\btpu\b|libtpu|torch_xla", re.I)),
    (
        "cuda",
        re.compile(
            r"\bcuda\b|nvidia|\b(?:[AHLBV]\d{2,3}|RTX ?\d{4}|GTX ?\d{3,4}|T4|A10G?|L40S?)\b|nccl|"
            # torch's OutOfMemoryError is the CUDA caching allocator's (the host one raises
            # RuntimeError "DefaultCPUAllocator: can't allocate memory")
            r"\bOutOfMemoryError\b",
            re.I,
        ),
    ),
    ("cpu", re.compile(r"cpu[- ]only|on (?:the )?cpu\b|device='cpu'|device=\"cpu\"|\+cpu\b")),
)


def hardware_of(evidence: Evidence) -> Hardware | None:
    """The accelerator the evidence names, or None when it names none."""
    texts = [evidence.setup.gpu_name or "", evidence.symptoms or ""]
    texts += [line.text for line in evidence.lines]
    texts += [f"{exc.type}: {exc.message}" for exc in evidence.exceptions]
    texts += [f"{name} {version}" for name, version in evidence.environment.items()]
    searched = Texts(texts)
    return next(
        (kind for kind, words in _HARDWARE_WORDS if searched.first(words) is not None), None
    )
