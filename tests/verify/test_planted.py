"""Planted mistakes in real configs: each is caught, with the right suggestion.

Each row takes one corpus file, changes it the way people get configs wrong,
and names the problem kind, the key and the suggestion the check must give.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml
from verify_corpus import CONFIGS, era

from trainwreck.verify import check_files

Edit = Callable[[dict[str, Any]], None]

ZEPHYR_SFT = "alignment-handbook--zephyr-7b-beta_sft_config_full.yaml"
ZEPHYR_DPO = "alignment-handbook--zephyr-7b-beta_dpo_config_full.yaml"
GRPO = "open-r1--Qwen2.5-1.5B-Instruct_grpo_config_demo.yaml"
DS_Z3 = "llama-factory--deepspeed_ds_z3_config.json"
DS_OFFLOAD = "accelerate--deepspeed_config_templates_zero_stage3_offload_config.json"
DS_Z2 = "accelerate--deepspeed_config_templates_zero_stage1_config.json"
ACC_FSDP = "alignment-handbook--accelerate_configs_fsdp.yaml"
ACC_DDP = "open-r1--accelerate_configs_ddp.yaml"
LF_LORA = "llama-factory--train_lora_qwen3_lora_sft.yaml"
AX_LORA = "axolotl--examples_archived_tiny-llama_lora.yml"
AX_Z3 = "axolotl--deepspeed_configs_zero3.json"
SFT_SH = "trl--scripts_sft_lora.sh"
VLLM_SH = "multiagentsdebate--vllm-serve.sh"


def rename(old: str, new: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        *parents, leaf = old.split(".")
        node = data
        for part in parents:
            node = node[part]
        node[new] = node.pop(leaf)

    return edit


def put(path: str, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        *parents, leaf = path.split(".")
        node = data
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value

    return edit


def both(*edits: Edit) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        for one in edits:
            one(data)

    return edit


@dataclass(frozen=True)
class Plant:
    file: str
    edit: Edit | tuple[str, str]  # a data edit, or (old, new) text for launch commands
    kind: str
    key: str
    suggestion: str | None
    framework: str | None = None
    versions: dict[str, str] = field(default_factory=dict)
    also: tuple[str, ...] = ()  # corpus files checked in the same run


PLANTS = [
    Plant(
        ZEPHYR_SFT,
        rename("learning_rate", "learning_rat"),
        "unknown-key",
        "learning_rat",
        "learning_rate",
    ),
    Plant(
        ZEPHYR_SFT,
        rename("per_device_train_batch_size", "per_device_train_batch_sizes"),
        "unknown-key",
        "per_device_train_batch_sizes",
        "per_device_train_batch_size",
    ),
    Plant(
        ZEPHYR_SFT,
        rename("gradient_accumulation_steps", "gradient_accumulation_step"),
        "unknown-key",
        "gradient_accumulation_step",
        "gradient_accumulation_steps",
    ),
    Plant(
        ZEPHYR_SFT,
        rename("num_train_epochs", "num_train_epoch"),
        "unknown-key",
        "num_train_epoch",
        "num_train_epochs",
    ),
    Plant(ZEPHYR_SFT, put("lr_scheduler_type", "cosin"), "choice", "lr_scheduler_type", "cosine"),
    Plant(ZEPHYR_SFT, put("eval_strategy", "step"), "choice", "eval_strategy", "steps"),
    Plant(ZEPHYR_SFT, put("save_strategy", "epochs"), "choice", "save_strategy", "epoch"),
    Plant(ZEPHYR_SFT, put("optim", "adamw_torch_fuse"), "choice", "optim", "adamw_torch_fused"),
    Plant(ZEPHYR_SFT, put("learning_rate", "2e-5"), "type", "learning_rate", "2.0e-5"),
    Plant(ZEPHYR_SFT, put("gradient_checkpointing", "yes"), "type", "gradient_checkpointing", None),
    Plant(ZEPHYR_SFT, put("fp16", True), "contradiction", "bf16", "bf16"),
    Plant(
        ZEPHYR_SFT,
        both(
            put("load_best_model_at_end", True),
            put("eval_strategy", "steps"),
            put("save_strategy", "epoch"),
        ),
        "contradiction",
        "load_best_model_at_end",
        "save_strategy: steps",
    ),
    Plant(
        ZEPHYR_SFT,
        rename("eval_strategy", "evaluation_strategy"),
        "renamed",
        "evaluation_strategy",
        "eval_strategy",
    ),
    Plant(
        ZEPHYR_SFT,
        put("seed", 42),
        "not-yet",
        "eval_strategy",
        "upgrade transformers to >= 4.41",
        versions={"transformers": "4.40.2", "trl": "0.19.1"},
    ),
    Plant(ZEPHYR_SFT, put("use_liger", True), "renamed", "use_liger", "use_liger_kernel"),
    Plant(
        ZEPHYR_SFT,
        put("max_seq_length", 2048),
        "wrong-class",
        "max_seq_length",
        "use SFTConfig",
        framework="transformers",
    ),
    Plant(
        ZEPHYR_SFT,
        put("max_seq_length", 2048),
        "renamed",
        "max_seq_length",
        "max_length",
        versions={"transformers": "4.54.1", "trl": "0.20.0"},
    ),
    Plant(ZEPHYR_DPO, put("packing", True), "wrong-class", "packing", "use SFTConfig"),
    Plant(ZEPHYR_DPO, rename("beta", "betta"), "unknown-key", "betta", "beta"),
    Plant(
        GRPO,
        rename("num_generations", "num_generation"),
        "unknown-key",
        "num_generation",
        "num_generations",
    ),
    Plant(GRPO, rename("use_vllm", "use_vlm"), "unknown-key", "use_vlm", "use_vllm"),
    Plant(
        DS_Z3,
        rename("zero_optimization.stage3_prefetch_bucket_size", "stage3_prefetch_bucket_sise"),
        "unknown-key",
        "zero_optimization.stage3_prefetch_bucket_sise",
        "stage3_prefetch_bucket_size",
    ),
    Plant(DS_Z3, put("zero_optimization.stage", 4), "choice", "zero_optimization.stage", None),
    Plant(
        DS_Z3,
        rename("train_micro_batch_size_per_gpu", "train_micro_batch_size_per_gpus"),
        "unknown-key",
        "train_micro_batch_size_per_gpus",
        "train_micro_batch_size_per_gpu",
    ),
    Plant(
        DS_Z3,
        both(put("fp16.enabled", True), put("bf16.enabled", True)),
        "contradiction",
        "bf16",
        "enable only one",
    ),
    Plant(
        DS_OFFLOAD,
        rename("zero_optimization.offload_optimizer.device", "devise"),
        "unknown-key",
        "zero_optimization.offload_optimizer.devise",
        "device",
    ),
    Plant(
        DS_OFFLOAD,
        put("zero_optimization.cpu_offload", True),
        "deprecated",
        "zero_optimization.cpu_offload",
        "offload_optimizer",
    ),
    Plant(
        DS_Z2,
        both(
            put("train_batch_size", 30),
            put("train_micro_batch_size_per_gpu", 4),
            put("gradient_accumulation_steps", 2),
        ),
        "contradiction",
        "train_batch_size",
        'train_batch_size: "auto"',
    ),
    Plant(
        DS_Z2,
        both(
            put("train_batch_size", 64),
            put("train_micro_batch_size_per_gpu", 4),
            put("gradient_accumulation_steps", 1),
        ),
        "contradiction",
        "train_batch_size",
        "train_batch_size: 32",
        also=(ACC_DDP,),
    ),
    Plant(
        ACC_FSDP,
        rename("distributed_type", "distributed_typ"),
        "unknown-key",
        "distributed_typ",
        "distributed_type",
    ),
    Plant(
        ACC_FSDP,
        rename("mixed_precision", "mixed_precison"),
        "unknown-key",
        "mixed_precison",
        "mixed_precision",
    ),
    Plant(
        ACC_FSDP,
        rename("fsdp_config.fsdp_sharding_strategy", "fsdp_sharding_stratgy"),
        "unknown-key",
        "fsdp_config.fsdp_sharding_stratgy",
        "fsdp_sharding_strategy",
    ),
    Plant(
        ACC_DDP,
        rename("num_processes", "num_processs"),
        "unknown-key",
        "num_processs",
        "num_processes",
    ),
    Plant(
        LF_LORA,
        both(
            put("model_name_or_path", "Qwen/Qwen3-8B"),
            put("lora_target", "q_proj,v_proj,query_key_value"),
        ),
        "contradiction",
        "lora_target",
        "q_proj, v_proj",
    ),
    Plant(AX_LORA, put("device_map", "auto"), "contradiction", "device_map", None, also=(AX_Z3,)),
    Plant(SFT_SH, ("--lora_alpha", "--lora_alpa"), "unknown-key", "lora_alpa", "lora_alpha"),
    Plant(
        SFT_SH,
        ("--num_train_epochs", "--num_train_epoch"),
        "unknown-key",
        "num_train_epoch",
        "num_train_epochs",
    ),
    Plant(
        VLLM_SH,
        ("--gpu-memory-utilization", "--gpu-memory-utilisation"),
        "unknown-key",
        "gpu_memory_utilisation",
        "gpu_memory_utilization",
    ),
    Plant(VLLM_SH, ("--dtype bfloat16", "--dtype bfloat"), "choice", "dtype", "bfloat16"),
    Plant(
        VLLM_SH,
        ("Qwen/Qwen3-14B", "meta-llama/Llama-2-7b-hf"),
        "contradiction",
        "max_model_len",
        "max_model_len: 4096",
    ),
]


def _write(plant: Plant, tmp_path: Path) -> Path:
    source = CONFIGS / plant.file
    target = tmp_path / plant.file
    text = source.read_text(encoding="utf-8")
    if isinstance(plant.edit, tuple):
        old, new = plant.edit
        assert old in text
        target.write_text(text.replace(old, new, 1), encoding="utf-8")
        return target
    data = json.loads(text) if source.suffix == ".json" else yaml.safe_load(text)
    plant.edit(data)
    dumped = json.dumps(data, indent=2) if source.suffix == ".json" else yaml.safe_dump(data)
    target.write_text(dumped, encoding="utf-8")
    return target


def _label(plant: Plant) -> str:
    return f"{plant.file.split('--')[0]}-{plant.kind}-{plant.key}"


def test_enough_plants() -> None:
    assert len(PLANTS) >= 30


@pytest.mark.parametrize("plant", PLANTS, ids=_label)
def test_planted_mistake_is_caught(plant: Plant, tmp_path: Path) -> None:
    path = _write(plant, tmp_path)
    others = [str(CONFIGS / name) for name in plant.also]
    versions = {**era(CONFIGS / plant.file), **plant.versions}
    for name in plant.also:
        versions = {**era(CONFIGS / name), **versions}
    reports = check_files([str(path), *others], plant.framework, versions, use_live=False)
    found = [p for p in reports[0].problems if p.kind == plant.kind and p.key == plant.key]
    assert found, [(p.kind, p.key, p.message) for p in reports[0].problems]
    if plant.suggestion is not None:
        assert found[0].suggestion is not None
        assert plant.suggestion in found[0].suggestion, found[0]
