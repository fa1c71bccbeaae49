"""Read environment listings: pip list/freeze, conda list, collect_env, nvidia-smi.

The parsing itself lives in `trainwreck.env.listings` (shared with `trainwreck env`);
this module adapts it to the evidence pipeline and reads framework banners in logs.

Versions decide which bugs apply and which config keys exist, so every package
version found is recorded under its normalised name (PEP 503).
"""

from __future__ import annotations

import re

from trainwreck.env.listings import parse_listing as read_env_listing
from trainwreck.evidence.setup import ML_PACKAGES
from trainwreck.limits import MAX_VERSION_CHARS

# Package names as logs spell them: flash-attn, flash_attn, pytorch (for torch).
ML_NAMES = "|".join(
    sorted(
        {re.escape(n).replace("\\-", "[-_]") for n in (*ML_PACKAGES, "pytorch", "python")},
        key=len,
        reverse=True,
    )
)
_VERSION = rf"[0-9][0-9A-Za-z.+!\-_]{{0,{MAX_VERSION_CHARS - 1}}}"
_NAME = r"[A-Za-z][A-Za-z0-9_.\-]{0,80}"
# (pattern, package): the package is fixed, or None when group 1 names it and group 2 is the
# version. Each states the version that is installed, never one required or discussed.
_BANNER: tuple[tuple[re.Pattern[str], str | None], ...] = (
    (re.compile(r"PyTorch version:\s*(" + _VERSION + ")"), "torch"),
    (re.compile(r"DeepSpeed info: version=(" + _VERSION + ")"), "deepspeed"),
    (re.compile(r"\bds_version\b\W+(" + _VERSION + ")"), "deepspeed"),
    (re.compile(r"vLLM API server version (" + _VERSION + ")"), "vllm"),
    (
        re.compile(r"Initializing (?:a V1 LLM engine|an LLM engine) \(v(" + _VERSION + r")\)"),
        "vllm",
    ),
    (re.compile(r"transformers version[:=\s]+(" + _VERSION + ")", re.I), "transformers"),
    (re.compile(r"torch version[:=\s]+(" + _VERSION + ")", re.I), "torch"),
    # NumPy's ABI banner: "... cannot be run in\nNumPy 2.1.2 as it may crash."
    (re.compile(r"\bNumPy (" + _VERSION + ") as it may crash"), "numpy"),
    # xFormers: "PyTorch 2.10.0+cu128 with CUDA 1208 (you have 2.11.0+cu130)"
    (re.compile(r"PyTorch \S+ with CUDA \S+ \(you have (" + _VERSION + r")\)"), "torch"),
    # pip's resolver: "x 1.0 requires torch>=2.1, but you have torch 2.0.1 which is incompatible."
    (re.compile(rf"but you have ({_NAME}) ({_VERSION}) which is incompatible"), None),
)
_PIP_INSTALLED = re.compile(r"^\s*Successfully installed ((?:\S+-[0-9]\S*\s*)+)$")
# A line that is nothing but "name version" pairs ("torch: 2.3.0", "python 3.8.12
# transformers 4.27.1 deepspeed 0.7.7"): a version printout. Prose never is only that.
_PRINTED = re.compile(
    rf"({ML_NAMES})\s*(?:[:=]{{1,2}}|\s)\s*v?([0-9]+\.[0-9]+[0-9A-Za-z.+\-]*?)[,;]?(?=\s|$)",
    re.I,
)


def normalise(name: str) -> str:
    """PEP 503 name: lowercase, runs of -_. become one dash."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_listing(text: str) -> dict[str, str]:
    """{package: version} from any listing `trainwreck.env` reads (pip, conda, uv, collect_env)."""
    env = read_env_listing(text)
    return {name: p.version for name, p in env.packages.items() if p.version is not None}


def listing_facts(text: str, source: str = "<listing>") -> dict[str, str]:
    """Machine facts a listing states: driver, driver_cuda, torch_cuda, python, nvcc_cuda, gpu."""
    return dict(read_env_listing(text, source).facts.values)


def banner_versions(text: str) -> dict[str, str]:
    """Versions a log line says are installed: a framework's banner, pip's words, a printout."""
    found: dict[str, str] = {}
    for pattern, package in _BANNER:
        match = pattern.search(text)
        if match:
            name, version = (package, match.group(1)) if package else match.group(1, 2)
            found[_canonical(name)] = version.rstrip(".,")
    installed = _PIP_INSTALLED.match(text)
    if installed:
        for token in installed.group(1).split():
            name, _, version = token.rpartition("-")
            found.setdefault(_canonical(name), version)
    pairs = list(_PRINTED.finditer(text))
    if pairs and not _PRINTED.sub("", text).strip(" \t,;|"):
        for pair in pairs:
            found.setdefault(_canonical(pair.group(1)), pair.group(2))
    return found


def _canonical(name: str) -> str:
    return "torch" if name.lower() == "pytorch" else normalise(name)
