"""The environment analyzer inside `trainwreck diagnose`, and the `trainwreck env` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trainwreck.analyzers import ANALYZERS, environment
from trainwreck.cli.app import main
from trainwreck.pipeline import diagnose

CASES = Path(__file__).parents[1] / "cases"
FIXTURES = Path(__file__).parent / "fixtures"


def test_analyzer_is_registered() -> None:
    assert environment.analyze in ANALYZERS


def test_known_bug_reported_from_the_listing_of_a_real_case() -> None:
    case = CASES / "transformers-gemma2-fa2-softcap-nan-31997"
    diagnosis = diagnose([str(case / "train.log"), str(case / "env.txt")])
    bug = next(f for f in diagnosis.findings if f.id == "env.known_bug")
    assert bug.values["page"] == "flash-attn-softcap-no-backward-gemma2"
    assert bug.values["installed"] == "2.6.1" and bug.values["fixed_in"] == "2.6.2"


def test_listing_conflict_carries_arithmetic_lines(tmp_path: Path) -> None:
    listing = tmp_path / "requirements-freeze.txt"
    listing.write_text("torch==2.4.0+cu121\ntorchvision==0.18.1+cu121\n")
    log = tmp_path / "train.log"
    log.write_text("Traceback (most recent call last):\nRuntimeError: something failed\n")
    diagnosis = diagnose([str(log)], env_files=[str(listing)])
    finding = next(f for f in diagnosis.findings if f.id == "env.companion_mismatch")
    assert finding.category == "dependency_conflict"
    assert finding.arithmetic is not None
    labels = [(line.label, line.value) for line in finding.arithmetic.lines]
    assert labels == [
        ("requirement", "torch==2.3.*"),
        ("installed", "2.4.0+cu121"),
        ("satisfied", "no"),
    ]
    assert finding.arithmetic.lines[0].source.startswith("https://github.com/pytorch/vision/")
    assert finding.arithmetic in diagnosis.arithmetic


def test_no_environment_no_findings(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text("RuntimeError: CUDA error: device-side assert triggered\n")
    assert not [f for f in diagnose([str(log)]).findings if f.id.startswith("env.")]


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as stop:
        main(args)
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return int(stop.value.code or 0), out, err


def test_env_from_listing_exit_1_on_conflict(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    listing = tmp_path / "freeze.txt"
    listing.write_text("torch==2.4.0\ntorchvision==0.18.1\n")
    status, out, _ = run_cli(["env", "--from", str(listing)], capsys)
    assert status == 1
    assert "error: torchvision 0.18.1 was built for torch==2.3.*, but you have torch 2.4.0." in out
    assert '$ pip install "torchvision==0.19.*"' in out


def test_env_json_and_clean_listing(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(
        ["env", "--from", str(FIXTURES / "collect_env_pytorch_27745.txt"), "-f", "json"], capsys
    )
    assert status == 0
    data = json.loads(out)
    assert data["environment"]["facts"]["torch_cuda"] == "9.0"
    assert {p["name"] for p in data["environment"]["packages"]} >= {"torch", "torchvision"}
    assert data["conflicts"] == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["env", "--from", "/no/such/listing.txt"], "cannot read /no/such/listing.txt"),
        (["env", "--site-packages", "/no/such/dir"], "/no/such/dir: not a directory"),
    ],
)
def test_env_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    status, _, err = run_cli(args, capsys)
    assert status == 2
    assert err.count("\n") == 1 and message in err


def test_env_unrecognised_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("we tried again on monday\n")
    status, _, err = run_cli(["env", "--from", str(junk)], capsys)
    assert status == 2 and "no environment listing recognised" in err


def test_env_live(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run_cli(["env", "--packages"], capsys)
    assert out.startswith("Environment (live environment")
    assert "  trainwreck " in out or "  pydantic " in out
    assert status in (0, 1)
