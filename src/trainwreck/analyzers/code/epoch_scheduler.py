"""An epoch-scaled LR scheduler stepped inside the batch loop.

StepLR(step_size=5), MultiStepLR(milestones=[30, 80]), ExponentialLR(gamma=0.9) and
CosineAnnealingLR(T_max=50) count calls to step(); PyTorch's scheduler docs call step()
once per epoch with periods like these. Stepped once per batch instead, the period
passes every few batches: StepLR(step_size=5, gamma=0.1) on 100 batches an epoch cuts
the rate 10^20-fold in the first epoch, and the loss freezes at whatever it reached. A
scheduler built with a period in the thousands is a per-step schedule and stays quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import bound_calls, optimizer_steps
from trainwreck.analyzers.code.tree import Hit, Tree, argument, last, number, receiver

# A period (step_size, largest milestone, T_max) this small counts epochs: the scheduler docs'
# examples use 30 and 80 over 100 epochs, while per-step schedules count thousands of steps.
EPOCH_SCALE = 100
# A per-step exponential decay stays within 1% of 1; gamma=0.9 per batch halves the rate
# every 7 batches.
PER_STEP_GAMMA = 0.99
# Each scheduler, the keyword of its period (or decay), and that keyword's position.
_PERIODS = {
    "StepLR": ("step_size", 1),
    "MultiStepLR": ("milestones", 1),
    "CosineAnnealingLR": ("T_max", 1),
    "ExponentialLR": ("gamma", 1),
}


def _epoch_scaled(tree: Tree, call: ast.Call) -> bool:
    """Whether a scheduler's construction gives it an epoch-sized period (a literal, or a
    name or config entry the code assigns one)."""
    kind = last(call)
    name, position = _PERIODS[kind]
    found = argument(call, name, position)
    value = tree.resolved(found) if found is not None else None
    if kind == "MultiStepLR" and isinstance(value, ast.List | ast.Tuple):
        periods = [number(item) for item in value.elts]
        return bool(periods) and all(p is not None and p <= EPOCH_SCALE for p in periods)
    amount = number(value)
    if amount is None:
        return False
    return amount < PER_STEP_GAMMA if kind == "ExponentialLR" else amount <= EPOCH_SCALE


def _find(tree: Tree) -> list[Hit]:
    schedulers = bound_calls(
        tree, lambda call: last(call) in _PERIODS and _epoch_scaled(tree, call)
    )
    hits = []
    for call in tree.methods("step"):
        built = schedulers.get(receiver(call))
        loops = tree.loops(call)
        if built is None or len(loops) < 2 or not optimizer_steps(loops[0]):
            continue
        hits.append(tree.hit(call, scheduler=ast.unparse(built), step=ast.unparse(call)))
    return hits


DETECTOR = Detector(
    name="epoch_scheduler_stepped_per_batch",
    title="An LR scheduler with an epoch-sized period is stepped once per batch",
    category="divergence",
    explain=(
        "{where}: `{step}` runs in the batch loop, but `{scheduler}` counts its period in "
        "epochs; the rate decays every few batches instead"
    ),
    find=_find,
)
