"""GPU specs as data (src/trainwreck/memory/gpus.yaml), each row with its source."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

from trainwreck.errors import UsageError
from trainwreck.tables import read_yaml

GPUS_FILE = Path(__file__).parent / "gpus.yaml"


@dataclass(frozen=True)
class Gpu:
    name: str
    memory_gb: float
    capacity: int  # bytes the run can see: what torch reports when known, else the marketed size
    capacity_source: str
    source: str
    aliases: tuple[str, ...] = ()
    tflops: tuple[tuple[str, float | None], ...] = ()  # (dtype, dense peak) as gpus.yaml rows

    def peak_tflops(self, dtype: str) -> float | None:
        """The dense peak at `dtype` (bf16, fp16, tf32, fp32); None: unsupported or ungrounded."""
        return dict(self.tflops).get(dtype)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _gpu(row: dict[str, Any]) -> Gpu:
    if row.get("torch_total_gib"):
        capacity = int(float(row["torch_total_gib"]) * 2**30)
        origin = f"torch reports {row['torch_total_gib']} GiB ({row.get('torch_total_source')})"
    else:
        capacity = int(float(row["memory_gb"]) * 10**9)
        origin = f"[assumed] the marketed {row['memory_gb']} GB ({row['source']})"
    return Gpu(
        row["name"], row["memory_gb"], capacity, origin, row["source"],
        tuple(row.get("aliases") or ()),
        tuple((key.removesuffix("_tflops"), row[key]) for key in row if key.endswith("_tflops")),
    )  # fmt: skip


@cache
def _rows() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = read_yaml(GPUS_FILE) or []
    return data


@cache
def catalogue() -> dict[str, Gpu]:
    """Every GPU by normalised name and alias."""
    found: dict[str, Gpu] = {}
    for row in _rows():
        gpu = _gpu(row)
        for name in (gpu.name, *gpu.aliases):
            found[_key(name)] = gpu
    return found


@cache
def _short_names() -> dict[str, Gpu]:
    """Short names with several variants (`H100`) -> the variant assumed (`assumed_for`)."""
    return {_key(short): _gpu(row) for row in _rows() for short in row.get("assumed_for") or ()}


def _assumed(written: str, gpu: Gpu) -> Gpu:
    """`gpu` with its capacity source saying which variant `written` was read as."""
    family = _key(written)
    others = sorted({g.name for g in catalogue().values() if _key(g.name).startswith(family)})
    others.remove(gpu.name)
    said = (
        f"[assumed] {written!r} read as {gpu.name} (other variants: {', '.join(others)}; "
        f"name one in --gpus to use it); {gpu.capacity_source}"
    )
    return replace(gpu, capacity_source=said)


def resolve_gpu(name: str) -> Gpu | None:
    """A GPU by its name, an alias, or a short name (`H100`, the assumed variant said)."""
    gpu = catalogue().get(_key(name))
    if gpu is None and _key(name) in _short_names():
        return _assumed(name.strip(), _short_names()[_key(name)])
    return gpu


def parse_gpus(text: str) -> tuple[int, Gpu]:
    """`4xA100-80GB`, `3xH100` or `H100` into (count, spec); unknown names list the known ones."""
    match = re.fullmatch(r"(?:(\d+)\s*[x×*]\s*)?(.+)", text.strip())
    count = int(match.group(1)) if match and match.group(1) else 1
    name = match.group(2) if match else text
    gpu = resolve_gpu(name)
    if gpu is None:
        known = sorted({g.name for g in catalogue().values()})
        raise UsageError(f"--gpus {text}: unknown GPU {name!r} (known: {', '.join(known)})")
    if count < 1:
        raise UsageError(f"--gpus {text}: the GPU count must be at least 1")
    return count, gpu
