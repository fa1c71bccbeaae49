"""An update written as `p = ...` inside a loop over a model's tensors: the loop variable
is rebound to a new tensor and the model's own tensor never changes.

`for ema_p, p in zip(ema.parameters(), model.parameters()): ema_p = d * ema_p + (1 - d) * p`
computes the new average and binds it to the loop's name only; the next pass of the loop
binds that name to the next tensor, so the result is dropped and the EMA (or averaged,
clipped, re-initialised) weights stay as they were. The in-place forms (`ema_p.mul_(d)`,
`ema_p.copy_(...)`, `ema_p.data = ...`) change the model's tensor and stay quiet, as does
a rebound value that is used afterwards in the same pass (written back, appended).
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, names_in

# Methods that hand out a module's own tensors: rebinding a loop name over them loses the update.
_TENSOR_SOURCES = frozenset(
    {"parameters", "named_parameters", "buffers", "named_buffers", "state_dict"}
)


def _loop_names(loop: ast.For) -> set[str]:
    return {node.id for node in ast.walk(loop.target) if isinstance(node, ast.Name)}


def _read_later(name: str, body: list[ast.stmt], after: int) -> bool:
    """Whether a statement after position `after` of the loop's body reads `name`."""
    return any(name in names_in(statement) for statement in body[after + 1 :])


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for loop in tree.nodes:
        if not isinstance(loop, ast.For):
            continue
        if not any(name.rsplit(".", 1)[-1] in _TENSOR_SOURCES for name in names_in(loop.iter)):
            continue
        names = _loop_names(loop)
        for position, statement in enumerate(loop.body):
            if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1):
                continue
            target = statement.targets[0]
            if not (isinstance(target, ast.Name) and target.id in names):
                continue
            if target.id in names_in(statement.value) and not _read_later(
                target.id, loop.body, position
            ):
                hits.append(tree.hit(statement, name=target.id))
    return hits


DETECTOR = Detector(
    name="loop_variable_rebound",
    title="An update `p = ...` inside a loop over a model's tensors rebinds the loop variable; "
    "the model's tensors never change",
    category="wrong_output",
    explain=(
        "{where}: `{code}` binds the loop variable `{name}` to a new tensor and nothing reads it "
        "afterwards, so the tensor the loop was given keeps its old value"
    ),
    find=_find,
)
