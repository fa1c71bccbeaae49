"""Memory sizes as printed by PyTorch and friends ("20.00 MiB", "1.2 GB", "0 bytes")."""

from __future__ import annotations

import re

_FACTORS = {
    "b": 1,
    "bytes": 1,
    "kib": 2**10,
    "mib": 2**20,
    "gib": 2**30,
    "tib": 2**40,
    "kb": 10**3,
    "mb": 10**6,
    "gb": 10**9,
    "tb": 10**12,
}
# A number starts where no digit precedes it and is at most 32 characters ("388.00"):
# unbounded, a search over a run of thousands of digits with no unit after it retries
# from every digit, quadratic (seconds per line, found by benchmarks/fuzz.py).
SIZE = r"(?<![\d.])[\d.]{1,32}\s*(?:[KMGT]i?B|bytes|B)"
_SIZE_PARTS = re.compile(r"([\d.]{1,32})\s*([KMGT]i?B|bytes|B)", re.IGNORECASE)


def to_bytes(text: str) -> int | None:
    """Bytes in a printed size, or None when it does not parse."""
    match = _SIZE_PARTS.fullmatch(text.strip())
    if not match:
        return None
    try:
        return int(float(match.group(1)) * _FACTORS[match.group(2).lower()])
    except (ValueError, OverflowError):  # "1.2.3 GiB"; 400 digits make an infinite float
        return None


def gib(n_bytes: int | float) -> float:
    """Bytes as GiB, rounded for display."""
    return round(n_bytes / 2**30, 2)
