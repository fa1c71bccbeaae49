"""Fix advice and warnings only for the stack the run uses (issue 18, "wrong context")."""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_case, find_cases
from trainwreck.fixes.owners import (
    SERVING_PHASE,
    command_wrong_for_run,
    concerns,
    for_another_stack,
    setting_framework,
    wrong_for_run,
)
from trainwreck.kb import load
from trainwreck.model import Diagnosis, RunContext
from trainwreck.pipeline import diagnose

TESTS = Path(__file__).parents[1]
# A JAX run whose first op failed in cuDNN: https://github.com/jax-ml/jax/issues/22533
JAX_CUDNN_LOG = Path(__file__).parent / "fixtures" / "jax_cudnn_handle_22533.log"


@cache
def case(name: str) -> Diagnosis:
    (found,) = [c for c in find_cases(TESTS / "cases") if c.path.name == name]
    return diagnose_case(found)


@pytest.mark.parametrize(
    ("path", "framework"),
    [
        ("TrainingArguments.warmup_ratio", "transformers"),
        ("SFTConfig.max_seq_length", "trl"),
        ("ds_config.zero_optimization.stage", "deepspeed"),
        ("DataLoader.num_workers", "pytorch"),
        ("torch.backends.cudnn.enabled", "pytorch"),
        ("cli.vllm serve --max-num-seqs", "vllm"),
        ("env.NCCL_P2P_DISABLE", None),
        ("env.PYTORCH_CUDA_ALLOC_CONF", "pytorch"),
        ("env.TORCH_NCCL_DUMP_ON_TIMEOUT", "pytorch"),
        ("--max_seq_length", None),
    ],
)
def test_each_setting_names_the_framework_that_reads_it(path: str, framework: str | None) -> None:
    assert setting_framework(path) == framework


@pytest.mark.parametrize(
    ("case_name", "key"),
    [
        ("repro-divergence-no-grad-clipping", "TrainingArguments.warmup_ratio"),  # plain torch
        ("repro-nan-all-labels-masked", "SFTConfig.max_seq_length"),  # no TRL in the run
        ("nccl-llamafactory-socket-no-ib-6111", "DataLoader.num_workers"),  # never shows torch
    ],
)
def test_no_warning_about_a_framework_the_run_does_not_show(case_name: str, key: str) -> None:
    warnings = case(case_name).warnings
    assert not [w for w in warnings if key in w], warnings


def test_a_run_with_transformers_still_hears_about_its_keys() -> None:
    diagnosis = case("transformers-gemma2-fa2-softcap-nan-31997")
    assert "transformers" in diagnosis.context.frameworks
    assert any("TrainingArguments.warmup_ratio" in w for w in diagnosis.warnings)


def test_a_warning_concerns_a_run_exactly_when_its_framework_is_seen() -> None:
    assert not concerns("TrainingArguments.warmup_ratio", RunContext())
    assert concerns("TrainingArguments.warmup_ratio", RunContext(frameworks={"transformers": "x"}))
    assert concerns("env.NCCL_DEBUG", RunContext())


def test_a_setting_of_a_framework_the_run_does_not_show_is_left_out() -> None:
    plain = RunContext(frameworks={"pytorch": "x", "cuda": "y"})
    assert wrong_for_run("TrainingArguments.gradient_checkpointing", plain)
    assert wrong_for_run("ds_config.zero_optimization.stage", plain)
    assert not wrong_for_run("DataLoader.num_workers", plain)
    assert not wrong_for_run("env.NCCL_DEBUG", plain)
    trl = RunContext(frameworks={"trl": "x"})  # TRL trains through the HF Trainer
    assert not wrong_for_run("TrainingArguments.gradient_checkpointing", trl)
    assert not wrong_for_run("TrainingArguments.gradient_checkpointing", RunContext())
    jax = RunContext(frameworks={"jax": "x"})
    assert wrong_for_run("env.PYTORCH_CUDA_ALLOC_CONF", jax)


def test_a_plain_pytorch_script_gets_no_trainer_keys() -> None:
    """A DDP script that checkpoints twice (torch only): its fixes set TrainingArguments."""
    diagnosis = case("repro-ddp-reentrant-checkpoint-twice")
    assert "transformers" not in diagnosis.context.frameworks
    paths = [c.path for fix in diagnosis.hypotheses[0].fixes for c in fix.changes]
    assert not [path for path in paths if path.startswith("TrainingArguments.")], paths


def test_an_xformers_build_is_not_told_to_reinstall_flash_attn() -> None:
    """The undefined-symbol page is for any compiled extension; its commands are flash-attn's."""
    diagnosis = case("xformers-built-for-other-torch-8580")
    assert diagnosis.hypotheses[0].id == "extension-undefined-symbol"
    assert "flash-attn" not in diagnosis.context.frameworks
    commands = [c for fix in diagnosis.hypotheses[0].fixes for c in fix.commands]
    assert not [c for c in commands if "flash-attn" in c or "FLASH_ATTENTION" in c], commands


def test_a_command_for_a_framework_the_fix_brings_in_is_kept() -> None:
    plain = RunContext(frameworks={"pytorch": "x"})
    assert command_wrong_for_run("pip install -U deepspeed", plain)
    assert not command_wrong_for_run("pip install -U deepspeed", plain, {"deepspeed"})
    assert not command_wrong_for_run("pip install -U deepspeed", RunContext())
    assert not command_wrong_for_run("nvidia-smi", plain)


def test_a_fix_for_users_of_one_framework_is_offered_only_in_runs_that_show_it() -> None:
    """no-trainable-parameters: "With PEFT and gradient checkpointing ..." and "reload the
    adapter with is_trainable=True" are PEFT advice."""
    page = load().get("no-trainable-parameters")
    assert page is not None
    peft_fixes = [fix for fix in page.fixes if fix.requires]
    assert len(peft_fixes) == 2
    for peft_fix in peft_fixes:
        assert peft_fix.requires == ("peft",)
        assert for_another_stack(peft_fix, RunContext(frameworks={"pytorch": "x"}))
        assert not for_another_stack(peft_fix, RunContext(frameworks={"peft": "x"}))
        assert not for_another_stack(peft_fix, RunContext())  # a run that shows nothing


def test_a_training_dataloader_is_wrong_advice_for_vllm_serving() -> None:
    serving = RunContext(frameworks={"vllm": "x", "pytorch": "y"}, phase=SERVING_PHASE)
    assert wrong_for_run("DataLoader.num_workers", serving)
    assert not concerns("DataLoader.num_workers", serving)
    grpo = RunContext(frameworks={"vllm": "x", "trl": "y"}, phase=SERVING_PHASE)
    assert not wrong_for_run("DataLoader.num_workers", grpo)  # trains, generating with vLLM
    training = RunContext(frameworks={"pytorch": "y"}, phase="training")
    assert not wrong_for_run("DataLoader.num_workers", training)


def test_a_jax_user_gets_no_torch_advice() -> None:
    """jax#22533: cuDNN could not create a handle with 2.6 GB of a 12.5 GB card free, most of
    it already taken when cuDNN set up; the page for JAX's preallocated pool leads (before it
    existed, the generic cuDNN page did) and its advice is JAX's, not torch's."""
    diagnosis = diagnose([str(JAX_CUDNN_LOG)])
    top = diagnosis.hypotheses[0]
    assert top.id == "jax-preallocation-starves-cuda-libraries"
    assert {c.path for fix in top.fixes for c in fix.changes} >= {
        "env.XLA_PYTHON_CLIENT_MEM_FRACTION"
    }
    commands = [command for fix in top.fixes for command in fix.commands]
    assert not [command for command in commands if "torch" in command]
    assert not [c.path for fix in top.fixes for c in fix.changes if c.path.startswith("torch.")]
    assert not [p.code for p in diagnosis.prevention if p.code and "import torch" in p.code]


def test_upgrade_advice_names_the_package_the_name_is_missing_from(tmp_path: Path) -> None:
    """`cached_download` was removed from huggingface_hub; transformers is not the package."""
    run = subprocess.run(
        [sys.executable, "-c", "from huggingface_hub import cached_download"],
        capture_output=True,
        text=True,
    )
    assert "from 'huggingface_hub'" in run.stderr
    log = tmp_path / "import.log"
    log.write_text(run.stderr)
    top = diagnose([str(log)]).hypotheses[0]
    assert top.id == "hf-import-name-version-skew"
    commands = [command for fix in top.fixes for command in fix.commands]
    assert "pip install -U huggingface_hub" in commands
    assert "pip install -U transformers" not in commands
