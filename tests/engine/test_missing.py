"""When nothing reaches Medium the report says so first and asks for deciding evidence."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import run

CASES = Path(__file__).parent.parent / "cases"


def test_a_described_hang_without_logs_is_undecided_and_asks_for_stacks() -> None:
    result = run("diagnose", "--symptoms", "training hangs after 2 hours on 16 GPUs", "-f", "json")
    report = json.loads(result.stdout)
    assert report["undecided"] is True
    assert all(h["confidence"] == "low" for h in report["hypotheses"])
    assert any("py-spy dump" in request["how"] for request in report["next_evidence"])
    assert report["questions"]
    markdown = run("diagnose", "--symptoms", "training hangs after 2 hours on 16 GPUs").stdout
    assert markdown.startswith("## Not Decided")


def test_a_decided_report_asks_for_nothing() -> None:
    log = CASES / "vllm-tp-heads-divisible-414" / "train.log"
    report = json.loads(run("diagnose", str(log), "-f", "json").stdout)
    assert report["hypotheses"][0]["confidence"] == "high"
    assert report["undecided"] is False and report["next_evidence"] == []


def test_a_jax_run_is_asked_for_jax_tools_not_torch_ones() -> None:
    """jax#25299: a jax_debug_nans log, undecided (its page names the family only); the torch
    table had asked it for torch.autograd.set_detect_anomaly."""
    log = CASES / "jax-debug-nans-log-25299" / "train.log"
    report = json.loads(run("diagnose", str(log), "-f", "json").stdout)
    hows = " ".join(request["how"] for request in report["next_evidence"])
    assert report["undecided"] is True
    assert "JAX_DEBUG_NANS" in hows
    assert "torch" not in hows


def test_a_tensorflow_nan_is_asked_for_check_numerics() -> None:
    report = json.loads(
        run(
            "diagnose",
            "--symptoms",
            "Keras model.fit on TensorFlow 2.15: loss becomes nan",
            "-f",
            "json",
        ).stdout
    )
    hows = " ".join(request["how"] for request in report["next_evidence"])
    assert "tf.debugging.enable_check_numerics()" in hows
    assert "torch" not in hows
