"""What user code calls a loss: a loss call, a name holding a loss, a hand-written loss.

The names the PyTorch tutorials and docs use (`criterion`, `loss_fn`,
`F.cross_entropy`), and those people give their own losses (`focal_loss`, `dice`).
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.tree import Tree, last

_LOSS_CALL = re.compile(r"(?i)loss|criterion|cross_entropy|mse|nll|bce|huber|kl_div")
_LOSS_NAME = re.compile(r"(?i)loss")
# How hand-written loss functions (and the names a loss is assigned to) are called.
_LOSS_FUNCTION = re.compile(
    r"(?i)loss|bce|cross_?entropy|^ce_|_ce$|^ce$|criterion|focal|dice|iou|jaccard|nll"
)


def names_loss_call(name: str) -> bool:
    """`CrossEntropyLoss`, `criterion`, `mse_loss`: a callable named like a loss."""
    return bool(_LOSS_CALL.search(name))


def is_loss_call(call: ast.Call) -> bool:
    """`criterion(out, y)`, `loss_fn(...)`, `F.cross_entropy(...)`."""
    return names_loss_call(last(call))


def is_loss_function(name: str) -> bool:
    """`focal_loss`, `dice`, `bce_with_mask`: a function (or target) named like a loss."""
    return bool(_LOSS_FUNCTION.search(name))


def in_loss(tree: Tree, node: ast.AST) -> bool:
    """Inside a function named like a loss, or assigned to a name like one (`dice = ...`)."""
    function = tree.function(node)
    if function is not None and is_loss_function(function.name):
        return True
    statement = next((a for a in tree.ancestors(node) if isinstance(a, ast.Assign)), None)
    return statement is not None and any(
        is_loss_function(last(target)) for target in statement.targets
    )


def is_loss_name(name: str) -> bool:
    return bool(_LOSS_NAME.search(name.rsplit(".", 1)[-1]))
