"""code.ddp_loader_not_sharded: a training DataLoader in DDP code that every rank reads whole."""

from __future__ import annotations

import pytest
from code_helpers import fires

ID = "code.ddp_loader_not_sharded"
SCRIPT = """
dist.init_process_group("nccl")
model = DDP(model.to(rank), device_ids=[rank])
train_ds = {dataset}
loader = DataLoader(train_ds, batch_size=32{loader_args})
{extra}
for epoch in range(epochs):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
"""


def _script(
    dataset: str = "TextDataset(path)", loader_args: str = ", shuffle=True", extra: str = ""
) -> str:
    return SCRIPT.format(dataset=dataset, loader_args=loader_args, extra=extra)


def test_fires_on_a_shuffled_training_loader_with_no_sampler() -> None:
    assert fires(_script(), ID)


def test_fires_on_an_unshuffled_loader_too() -> None:
    assert fires(_script(loader_args=""), ID)


@pytest.mark.parametrize(
    ("dataset", "loader_args", "extra"),
    [
        # the sampler splits the data (and it may be built anywhere in the file)
        ("TextDataset(path)", ", sampler=DistributedSampler(train_ds)", ""),
        ("TextDataset(path)", ", batch_sampler=bucket_sampler", ""),
        # a dataset built for this rank is its shard
        ("TextDataset(path, rank=rank, world_size=world_size)", ", shuffle=True", ""),
        ("full_ds[rank::dist.get_world_size()]", ", shuffle=True", ""),
        # Accelerate's prepare() shards the loaders it is given
        ("TextDataset(path)", ", shuffle=True", "loader = accelerator.prepare(loader)"),
    ],
)
def test_quiet_when_the_data_is_split_by_rank(dataset: str, loader_args: str, extra: str) -> None:
    assert not fires(_script(dataset, loader_args, extra), ID)


def test_quiet_for_a_loader_no_backward_reads() -> None:
    """Each rank evaluating the whole validation set is wasteful, not wrong."""
    source = _script().replace("loss.backward()", "total += loss.item()")
    assert not fires(source, ID)


def test_quiet_in_single_process_code() -> None:
    source = _script().replace('dist.init_process_group("nccl")\n', "")
    assert not fires(source.replace("DDP(model.to(rank), device_ids=[rank])", "model"), ID)
