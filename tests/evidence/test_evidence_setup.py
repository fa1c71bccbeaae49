"""Setup, environment, configs, model configs and metrics."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck.evidence.collect import collect
from trainwreck.evidence.configs import parse_argv
from trainwreck.evidence.environment import parse_listing

CASES = Path(__file__).parents[1] / "cases"


def _pip(*args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "pip", *args], capture_output=True, text=True, timeout=120
    )
    return result.stdout


def test_real_pip_freeze_and_pip_list_agree() -> None:
    frozen = parse_listing(_pip("freeze"))
    listed = parse_listing(_pip("list"))
    assert frozen["pydantic"] == listed["pydantic"]
    assert "pyyaml" in frozen and "package" not in listed


def test_env_file_fills_environment_and_ml_frameworks(tmp_path: Path) -> None:
    (tmp_path / "pip_freeze.txt").write_text(_pip("freeze"))
    evidence = collect([str(tmp_path)])
    assert evidence.files[0].kind == "env"
    assert evidence.environment["pydantic"]
    torch = pytest.importorskip("torch")
    assert evidence.setup.frameworks.get("torch") == torch.__version__


def test_configs_flatten_and_feed_setup(tmp_path: Path) -> None:
    # Synthetic user configs (configs are user-authored input, not log text).
    ds = {
        "train_micro_batch_size_per_gpu": 2,
        "zero_optimization": {"stage": 3},
        "bf16": {"enabled": True},
    }
    (tmp_path / "ds_config.json").write_text(json.dumps(ds))
    (tmp_path / "train.yaml").write_text("max_seq_length: 4096\ngradient_accumulation_steps: 8\n")
    (tmp_path / "config.json").write_text(
        json.dumps(
            {
                "model_type": "llama",
                "_name_or_path": "meta-llama/Llama-2-7b-hf",
                "num_key_value_heads": 8,
                "torch_dtype": "bfloat16",
            }
        )
    )
    evidence = collect([str(tmp_path)])
    kinds = {Path(f.path).name: f.kind for f in evidence.files}
    assert kinds == {
        "ds_config.json": "config",
        "train.yaml": "config",
        "config.json": "model_config",
    }
    assert evidence.model_config_values["num_key_value_heads"] == 8
    setup = evidence.setup
    assert (setup.model, setup.batch_size, setup.grad_accum, setup.seq_len) == (
        "meta-llama/Llama-2-7b-hf",
        2,
        8,
        4096,
    )
    assert (setup.precision, setup.distributed) == ("bf16", "deepspeed-zero3")


def test_unparsable_config_is_a_gap(tmp_path: Path) -> None:
    (tmp_path / "broken.yaml").write_text("a: [1, 2\n")
    evidence = collect([str(tmp_path)])
    assert [gap.reason for gap in evidence.gaps] == ["not a valid config (JSON/YAML/TOML)"]


def test_yaml_never_constructs_python_objects(tmp_path: Path) -> None:
    (tmp_path / "evil.yaml").write_text("x: !!python/object/apply:os.system ['echo hi']\n")
    evidence = collect([str(tmp_path)])
    assert evidence.gaps and not evidence.configs


def test_argv_forms() -> None:
    values = parse_argv("torchrun --nproc_per_node=8 train.py --lr 1e-5 --bf16 --name 'a b'")
    assert values == {"nproc_per_node": 8, "lr": 1e-5, "bf16": True, "name": "a b"}


def test_real_case_launch_command_and_oom_capacity() -> None:
    evidence = collect([str(CASES / "llamafactory-oom-13b-lora-a100-2908")])
    setup = evidence.setup
    assert (setup.batch_size, setup.grad_accum, setup.gpu_memory_gib) == (4, 4, 39.39)
    assert setup.model is None  # `$MODEL_PATH` is an unexpanded variable, not a model
    final = evidence.final_exception
    assert final is not None and final.type == "torch.cuda.OutOfMemoryError"
    assert final.role == "root"  # its message ends with allocator advice, still the error


def test_real_vllm_compose_log_prefixes_are_stripped() -> None:
    evidence = collect([str(CASES / "vllm-no-cache-blocks-gpu-util-10439")])
    final = evidence.final_exception
    assert final is not None and final.type == "ValueError"
    assert final.frames and final.frames[-1].library == "vllm"
    assert evidence.setup.seq_len == 512 and evidence.setup.model


def test_trainer_state_log_history_becomes_lines(tmp_path: Path) -> None:
    state = {
        "log_history": [
            {"loss": 2.1, "step": 5},
            {"loss": float("nan"), "step": 10},
            {"eval_loss": 1.0, "step": 10},
            {"train_runtime": 3.0},
        ]
    }
    (tmp_path / "trainer_state.json").write_text(json.dumps(state))
    evidence = collect([str(tmp_path)])
    assert evidence.files[0].kind == "metrics"
    assert [line.text for line in evidence.lines] == [
        "{'loss': 2.1, 'step': 5}",
        "{'loss': nan, 'step': 10}",
        "{'eval_loss': 1.0, 'step': 10}",
    ]
