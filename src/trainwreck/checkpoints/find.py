"""Find the checkpoints under a directory, which framework wrote each, and its step.

HF Trainer saves `checkpoint-<global_step>/` folders (PREFIX_CHECKPOINT_DIR,
https://github.com/huggingface/transformers/blob/v5.24.0/src/transformers/trainer_utils.py#L266)
holding the weights (`model.safetensors` or `pytorch_model.bin`, sharded or not), the
optimizer state (`optimizer.pt`) and `trainer_state.json` with `global_step` and
`log_history` (names at .../trainer.py#L246-L247 and .../utils/__init__.py#L290-L292 of the
same tag). Lightning saves `*.ckpt` (`epoch=E-step=S.ckpt` by default); anything else is a
plain `*.pt`/`*.pth`/`*.safetensors` file, its step read from its name.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

from trainwreck.checkpoints.model import Framework
from trainwreck.limits import MAX_METRICS_JSON_BYTES

# Checkpoints examined per directory: a run that kept one every 500 steps for 500k steps;
# past that the listing, not the check, would be the answer's bottleneck.
MAX_CHECKPOINTS = 1000
HF_FOLDER = re.compile(r"^checkpoint-(\d+)$")
TRAINER_STATE = "trainer_state.json"
_HF_WEIGHTS = re.compile(r"^(?:.*\.safetensors|pytorch_model(?:-\d+-of-\d+)?\.bin|optimizer\.pt)$")
_PLAIN_SUFFIXES = (".safetensors", ".pt", ".pth", ".ckpt")
# Files beside the weights that are not weights: RNG and scheduler state, and
# `training_args.bin`, a pickle of arguments that must never be unpickled.
_NOT_WEIGHTS = re.compile(r"^(?:rng_state.*|scheduler\.pt|training_args\.bin|.*\.index\.json)$")
_STEP_IN_NAME = (
    re.compile(r"step=(\d+)"),  # Lightning's default file name
    re.compile(r"(?:global_step|step|iter|iteration|checkpoint|ckpt)[-_]?(\d+)", re.I),
    re.compile(r"[-_](\d+)$"),
)


@dataclass(frozen=True)
class Found:
    """A checkpoint before its files are checked."""

    path: str
    framework: Framework
    files: tuple[str, ...]
    step: int | None
    step_source: str
    state_file: str | None = None


def step_from_name(name: str) -> int | None:
    """The step a file or folder name states (`step=300`, `ckpt_300`, `model-300`)."""
    stem = os.path.splitext(name)[0]
    for pattern in _STEP_IN_NAME:
        match = pattern.search(stem)
        if match:
            return int(match.group(1))
    return None


def read_state(path: str) -> dict[str, object] | None:
    """A trainer_state.json as a dict, or None when it is missing, too large or broken."""
    try:
        if os.path.getsize(path) > MAX_METRICS_JSON_BYTES:
            return None
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _hf_folder(folder: str, names: list[str]) -> Found | None:
    """An HF Trainer checkpoint folder, when the folder holds its files."""
    weights = sorted(n for n in names if _HF_WEIGHTS.match(n) and not _NOT_WEIGHTS.match(n))
    named = HF_FOLDER.match(os.path.basename(folder))
    if not weights or not (named or TRAINER_STATE in names):
        return None
    state_file = os.path.join(folder, TRAINER_STATE) if TRAINER_STATE in names else None
    state = read_state(state_file) if state_file else None
    global_step = state.get("global_step") if state else None
    step: int | None = None
    source = "unknown"
    if isinstance(global_step, int) and not isinstance(global_step, bool):
        step, source = global_step, f"{TRAINER_STATE}:global_step"
    elif named:
        step, source = int(named.group(1)), "folder name"
    files = tuple(os.path.join(folder, n) for n in weights)
    return Found(folder, "hf-trainer", files, step, source, state_file)


def _plain(path: str) -> Found:
    name = os.path.basename(path)
    step = step_from_name(name)
    framework: Framework = "lightning" if name.endswith(".ckpt") else "plain"
    return Found(path, framework, (path,), step, "file name" if step is not None else "unknown")


def find_checkpoints(directory: str) -> list[Found]:
    """Every checkpoint under `directory`, in step order (unknown steps last, by name)."""
    found: list[Found] = []
    for folder, subfolders, names in os.walk(directory):
        subfolders[:] = sorted(d for d in subfolders if not d.startswith("."))
        hf = _hf_folder(folder, names)
        if hf is not None:
            found.append(hf)
            subfolders[:] = []
            continue
        found.extend(
            _plain(os.path.join(folder, name))
            for name in sorted(names)
            if name.endswith(_PLAIN_SUFFIXES) and not _NOT_WEIGHTS.match(name)
        )
        if len(found) >= MAX_CHECKPOINTS:
            break
    found = found[:MAX_CHECKPOINTS]
    return sorted(found, key=lambda c: (c.step is None, c.step or 0, c.path))
