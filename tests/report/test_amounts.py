"""Amounts in the report's arithmetic read as sizes a person compares, not raw byte counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import run
from trainwreck.memory.budget import size_text

CASE = Path(__file__).parents[1] / "cases" / "alpaca-llama13b-fsdp-a100-86"


def test_memory_table_of_a_real_oom_shows_gib() -> None:
    report = run("diagnose", str(CASE), "--full").stdout  # the arithmetic is in the full report
    weights = next(line for line in report.splitlines() if line.startswith("| weights |"))
    assert "26,031,728,640 bytes" not in weights  # 13,015,864,320 params x 4 B / 2 GPUs
    assert "| 24.24 GiB |" in weights


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1023, "1,023 bytes"),
        (1024, "1.00 KiB"),
        (131_072, "128.00 KiB"),
        (2**20 - 1, "1024.00 KiB"),
        (2**20, "1.00 MiB"),
        (2**30, "1.00 GiB"),
        (32_121_044_992, "29.92 GiB"),
    ],
)
def test_size_text_picks_the_unit_the_value_reaches(value: int, text: str) -> None:
    assert size_text(value) == text
