"""The torch-free safetensors reader against files the safetensors library itself wrote.

bf16 values must decode exactly as torch decodes them, a file cut anywhere must read as
truncated (never as healthy), and a header that lies about its tensors must be caught.
"""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import numpy as np
import pytest

from trainwreck.checkpoints.safetensors import (
    MAX_HEADER_BYTES,
    bf16_to_float32,
    check_safetensors,
)

torch = pytest.importorskip("torch")
safetensors_torch = pytest.importorskip("safetensors.torch")


def _save(path: Path, **tensors: object) -> Path:
    safetensors_torch.save_file(tensors, str(path))
    return path


def _header(path: Path) -> tuple[dict[str, object], bytes]:
    raw = path.read_bytes()
    (length,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8 : 8 + length]), raw[8 + length :]


def _rewrite(path: Path, header: dict[str, object], data: bytes) -> None:
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)


def test_bf16_decodes_as_torch_decodes_it(tmp_path: Path) -> None:
    values = torch.tensor([1.5, -2.0, 3.140625, 65280.0, 1e-3], dtype=torch.bfloat16)
    path = _save(tmp_path / "w.safetensors", w=values)
    header, data = _header(path)
    begin, end = header["w"]["data_offsets"]  # type: ignore[index]
    decoded = bf16_to_float32(np.frombuffer(data[begin:end], dtype=np.uint16))
    assert decoded.tolist() == values.float().tolist()


@pytest.mark.parametrize("dtype", ["bfloat16", "float16", "float32", "float64"])
def test_nan_and_inf_are_counted_in_every_float_dtype(tmp_path: Path, dtype: str) -> None:
    values = torch.tensor([0.5, float("nan"), float("inf"), float("-inf"), 2.0])
    path = _save(
        tmp_path / "m.safetensors",
        a_ok=torch.ones(3, dtype=getattr(torch, dtype)),
        b_bad=values.to(getattr(torch, dtype)),
        c_ints=torch.arange(4),
    )
    check = check_safetensors(str(path))
    assert (check.status, check.bad_tensor) == ("non_finite", "b_bad")
    assert (check.nan_count, check.inf_count, check.tensors) == (1, 2, 3)


def test_a_healthy_file_is_ok(tmp_path: Path) -> None:
    path = _save(tmp_path / "m.safetensors", w=torch.randn(64, 8), b=torch.zeros(0))
    check = check_safetensors(str(path))
    assert (check.status, check.tensors) == ("ok", 2)


def test_a_file_cut_anywhere_is_truncated(tmp_path: Path) -> None:
    whole = _save(tmp_path / "whole.safetensors", w=torch.randn(256)).read_bytes()
    (length,) = struct.unpack("<Q", whole[:8])
    for cut in (0, 5, 8 + length // 2, 8 + length + 10, len(whole) - 1):
        path = tmp_path / f"cut{cut}.safetensors"
        path.write_bytes(whole[:cut])
        assert check_safetensors(str(path)).status == "truncated", cut


def test_a_header_length_past_the_limit_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "huge.safetensors"
    path.write_bytes(struct.pack("<Q", MAX_HEADER_BYTES + 1) + b"{}")
    assert check_safetensors(str(path)).status == "corrupt"


def test_offsets_that_disagree_with_the_shape_are_corrupt(tmp_path: Path) -> None:
    path = _save(tmp_path / "m.safetensors", w=torch.randn(4, 4))
    header, data = _header(path)
    header["w"]["shape"] = [4, 5]  # type: ignore[index]
    _rewrite(path, header, data)
    check = check_safetensors(str(path))
    assert check.status == "corrupt"
    assert "needs 80" in check.reason


def test_a_header_that_is_not_json_is_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "m.safetensors"
    path.write_bytes(struct.pack("<Q", 4) + b"\xff{[}")
    assert check_safetensors(str(path)).status == "corrupt"
    os.remove(path)
