"""jax.jit's refusal of a non-hashable static argument, read from a real log."""

from __future__ import annotations

from pathlib import Path

from trainwreck.pipeline import examine

BATCH_10 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-10"


def test_an_rng_key_in_a_static_slot_names_the_static_argument() -> None:
    # batch-10 thread (flax#2410), judged wrong at 2c91f17 (a concretization page led): the log
    # alone, without the user's words
    log = BATCH_10 / "t4-flax-pad-shard-unpad-unhashable" / "train.log"
    diagnosis = examine([str(log)])[1]
    assert diagnosis.hypotheses[0].id == "jax-static-argument-not-hashable"
