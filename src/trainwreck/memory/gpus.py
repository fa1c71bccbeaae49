"""GPU specs as data (src/trainwreck/memory/gpus.yaml), each row with its source."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from trainwreck.errors import UsageError

GPUS_FILE = Path(__file__).parent / "gpus.yaml"


@dataclass(frozen=True)
class Gpu:
    name: str
    memory_gb: float
    capacity: int  # bytes the run can see: what torch reports when known, else the marketed size
    capacity_source: str
    source: str
    aliases: tuple[str, ...] = ()


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


@cache
def catalogue() -> dict[str, Gpu]:
    """Every GPU by normalised name and alias."""
    rows = yaml.safe_load(GPUS_FILE.read_text(encoding="utf-8")) or []
    found: dict[str, Gpu] = {}
    for row in rows:
        if row.get("torch_total_gib"):
            capacity = int(float(row["torch_total_gib"]) * 2**30)
            origin = f"torch reports {row['torch_total_gib']} GiB ({row.get('torch_total_source')})"
        else:
            capacity = int(float(row["memory_gb"]) * 10**9)
            origin = f"[assumed] the marketed {row['memory_gb']} GB ({row['source']})"
        gpu = Gpu(
            row["name"], row["memory_gb"], capacity, origin, row["source"],
            tuple(row.get("aliases") or ()),
        )  # fmt: skip
        for name in (gpu.name, *gpu.aliases):
            found[_key(name)] = gpu
    return found


def parse_gpus(text: str) -> tuple[int, Gpu]:
    """`4xA100-80GB` or `H100` into (count, spec); unknown names list the known ones."""
    match = re.fullmatch(r"(?:(\d+)\s*[x×*]\s*)?(.+)", text.strip())
    count = int(match.group(1)) if match and match.group(1) else 1
    name = match.group(2) if match else text
    gpu = catalogue().get(_key(name))
    if gpu is None:
        known = sorted({g.name for g in catalogue().values()})
        raise UsageError(f"--gpus {text}: unknown GPU {name!r} (known: {', '.join(known)})")
    if count < 1:
        raise UsageError(f"--gpus {text}: the GPU count must be at least 1")
    return count, gpu
