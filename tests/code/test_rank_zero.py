"""code.collective_in_rank_zero_branch: a collective that only one side of a rank test calls."""

from __future__ import annotations

from code_helpers import findings, fires

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
