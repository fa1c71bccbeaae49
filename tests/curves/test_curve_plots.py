"""Curve charts: the SVG and its marks, `trainwreck curves`, and the HTML report's Curves section.

The charts are drawn by the real Matplotlib from generated runs with planted
events, and the HTML report is opened in a real headless Chromium.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from html import escape
from pathlib import Path

import numpy as np
import pytest
from curve_generator import Run, generate

from helpers import assert_one_line_error, run
from trainwreck.curves.detect import detect
from trainwreck.curves.plot import PLOTS_MISSING, draw, marks

pytest.importorskip("matplotlib")


def _write_jsonl(generated: Run, path: Path) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in generated.rows()))
    return path


def _nan_run() -> Run:
    return generate(3, "nan")


def test_marks_come_from_the_findings_and_the_logged_series() -> None:
    generated = _nan_run()
    table = generated.table()
    found = marks(table, detect(table))
    first_metric = min(generated.planted.nan_steps, key=lambda n: generated.planted.nan_steps[n])
    assert found.nan_step == generated.planted.nan_steps[first_metric]
    assert found.nan_metric == first_metric
    epoch = generated.columns["epoch"]
    assert len(found.epoch_steps) == int(epoch[-1])  # one line per whole epoch passed
    lr = generated.columns["learning_rate"]
    assert found.warmup_end == int(generated.steps[int(lr.argmax())])
    assert f"step {found.nan_step}" in found.caption()


def test_svg_is_deterministic_labelled_and_marks_spikes() -> None:
    generated = generate(11, "spikes")
    table = generated.table()
    findings = detect(table)
    figure = draw(table, findings)
    assert figure is not None
    assert figure.svg == draw(table, findings).svg  # type: ignore[union-attr]
    assert figure.svg.startswith("<svg") and figure.svg.rstrip().endswith("</svg>")
    for label in ("loss / eval_loss", "grad_norm", "learning_rate", "step"):
        assert f">{label}<" in figure.svg
    spikes = len(generated.planted.spike_steps)
    assert f"red triangles: {spikes} loss spike(s)" in figure.caption


def test_curves_command_prints_findings_and_writes_the_svg(tmp_path: Path) -> None:
    metrics = _write_jsonl(generate(11, "spikes"), tmp_path / "metrics.jsonl")
    out = tmp_path / "plot.svg"
    result = run("curves", str(metrics), "--plot", str(out), "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    (source,) = report["sources"]
    assert {"loss", "grad_norm", "learning_rate"} <= set(source["series"])
    assert "curves.loss_spikes" in {f["id"] for f in source["findings"]}
    assert report["plots"] == [str(out)]
    assert out.read_text().startswith("<svg")

    markdown = run("curves", str(tmp_path))
    assert markdown.returncode == 0
    assert "loss spike(s); the largest at step" in markdown.stdout


@pytest.mark.parametrize(
    "args",
    [("curves", "missing.jsonl"), ("curves", "-"), ("curves", "README.md")],
    ids=["no such file", "stdin", "no metrics"],
)
def test_curves_command_bad_input_is_one_line(args: tuple[str, ...]) -> None:
    assert_one_line_error(run(*args, cwd=Path(__file__).parents[2]))


def test_without_matplotlib_the_report_says_how_to_get_plots(tmp_path: Path) -> None:
    metrics = _write_jsonl(_nan_run(), tmp_path / "metrics.jsonl")
    hide = (
        "import sys; sys.modules['matplotlib'] = None; from trainwreck.cli.app import main; main()"
    )
    command = [sys.executable, "-c", hide, "diagnose", str(metrics), "-f", "html"]
    html = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert escape(PLOTS_MISSING) in html and "<svg" not in html
    command = [sys.executable, "-c", hide, "curves", str(metrics), "--plot", "x.svg"]
    assert_one_line_error(subprocess.run(command, capture_output=True, text=True, check=False))


def _chromium(*args: str) -> subprocess.CompletedProcess[str]:
    command = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars"]
    command += ["--enable-logging=stderr", "--v=0", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=True)


def _count_near(pixels: np.ndarray, colour: tuple[int, int, int]) -> int:
    return int(np.all(np.abs(pixels - np.asarray(colour)) <= 30, axis=-1).sum())


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("chromium") is None, reason="chromium is not on PATH")
def test_html_report_shows_the_chart_in_a_real_browser(tmp_path: Path) -> None:
    image = pytest.importorskip("PIL.Image")
    generated = generate(11, "spikes")
    metrics = _write_jsonl(generated, tmp_path / "metrics.jsonl")
    page = tmp_path / "report.html"
    result = run("diagnose", str(metrics), "-f", "html", "-o", str(page))
    assert result.returncode == 0, result.stderr
    url = page.as_uri()

    dom = _chromium("--dump-dom", url)
    assert ":CONSOLE" not in dom.stderr, dom.stderr  # the page logged nothing, no error
    assert "<h3>Curves</h3>" in dom.stdout and "<figure><svg" in dom.stdout
    assert "red triangles" in dom.stdout

    shot = tmp_path / "report.png"
    _chromium("--window-size=1000,5000", f"--screenshot={shot}", url)
    pixels = np.asarray(image.open(shot).convert("RGB"), dtype=np.int16)
    assert _count_near(pixels, (255, 255, 255)) < pixels.shape[0] * pixels.shape[1]
    assert _count_near(pixels, (31, 119, 180)) > 2000  # Matplotlib's first colour: the curves
    assert _count_near(pixels, (197, 34, 31)) > 50  # the red spike markers


def test_several_runs_in_one_directory_are_reported_apart(tmp_path: Path) -> None:
    """Two runs side by side keep their own curves, intervals and events (and charts)."""
    nan_run, spike_run = _nan_run(), generate(11, "spikes")
    _write_jsonl(nan_run, tmp_path / "run_a.jsonl")
    _write_jsonl(spike_run, tmp_path / "run_b.jsonl")
    out = tmp_path / "charts" / "plot.svg"
    out.parent.mkdir()
    result = run("curves", str(tmp_path), "--plot", str(out), "--format", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    by_name = {Path(s["source"]).name: s for s in report["sources"]}
    assert set(by_name) == {"run_a.jsonl", "run_b.jsonl"}
    ids_a = {f["id"] for f in by_name["run_a.jsonl"]["findings"]}
    ids_b = {f["id"] for f in by_name["run_b.jsonl"]["findings"]}
    assert "loss.non_finite" in ids_a and "loss.non_finite" not in ids_b
    assert "curves.loss_spikes" in ids_b
    series = by_name["run_b.jsonl"]["series"]  # logged at different intervals
    assert series["loss"]["points"] == spike_run.steps.size
    assert series["eval_loss"]["points"] == spike_run.eval_steps.size
    assert report["plots"] == [str(out), str(out.with_suffix(".2.svg"))]
    assert all(Path(p).read_text().startswith("<svg") for p in report["plots"])


def test_a_metric_file_of_tens_of_mib_is_read_whole(tmp_path: Path) -> None:
    """Past the 32 MiB kept for configs: 400,000 steps, NaN planted near the end."""
    path = tmp_path / "metrics.jsonl"
    row = '{{"step": {0}, "loss": {1}, "grad_norm": 0.9, "learning_rate": 0.0001, "epoch": 0.5}}\n'
    with path.open("w") as handle:
        for step in range(1, 400_001):
            handle.write(row.format(step, "NaN" if step > 399_000 else 2.0 - step / 1e6))
    assert path.stat().st_size > 32 * 2**20
    result = run("curves", str(path), "--format", "json")
    assert result.returncode == 0, result.stderr
    (table,) = json.loads(result.stdout)["sources"]
    first = {f["id"]: f["values"] for f in table["findings"]}["loss.non_finite"]
    assert first["step"] == 399_001
