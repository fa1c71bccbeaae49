"""Read environment listings: pip list/freeze, conda list, collect_env, nvidia-smi.

The parsing itself lives in `trainwreck.env.listings` (shared with `trainwreck env`);
this module adapts it to the evidence pipeline and reads framework banners in logs.

Versions decide which bugs apply and which config keys exist, so every package
version found is recorded under its normalised name (PEP 503).
"""

from __future__ import annotations

import re

from trainwreck.env.listings import parse_listing as read_env_listing
from trainwreck.limits import MAX_VERSION_CHARS

_VERSION = rf"[0-9][0-9A-Za-z.+!\-_]{{0,{MAX_VERSION_CHARS - 1}}}"
_BANNER = (
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
    """Versions a framework prints about itself in a log line."""
    found: dict[str, str] = {}
    for pattern, package in _BANNER:
        match = pattern.search(text)
        if match:
            found[package] = match.group(1).rstrip(".,")
    return found
