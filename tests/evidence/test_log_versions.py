"""Versions a real log prints (a version printout, pip's resolver, NumPy's and xFormers'
banners) reach the setup, so the report does not ask for them back."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.evidence.collect import collect
from trainwreck.evidence.environment import banner_versions

CASES = Path(__file__).parents[1] / "cases"


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("flash-attn-undefined-symbol-931", {"torch": "2.3.0", "flash-attn": "2.5.7"}),
        (
            "peft-merge-4bit-rounding-2321",
            {"peft": "0.14.0", "transformers": "4.48.0", "bitsandbytes": "0.45.0"},
        ),
        ("transformers-deepspeed-config-mismatch-376", {"deepspeed": "0.7.7"}),
        ("pytorch-fsdp-numpy2-abi-458", {"numpy": "2.1.2"}),
        ("xformers-built-for-other-torch-8580", {"torch": "2.11.0+cu130"}),
        ("open-instruct-vllm-torch-pins-172", {"torch": "2.0.1"}),
    ],
)
def test_versions_a_real_log_prints_reach_the_setup(case: str, expected: dict[str, str]) -> None:
    inputs = [str(p) for p in sorted((CASES / case).iterdir()) if p.suffix in (".log", ".txt")]
    frameworks = collect(inputs).setup.frameworks
    assert {name: frameworks.get(name) for name in expected} == expected


def test_python_from_pip_refusing_it() -> None:
    log = CASES / "deepseek-vl-requires-python-24"
    inputs = [str(p) for p in sorted(log.iterdir()) if p.suffix in (".log", ".txt")]
    assert collect(inputs).setup.python == "3.11.8"


@pytest.mark.parametrize(
    "line",
    [
        "In PyTorch 1.1.0 and later, you should call them in the opposite order",
        "outlines 0.0.34 requires torch>=2.1.0, but you have torch 2.0.1 which is incompatible.",
        "pip install --upgrade torch==2.3.0 pydantic>=2.0",
        "torch 2.0 changed the default, see the release notes",
        "Successfully installed",
    ],
)
def test_prose_and_requirements_are_not_installed_versions(line: str) -> None:
    found = banner_versions(line)
    assert found.get("torch") in (None, "2.0.1")  # only pip's "but you have" is installed
    assert "outlines" not in found and "pydantic" not in found


def test_pip_installed_line_lists_each_version() -> None:
    found = banner_versions("Successfully installed numpy-2.0.1 torch-2.1.0+cu121 trl-0.9.6")
    assert found == {"numpy": "2.0.1", "torch": "2.1.0+cu121", "trl": "0.9.6"}
