"""code.half_adam_default_eps: float16 weights and an Adam eps float16 rounds to 0."""

from __future__ import annotations

import pytest
from code_helpers import findings, fires

from trainwreck.analyzers.code.half_adam import ADAM_DEFAULT_EPS, FP16_ZERO_AT_OR_BELOW

ID = "code.half_adam_default_eps"
HALF = """
    model = Net().{cast}
    optimizer = torch.optim.{optimizer}
"""


def _source(cast: str = "half()", optimizer: str = "Adam(model.parameters(), lr=1e-3)") -> str:
    return HALF.format(cast=cast, optimizer=optimizer)


def test_fires_on_each_way_of_casting_the_weights_to_float16() -> None:
    for cast in ("half()", "to(torch.float16)", "to(dtype=torch.half)"):
        assert fires(_source(cast=cast), ID), cast
    loaded = """
        model = AutoModelForCausalLM.from_pretrained("gpt2", torch_dtype=torch.float16)
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    """
    assert findings(loaded)[ID].values["optimizer"] == "AdamW"


def test_quiet_without_float16_weights() -> None:
    assert not fires(_source(cast="cuda()"), ID)
    assert not fires(_source(cast="to(torch.bfloat16)"), ID)
    assert not fires("optimizer = torch.optim.Adam(model.parameters())\nx = batch.half()\n", ID)


def _fires_at(eps: float) -> bool:
    return fires(_source(optimizer=f"Adam(model.parameters(), lr=1e-3, eps={eps!r})"), ID)


def test_the_eps_threshold_is_where_float16_rounds_to_zero() -> None:
    torch = pytest.importorskip("torch")
    for eps in (ADAM_DEFAULT_EPS, FP16_ZERO_AT_OR_BELOW, FP16_ZERO_AT_OR_BELOW * 1.01, 1e-4):
        rounds_to_zero = torch.tensor(eps, dtype=torch.float16).item() == 0.0
        assert _fires_at(eps) == rounds_to_zero, eps
    assert _fires_at(FP16_ZERO_AT_OR_BELOW * 0.99)
    assert not _fires_at(FP16_ZERO_AT_OR_BELOW * 1.01)
