"""JAX training code that never compiles its step: every operation is dispatched from Python.

Without `jax.jit` (or pmap/pjit, or a library's jit wrapper) each jax.numpy operation of
the step, forward, gradient and update alike, is its own dispatch from Python to the
device, with JAX's per-operation overhead and no fusion. On a small or medium model that
overhead is most of the step, and the same training loop runs tens of times slower than
PyTorch or than itself under jit. Fires on code that takes gradients with JAX
(`jax.grad`, `value_and_grad`) inside or for a loop and never names jit anywhere.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, dotted

# What compiles a JAX function: jax.jit, jit, pmap, pjit, xmap, nnx.jit, eqx.filter_jit, ...
_COMPILES = re.compile(r"\bjit\b|_jit\b|\bpjit\b|\bpmap\b|\bxmap\b")
# `jax.grad(f)`, `jax.value_and_grad(f)`, or the bare names imported from jax.
_GRADIENTS = frozenset({"grad", "value_and_grad", "jax.grad", "jax.value_and_grad"})


def _find(tree: Tree) -> list[Hit]:
    source = tree.source
    if "jax" not in source or _COMPILES.search(source):
        return []
    if not any(isinstance(node, ast.For | ast.While) for node in tree.nodes):
        return []
    return [tree.hit(call) for call in tree.calls if dotted(call.func) in _GRADIENTS][:1]


DETECTOR = Detector(
    name="jax_step_not_jitted",
    title="JAX code that takes gradients in a loop and never compiles with jit",
    category="slow_throughput",
    explain=(
        "{where}: `{code}` takes gradients in JAX code that names no jit, pmap or pjit: every "
        "operation of every step is dispatched from Python"
    ),
    find=_find,
)
