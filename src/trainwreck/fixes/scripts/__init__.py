"""Verification scripts: a runnable check, per failure class, that the fix works.

`verification_for` picks a template by the hypothesis's category (serving
frameworks get a load test, distributed hangs a collective probe), fills it from
the evidence and returns a `Verification` whose script runs as it stands:
exit 0 when the failure is gone, 1 when it is still there, 2 when the check
could not run (a package missing, a shell variable left unexpanded, a file
missing, no command or value to check with, the probe itself crashing), with the
reason in one line. Every class gets one; what each proves, and what it cannot:

- a crash: the command rerun under a timeout fails while it exits non-zero with the
  failure's error (or another error, said as such); a run that goes on past the timeout
  passes, so a crash later than the timeout is not seen;
- a local hang (a stale build lock, a stuck DataLoader): the rerun fails when it is still
  running at the timeout with the hang's line the last it printed, passes when it finishes
  or prints on past that line; a run stuck before the line says nothing (exit 2);
- slow throughput whose fix changes no data-loader setting: the rerun's steady rate (the
  median of what it prints: tqdm, the HF Trainer, vLLM) must beat the evidence's by
  MIN_SPEEDUP; it proves the run faster, not that this cause made it slow;
- a wrong output: the rerun's last value of the metric the log judges it by must meet an
  expectation only the user can state (the script refuses until given one); it proves
  that number right, not every output.

Config errors keep the package probe, which builds the framework class with the fixed
settings before any run is needed.
"""

from __future__ import annotations

from collections.abc import Callable

from trainwreck.fixes.scripts.measured import (
    metric_rerun_parameters,
    throughput_rerun_parameters,
)
from trainwreck.fixes.scripts.packages import package_parameters
from trainwreck.fixes.scripts.parameters import Context, Parameter
from trainwreck.fixes.scripts.render import script
from trainwreck.fixes.scripts.rerun import hang_parameters, rerun_parameters
from trainwreck.fixes.scripts.services import (
    changes_data_loader,
    collective_parameters,
    serving_parameters,
    throughput_parameters,
)
from trainwreck.fixes.scripts.training import memory_parameters, stability_parameters
from trainwreck.model import Evidence, Finding, Hypothesis, Verification

__all__ = ["verification_for"]

_SERVING = frozenset({"vllm", "sglang", "tgi"})
_LOCAL_HANGS = frozenset({"dataloader-timeout", "torch-extensions-stale-lock"})
Builder = Callable[[Context], list[Parameter]]
# kind -> (template, what a pass proves, parameter builder)
_KINDS: dict[str, tuple[str, str, Builder]] = {
    "training-steps": (
        "stability",
        "runs a few training steps of the model with the fix applied and fails on a "
        "non-finite loss or gradient norm, a loss spike, or a loss that ends above its start",
        stability_parameters,
    ),
    "peak-memory": (
        "peak_memory",
        "runs the peak step (largest batch x sequence, forward, backward, optimizer step) "
        "with the fix applied and fails when its peak memory exceeds the budget",
        memory_parameters,
    ),
    "load-test": (
        "load_test",
        "sends concurrent requests to the OpenAI-compatible endpoint and fails past the "
        "latency, error-rate or throughput thresholds",
        serving_parameters,
    ),
    "collective-probe": (
        "collectives",
        "joins every rank, runs all_reduce and barrier rounds under a timeout and fails "
        "when a rank errors or stalls",
        collective_parameters,
    ),
    "package-probe": (
        "packages",
        "checks each involved package's installed version against the requirement, "
        "imports it, and builds the installed framework classes with the run's settings and "
        "the fix applied, failing when one still raises",
        package_parameters,
    ),
    "data-throughput": (
        "throughput",
        "times a training loop before and after the fix's data-loader settings and "
        "fails when the fix does not raise samples/s or leaves the loop waiting for data",
        throughput_parameters,
    ),
    "rerun": (
        "rerun",
        "reruns the command that crashed (the evidence's, or one given after `--`) under a "
        "timeout and fails while it still crashes: with the failure's error, or with another "
        "error, named as such",
        rerun_parameters,
    ),
    "rerun-hang": (
        "rerun_hang",
        "reruns the command that hung (the evidence's, or one given after `--`) under a "
        "timeout and fails while it is still running at the timeout with the line it hung "
        "after the last it printed, or crashes",
        hang_parameters,
    ),
    "rerun-throughput": (
        "rerun_throughput",
        "reruns the slow command (the evidence's, or one given after `--`), reads its "
        "throughput from what it prints (tqdm, the HF Trainer, vLLM) and fails unless it is "
        "at least min_speedup times the throughput before the fix",
        throughput_rerun_parameters,
    ),
    "rerun-metric": (
        "rerun_metric",
        "reruns the command whose output was wrong (the evidence's, or one given after `--`), "
        "reads the metric's last printed value and fails when it misses the expectation you "
        "give (--expect)",
        metric_rerun_parameters,
    ),
}


def kind_of(hypothesis: Hypothesis) -> str:
    """Which check proves this hypothesis's fix."""
    category = hypothesis.category
    if category == "dependency_conflict":
        return "package-probe"
    if _SERVING & set(hypothesis.frameworks):
        return "load-test"
    if category in ("nan_inf", "divergence"):
        return "training-steps"
    if category == "oom":
        return "peak-memory"
    if category == "hang":
        return "rerun-hang" if hypothesis.id in _LOCAL_HANGS else "collective-probe"
    if category == "slow_throughput":
        return "data-throughput" if changes_data_loader(hypothesis) else "rerun-throughput"
    if category == "config_error":
        return "package-probe"
    if category == "wrong_output":
        return "rerun-metric"
    return "rerun"


def verification_for(
    hypothesis: Hypothesis, evidence: Evidence, findings: tuple[Finding, ...]
) -> Verification:
    """The filled, runnable script for `hypothesis`."""
    kind = kind_of(hypothesis)
    template, proves, build = _KINDS[kind]
    parameters = build(Context(hypothesis, evidence, findings))
    doc = (
        f"Verify the fix for: {hypothesis.title}\n\n"
        f"Generated by trainwreck for hypothesis {hypothesis.id} ({hypothesis.category}): it "
        f"{proves}.\nExit status: 0 the failure is gone, 1 it is still there, 2 the check could "
        "not run (it prints why).\n"
        "Every filled value is in PARAMETERS below with its source; override any of them "
        "with its flag (see --help)."
    )
    summary = f"It {proves}."
    return Verification(kind=kind, script=script(template, doc, parameters), summary=summary)
