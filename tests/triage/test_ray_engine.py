"""`trainwreck triage --engine ray`: the same groups as the process pool, on a local Ray."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from test_triage import FLEET_CASES, _fleet

from helpers import assert_one_line_error
from trainwreck.triage import triage
from trainwreck.triage.render import to_json

# Two CPUs: what this machine has; the local Ray is started by the test, without a dashboard.
RAY_CPUS = 2
# `trainwreck triage --engine ray` with Ray hidden: what an environment without the extra sees.
WITHOUT_RAY = "import sys; sys.modules['ray'] = None; from trainwreck.cli.app import main; main()"


@pytest.mark.slow
def test_ray_gives_the_process_pools_groups(tmp_path: Path) -> None:
    ray = pytest.importorskip("ray")
    ray_engine = pytest.importorskip("trainwreck.triage.ray_engine")
    _fleet(tmp_path, FLEET_CASES)
    pooled = to_json(triage([str(tmp_path)], jobs=2))
    ray.init(num_cpus=RAY_CPUS, include_dashboard=False)
    try:
        on_ray = to_json(triage([str(tmp_path)], engine=ray_engine.ray_summaries))
        assert ray.is_initialized()  # the engine leaves a cluster it did not start running
    finally:
        ray.shutdown()
    assert on_ray == pooled


def test_without_ray_the_engine_is_one_line_and_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_RAY, "triage", str(tmp_path), "--engine", "ray"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert_one_line_error(done)
    assert "pip install 'trainwreck[ray]'" in done.stderr


@pytest.mark.parametrize(
    "args", [("--engine", "ray", "--jobs", "2"), ("--ray-address", "127.0.0.1:6379")]
)
def test_pool_and_ray_options_do_not_mix(tmp_path: Path, args: tuple[str, ...]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "trainwreck", "triage", str(tmp_path), *args],
        capture_output=True,
        text=True,
        check=False,
    )
    assert_one_line_error(done)
