"""code.collective_in_rank_zero_branch: a collective that only one side of a rank test calls."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_15, file_findings, findings, fires

ID = "code.collective_in_rank_zero_branch"

# The shape of the confirmed cause of batch-1 lightning-save-checkpoint-rank0-barrier-hang-381
# (autocast #381, fixed in #386), in our own words.
LIGHTNING_SAVE = """
    trainer.fit(model, datamodule=datamodule)
    if trainer.is_global_zero:
        trainer.save_checkpoint(checkpoint_path)
        log.info("saved %s", checkpoint_path)
    trainer.strategy.barrier("finalize")
"""


def test_fires_on_a_checkpoint_save_only_rank_0_makes() -> None:
    finding = findings(LIGHTNING_SAVE)[ID]
    assert finding.values["collective"] == "trainer.save_checkpoint"
    assert finding.values["test"] == "trainer.is_global_zero"
    assert finding.values["line"] == 4


def test_fires_on_torch_distributed_collectives_under_each_spelling_of_rank_0() -> None:
    for test in ("dist.get_rank() == 0", "rank == 0", "args.local_rank in [-1, 0]", "not rank"):
        source = f"if {test}:\n    dist.all_reduce(total)\n"
        assert fires(source, ID), test
    assert fires("if accelerator.is_main_process:\n    accelerator.wait_for_everyone()\n", ID)


def test_fires_in_a_function_only_rank_0_runs() -> None:
    source = "@rank_zero_only\ndef save(trainer, path):\n    trainer.save_checkpoint(path)\n"
    assert findings(source)[ID].values["test"] == "@rank_zero_only"


def test_quiet_on_file_writes_and_tensor_ops_under_rank_0() -> None:
    source = """
        if rank == 0:
            torch.save(model.state_dict(), path)
            picked = torch.gather(scores, 1, index)
            print(values.scatter(0, index, src))
    """
    assert not fires(source, ID)


def test_quiet_when_both_sides_call_it() -> None:
    both = "if rank == 0:\n    prepare()\n    dist.barrier()\nelse:\n    dist.barrier()\n"
    assert not fires(both, ID)
    # "main process first": the others wait before the work, rank 0 joins them after it.
    first = """
        if args.local_rank not in [-1, 0]:
            torch.distributed.barrier()
        dataset = load_and_cache_examples(args)
        if args.local_rank == 0:
            torch.distributed.barrier()
    """
    assert not fires(first, ID)


def test_fires_when_only_the_other_ranks_wait() -> None:
    assert fires("if rank != 0:\n    dist.barrier()\n", ID)


def test_quiet_on_tests_that_are_not_about_rank() -> None:
    assert not fires("if world_size > 1:\n    dist.barrier()\n", ID)


def test_the_else_of_a_compound_rank_test_runs_on_every_rank() -> None:
    # accelerate's logging: the else branch of `not in_order and main-process-check` runs
    # on all ranks when in_order, so its wait_for_everyone() is symmetric.
    source = """
        if not in_order and self._should_log(main_process_only):
            self.logger.log(level, msg)
        elif in_order:
            state.wait_for_everyone()
    """
    assert not fires(source, ID)
    assert fires("if ready and rank == 0:\n    dist.barrier()\n", ID)


DDP_ID = "code.ddp_forward_on_one_rank"
DDP_RUN = """
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3)
        self.{layer} = nn.{kind}

def evaluate(net, loader):
    return sum(net(x).argmax(1).eq(y).sum().item() for x, y in loader)

def run(rank):
    model = DDP(Net().to(rank){options})
    if rank == 0:
        acc = {call}
    dist.barrier()
"""


def _ddp(
    call: str = "evaluate(model, val_loader)",
    kind: str = "BatchNorm2d(8)",
    layer: str = "bn",
    options: str = "",
) -> str:
    return DDP_RUN.format(call=call, kind=kind, layer=layer, options=options)


def test_ddp_forward_fires_on_the_batch_15_reproduction() -> None:
    """r15E: rank 0 alone evaluates through the DDP wrapper of a CNN with BatchNorm."""
    found = file_findings(BATCH_15 / "r15E-pytorch-ddp-stuck-after-first-epoch-repro" / "train.py")[
        DDP_ID
    ]
    assert (found.values["model"], found.values["test"]) == ("model", "rank == 0")


@pytest.mark.parametrize("call", ["evaluate(model, val_loader)", "model(batch)"])
def test_ddp_forward_fires_for_a_direct_or_handed_on_forward(call: str) -> None:
    assert fires(_ddp(call=call), DDP_ID)


@pytest.mark.parametrize(
    "source",
    [
        _ddp(call="evaluate(model.module, val_loader)"),  # the unwrapped module: no broadcast
        _ddp(kind="Dropout(0.1)", layer="drop"),  # no buffers to broadcast
        _ddp(options=", broadcast_buffers=False"),
    ],
)
def test_ddp_forward_quiet_without_a_buffer_broadcast_on_one_rank(source: str) -> None:
    assert not fires(source, DDP_ID)


SAVE_ID = "code.sharded_save_in_rank_zero_branch"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("if trainer.is_world_process_zero():\n    trainer.save_model()", True),
        ("if accelerator.is_main_process:\n    sd = accelerator.get_state_dict(model)", True),
        ("if rank != 0:\n    trainer.save_model()", False),  # the other ranks' side
        (
            "trainer.save_model()\nif trainer.is_world_process_zero():\n    tok.save_pretrained(d)",
            False,
        ),
        ("if trainer.is_world_process_zero():\n    torch.save(model.state_dict(), path)", False),
    ],
)
def test_sharded_save_on_the_main_rank_side(source: str, expected: bool) -> None:
    assert fires(source, SAVE_ID) is expected
