"""code.jax_step_not_jitted: JAX gradients taken in a loop by code that never compiles with jit."""

from __future__ import annotations

import pytest
from code_helpers import fires

ID = "code.jax_step_not_jitted"
LOOP = """
import jax
import jax.numpy as jnp

{decorator}
def train_step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    return jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads), loss

{wrap}
for step in range(1000):
    params, loss = train_step(params, x, y)
"""


def test_fires_on_an_uncompiled_train_step() -> None:
    assert fires(LOOP.format(decorator="", wrap=""), ID)


@pytest.mark.parametrize(
    ("decorator", "wrap"),
    [
        ("@jax.jit", ""),
        ("", "train_step = jax.jit(train_step)"),
        ("@partial(jax.pmap, axis_name='batch')", ""),
        ("@eqx.filter_jit", ""),
        ("@nnx.jit", ""),
    ],
)
def test_quiet_when_the_step_is_compiled(decorator: str, wrap: str) -> None:
    assert not fires(LOOP.format(decorator=decorator, wrap=wrap), ID)


def test_quiet_for_torch_code_with_a_grad_call() -> None:
    source = """
import torch
for step in range(10):
    g = torch.autograd.grad(loss, params)
"""
    assert not fires(source, ID)
