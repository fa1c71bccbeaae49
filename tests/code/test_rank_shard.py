"""code.data_sharded_by_rank_by_hand: per-rank slices that can differ in length under DDP."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_16, file_findings, fires

ID = "code.data_sharded_by_rank_by_hand"
SCRIPT = """
rank, world_size = dist.get_rank(), dist.get_world_size()
{before}
x_local = {shard}
model = DDP(net)
for xb, yb in DataLoader(TensorDataset(x_local, y_local), batch_size=16):
    loss = criterion(model(xb), yb)
    loss.backward()
"""


def _script(shard: str = "x[rank::world_size]", before: str = "") -> str:
    return SCRIPT.format(shard=shard, before=before)


def test_fires_on_the_batch_16_reproduction() -> None:
    found = file_findings(BATCH_16 / "r16E-pytorch-ddp-stuck-first-epoch-repro" / "train.py")[ID]
    assert found.values["line"] == 30


@pytest.mark.parametrize(
    "shard",
    [
        "x[rank::world_size]",
        "x[args.local_rank::args.world_size]",
        "np.array_split(x, world_size)[rank]",
        "x.chunk(world_size)[rank]",
        "torch.tensor_split(x, dist.get_world_size())[dist.get_rank()]",
    ],
)
def test_fires_on_a_hand_made_shard_under_ddp(shard: str) -> None:
    assert fires(_script(shard), ID)


@pytest.mark.parametrize(
    "source",
    [
        # trimmed to a multiple of the world size first: every shard has the same length
        _script(before="x = x[: len(x) - len(x) % world_size]"),
        # no collective per step: each rank evaluates its own part
        _script().replace("model = DDP(net)", "model = net"),
        # slicing by something other than the rank
        _script("x[start::step]"),
    ],
)
def test_quiet_when_the_shards_are_equal_or_nothing_pairs_up(source: str) -> None:
    assert not fires(source, ID)


def test_quiet_under_the_uneven_inputs_join() -> None:
    source = (
        _script()
        .replace("for xb, yb", "with model.join():\n  for xb, yb")
        .replace("\n    loss", "\n      loss")
    )
    assert not fires(source, ID)


def test_a_string_join_does_not_count_as_ddp_join() -> None:
    source = _script(before='print(", ".join(sorted(files)))')
    assert fires(source, ID)
