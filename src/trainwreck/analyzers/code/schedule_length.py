"""A per-step LR schedule sized to the number of epochs, or to one epoch, in a longer run.

transformers' `get_linear_schedule_with_warmup(optimizer, warmup, num_training_steps)`
(and its cosine/polynomial siblings, `get_scheduler`, torch's LinearLR and
PolynomialLR) count calls to `scheduler.step()`: the linear decay reaches 0 after
`num_training_steps` calls and stays there. Stepped once per batch, the total has
to be batches per epoch x epochs. Passing the epoch count (`num_training_steps=EPOCHS`)
ends the schedule after that many batches; passing `len(train_loader)` ends it after
the first epoch. From then on the learning rate is 0 (or its floor): the loss freezes
at whatever it reached and accuracy stays where it was, with no error. Stepped once
per epoch, an epoch-sized total is right and the rule stays quiet. A hand-written
`LambdaLR` decay (`1 - (step - warmup) / (total - warmup)`) sized the same way does
worse when nothing clamps it: past the total the factor goes below 0, the learning
rate turns negative and every optimizer step climbs the loss.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.loaders import LOADER_NAME
from trainwreck.analyzers.code.names import EPOCHS, bound_to, epoch_loop
from trainwreck.analyzers.code.tree import Hit, Tree, argument, dotted, last, receiver

# Each decaying schedule, the keyword of its length, and that keyword's position.
_LENGTHS = {
    "get_linear_schedule_with_warmup": ("num_training_steps", 2),
    "get_cosine_schedule_with_warmup": ("num_training_steps", 2),
    "get_cosine_with_hard_restarts_schedule_with_warmup": ("num_training_steps", 2),
    "get_polynomial_decay_schedule_with_warmup": ("num_training_steps", 2),
    "get_scheduler": ("num_training_steps", 3),
    "LinearLR": ("total_iters", 3),
    "PolynomialLR": ("total_iters", 1),
}
_LAMBDA = "LambdaLR"
_FLOORS = frozenset({"max", "min", "clamp", "clip"})
_LOADER = re.compile(r"(?:^|\.)DataLoader$")
# A batch size by name: BATCH, batch_size, args.bs, per_device_train_batch_size.
_BATCH = re.compile(r"(?i)batch|(?:^|[._])bs$")


def _sized_as(length: ast.expr, tree: Tree, loaders: set[str]) -> str | None:
    """'the epoch count' for `EPOCHS` / `args.epochs`, 'one epoch' for `len(loader)` (divided
    or not) or `len(dataset) // batch_size`, never multiplied by anything; else None."""
    value = tree.resolved(length)
    if any(
        isinstance(named, ast.Name | ast.Attribute) and EPOCHS.search(dotted(named))
        for named in (length, value)
    ):
        return "the epoch count"
    if any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult) for n in ast.walk(value)):
        return None
    if any(EPOCHS.search(dotted(n)) for n in ast.walk(value) if isinstance(n, ast.Name)):
        return None
    counted = [
        dotted(n.args[0])
        for n in ast.walk(value)
        if isinstance(n, ast.Call) and last(n) == "len" and len(n.args) == 1
    ]
    if counted and all(name in loaders or LOADER_NAME.search(name) for name in counted):
        return "one epoch"
    if counted and _divided_by_batch(value):
        return "one epoch"
    return None


def _divided_by_batch(value: ast.expr) -> bool:
    """`len(train_ds) // BATCH`, `math.ceil(len(ds) / args.batch_size)`: one epoch's batches."""
    return any(
        isinstance(n, ast.BinOp)
        and isinstance(n.op, ast.Div | ast.FloorDiv)
        and _BATCH.search(dotted(n.right) or ast.unparse(n.right))
        for n in ast.walk(value)
    )


def _several_epochs(tree: Tree) -> bool:
    """Some loop in the code runs over epochs and is not `range(1)`."""
    return any(
        isinstance(node, ast.For | ast.AsyncFor)
        and epoch_loop(node)
        and ast.unparse(node.iter) not in {"range(1)", "range(0, 1)"}
        for node in tree.nodes
    )


def _stepped_per_batch(tree: Tree, scheduler: str) -> ast.Call | None:
    """The `scheduler.step()` whose innermost loop is not an epoch loop."""
    for call in tree.methods("step"):
        loops = tree.loops(call)
        if receiver(call) == scheduler and loops and not epoch_loop(loops[0]):
            return call
    return None


def _decay(tree: Tree, call: ast.Call) -> ast.AST | None:
    """The function (or lambda) a LambdaLR multiplies the rate by."""
    given = argument(call, "lr_lambda", 1)
    if isinstance(given, ast.Lambda):
        return given
    name = dotted(given)
    return next(
        (n for n in tree.nodes if isinstance(n, ast.FunctionDef) and n.name == name and name),
        None,
    )


def _lambda_length(
    tree: Tree, call: ast.Call, loaders: set[str]
) -> tuple[ast.expr, str, bool] | None:
    """A LambdaLR's schedule length (a name in its decay's divisor sized to one epoch or the
    epoch count), how it is sized, and whether the decay is floored (max/min/clamp)."""
    decay = _decay(tree, call)
    if decay is None:
        return None
    floored = any(isinstance(n, ast.Call) and last(n) in _FLOORS for n in ast.walk(decay))
    for division in ast.walk(decay):
        if not (isinstance(division, ast.BinOp) and isinstance(division.op, ast.Div)):
            continue
        for name in ast.walk(division.right):
            if isinstance(name, ast.Name) and (sized := _sized_as(name, tree, loaders)):
                return name, sized, floored
    return None


def _length(tree: Tree, call: ast.Call, loaders: set[str]) -> tuple[ast.expr, str, str] | None:
    """The schedule's length, how it is sized, and what the rate does once it runs out."""
    if last(call) == _LAMBDA:
        found = _lambda_length(tree, call, loaders)
        if found is None:
            return None
        named, how, floored = found
        return named, how, FLOORED if floored else NEGATIVE
    if last(call) not in _LENGTHS or (given := argument(call, *_LENGTHS[last(call)])) is None:
        return None
    sized = _sized_as(given, tree, loaders)
    return (given, sized, BUILT_IN) if sized else None


# What the rate does past the schedule's end.
BUILT_IN = "a linear decay holds the learning rate at 0 (a cosine one swings it back up)"
FLOORED = "the hand-written decay holds the learning rate at its floor"
NEGATIVE = (
    "the hand-written decay has no floor, so the factor falls below 0: the learning rate "
    "turns negative and each step climbs the loss"
)


def _find(tree: Tree) -> list[Hit]:
    loaders = bound_to(tree, _LOADER)
    hits = []
    for node in tree.nodes:
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        call = node.value
        if (found := _length(tree, call, loaders)) is None:
            continue
        length, sized, then = found
        if sized == "one epoch" and not _several_epochs(tree):
            continue
        for target in node.targets:
            if (step := _stepped_per_batch(tree, dotted(target))) is not None:
                hits.append(
                    tree.hit(
                        call,
                        sized=sized,
                        length=ast.unparse(length),
                        step=ast.unparse(step),
                        then=then,
                    )
                )
    return hits


DETECTOR = Detector(
    name="schedule_shorter_than_training",
    title="A per-step LR schedule sized to the epoch count or to one epoch",
    category="divergence",
    explain=(
        "{where}: `{code}` sizes the schedule to {sized} (`{length}`), but `{step}` runs on "
        "every batch: the schedule runs out after that many steps, and from there {then}"
    ),
    find=_find,
)
