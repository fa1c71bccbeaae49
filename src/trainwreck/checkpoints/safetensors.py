"""Check a .safetensors file without torch: its index, its length, every float tensor's values.

The format (https://github.com/huggingface/safetensors/blob/0034b77cb9403f7e498764de4a2a291d8bcbd9f1/README.md#format):
8 bytes of little-endian u64 header length N, N bytes of JSON mapping each tensor name to
its dtype, shape and [begin, end) byte offsets into the data that follows, an optional
`__metadata__` entry, and the data. The library itself does not check values for NaN/Inf
(same README, "Notes"), so a checkpoint of NaN weights saves and loads without complaint.
The file is memory-mapped and each tensor is scanned in pieces, so memory stays bounded
whatever the checkpoint's size.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

from trainwreck.checkpoints.model import FileCheck, FileStatus

_LENGTH_BYTES = 8
# The safetensors library refuses headers past 100 MB (README, "Benefits": a limit on the
# header size so a malicious file cannot make it parse an endless JSON); so do we.
MAX_HEADER_BYTES = 100_000_000
# Elements checked per piece: 16M float32 values make a 64 MiB float32 copy of a bf16
# piece plus a 16 MiB mask, whatever the tensor's size.
PIECE_ELEMENTS = 1 << 24
# Bytes per element of each dtype the format names; floats are checked for NaN/Inf,
# the others only for their length.
_ITEM_BYTES = {
    "F64": 8,
    "F32": 4,
    "F16": 2,
    "BF16": 2,
    "F8_E4M3": 1,
    "F8_E5M2": 1,
    "I64": 8,
    "I32": 4,
    "I16": 2,
    "I8": 1,
    "U64": 8,
    "U32": 4,
    "U16": 2,
    "U8": 1,
    "BOOL": 1,
}
_FLOATS: dict[str, type[np.generic]] = {
    "F64": np.float64,
    "F32": np.float32,
    "F16": np.float16,
    "BF16": np.uint16,  # widened to float32 below
}


class _Bad(Exception):
    """The file is not what its header says; the message says how."""

    def __init__(self, status: FileStatus, reason: str) -> None:
        super().__init__(reason)
        self.status = status


def bf16_to_float32(raw: NDArray[np.uint16]) -> NDArray[np.float32]:
    """bfloat16 is the top half of a float32: shift its 16 bits up."""
    return (raw.astype(np.uint32) << 16).view(np.float32)


def _header(path: str, size: int) -> tuple[int, Mapping[str, object]]:
    """(where the data starts, the JSON index), or _Bad."""
    if size < _LENGTH_BYTES:
        raise _Bad("truncated", f"{size} bytes: shorter than the 8-byte header length")
    with open(path, "rb") as handle:
        length = int.from_bytes(handle.read(_LENGTH_BYTES), "little")
        if length > MAX_HEADER_BYTES:
            raise _Bad("corrupt", f"header length {length} bytes is past {MAX_HEADER_BYTES}")
        if _LENGTH_BYTES + length > size:
            raise _Bad("truncated", f"header needs {_LENGTH_BYTES + length} bytes, file has {size}")
        text = handle.read(length)
    try:
        index = json.loads(text)
    except (UnicodeDecodeError, ValueError):
        raise _Bad("corrupt", "header is not valid JSON") from None
    if not isinstance(index, dict):
        raise _Bad("corrupt", "header is not a JSON object")
    return _LENGTH_BYTES + length, index


def _span(name: str, entry: object, data_start: int, size: int) -> tuple[str, int, int]:
    """(dtype, first byte, end byte) of one tensor in the file, checked against its header."""
    if not isinstance(entry, dict):
        raise _Bad("corrupt", f"{name}: entry is not an object")
    dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if dtype not in _ITEM_BYTES or not isinstance(shape, list) or not isinstance(offsets, list):
        raise _Bad("corrupt", f"{name}: dtype, shape or data_offsets missing or unknown")
    if len(offsets) != 2 or not all(isinstance(n, int) and n >= 0 for n in (*offsets, *shape)):
        raise _Bad("corrupt", f"{name}: shape or data_offsets are not non-negative integers")
    begin, end = offsets
    expected = math.prod(shape) * _ITEM_BYTES[dtype]
    if end - begin != expected:
        raise _Bad(
            "corrupt",
            f"{name}: data_offsets span {end - begin} bytes, shape {shape} of {dtype} "
            f"needs {expected}",
        )
    if data_start + end > size:
        raise _Bad("truncated", f"{name}: ends at byte {data_start + end}, file has {size} bytes")
    return str(dtype), data_start + begin, data_start + end


def _count_non_finite(raw: NDArray[np.uint8], dtype: str) -> tuple[int, int]:
    """(NaN count, Inf count) of one float tensor's bytes, a piece at a time."""
    item = _ITEM_BYTES[dtype]
    nan = inf = 0
    step = PIECE_ELEMENTS * item
    for start in range(0, raw.shape[0], step):
        piece = raw[start : start + step]
        values = (
            bf16_to_float32(piece.view(np.uint16))
            if dtype == "BF16"
            else piece.view(_FLOATS[dtype])
        )
        nan += int(np.count_nonzero(np.isnan(values)))
        inf += int(np.count_nonzero(np.isinf(values)))
    return nan, inf


def check_safetensors(path: str) -> FileCheck:
    """Every tensor of a .safetensors file: within the file, and finite."""
    try:
        size = os.path.getsize(path)
        data_start, index = _header(path, size)
        spans = {
            name: _span(name, entry, data_start, size)
            for name, entry in index.items()
            if name != "__metadata__"
        }
        data = np.memmap(path, dtype=np.uint8, mode="r") if size else None
    except _Bad as bad:
        return FileCheck(path=path, status=bad.status, reason=str(bad))
    except (OSError, ValueError) as error:
        return FileCheck(path=path, status="corrupt", reason=f"cannot read: {error}")
    bad_tensor, nan, inf = None, 0, 0
    for name, (dtype, begin, end) in spans.items():
        if dtype not in _FLOATS or data is None or bad_tensor is not None:
            continue
        nan, inf = _count_non_finite(data[begin:end], dtype)
        if nan or inf:
            bad_tensor = name
    return FileCheck(
        path=path,
        status="non_finite" if bad_tensor else "ok",
        reason=f"{bad_tensor}: {nan} NaN, {inf} Inf" if bad_tensor else "",
        tensors=len(spans),
        bad_tensor=bad_tensor,
        nan_count=nan,
        inf_count=inf,
    )
