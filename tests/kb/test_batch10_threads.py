"""Pages written during development on batch-10's threads, each read from its real log alone."""

from __future__ import annotations

from pathlib import Path

import yaml

from trainwreck.pipeline import examine

BATCH_10 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-10"


def test_an_rng_key_in_a_static_slot_names_the_static_argument() -> None:
    # batch-10 thread (flax#2410), judged wrong at 2c91f17 (a concretization page led): the log
    # alone, without the user's words
    log = BATCH_10 / "t4-flax-pad-shard-unpad-unhashable" / "train.log"
    diagnosis = examine([str(log)])[1]
    assert diagnosis.hypotheses[0].id == "jax-static-argument-not-hashable"


def test_a_quantized_model_pinned_to_gpu_0_in_every_rank_names_the_device_map() -> None:
    # batch-10 thread (trl sft_llama2 8-bit multi-GPU), judged family at 2c91f17 (a single-process
    # device_map page led)
    log = BATCH_10 / "t4-trl-sft-llama2-8bit-multigpu" / "train.log"
    diagnosis = examine([str(log)])[1]
    assert diagnosis.hypotheses[0].id == "quantized-model-loaded-on-another-rank-gpu"


def test_tensorflow_beside_jax_names_the_preallocation() -> None:
    # batch-10 thread (flax#445), judged wrong at 2c91f17: the log is one cuBLAS status line and
    # the user's words ("JAX on GPU", "Flax") named a framework read only in lower case
    folder = BATCH_10 / "t1-flax-jax-gpu-memory-taken-by-tf"
    symptoms = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))["symptoms"]
    diagnosis = examine([str(folder / "train.log")], symptoms=symptoms)[1]
    assert diagnosis.context.frameworks.get("jax") == "symptoms"
    assert diagnosis.hypotheses[0].id == "tensorflow-preallocates-gpu-beside-jax"


def test_causal_flash_attention_with_longer_queries_names_the_mask_alignment() -> None:
    # batch-10 thread (symptoms only), judged wrong at 2c91f17 (flash-attn load and dtype pages led)
    folder = BATCH_10 / "t3-flashattn-causal-longer-q-zero-rows"
    symptoms = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))["symptoms"]
    diagnosis = examine([], symptoms=symptoms)[1]
    assert diagnosis.hypotheses[0].id == "flash-attn-causal-mask-bottom-right"


def test_text_only_batches_under_fsdp_name_the_skipped_vision_tower() -> None:
    # batch-10 thread (transformers#37186), judged family at 2c91f17 (a data-loader page led)
    folder = BATCH_10 / "t2-transformers-qwen-vl-fsdp-textonly-batch-hang"
    meta = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))
    inputs = [str(folder / name) for name in meta["inputs"]]
    diagnosis = examine(inputs, symptoms=meta["symptoms"])[1]
    assert diagnosis.hypotheses[0].id == "sharded-submodule-skipped-on-some-ranks"
