"""Score detector findings against a generated run's planted events.

Shared by the tests and `benchmarks/curves_accuracy.py`, so both count the same
way. A detection of the right kind at the wrong place counts as one false
positive and one miss. Spikes are scored per spike, the other kinds per run.
"""

from __future__ import annotations

from collections import Counter

from curve_generator import Planted

from trainwreck.model import Finding

EVENTS = (
    "nan",
    "spikes",
    "periodic",
    "plateau",
    "divergence",
    "overfitting",
    "oscillation",
    "clipping",
    "grad_lead",
)
_IDS = {
    "nan": "loss.non_finite",
    "periodic": "curves.periodic_spikes",
    "plateau": "curves.plateau",
    "divergence": "loss.diverged",
    "overfitting": "curves.overfitting",
    "oscillation": "curves.oscillation",
    "clipping": "curves.clipping",
    "grad_lead": "curves.grad_norm_before_spike",
}


def _nan_right(planted: Planted, found: dict[str, Finding]) -> bool:
    grad = found.get("grad_norm.non_finite")
    order = found.get("curves.non_finite_order")
    first = min(planted.nan_steps, key=lambda name: planted.nan_steps[name])
    return (
        found["loss.non_finite"].values["step"] == planted.nan_steps["loss"]
        and grad is not None
        and grad.values["step"] == planted.nan_steps["grad_norm"]
        and order is not None
        and order.values["first"] == first
    )


def _right_place(kind: str, planted: Planted, finding: Finding) -> bool:
    steps_in_run = planted.points * planted.log_every
    if kind == "periodic":
        period = finding.values["period_steps"]
        assert isinstance(period, int) and planted.period_steps is not None
        matches = finding.values["confidence"] == "high"
        return abs(period - planted.period_steps) <= 0.05 * planted.period_steps and (
            matches == planted.epoch_matches
        )
    if kind == "divergence":
        onset = finding.values["onset_step"]
        assert isinstance(onset, int) and planted.divergence_step is not None
        return abs(onset - planted.divergence_step) <= 0.15 * steps_in_run
    if kind == "overfitting":
        step = finding.values["step"]
        assert isinstance(step, int) and planted.overfit_step is not None
        return (
            abs(step - planted.overfit_step) <= 2 * max(1, planted.points // 20) * planted.log_every
        )
    if kind == "oscillation":
        step = finding.values["step"]
        assert isinstance(step, int) and planted.oscillation_step is not None
        return abs(step - planted.oscillation_step) <= 0.15 * steps_in_run
    if kind == "clipping":
        return finding.values["mode"] == planted.clip_mode
    if kind == "grad_lead":
        step = finding.values["loss_step"]
        assert isinstance(step, int)
        return any(abs(step - p) <= 3 * planted.log_every for p in planted.grad_lead_steps)
    return True


def _spike_counts(planted: Planted, found: dict[str, Finding]) -> Counter[str]:
    finding = found.get("curves.loss_spikes")
    detected = [int(s) for s in str(finding.values["steps"]).split(",")] if finding else []
    slack = 3 * planted.log_every
    hits = sum(any(abs(d - p) <= slack for d in detected) for p in planted.spike_steps)
    true_detections = sum(any(abs(d - p) <= slack for p in planted.spike_steps) for d in detected)
    return Counter(
        {"tp": hits, "fn": len(planted.spike_steps) - hits, "fp": len(detected) - true_detections}
    )


def score(planted: Planted, findings: list[Finding]) -> dict[str, Counter[str]]:
    """Per event kind: true positives, false positives and misses in this run."""
    found = {f.id: f for f in findings}
    counts: dict[str, Counter[str]] = {kind: Counter() for kind in EVENTS}
    counts["spikes"] = _spike_counts(planted, found)
    for kind, finding_id in _IDS.items():
        present = finding_id in found
        wanted = bool(planted.grad_lead_steps) if kind == "grad_lead" else planted.kind == kind
        if kind == "nan":
            right = present and wanted and _nan_right(planted, found)
        else:
            right = present and wanted and _right_place(kind, planted, found[finding_id])
        counts[kind]["tp"] += right
        counts[kind]["fp"] += present and not right
        counts[kind]["fn"] += wanted and not right
    return counts
