"""Check a torch-saved file (.bin, .pt, .pth, .ckpt) only through torch's weights-only loader.

A torch file is a pickle; a full unpickle runs whatever code it names, so it is loaded
only with `torch.load(weights_only=True)`, whose unpickler builds tensors, containers and
primitive types and refuses any other global
(https://github.com/pytorch/pytorch/blob/v2.13.0/torch/serialization.py#L1376). A file that
needs more (a Lightning checkpoint holding custom hyperparameter objects) is "unchecked",
never unpickled. `mmap=True` maps the storages instead of reading them, so memory stays
bounded; without torch nothing is loaded and the file is reported as unchecked.
"""

from __future__ import annotations

import pickle
import zipfile
from collections.abc import Iterator
from typing import Any

from trainwreck.checkpoints.model import FileCheck

# Elements checked per piece of a tensor: the boolean masks of one piece stay at 16 MiB.
PIECE_ELEMENTS = 1 << 24
# Words of torch's errors that mean the file ends early (a zip without its central
# directory, a pickle stream cut short).
_TRUNCATION_WORDS = ("central directory", "unexpected end", "ran out of input", "truncated")
NO_TORCH = "torch is not installed: a torch file is only checked with torch.load(weights_only=True)"


def _tensors(value: object, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """(dotted name, tensor) of every tensor in a loaded state dict, nested or not."""
    import torch

    if isinstance(value, torch.Tensor):
        yield prefix, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _tensors(item, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(value, list | tuple):
        for position, item in enumerate(value):
            yield from _tensors(item, f"{prefix}.{position}" if prefix else str(position))


def _non_finite(tensor: Any) -> tuple[int, int]:
    """(NaN count, Inf count) of a floating tensor, a piece at a time."""
    import torch

    if not tensor.is_floating_point() or tensor.numel() == 0:
        return 0, 0
    nan = inf = 0
    for piece in tensor.detach().reshape(-1).split(PIECE_ELEMENTS):
        nan += int(torch.isnan(piece).sum())
        inf += int(torch.isinf(piece).sum())
    return nan, inf


def _failure(path: str, error: BaseException) -> FileCheck:
    """A load error as a status: cut short, refused by the weights-only loader, or broken."""
    text = " ".join(str(error).split())[:300]
    if any(word in text.lower() for word in _TRUNCATION_WORDS) or isinstance(error, EOFError):
        return FileCheck(path=path, status="truncated", reason=text)
    if isinstance(error, pickle.UnpicklingError) and "weights_only" in text.lower():
        return FileCheck(
            path=path, status="unchecked", reason=f"needs more than tensors to load: {text}"
        )
    return FileCheck(path=path, status="corrupt", reason=f"does not load: {text}")


def load_weights_only(path: str) -> object:
    """The file's content through the weights-only unpickler, storages memory-mapped."""
    import torch

    try:
        return torch.load(path, map_location="cpu", weights_only=True, mmap=True)
    except RuntimeError as error:
        if "mmap" not in str(error):  # the legacy (pre-zip) format cannot be mapped
            raise
        return torch.load(path, map_location="cpu", weights_only=True)


def check_torch_file(path: str) -> tuple[FileCheck, object]:
    """The file's check, and what it loaded (None when it did not load)."""
    try:
        loaded = load_weights_only(path)
    except ImportError:
        return FileCheck(path=path, status="unchecked", reason=NO_TORCH), None
    except (
        RuntimeError,
        ValueError,
        OSError,
        EOFError,
        zipfile.BadZipFile,
        pickle.UnpicklingError,
    ) as error:
        return _failure(path, error), None
    count, bad_tensor, nan, inf = 0, None, 0, 0
    for name, tensor in _tensors(loaded):
        count += 1
        if bad_tensor is None:
            nan, inf = _non_finite(tensor)
            bad_tensor = name if nan or inf else None
    check = FileCheck(
        path=path,
        status="non_finite" if bad_tensor else "ok",
        reason=f"{bad_tensor}: {nan} NaN, {inf} Inf" if bad_tensor else "",
        tensors=count,
        bad_tensor=bad_tensor,
        nan_count=nan,
        inf_count=inf,
    )
    return check, loaded
