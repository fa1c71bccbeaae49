"""Where the stray dtype of a dtype-mismatch error came from (analyzers/dtype_origin.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from arith_helpers import first_sight, found, logged, sources

from helpers import torch_error
from trainwreck.analyzers.dtype_origin import NUMPY_DEFAULT, normalise


def test_repro_float64_numpy_input_names_numpy() -> None:
    """batch-1 repro: features from NumPy (float64) through torch.from_numpy into nn.Linear."""
    diagnosis = first_sight("repro-torch-float64-numpy-input")
    finding = found(diagnosis, "dtype.")["dtype.float64_input"]
    assert finding.title == "float64 data from NumPy: the input (mat1) is Double against Float"
    origin = sources(finding)
    assert origin["float64 data in the run"].endswith("train.log:1")
    assert origin["NumPy's default float"] == NUMPY_DEFAULT
    assert diagnosis.hypotheses[0].id == "dtype-mismatch"


def test_unsloth_bf16_out_tensor_is_a_16_bit_against_fp32() -> None:
    """unsloth#1184: an output buffer allocated in bf16 received fp32 results."""
    finding = found(first_sight("unsloth-fp16-on-bf16-gpu-out-dtype-1184"), "dtype.")
    assert "the out tensor is BFloat16, the other Float" in finding["dtype.half_vs_float"].summary


@pytest.mark.parametrize(
    ("code", "expected", "words"),
    [
        (
            "torch.nn.Linear(4, 2)(torch.zeros(1, 4, dtype=torch.float64))",
            "dtype.float64_input",
            "the input (mat1) is Double",
        ),
        (
            "torch.nn.Conv2d(1, 1, 3)(torch.zeros(1, 1, 5, 5, dtype=torch.float64))",
            "dtype.float64_input",
            "the input is Double",
        ),
        (
            "F.binary_cross_entropy(torch.rand(3), torch.rand(3, dtype=torch.float64))",
            "dtype.float64_input",
            "the tensor found is Double",
        ),
        (
            "torch.nn.LSTM(4, 4)(torch.zeros(2, 1, 4, dtype=torch.float64))",
            "dtype.float64_input",
            "the input is Double",
        ),
        (
            "torch.mm(torch.zeros(2, 2, dtype=torch.float64), torch.zeros(2, 2))",
            "dtype.float64_input",
            "the input (mat1) is Double",
        ),
        (
            "torch.nn.Linear(4, 2).half()(torch.zeros(1, 4))",
            "dtype.half_vs_float",
            "the weight (mat2) is Half",
        ),
        (
            "torch.nn.Linear(4, 2).bfloat16()(torch.zeros(1, 4, dtype=torch.half))",
            "dtype.half_vs_bfloat16",
            "the input (mat1) is Half, the weight (mat2) BFloat16",
        ),
    ],
)
def test_real_torch_messages(tmp_path: Path, code: str, expected: str, words: str) -> None:
    finding = found(logged(tmp_path, torch_error(code) + "\n"), "dtype.")
    assert list(finding) == [expected]
    assert words in finding[expected].summary


def test_a_16_bit_type_the_run_did_not_ask_for_is_named(tmp_path: Path) -> None:
    text = (
        "model = AutoModelForCausalLM.from_pretrained(name, torch_dtype=torch.float16)\n"
        "RuntimeError: Expected out tensor to have dtype c10::BFloat16, but got float instead\n"
    )
    finding = found(logged(tmp_path, text), "dtype.")["dtype.half_vs_float"]
    assert "BFloat16 although the run asked for Half" in finding.summary
    assert sources(finding)["dtype the run asked for"].endswith(
        "train.log:1 ('torch_dtype=torch.float16')"
    )


def test_integer_types_are_not_a_float_origin(tmp_path: Path) -> None:
    text = "RuntimeError: expected scalar type Long but found Float\n"
    assert found(logged(tmp_path, text), "dtype.") == {}


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("torch.cuda.HalfTensor", "Half"),
        ("c10::BFloat16", "BFloat16"),
        ("double", "Double"),
        ("torch.FloatTensor", "Float"),
        ("Long", None),
    ],
)
def test_dtype_names_in_every_spelling(name: str, expected: str | None) -> None:
    assert normalise(name) == expected
