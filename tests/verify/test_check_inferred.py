"""`trainwreck check` without --framework: typos found from the keys alone, tensor-parallel
sizes vLLM refuses for the named model, and a binary file called binary."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import assert_one_line_error, run
from trainwreck.verify.keys import typo_of


def test_transposed_letters_are_found_without_naming_the_framework(tmp_path: Path) -> None:
    config = tmp_path / "args.yaml"
    config.write_text("max_grad_nrom: 1.0\nlearning_rate: 2.0e-5\nper_device_train_batch_size: 4\n")
    result = run("check", str(config), "--no-live")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "`max_grad_nrom`" in result.stdout and "`max_grad_norm`" in result.stdout


@pytest.mark.parametrize(
    ("key", "found"),
    [
        ("max_grad_nrom", "max_grad_norm"),  # one transposition
        ("max_grad_nrm", "max_grad_norm"),  # one deletion
        ("max_gard_nrom", None),  # two transpositions in 13 letters: past the bound of one
    ],
)
def test_a_transposition_is_one_typo(key: str, found: str | None) -> None:
    assert typo_of(key, ["max_grad_norm", "learning_rate"]) == found


@pytest.mark.parametrize(("tp", "refused"), [(2, False), (3, True), (4, False), (8, False)])
def test_tensor_parallel_size_against_the_named_model(
    tmp_path: Path, tp: int, refused: bool
) -> None:
    config = tmp_path / "serve.yaml"
    config.write_text(f"model: meta-llama/Llama-3.1-8B\ntensor_parallel_size: {tp}\n")
    result = run("check", str(config), "--no-live")
    assert ("32 attention heads" in result.stdout) is refused, result.stdout
    assert result.returncode == (1 if refused else 0), result.stdout + result.stderr


def test_tensor_parallel_size_in_a_launch_command(tmp_path: Path) -> None:
    script = tmp_path / "serve.sh"
    script.write_text("vllm serve meta-llama/Llama-3.1-8B --tensor-parallel-size 3\n")
    result = run("check", str(script), "--no-live")
    assert result.returncode == 1
    assert "32 attention heads" in result.stdout and "line 1" in result.stdout


def test_a_binary_file_is_called_binary(tmp_path: Path) -> None:
    binary = tmp_path / "model.yaml"
    binary.write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 4)
    result = run("check", str(binary))
    assert_one_line_error(result)
    assert "binary" in result.stderr and "YAML" not in result.stderr
