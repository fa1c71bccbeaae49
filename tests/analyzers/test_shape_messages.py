"""The numbers in view, conv-channel and loss batch-size errors (analyzers/shape_messages.py).

Each message is the one torch raises on the CPU for the broken call, not a copy."""

from __future__ import annotations

from pathlib import Path

from arith_helpers import found, logged, values

from helpers import torch_error


def test_a_view_that_hard_codes_the_batch_counts_the_rows_it_got(tmp_path: Path) -> None:
    # the last batch of 8 images reshaped with a hard-coded batch of 32
    error = torch_error("torch.zeros(8 * 3 * 224 * 224).view(32, 3, 224, 224)")
    finding = found(logged(tmp_path, error), "shape.")["shape.view_size_invalid"]
    assert finding.values["rows"] == 8
    assert "holds 8 rows of 150528 elements where the shape hard-codes 32" in finding.summary
    assert values(finding)["product of the given dimensions"] == 4816896


def test_an_inferred_dimension_reports_the_remainder(tmp_path: Path) -> None:
    error = torch_error("torch.zeros(1000).view(-1, 400)")
    finding = found(logged(tmp_path, error), "shape.")["shape.view_size_invalid"]
    assert "1000 / 400 = 2.50" in finding.summary
    assert "rows" not in finding.values


def test_channels_last_images_are_named_from_the_last_dimension(tmp_path: Path) -> None:
    conv = "torch.nn.Conv2d(3, 8, 3)(torch.zeros(2, 32, 32, 3))"
    finding = found(logged(tmp_path, torch_error(conv)), "shape.")["shape.conv_input_channels"]
    assert "channels-last" in finding.summary
    assert (finding.values["want"], finding.values["got"]) == (3, 32)


def test_grayscale_into_an_rgb_layer(tmp_path: Path) -> None:
    conv = "torch.nn.Conv2d(3, 8, 3)(torch.zeros(2, 1, 28, 28))"
    finding = found(logged(tmp_path, torch_error(conv)), "shape.")["shape.conv_input_channels"]
    assert "grayscale" in finding.summary


def test_outputs_folded_into_the_batch_give_a_whole_ratio(tmp_path: Path) -> None:
    # (32, 2, 10) logits flattened to (64, 10) against 32 targets
    loss = "F.cross_entropy(torch.zeros(32, 2, 10).view(-1, 10), torch.zeros(32, dtype=torch.long))"
    finding = found(logged(tmp_path, torch_error(loss)), "shape.")["shape.loss_batch_mismatch"]
    assert finding.values["per_target"] == 2
    assert values(finding)["rows of the model output"] == 64
