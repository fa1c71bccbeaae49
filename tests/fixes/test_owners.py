"""Fix advice and warnings only for the stack the run uses (issue 18, "wrong context")."""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_case, find_cases
from trainwreck.fixes.owners import SERVING_PHASE, concerns, setting_framework, wrong_for_run
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


def test_a_training_dataloader_is_wrong_advice_for_vllm_serving() -> None:
    serving = RunContext(frameworks={"vllm": "x", "pytorch": "y"}, phase=SERVING_PHASE)
    assert wrong_for_run("DataLoader.num_workers", serving)
    assert not concerns("DataLoader.num_workers", serving)
    grpo = RunContext(frameworks={"vllm": "x", "trl": "y"}, phase=SERVING_PHASE)
    assert not wrong_for_run("DataLoader.num_workers", grpo)  # trains, generating with vLLM
    training = RunContext(frameworks={"pytorch": "y"}, phase="training")
    assert not wrong_for_run("DataLoader.num_workers", training)


def test_a_jax_user_gets_no_torch_advice() -> None:
    diagnosis = diagnose([str(JAX_CUDNN_LOG)])
    top = diagnosis.hypotheses[0]
    assert top.id == "cudnn-status-error"
    commands = [command for fix in top.fixes for command in fix.commands]
    assert "nvidia-smi" in commands
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
