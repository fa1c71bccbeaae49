"""The benchmark scripts are run by hand, not by the suite: at least they must compile here."""

from __future__ import annotations

import py_compile
from pathlib import Path

import pytest

SCRIPTS = sorted((Path(__file__).parents[1] / "benchmarks").glob("*.py"))


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_benchmark_compiles(script: Path, tmp_path: Path) -> None:
    py_compile.compile(str(script), cfile=str(tmp_path / "out.pyc"), doraise=True)
