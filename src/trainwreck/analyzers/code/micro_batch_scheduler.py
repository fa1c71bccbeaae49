"""A learning-rate scheduler stepped on every micro-batch while the optimizer steps every k.

With hand-written gradient accumulation the optimizer steps once every k
micro-batches (`if (i + 1) % k == 0: optimizer.step()`). A scheduler whose
`step()` sits outside that branch advances k times per update: a schedule sized
in optimizer updates (OneCycleLR's total_steps, a warmup of N steps, a cosine
over the run) runs k times too fast, so warmup ends early, the decay finishes a
k-th of the way through, and OneCycleLR raises "Tried to step ... times" when
its count runs out. Its first step also comes before the first optimizer.step(),
which is what PyTorch's scheduler-order warning reports.

Accelerate's `with accelerator.accumulate(model):` does the same implicitly: the
prepared optimizer skips its step on the micro-batches that do not sync, and so
does a prepared scheduler, but a scheduler never passed to `accelerator.prepare`
steps every time it is called. Guarded by `if accelerator.sync_gradients:` it is
stepped once per update and stays quiet.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import bound_to, optimizer_steps
from trainwreck.analyzers.code.tree import Hit, Loop, Tree, dotted, is_method, receiver

# Constructors of LR schedulers: torch.optim.lr_scheduler's classes (StepLR, OneCycleLR,
# LambdaLR, ReduceLROnPlateau is stepped per metric and excluded below) and transformers'
# get_*_schedule_with_warmup factories.
_SCHEDULER = re.compile(r"(?:LR|_schedule_with_warmup|_schedule)$")
_PER_METRIC = re.compile(r"(?:^|\.)ReduceLROnPlateau$")
# The names the PyTorch and Hugging Face examples give a scheduler built elsewhere.
_SCHEDULER_NAME = re.compile(r"(?i)(?:^|[._])(?:lr_)?sched(?:uler)?$")


def _schedulers(tree: Tree) -> set[str]:
    """Names built by a scheduler constructor here, or named like one (and not per metric)."""
    named = {
        receiver(call) for call in tree.methods("step") if _SCHEDULER_NAME.search(receiver(call))
    }
    return (named | bound_to(tree, _SCHEDULER)) - bound_to(tree, _PER_METRIC)


def _accumulation_branch(tree: Tree, step: ast.Call, loop: Loop) -> ast.If | None:
    """The `if ... % k ...:` inside `loop` that an optimizer step sits under, if any."""
    for outer in tree.ancestors(step):
        if outer is loop:
            return None
        if isinstance(outer, ast.If) and any(
            isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)
            for node in ast.walk(outer.test)
        ):
            return outer
    return None


def _prepared(tree: Tree) -> set[str]:
    """Names passed to an `accelerator.prepare(...)` call."""
    return {dotted(argument) for call in tree.methods("prepare") for argument in call.args}


def _accumulate_block(tree: Tree, call: ast.Call) -> ast.With | None:
    """The `with accelerator.accumulate(...):` a call sits in, unless a sync test guards it."""
    for outer in tree.ancestors(call):
        if isinstance(outer, ast.If) and "sync_gradients" in ast.unparse(outer.test):
            return None
        if isinstance(outer, ast.With) and any(
            isinstance(item.context_expr, ast.Call) and is_method(item.context_expr, "accumulate")
            for item in outer.items
        ):
            return outer
    return None


def _unprepared_in_accumulate(tree: Tree, schedulers: set[str]) -> list[Hit]:
    prepared = _prepared(tree)
    for call in tree.methods("step"):
        scheduler = receiver(call)
        if scheduler in schedulers and scheduler not in prepared:
            block = _accumulate_block(tree, call)
            if block is not None:
                every = f"{ast.unparse(block.items[0].context_expr)} syncs gradients"
                return [tree.hit(call, scheduler=scheduler, every=every)]
    return []


def _find(tree: Tree) -> list[Hit]:
    schedulers = _schedulers(tree)
    if accumulated := _unprepared_in_accumulate(tree, schedulers):
        return accumulated
    for call in tree.methods("step"):
        if receiver(call) not in schedulers or not (loops := tree.loops(call)):
            continue
        steps = optimizer_steps(loops[0])
        branches = [_accumulation_branch(tree, step, loops[0]) for step in steps]
        if not steps or None in branches:
            continue
        branch = branches[0]
        if branch is not None and branch not in tree.ancestors(call):
            every = ast.unparse(branch.test)
            return [tree.hit(call, scheduler=receiver(call), every=every)]
    return []


DETECTOR = Detector(
    name="scheduler_stepped_per_micro_batch",
    title="The LR scheduler steps on every micro-batch while the optimizer steps once per "
    "accumulation",
    category="config_error",
    explain=(
        "{where}: `{code}` runs on every micro-batch, but the optimizer steps only when "
        "`{every}`: `{scheduler}` advances once per micro-batch, faster than the updates it "
        "was sized for"
    ),
    find=_find,
)
