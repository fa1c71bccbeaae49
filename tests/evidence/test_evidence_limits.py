"""Input limits: special files, bombs, deep nesting, aliases, walks and path counts.

Each input is written for real; a limit hit must be a Gap (a warning in the
report) while the good file beside it is still read.
"""

from __future__ import annotations

import gzip
import os
import sys
from pathlib import Path

import pytest

from helpers import run
from trainwreck.evidence import files
from trainwreck.evidence.collect import collect as collect_function
from trainwreck.limits import RATIO_FREE_BYTES, nesting_exceeded

ERROR_LOG = "Traceback (most recent call last):\nRuntimeError: CUDA error: device-side assert\n"


def _gaps(evidence: object) -> dict[str, str]:
    return {gap.source: gap.reason for gap in evidence.gaps}  # type: ignore[attr-defined]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_in_a_run_directory_is_a_gap_never_opened(tmp_path: Path) -> None:
    (tmp_path / "train.log").write_text(ERROR_LOG)
    for name in ("zz.log", "trainer_state.json"):
        os.mkfifo(tmp_path / name)  # opening one for reading would block forever
    gaps = _gaps(collect_function([str(tmp_path)]))
    assert "FIFO" in gaps[str(tmp_path / "zz.log")]
    assert "FIFO" in gaps[str(tmp_path / "trainer_state.json")]
    assert len(collect_function([str(tmp_path / "train.log")]).lines) > 0


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_fifo_given_to_check_and_env_is_one_line_exit_2(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "cfg.yaml")
    for args in (
        ("check", str(tmp_path / "cfg.yaml")),
        ("env", "--from", str(tmp_path / "cfg.yaml")),
    ):
        result = run(*args)
        assert result.returncode == 2, result
        assert "FIFO" in result.stderr and "Traceback" not in result.stderr


def test_device_is_a_gap(tmp_path: Path) -> None:
    log = tmp_path / "train.log"
    log.write_text(ERROR_LOG)
    evidence = collect_function([os.devnull, str(log)])
    assert "device" in _gaps(evidence)[os.devnull]
    assert evidence.lines


def test_gzip_bomb_stops_at_the_ratio_limit(tmp_path: Path) -> None:
    bomb = tmp_path / "train.log.gz"
    line = b"step 1 loss 2.0 RuntimeError: again\n"
    with gzip.open(bomb, "wb", compresslevel=9) as handle:
        for _ in range((RATIO_FREE_BYTES + 2**22) // (len(line) * 1024)):
            handle.write(line * 1024)
    assert bomb.stat().st_size * 200 < RATIO_FREE_BYTES  # past the ratio: the floor applies
    evidence = collect_function([str(bomb)])
    assert "read limit" in _gaps(evidence)[str(bomb)]
    assert evidence.files[0].lines_read == RATIO_FREE_BYTES // len(line) + 1


def test_gzipped_metrics_past_the_limit_still_give_their_curve(tmp_path: Path) -> None:
    head = b"".join(b'{"step": %d, "loss": 1.5}\n' % step for step in range(1, 1001))
    packed = tmp_path / "metrics.jsonl.gz"
    filler = b'{"step": 1000, "loss": 1.5}\n' * (RATIO_FREE_BYTES // 28 + 2**20)
    packed.write_bytes(gzip.compress(head + filler))  # ~100 MiB of JSONL, ~1000x packed
    evidence = collect_function([str(packed)])
    assert "read limit" in _gaps(evidence)[str(packed)]
    assert evidence.metrics[0].series["loss"].values.size == 1000


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("deep.json", '{"a":' * 980 + "1" + "}" * 980),
        ("deep.yaml", "a: " + "[" * 500 + "]" * 500 + "\n"),
        ("alias.yaml", "a: &x {b: *x}\n"),
        ("deep.toml", "a = " + "[" * 980 + "]" * 980 + "\n"),
        (
            "laughs.yaml",
            "a: &a [x, x, x, x, x, x, x, x, x]\n"
            + "".join(
                f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n"
                for i in range(30)
            ),
        ),
    ],
)
def test_config_past_nesting_or_alias_limit_is_a_gap(tmp_path: Path, name: str, text: str) -> None:
    config = tmp_path / name
    config.write_text(text)
    log = tmp_path / "train.log"
    log.write_text(ERROR_LOG)
    evidence = collect_function([str(log)], config_files=[str(config)])
    reason = _gaps(evidence)[str(config)]
    assert "nested deeper" in reason or "aliases" in reason or "not a valid" in reason
    assert evidence.lines


def test_nesting_check_counts_shared_blocks_once() -> None:
    shared: list[object] = [1]
    for _ in range(40):
        shared = [shared] * 10  # 10**40 paths, 40 levels
    assert not nesting_exceeded(shared)
    for _ in range(40):
        shared = [shared]
    assert nesting_exceeded(shared)


def test_walk_stops_at_the_file_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_WALK_FILES", 3)
    for index in range(5):
        (tmp_path / f"rank{index}.log").write_text(ERROR_LOG)
    evidence = collect_function([str(tmp_path)])
    assert len(evidence.files) == 3
    assert "more than 3 files" in _gaps(evidence)[str(tmp_path)]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads unreadable folders")
def test_unreadable_subdirectory_is_a_gap(tmp_path: Path) -> None:
    (tmp_path / "train.log").write_text(ERROR_LOG)
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0)
    try:
        evidence = collect_function([str(tmp_path)])
    finally:
        locked.chmod(0o755)
    assert "cannot list" in _gaps(evidence)[str(locked)]
    assert evidence.lines


def test_paths_are_read_once_and_at_most_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys.modules["trainwreck.evidence.collect"], "MAX_PATHS", 2)
    logs = []
    for index in range(3):
        logs.append(tmp_path / f"rank{index}.log")
        logs[-1].write_text(ERROR_LOG)
    evidence = collect_function([str(logs[0])] * 1000 + [str(log) for log in logs])
    assert [f.path for f in evidence.files] == [str(logs[0]), str(logs[1])]
    assert "more than 2 paths" in _gaps(evidence)[str(logs[2])]
