"""JSON metric files read the same with and without orjson, NaN and Infinity literals included."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck.curves.jsonload import loads
from trainwreck.curves.readers import read_text
from trainwreck.model import MetricTable

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


def _late_nan_rows() -> list[str]:
    rows = [{"step": i, "loss": 2.0 - i / 100, "Note_N": "NaN in a string"} for i in range(1, 30)]
    lines = [json.dumps(row) for row in rows]
    return lines + [json.dumps({"step": 30 + i, "loss": math.nan}) for i in range(3)]


SHAPES = {
    "nan late": "\n".join(_late_nan_rows()) + "\n",
    "no final newline": "\n".join(_late_nan_rows()),
    "crlf": "\r\n".join(_late_nan_rows()) + "\r\n",
    "blank lines": "\n\n".join(_late_nan_rows()) + "\n\n",
    "two objects on a line": '{"step": 3, "loss": 3.0}, {"step": 4, "loss": 4.0}\n'
    '{"step": 5, "loss": 5.0}\n',
    "two objects unseparated": '{"step": 1, "loss": 1.0}{"step": 2, "loss": 2.0}\n'
    '{"step": 5, "loss": 5.0}\n',
    "infinity first": '{"step": 1, "loss": -Infinity}\n{"step": 2, "loss": Infinity}\n',
}


@pytest.mark.parametrize("shape", SHAPES)
def test_jsonl_reads_like_one_stdlib_parse_per_line(shape: str) -> None:
    """The one-parse fast path gives what parsing each line on its own gives, line numbers too."""
    text = SHAPES[shape]
    expected: dict[str, list[tuple[int, str, int]]] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        try:
            row = json.loads(line)
        except ValueError:
            continue
        for key, value in row.items() if isinstance(row, dict) else ():
            if key == "step" or isinstance(value, str):
                continue
            expected.setdefault(key, []).append((row["step"], repr(float(value)), number))
    table = read_text("metrics.jsonl", text)
    assert isinstance(table, MetricTable)
    found = {
        name: list(
            zip(s.steps.tolist(), map(repr, s.values.tolist()), s.lines.tolist(), strict=True)
        )
        for name, s in table.series.items()
    }
    assert found == expected
