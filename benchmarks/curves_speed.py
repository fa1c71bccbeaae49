"""Curve reading and analysis speed on a 1,000,000-step, 5-metric JSONL history.

Writes the history (loss, grad_norm, learning_rate, epoch, eval_loss every 1000
steps; a NaN and a few spikes planted) to a temporary file, then times:
  - plain loads: one `json.loads` per line, one over the file joined into one JSON
    array, and `orjson.loads` of that array (NaN literals quoted first, as orjson
    refuses them) when orjson is installed, both with every literal quoted and with
    only the tail from the first one on (`curves.jsonload.loads_lines`, the fastest);
  - trainwreck: `curves.readers.read_text` (text -> NumPy table) + `curves.detect.detect`.
Prints wall and CPU seconds (CPU time is the steadier figure on a shared machine) and
the ratio of trainwreck's total to the fastest plain load.
Target: under 3 s in total. Usage: python benchmarks/curves_speed.py [--steps N]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import tempfile
import time
from pathlib import Path

import numpy as np

from trainwreck.curves.detect import detect
from trainwreck.curves.jsonload import loads_lines
from trainwreck.curves.readers import read_text


def write_history(path: Path, steps: int) -> None:
    rng = np.random.default_rng(0)
    t = np.arange(1, steps + 1)
    loss = (1.5 + 3 * np.exp(-t / (steps / 10))) * np.exp(rng.normal(0, 0.03, steps))
    loss[rng.integers(steps // 10, steps, 5)] *= 5
    loss[int(steps * 0.9) :] = math.nan
    grad = np.exp(rng.normal(0, 0.1, steps))
    lr = np.minimum(t / 2000, 1.0) * 3e-4
    with path.open("w") as handle:
        for i in range(steps):
            row = {"step": int(t[i]), "loss": float(loss[i]), "grad_norm": float(grad[i])}
            row |= {"learning_rate": float(lr[i]), "epoch": round(float(t[i]) / 50_000, 5)}
            if t[i] % 1000 == 0:
                row["eval_loss"] = (
                    float(loss[i - 10] * 1.05) if math.isfinite(loss[i]) else math.nan
                )
            handle.write(json.dumps(row) + "\n")


def timed(label: str, work: object) -> float:
    """Run `work`, print its wall and CPU seconds, return the wall seconds."""
    started, cpu = time.perf_counter(), time.process_time()
    work()  # type: ignore[operator]
    seconds = time.perf_counter() - started
    print(f"{label:<60} {seconds:6.2f} s wall {time.process_time() - cpu:6.2f} s cpu")
    return seconds


def orjson_load(text: str) -> object:
    import orjson

    quoted = text.replace("NaN", '"nan"').replace("Infinity", '"inf"')
    return orjson.loads("[" + ",".join(quoted.splitlines()) + "]")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "metrics.jsonl"
        write_history(path, args.steps)
        print(f"{args.steps:,} steps, {path.stat().st_size / 2**20:.0f} MiB")
        text = path.read_text()
        array = timed(
            "plain load: json.loads of the file as one array",
            lambda: json.loads("[" + ",".join(text.splitlines()) + "]"),
        )
        per_line = timed(
            "plain load: json.loads per line",
            lambda: [json.loads(line) for line in text.splitlines()],
        )
        loads = [array, per_line]
        if importlib.util.find_spec("orjson") is not None:
            loads.append(
                timed(
                    "plain load: orjson.loads of the file as one array", lambda: orjson_load(text)
                )
            )
            loads.append(
                timed(
                    "plain load: orjson, NaN tail quoted (jsonload.loads_lines)",
                    lambda: loads_lines(text),
                )
            )
        fastest = min(loads)
        found: list[object] = []
        read = timed(
            "trainwreck: file read + curves.readers.read_text",
            lambda: found.append(read_text(str(path), path.read_text())),
        )
        table = found[0]
        findings: list[object] = []
        analysed = timed(
            "trainwreck: curves.detect.detect (all detectors)",
            lambda: findings.extend(detect(table)),
        )  # type: ignore[arg-type]
    total = read + analysed
    print(
        f"{'trainwreck total':<60} {total:6.2f} s  ({total / fastest:.2f}x the fastest plain load)"
    )
    print("findings:", ", ".join(sorted({f.id for f in findings})))  # type: ignore[attr-defined]
    return 0 if total < 3.0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
