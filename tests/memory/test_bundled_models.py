"""Every bundled config.json: its computed parameter count matches the published one."""

from __future__ import annotations

import pytest

from trainwreck.memory.architectures import shape_of
from trainwreck.memory.config import BundledModel, bundled, load_config

MODELS = bundled()


def test_at_least_twenty_bundled_models() -> None:
    assert len(MODELS) >= 20


@pytest.mark.parametrize("model", MODELS, ids=[m.id for m in MODELS])
def test_parameter_count_matches_published(model: BundledModel) -> None:
    shape = shape_of(load_config(model.id))
    # A checkpoint that stores the tied output matrix again publishes it twice.
    counted = shape.params + (shape.vocab * shape.hidden if model.stored_untied else 0)
    tolerance = 0.005 if model.params_precision != "rounded" else 0.05  # "7B" is +-5% at best
    assert abs(counted - model.published_params) / model.published_params <= tolerance
    assert not shape.family.startswith("generic")
