"""code.distributed_sampler_without_set_epoch: a shuffling DistributedSampler never re-seeded."""

from __future__ import annotations

import pytest
from code_helpers import fires

ID = "code.distributed_sampler_without_set_epoch"
SCRIPT = """
sampler = {sampler}
loader = DataLoader(train_ds, batch_size=32, sampler=sampler)
for epoch in range(EPOCHS):
    {per_epoch}
    for x, y in loader:
        loss = criterion(model(x), y)
"""


def _script(sampler: str = "DistributedSampler(train_ds)", per_epoch: str = "pass") -> str:
    return SCRIPT.format(sampler=sampler, per_epoch=per_epoch)


@pytest.mark.parametrize(
    "sampler",
    [
        "DistributedSampler(train_ds)",
        "torch.utils.data.distributed.DistributedSampler(train_ds, num_replicas=2, rank=rank)",
        "DistributedSampler(train_ds, shuffle=True)",
    ],
)
def test_fires_when_nothing_sets_the_epoch(sampler: str) -> None:
    assert fires(_script(sampler), ID)


@pytest.mark.parametrize(
    "source",
    [
        _script(per_epoch="sampler.set_epoch(epoch)"),
        _script(per_epoch="loader.sampler.set_epoch(epoch)"),
        _script("DistributedSampler(train_ds, shuffle=False)"),  # nothing to reshuffle
        _script().replace("for epoch in range(EPOCHS):", "if True:"),  # one pass, no epochs
    ],
)
def test_quiet_with_set_epoch_without_shuffling_or_without_epochs(source: str) -> None:
    assert not fires(source, ID)
