"""JAX's preallocated share of the GPU set to the whole card, or written as a percentage.

`XLA_PYTHON_CLIENT_MEM_FRACTION` is a ratio of device memory that JAX's allocator
reserves when its first operation runs. Set to 1.0 (or .95 and up), or to "100"
meaning a percentage, it leaves nothing outside the pool for the CUDA libraries
XLA calls (cuDNN, cuBLAS, NCCL), whose initialisation then fails or hangs. Read
from `os.environ[...] = "..."` and `os.environ.setdefault(..., "...")` in the code.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted

VARIABLE = "XLA_PYTHON_CLIENT_MEM_FRACTION"
# At or above this share nothing useful is left for the libraries: JAX's maintainers give
# 0.75 as the typical value (jax#17426) and its old default was 0.9 of free memory.
WHOLE_CARD = 0.95


def _value(node: ast.expr | None) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str | int | float):
        try:
            return float(node.value)
        except ValueError:
            return None
    return None


def _set_values(tree: Tree) -> list[tuple[ast.AST, float]]:
    """(node, value) for each constant the code assigns to the variable in os.environ."""
    found: list[tuple[ast.AST, float]] = []
    for node in tree.nodes:
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and dotted(target.value).endswith("environ")
                    and isinstance(target.slice, ast.Constant)
                    and target.slice.value == VARIABLE
                    and (value := _value(node.value)) is not None
                ):
                    found.append((node, value))
    for call in tree.calls:
        if (
            dotted(call.func).endswith("environ.setdefault")
            and len(call.args) == 2
            and isinstance(call.args[0], ast.Constant)
            and call.args[0].value == VARIABLE
            and (value := _value(call.args[1])) is not None
        ):
            found.append((call, value))
    return found


def _find(tree: Tree) -> list[Hit]:
    return [
        tree.hit(node, fraction=value) for node, value in _set_values(tree) if value >= WHOLE_CARD
    ]


DETECTOR = Detector(
    name="xla_memory_fraction_whole_card",
    title="JAX's preallocated share of the GPU is set to the whole card or written as a percentage",
    category="config_error",
    explain=(
        "{where}: `{code}` makes JAX reserve {fraction:g} of the GPU (a ratio; 0.75 is typical), "
        "leaving no memory outside its pool for cuDNN, cuBLAS or NCCL"
    ),
    find=_find,
)
