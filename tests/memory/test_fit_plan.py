"""The fit search's plan: the least destructive combination that fits, at the margin.

Budgets come from the bundled Llama-3-8B config.json; every total is recomputed by
training_budget, so the expectations are the arithmetic's own, not guesses.
"""

from __future__ import annotations

from trainwreck.memory import load_config, shape_of
from trainwreck.memory.budget import Training, total_of, training_budget, with_changes
from trainwreck.memory.fit import MARGIN, fit_search

SHAPE = shape_of(load_config("meta-llama/Meta-Llama-3-8B-Instruct"))


def _total(run: Training, **changes: object) -> int:
    return total_of(training_budget(SHAPE, with_changes(run, **changes)))


def _capacity_for(total: int) -> int:
    """The smallest capacity whose limit (capacity less the margin) holds `total`."""
    capacity = int(total / (1 - MARGIN))
    while capacity * (1 - MARGIN) < total:
        capacity += 1
    return capacity


def test_checkpointing_alone_leads_when_it_fits_at_the_limit() -> None:
    run = Training(batch_size=8, seq_len=4096, lora_r=16)
    at = _capacity_for(_total(run, gradient_checkpointing=True))
    plan = fit_search(SHAPE, run, at)[0]
    assert plan.fits and plan.changes == {"gradient_checkpointing": (False, True)}
    # one byte less and checkpointing alone is over the limit: another plan leads
    below = fit_search(SHAPE, run, at - 1)[0]
    assert below.fits and "gradient_checkpointing" not in below.changes
    assert below.total <= (at - 1) * (1 - MARGIN)


def test_the_largest_micro_batch_that_fits_is_kept() -> None:
    run = Training(batch_size=8, seq_len=4096, lora_r=16)
    at = _capacity_for(_total(run, gradient_checkpointing=True, batch_size=4))
    plan = fit_search(SHAPE, run, at)[0]
    assert plan.changes == {"gradient_checkpointing": (False, True), "batch_size": (8, 4)}
    assert plan.total <= at * (1 - MARGIN)


def test_same_maths_is_preferred_over_fewer_trainable_parameters() -> None:
    # full fine-tune, bf16 weights, batch 8 at 4096 on 80 GB: LoRA alone does not fit
    # but checkpointing with a micro-batch cut does, and that keeps what is trained
    run = Training(batch_size=8, seq_len=4096)
    plan = fit_search(SHAPE, run, 80 * 2**30)[0]
    assert plan.fits and "lora_r" not in plan.changes and "seq_len" not in plan.changes
    assert plan.ranks == (1, 1)


def test_micro_batch_cuts_are_divisors_so_accumulation_keeps_the_effective_batch() -> None:
    run = Training(batch_size=6, seq_len=4096)
    sizes = [c.changes.get("batch_size", (0, 0))[1] for c in fit_search(SHAPE, run, 10 * 2**30)]
    assert {size for size in sizes if size} == {3, 2, 1}


def test_nothing_fits_no_candidate_claims_to() -> None:
    run = Training(batch_size=8, seq_len=4096)
    assert not any(c.fits for c in fit_search(SHAPE, run, 2 * 2**30))
