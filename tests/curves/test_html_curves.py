"""The HTML report of a real diverging HF Trainer run (its log and its trainer_state.json):
one chart per run, its divergence marked, and code spans as code, not backticks."""

from __future__ import annotations

import re

import pytest
from test_hf_trainer_run import _train

from helpers import run

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> str:
    tmp_path = tmp_path_factory.mktemp("html")
    log, state = _train(tmp_path, "3.0")
    out = tmp_path / "report.html"
    result = run("diagnose", str(log), str(state), "--format", "html", "-o", str(out))
    assert result.returncode in (0, 1), result.stderr
    return out.read_text(encoding="utf-8")


def test_the_same_run_in_two_files_is_drawn_once(report: str) -> None:
    assert report.count("<figure>") == 1


def test_a_reported_divergence_is_marked_on_the_chart(report: str) -> None:
    caption = re.search(r"<figcaption>(.*?)</figcaption>", report, re.S)
    assert caption is not None
    assert "no event marked" not in caption.group(1)
    assert "loss rising from step" in caption.group(1)


def test_code_spans_are_code_not_backticks(report: str) -> None:
    # prose only: a script or config inside <pre>, or a quoted log line inside <code> (a
    # transformers warning writes "must be `None`"), may hold backticks of its own
    assert "<code>" in report
    body = re.sub(r"<svg.*?</svg>|<pre.*?</pre>|<code>.*?</code>", "", report, flags=re.S)
    assert "`" not in body
