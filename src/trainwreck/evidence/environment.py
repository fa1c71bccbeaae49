"""Read environment listings: pip list/freeze, conda list, collect_env, nvidia-smi.

Versions decide which bugs apply and which config keys exist, so every package
version found is recorded under its normalised name (PEP 503).
"""

from __future__ import annotations

import re

_NAME = r"[A-Za-z0-9][A-Za-z0-9._\-]*"
_VERSION = r"[0-9][0-9A-Za-z.+!\-_]*"
_FREEZE = re.compile(rf"^({_NAME})\s*(?:===?)\s*({_VERSION})\s*$")
_COLUMNS = re.compile(rf"^({_NAME})\s+({_VERSION})(?:\s+\S+)*\s*$")
_COLLECT_ENV = re.compile(rf"^\[(?:pip3?|conda)\]\s+({_NAME})\s*(?:==|\s)\s*({_VERSION})")
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
_SKIP_WORDS = {"package", "name", "#", "---------", "python", "cuda"}


def normalise(name: str) -> str:
    """PEP 503 name: lowercase, runs of -_. become one dash."""
    return re.sub(r"[-_.]+", "-", name).lower()


def parse_listing(text: str) -> dict[str, str]:
    """{package: version} from pip list/freeze, conda list or collect_env output."""
    found: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", "-", "=")):
            continue
        match = _FREEZE.match(line) or _COLLECT_ENV.match(line) or _COLUMNS.match(line)
        if match and match.group(1).lower() not in _SKIP_WORDS:
            found.setdefault(normalise(match.group(1)), match.group(2))
    return found


def banner_versions(text: str) -> dict[str, str]:
    """Versions a framework prints about itself in a log line."""
    found: dict[str, str] = {}
    for pattern, package in _BANNER:
        match = pattern.search(text)
        if match:
            found[package] = match.group(1).rstrip(".,")
    return found
