"""OOM fixes that are right by the report's own arithmetic (issue 18).

Observed: a full fine-tune of an 8B model (batch 8, sequence 4096, one 80 GB GPU)
got `per_device_train_batch_size: 8 → 1` as fix 1 and in `--patch`, although the
report's own table needs 334.84 GiB and batch 1 alone still needs 145.18 GiB; and
the patch left gradient_accumulation_steps as it was, so the effective batch fell
16 → 2 (16 → 4 in the bundled example).
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from helpers import run
from trainwreck import diagnose
from trainwreck.fixes.compare import denoted
from trainwreck.fixes.consistency import not_concrete
from trainwreck.fixes.fit_plan import BRINGS_IN_DEEPSPEED
from trainwreck.model import Diagnosis, Fix

FULL_FT = Path(__file__).parent / "fixtures" / "llama3-8b-full-oom"
EXAMPLE = Path(__file__).parents[2] / "examples" / "llama-lora-oom"


def _changes(fix: Fix) -> dict[str, tuple[object, object]]:
    """Leaf → (before, after) as the values denote them ("4" read from a log is 4)."""
    return {c.path.rsplit(".", 1)[-1]: (denoted(c.before), denoted(c.after)) for c in fix.changes}


def _full_ft() -> Diagnosis:
    return diagnose([str(FULL_FT)])


def test_full_finetune_oom_leads_with_the_plan_that_fits_by_its_own_arithmetic() -> None:
    report = _full_ft()
    top = report.hypotheses[0]
    assert top.id == "cuda-oom-capacity"
    plan = next(f for f in report.findings if f.id == "memory.fit")
    budget = next(f for f in report.findings if f.id == "memory.budget")
    assert budget.values["estimated_gib"] == 334.84
    after, limit = plan.values["after_gib"], plan.values["limit_gib"]
    assert isinstance(after, float) and isinstance(limit, float) and after <= limit
    first = top.fixes[0]
    assert "334.84 GiB → 55.43 GiB against 79.15 GiB" in first.action
    changes = _changes(first)
    assert changes["per_device_train_batch_size"] == (8, 1)
    assert changes["gradient_accumulation_steps"] == (2, 16)  # 8 x 2 == 1 x 16
    assert changes["device"] == ("none", "cpu")  # ZeRO-Offload: fp32 states leave the GPU
    # the run shows no DeepSpeed: the fix says it brings it in, so its ZeRO keys are honest
    assert "deepspeed" not in report.context.frameworks
    assert first.action.endswith(BRINGS_IN_DEEPSPEED)
    # the arithmetic of the fixed setting is in the report, with the same total
    fixed = next(a for a in report.arithmetic if a.title.startswith("Training memory per GPU with"))
    assert "334.84 GiB → 55.43 GiB per GPU against 79.15 GiB" in fixed.result


def test_a_change_that_does_not_fit_alone_says_so_and_never_leads() -> None:
    fixes = _full_ft().hypotheses[0].fixes
    batch_only = next(
        f
        for f in fixes[1:]
        if set(_changes(f)) == {"per_device_train_batch_size", "gradient_accumulation_steps"}
    )
    assert "Not enough by itself for this run: 145.18 GiB per GPU" in batch_only.action
    assert "Not enough by itself" not in fixes[0].action


def test_patch_writes_the_accumulation_its_comment_promises(tmp_path: Path) -> None:
    result = run("diagnose", str(FULL_FT), "--patch", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    patched = next((tmp_path / "out").rglob("llama3_full_sft.yaml"))
    values = yaml.safe_load(patched.read_text(encoding="utf-8"))
    original = yaml.safe_load((FULL_FT / "llama3_full_sft.yaml").read_text(encoding="utf-8"))
    effective = values["per_device_train_batch_size"] * values["gradient_accumulation_steps"]
    assert values["per_device_train_batch_size"] == 1
    assert (
        effective
        == original["per_device_train_batch_size"] * original["gradient_accumulation_steps"]
    )


def test_bundled_example_batch_cut_keeps_the_effective_batch() -> None:
    report = diagnose([str(EXAMPLE)])
    first = report.hypotheses[0].fixes[0]
    changes = _changes(first)
    assert changes["per_device_train_batch_size"] == (4, 1)
    assert changes["gradient_accumulation_steps"] == (4, 16)
    block = "\n".join(b.text for b in report.consolidated)
    assert "--per_device_train_batch_size 1" in block
    assert "--gradient_accumulation_steps 16" in block


def test_trainwreck_memory_agrees_with_the_diagnose_table() -> None:
    # the same settings the diagnose table read: bf16 autocast (Trainer without DeepSpeed)
    result = run(
        "memory", "--model", "meta-llama/Meta-Llama-3-8B-Instruct", "--gpus", "A100-80GB",
        "--batch-size", "8", "--seq-len", "4096", "--amp", "--format", "json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    report = _full_ft()
    table = next(a for a in report.arithmetic if a.title == "Training memory per GPU")
    assert data["arithmetic"]["lines"][-1]["value"] == table.lines[-1].value
    plan = next(f for f in report.findings if f.id == "memory.fit")
    assert data["fixes"][0]["action"] == plan.values["action"]


def test_an_fsdp_run_offloads_through_its_own_option() -> None:
    # alpaca-llama13b-fsdp-a100-86: the Alpaca README's answer to this OOM is FSDP CPU
    # offload; the plan must not switch an FSDP run to DeepSpeed
    report = diagnose([str(Path(__file__).parents[1] / "cases" / "alpaca-llama13b-fsdp-a100-86")])
    first = report.hypotheses[0].fixes[0]
    assert "fits by this report's arithmetic" in first.action
    changes = _changes(first)
    assert changes["fsdp"][1] == "full_shard auto_wrap offload"
    assert not_concrete("full_shard auto_wrap offload") is None  # a value, not prose
    assert not any(
        c.path.startswith("ds_config") or c.path.endswith("deepspeed") for c in first.changes
    )


def test_the_command_patch_notes_keep_the_fix_order_across_processes() -> None:
    # the notes were ordered by a set of flag names: a different order per hash seed
    outputs = {
        run("diagnose", str(EXAMPLE), "--full").stdout for _ in range(3)
    }  # fresh processes: fresh hash seeds
    assert len(outputs) == 1
    (text,) = outputs
    assert text.index("per_device_train_batch_size — was") < text.index(
        "gradient_accumulation_steps — was"
    )


def test_when_nothing_fits_no_fix_is_offered_as_if_it_did(tmp_path: Path) -> None:
    # Llama-2-70B in full fine-tuning on a 24 GB card: no change or combination fits
    (tmp_path / "train.yaml").write_text(
        "model_name_or_path: meta-llama/Llama-2-70b-chat-hf\nfinetuning_type: full\n"
        "per_device_train_batch_size: 4\ngradient_accumulation_steps: 1\ncutoff_len: 4096\n"
        "bf16: true\n",
        encoding="utf-8",
    )
    (tmp_path / "train.log").write_text(
        "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 448.00 MiB. GPU 0 has a "
        "total capacity of 23.65 GiB of which 310.81 MiB is free. Including non-PyTorch memory, "
        "this process has 23.33 GiB memory in use. Of the allocated memory 22.91 GiB is allocated "
        "by PyTorch, and 45.27 MiB is reserved by PyTorch but unallocated.\n",
        encoding="utf-8",
    )
    report = diagnose([str(tmp_path)])
    assert not any(f.id == "memory.fit" for f in report.findings)
    first = report.hypotheses[0].fixes[0]
    assert "Not enough by itself for this run" in first.action
    assert "no change or combination fits" in first.action
