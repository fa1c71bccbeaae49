"""JSON metric files read the same with and without orjson, NaN and Infinity literals included."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck.curves.jsonload import loads

SUMMARY = (
    "from trainwreck.curves.readers import read_text; import sys, json; "
    "t = read_text(sys.argv[1], open(sys.argv[1]).read()); "
    "print(json.dumps({n: [s.steps.tolist(), [repr(v) for v in s.values]] "
    "for n, s in t.series.items()}), json.dumps(list(t.notes)))"
)


def _summary(path: Path, hide_orjson: bool) -> str:
    code = ("import sys; sys.modules['orjson'] = None; " if hide_orjson else "") + SUMMARY
    result = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True
    )
    return result.stdout


def test_literals_and_strings_parse_like_the_standard_library() -> None:
    pytest.importorskip("orjson")
    text = '[1, NaN, Infinity, -Infinity, {"note": "loss was NaN"}, 18446744073709551616]'
    parsed = loads(text)
    assert isinstance(parsed, list)
    assert math.isnan(float(parsed[1])) and float(parsed[2]) == math.inf
    assert float(parsed[3]) == -math.inf
    assert parsed[4:] == json.loads(text)[4:]  # a word inside a string is left alone


def test_jsonl_with_nan_and_a_truncated_line_reads_the_same_without_orjson(
    tmp_path: Path,
) -> None:
    pytest.importorskip("orjson")
    rows = [{"step": i, "loss": 1.0 / i, "grad_norm": 0.5} for i in range(1, 50)]
    rows[30]["loss"] = math.nan
    rows[31]["grad_norm"] = math.inf
    text = "".join(json.dumps(row) + "\n" for row in rows) + '{"step": 50, "loss": 0.0'
    path = tmp_path / "metrics.jsonl"
    path.write_text(text)
    with_orjson = _summary(path, hide_orjson=False)
    assert with_orjson == _summary(path, hide_orjson=True)
    assert "nan" in with_orjson and "inf" in with_orjson
    assert "1 line(s) were not JSON objects; skipped" in with_orjson
