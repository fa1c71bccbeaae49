"""MLflow metric files are read under a byte cap like every other reader (issue 16): a file
past MAX_MLFLOW_METRIC_BYTES is read up to it with a warning, a run's files together stop at
MAX_METRICS_TEXT_BYTES, and a metric file that cannot be read is a warning, not skipped silently."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_metric_stores import _first_nan, _mlflow_run

from trainwreck.curves.stores import read_mlflow_run, run_points
from trainwreck.limits import MAX_METRICS_TEXT_BYTES, MAX_MLFLOW_METRIC_BYTES, MIB
from trainwreck.model import Gap
from trainwreck.pipeline import examine

LINE = b"1700000000000 0.5 7\n"


def _run_folder(tmp_path: Path) -> Path:
    _mlflow_run(tmp_path, "file:./mlruns")
    return next(path.parent for path in (tmp_path / "mlruns").rglob("metrics"))


@pytest.mark.parametrize(("extra", "rows", "cut"), [(-1, 5, False), (0, 5, False), (1, 5, True)])
def test_a_metric_file_is_read_up_to_the_cap(
    tmp_path: Path, extra: int, rows: int, cut: bool
) -> None:
    path = tmp_path / "loss"
    path.write_bytes(LINE * rows + b"9" * (extra + 1))  # a last line without a newline
    limit = len(LINE) * rows + 1
    points, note = run_points(str(path), limit)
    assert points is not None and len(points) == rows
    assert (note is not None) == cut
    if note:
        assert "read the first" in note and f"{len(LINE) * rows + extra + 1:,} bytes" in note


def test_an_oversized_metric_file_is_a_warning_and_the_curve_still_read(tmp_path: Path) -> None:
    run_dir = _run_folder(tmp_path)
    loss = run_dir / "metrics" / "loss"
    with loss.open("ab") as handle:  # one line with no newline past the cap: 70 MiB
        handle.write(b"1" * (MAX_MLFLOW_METRIC_BYTES + 6 * MIB))
    step, _ = _first_nan([tmp_path / "mlruns"])
    assert step == 69  # what lies before the cap is still diagnosed
    evidence, _ = examine([str(tmp_path / "mlruns")])
    reasons = [gap.reason for gap in evidence.gaps if gap.source.endswith("metrics/loss")]
    assert len(reasons) == 1 and f"the first {MAX_MLFLOW_METRIC_BYTES // MIB} MiB" in reasons[0]


def test_an_unreadable_metric_file_is_a_warning(tmp_path: Path) -> None:
    run_dir = _run_folder(tmp_path)
    (run_dir / "metrics" / "accuracy").symlink_to(tmp_path / "gone")  # dangling: cannot open
    run = read_mlflow_run(str(run_dir))
    assert [gap.reason for gap in run.gaps] == [
        "cannot read this metric file: no such file or directory"
    ]
    assert not isinstance(run.table, Gap)  # the other metrics are still read


def test_a_run_stops_reading_at_the_total_metrics_limit(tmp_path: Path) -> None:
    run_dir = _run_folder(tmp_path)
    for n in range(MAX_METRICS_TEXT_BYTES // MAX_MLFLOW_METRIC_BYTES):  # sparse: no disk used
        os.truncate(_touch(run_dir / "metrics" / f"z{n}"), MAX_MLFLOW_METRIC_BYTES)
    run = read_mlflow_run(str(run_dir))
    skipped = [gap for gap in run.gaps if "together passed 256 MiB" in gap.reason]
    assert [gap.source.rsplit("metrics/", 1)[1] for gap in skipped] == ["train/grad_norm"]
    assert not isinstance(run.table, Gap) and "loss" in run.table.series  # read before it


def _touch(path: Path) -> Path:
    path.touch()
    return path
