"""first_bad_op on planted NaN bugs run for real on the CPU: the right op at the right line.

Expected lines come from the `# bug:` markers in planted.py, so editing that file moves
them with the code.
"""

from __future__ import annotations

import linecache

import pytest
from planted import SOURCE, line_of, make

from trainwreck.recorder.provenance import FINDING_ID, BadOp, first_bad_op

# bug -> (the op that makes the first non-finite value, the module whose forward ran it)
EXPECTED = {
    "log-of-relu": ("aten.log.default", "LogOfRelu"),
    "zero-norm": ("aten.div.Tensor", "ZeroNormEmbedding.normalize"),
    "fp16-matmul": ("aten.addmm.default", "Fp16Overflow.proj"),
    "sqrt-at-zero": ("aten.div.Tensor", "SqrtAtZero.distance"),
    "softmax-all-masked": ("aten._softmax.default", "MaskedSoftmax.attention"),
}


def _found(bug: str) -> BadOp:
    found = first_bad_op(make(bug))
    assert found is not None, f"{bug}: no bad op named"
    return found


@pytest.mark.parametrize("bug", sorted(EXPECTED))
def test_the_planted_bug_is_named_at_its_op_module_and_line(bug: str) -> None:
    found = _found(bug)
    assert (found.op, found.site.module) == EXPECTED[bug]
    assert (found.site.file, found.site.line) == (str(SOURCE), line_of(bug))


def test_log_of_a_relu_output_is_blamed_for_inf_before_layernorm_makes_nan() -> None:
    found = _found("log-of-relu")
    assert found.nan_count == 0
    assert found.inf_count > 0
    assert not found.in_backward
    assert found.input_dtypes == ("float32",)


def test_zero_norm_division_counts_one_nan_per_element_of_the_padding_row() -> None:
    found = _found("zero-norm")
    embedding_dim, padding_tokens = 8, 1  # planted: Embedding(10, 8), one token 0 in the batch
    assert (found.nan_count, found.inf_count) == (padding_tokens * embedding_dim, 0)
    assert found.input_shapes == ((2, 3, 8), (2, 3, 1))


def test_fp16_overflow_names_the_half_precision_matmul() -> None:
    found = _found("fp16-matmul")
    rows, outputs = 2, 4  # planted: a (2, 64) batch into Linear(64, 4)
    assert found.inf_count == rows * outputs
    assert set(found.input_dtypes) == {"float16"}


def test_sqrt_at_zero_is_found_in_backward_and_mapped_to_the_forward_sqrt() -> None:
    found = _found("sqrt-at-zero")
    points = 5  # planted: 5 points, each at distance 0 from itself
    assert found.in_backward
    assert found.autograd_node == "SqrtBackward0"
    assert found.site.op == "aten.sqrt.default"
    assert found.inf_count == points


def test_softmax_over_a_fully_masked_row_makes_nan_from_inf_without_nan() -> None:
    found = _found("softmax-all-masked")
    keys, masked_rows = 4, 1  # planted: a 4x4 mask with its first row all False
    assert (found.nan_count, found.inf_count) == (keys * masked_rows, 0)


@pytest.mark.parametrize("name", ["healthy-mlp", "healthy-masked-softmax"])
def test_a_healthy_step_names_nothing(name: str) -> None:
    assert first_bad_op(make(name)) is None


def test_the_finding_quotes_the_users_line() -> None:
    found = _found("sqrt-at-zero")
    finding = found.to_finding()
    assert finding.id == FINDING_ID
    assert finding.category == "nan_inf"
    [evidence] = finding.evidence
    assert evidence.line == line_of("sqrt-at-zero")
    assert evidence.text == linecache.getline(str(SOURCE), line_of("sqrt-at-zero")).strip()
    assert finding.values["forward_op"] == "aten.sqrt.default"
    assert "SqrtBackward0" in finding.summary
