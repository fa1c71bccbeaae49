"""`compare` on real runs: a tiny GPT-2 trained by the HF Trainer on the CPU, recorded by
`trainwreck run` (command line, `name==version` listing of this interpreter's packages,
the config it read, its output), then the same run with one breaking change.

BAD raises the learning rate 1000x in its config (the loss diverges); it also changes
weight_decay to the Trainer's default and, necessarily, the config and output paths on its
command line. SEED changes only the seed: a healthy run whose loss must stay in GOOD's band.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import assert_one_line_error, run
from trainwreck.compare import compare

pytest.importorskip("transformers")
pytest.importorskip("accelerate")  # the Trainer needs it
SCRIPT = Path(__file__).parent / "fixtures" / "train_from_config.py"
GOOD_CONFIG = {
    "learning_rate": 0.001,
    "per_device_train_batch_size": 8,
    "num_train_epochs": 3,
    "lr_scheduler_type": "constant",
    "max_grad_norm": 0.0,  # no clipping: nothing hides a bad learning rate
    "logging_steps": 2,
    "seed": 0,
    "weight_decay": 0.01,
}
VARIANTS = {
    "good": {},
    "bad": {"learning_rate": 1.0, "weight_decay": 0.0},
    "seed": {"seed": 1},
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("compare")
    found = {}
    for name, changed in VARIANTS.items():
        config = root / f"{name}.yaml"
        config.write_text(
            "".join(f"{key}: {value}\n" for key, value in {**GOOD_CONFIG, **changed}.items())
        )
        out = root / "runs" / name
        # `python` as a user types it: the log reader takes `python x.py --flag ...` for a
        # launch line, not an interpreter's absolute path.
        argv = ["run", "--out", str(out), "--", "python", str(SCRIPT)]
        argv += ["--config", str(config), "--output_dir", str(out / "output")]
        subprocess.run(
            [sys.executable, "-m", "trainwreck", *argv],
            cwd=root,
            env={
                **os.environ,
                "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            },
            capture_output=True,
            check=True,
            timeout=300,
        )
        found[name] = out
    return found


def test_the_breaking_change_ranks_first_with_the_page_that_explains_it(
    runs: dict[str, Path],
) -> None:
    comparison = compare([str(runs["good"])], [str(runs["bad"])])
    top = comparison.changes[0]
    assert (top.kind, top.key, top.before, top.after) == ("config", "learning_rate", 0.001, 1.0)
    assert top.pages[0] == "loss-divergence-high-learning-rate"
    assert all(change.score < top.score for change in comparison.changes[1:])
    keys = {(change.kind, change.key) for change in comparison.changes}
    assert keys == {
        ("config", "learning_rate"),
        ("config", "weight_decay"),
        ("flag", "config"),
        ("flag", "output_dir"),
    }
    # Both runs ran in this interpreter: one listing, no package moved.
    assert not [change for change in comparison.changes if change.kind == "package"]
    (loss,) = [item for item in comparison.curves if item.metric == "loss"]
    assert loss.direction == "above" and loss.step is not None and loss.arithmetic is not None


def test_a_change_to_the_default_ranks_below_an_unexplained_one(runs: dict[str, Path]) -> None:
    comparison = compare([str(runs["good"])], [str(runs["bad"])])
    by_key = {change.key: change for change in comparison.changes}
    assert by_key["weight_decay"].to_default  # the Trainer's weight_decay default is 0.0
    assert by_key["weight_decay"].score < by_key["output_dir"].score


def test_a_seed_change_keeps_the_loss_in_band(runs: dict[str, Path]) -> None:
    comparison = compare([str(runs["good"])], [str(runs["seed"])])
    (loss,) = [item for item in comparison.curves if item.metric == "loss"]
    assert loss.step is None and loss.compared_steps > 10
    assert comparison.changes[0].key == "seed"


def test_json_lists_the_changes_ranked_and_the_curves(runs: dict[str, Path]) -> None:
    done = run("compare", str(runs["good"]), str(runs["bad"]), "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    first = data["changes"][0]
    assert set(first) >= {"kind", "key", "before", "after", "score", "pages"}
    assert (first["key"], first["before"], first["after"]) == ("learning_rate", 0.001, 1.0)
    scores = [change["score"] for change in data["changes"]]
    assert scores == sorted(scores, reverse=True)
    assert data["curves"]["loss"]["direction"] == "above"


def test_fail_on_gates_on_the_kinds_found(runs: dict[str, Path]) -> None:
    good, bad, seed = (str(runs[name]) for name in ("good", "bad", "seed"))
    assert run("compare", good, bad, "--fail-on", "package,config").returncode == 1
    assert run("compare", good, bad, "--fail-on", "package").returncode == 0
    assert run("compare", good, bad, "--fail-on", "curve").returncode == 1
    assert run("compare", good, seed, "--fail-on", "curve").returncode == 0


def test_bad_input_is_one_line_and_status_2(runs: dict[str, Path], tmp_path: Path) -> None:
    assert_one_line_error(run("compare", str(tmp_path / "missing"), str(runs["bad"])))
    assert_one_line_error(run("compare", str(runs["good"]), str(runs["bad"]), "--fail-on", "x"))
