"""Machine facts from captured output: nvidia-smi, nvcc --version, collect_env.

Each fact keeps the line it came from, so a conflict can say where the driver
or CUDA version it compares was read.
"""

from __future__ import annotations

import re

# fact key -> regexes whose first group is the value
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("driver", re.compile(r"NVIDIA-SMI\s+\S+\s+Driver Version:\s*([\d.]+)")),
    ("driver_cuda", re.compile(r"Driver Version:\s*[\d.]+\s+CUDA Version:\s*(\d+\.\d+)")),
    ("driver", re.compile(r"^Nvidia driver version:\s*([\d.]+)", re.I)),
    ("driver", re.compile(r"^driver_version\s*[:=]\s*([\d.]+)", re.I)),
    ("nvcc_cuda", re.compile(r"Cuda compilation tools, release (\d+\.\d+)")),
    ("system_cuda", re.compile(r"^CUDA runtime version:\s*(\d+\.\d+(?:\.\d+)?)")),
    ("torch_cuda", re.compile(r"^CUDA used to build PyTorch:\s*(\d+\.\d+)")),
    ("torch", re.compile(r"^PyTorch version:\s*(\d[\w.+-]*)")),
    ("python", re.compile(r"^Python version:\s*(\d+\.\d+(?:\.\d+)?)")),
    ("platform", re.compile(r"^(?:OS|Platform):\s*(.+?)\s*$")),
    ("cudnn", re.compile(r"^cuDNN version:\s*(?:Probably one of the following:\s*)?(.*\d.*)$")),
    ("gpu", re.compile(r"^GPU 0:\s*(.+?)\s*$")),
    ("gpu", re.compile(r"^GPU models and configuration:\s*(?:GPU 0:\s*)?(\S.+?)\s*$")),
    ("gpu", re.compile(r"^\|\s+0\s+(.+?)\s{2,}(?:On|Off)\s+\|")),
    ("cuda_available", re.compile(r"^Is CUDA available:\s*(True|False)")),
)
_NOT_A_VALUE = {"n/a", "none", "could not collect", "no cuda", ""}


def read_facts(lines: list[str], source: str) -> tuple[dict[str, str], dict[str, str]]:
    """(facts, origins) from every line that states one; the first statement wins."""
    values: dict[str, str] = {}
    origins: dict[str, str] = {}
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        for key, pattern in _PATTERNS:
            if key in values:
                continue
            match = pattern.search(line)
            if match and match.group(1).strip().lower() not in _NOT_A_VALUE:
                values[key] = match.group(1).strip()
                origins[key] = f"{source}:{number}"
    return values, origins


def cuda_from_variant(variant: str | None) -> str | None:
    """`cu121` -> `12.1`, `cu118` -> `11.8`, `cu102` -> `10.2`; None for cpu/rocm."""
    if not variant or not variant.startswith("cu"):
        return None
    digits = variant[2:]
    if not digits.isdigit() or len(digits) < 3:
        return None
    return f"{int(digits[:-1])}.{digits[-1]}"


def variant_from_cuda(cuda: str) -> str:
    """`12.1` -> `cu121`: the tag of PyTorch's wheel index for that CUDA."""
    major, _, minor = cuda.partition(".")
    return f"cu{major}{minor.split('.')[0] or '0'}"


def cuda_from_conda_build(build: str | None) -> str | None:
    """The CUDA of a conda build string: `py3.10_cuda12.1_cudnn8.9.2_0` -> 12.1, `cuda90` -> 9.0."""
    match = re.search(r"cuda(\d+\.\d+)", build or "")
    if match:
        return match.group(1)
    packed = re.search(r"cuda(\d{2,3})(?:_|$)", build or "")  # older builds: cuda90, cuda101
    return f"{packed.group(1)[:-1]}.{packed.group(1)[-1]}" if packed else None
