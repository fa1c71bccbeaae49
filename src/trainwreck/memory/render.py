"""The memory estimate as a Markdown table or as JSON (Arithmetic from the report contract)."""

from __future__ import annotations

import json

from trainwreck.memory import Estimate
from trainwreck.memory.budget import gib, size_text
from trainwreck.memory.exact import STEPS


def _amount(value: object, unit: str | None) -> str:
    if unit == "bytes" and isinstance(value, int):
        return size_text(value)
    return f"{value:,}" if isinstance(value, int) else str(value)


def markdown(result: Estimate) -> str:
    """A table per budget line: term, formula, amount, where the inputs came from."""
    shape = result.shape
    out = [
        f"## {result.budget.title}: {result.model}",
        "",
        f"{shape.family}: {shape.params:,} parameters in {shape.tensors:,} tensors, "
        f"{shape.layers} layers, hidden {shape.hidden}, {shape.heads} heads "
        f"({shape.kv_heads} KV heads × head_dim {shape.head_dim}), vocab {shape.vocab:,}.",
        "",
        "| term | formula | amount | inputs from |",
        "|---|---|---|---|",
    ]
    for line in result.budget.lines:
        out.append(
            f"| {line.label} | {line.formula} | {_amount(line.value, line.unit)} | {line.source} |"
        )
    out += ["", f"**Result:** {result.budget.result}"]
    if result.gpu is not None:
        out.append(
            f"\nGPU: {result.gpu.name}, capacity {gib(result.gpu.capacity)}: "
            f"{result.gpu.capacity_source}."
        )
    assumed = sorted(v for v in result.config.origins.values() if v.startswith("[assumed]"))
    if assumed:
        out += ["", "Config values not in config.json (architecture defaults):"]
        out += [
            f"- {key}: {origin}"
            for key, origin in sorted(result.config.origins.items())
            if origin.startswith("[assumed]")
        ]
    if result.measured is not None:
        exact = result.measured
        closed = int(result.budget.lines[-1].value)
        parts = ", ".join(
            f"{name.lower()} {gib(size)}"
            for name, size in exact.categories.items()
            if name != "Total" and size
        )
        out += [
            "",
            f"**Exact mode** (the real architecture on fake tensors, {STEPS} optimizer steps, "
            f"torch MemTracker): peak {gib(exact.peak)} ({parts}); closed form / exact = "
            f"{closed / exact.peak:.3f} (the closed form includes the CUDA context).",
        ]
    if result.fixes:
        out += [
            "",
            "### Changes, each recomputed",
            "",
            "| change | total per GPU | fits |",
            "|---|---|---|",
        ]
        for fix in result.fixes:
            changed = ", ".join(f"{k}: {a!r} → {b!r}" for k, (a, b) in fix.changes.items())
            out.append(
                f"| {fix.action} ({changed}) | {gib(fix.total)} | {'yes' if fix.fits else 'no'} |"
            )
    return "\n".join(out) + "\n"


def as_json(result: Estimate) -> str:
    shape = result.shape
    data = {
        "model": result.model,
        "architecture": {
            "family": shape.family, "params": shape.params, "tensors": shape.tensors,
            "layers": shape.layers, "hidden": shape.hidden, "heads": shape.heads,
            "kv_heads": shape.kv_heads, "head_dim": shape.head_dim, "vocab": shape.vocab,
        },
        "config_origins": result.config.origins,
        "arithmetic": result.budget.model_dump(mode="json"),
        "gpu": None if result.gpu is None else {
            "name": result.gpu.name, "count": result.gpus, "capacity_bytes": result.gpu.capacity,
            "capacity_source": result.gpu.capacity_source,
        },
        "fits": result.fits,
        "exact": None if result.measured is None else result.measured.categories,
        "fixes": [
            {"action": fix.action, "total_bytes": fix.total, "fits": fix.fits,
             "changes": {k: {"before": a, "after": b} for k, (a, b) in fix.changes.items()}}
            for fix in result.fixes
        ],
    }  # fmt: skip
    return json.dumps(data, indent=2) + "\n"
