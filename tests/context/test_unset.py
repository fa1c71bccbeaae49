"""Setups a whole script shown never turns on: the float16 pages stay below the pages the
evidence fits in a float32 run (first-sight batch-22's SFT reproduction, where the
bf16-overflow page was the top answer of a CPU float32 run), the pages about ranks below
those about one process in a single-process run (batch-28's sampler reproduction)."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.context.unset import unset_in_script
from trainwreck.curation.cases import diagnose_folder
from trainwreck.model import CodeSnippet, Evidence

BATCHES = Path(__file__).resolve().parents[2] / "benchmarks" / "first_sight"
SFT_NAN = BATCHES / "batch-22" / "r22E-transformers-trainer-sft-loss-nan-repro"
SAMPLER_HANG = BATCHES / "batch-28" / "r28a-pytorch-training-freezes-near-end-of-epoch-repro"
FP16_PAGE = "fp16-overflow-bf16-pretrained-model"

# A whole script in float32: imports, a model, the step that runs it.
SCRIPT = """import torch
from torch import nn

model = nn.Linear(8, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in batches:
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
"""


def _evidence(text: str, origin: str = "file", symptoms: str | None = None) -> Evidence:
    return Evidence(
        code=(CodeSnippet(source="train.py", text=text, origin=origin),), symptoms=symptoms
    )


def test_a_whole_float32_single_process_script_leaves_fp16_and_ddp_unset() -> None:
    assert unset_in_script(_evidence(SCRIPT)) == ("fp16", "ddp", "multi-process")


@pytest.mark.parametrize(
    "change",
    [
        ("optimizer = ", "scaler = torch.GradScaler()\noptimizer = "),  # loss scaling: fp16 is on
        ("model = nn.Linear(8, 1)", "model = nn.Linear(8, 1).half()"),
        ("for x, y in batches:", "with torch.autocast('cuda'):\n  for x, y in batches:"),
        ("model = nn.Linear(8, 1)", "model = nn.Linear(8, 1).to(torch.bfloat16)"),
        # precision set from outside the script: a launcher's config, a checkpoint's dtype
        ("model = nn.Linear(8, 1)", "accelerator = Accelerator()\nmodel = nn.Linear(8, 1)"),
        ("model = nn.Linear(8, 1)", "model = AutoModel.from_pretrained('gpt2')"),
        # not a whole script: no imports, or nothing that runs the model
        ("import torch\nfrom torch import nn\n", ""),
        ("    loss.backward()\n    optimizer.step()\n", ""),
    ],
)
def test_fp16_is_not_ruled_out_where_the_script_sets_it_or_cannot_show_it(
    change: tuple[str, str],
) -> None:
    assert "fp16" not in unset_in_script(_evidence(SCRIPT.replace(*change)))


@pytest.mark.parametrize(
    "change",
    [
        ("optimizer = ", "dist.init_process_group('nccl')\noptimizer = "),
        ("model = nn.Linear(8, 1)", "model = DDP(nn.Linear(8, 1))"),
        ("optimizer = ", "rank = int(os.environ['LOCAL_RANK'])\noptimizer = "),
        # several processes started from outside the script: a framework trainer, a launcher
        ("optimizer = ", "trainer = Trainer(model=model)\noptimizer = "),
        ("optimizer = ", "accelerator = Accelerator()\noptimizer = "),
        ("for x, y in batches:", "for x, y in pmap(step)(batches):"),
    ],
)
def test_several_processes_are_not_ruled_out_where_the_script_may_start_them(
    change: tuple[str, str],
) -> None:
    assert "ddp" not in unset_in_script(_evidence(SCRIPT.replace(*change)))


@pytest.mark.parametrize(
    ("setup", "symptoms"),
    [
        ("fp16", "fp16 training, loss is nan"),
        ("ddp", "launched with torchrun, it hangs after the first epoch"),
        ("ddp", "training on 4 A100 GPUs freezes"),
        ("ddp", "one rank stalls"),
    ],
)
def test_the_words_keep_a_setup_possible(setup: str, symptoms: str) -> None:
    assert setup not in unset_in_script(_evidence(SCRIPT, symptoms=symptoms))


def test_a_pasted_excerpt_keeps_every_setup_possible() -> None:
    assert unset_in_script(_evidence(SCRIPT, origin="symptoms")) == ()


def test_a_float32_sft_run_is_not_answered_with_the_bf16_overflow_page() -> None:
    """r22E: answer tokens truncated away, 0/0 in a per-example mean. Before the rule the
    bf16-overflow page led (judged wrong) and the ignored-labels page was third (judged right);
    the code detector for a loss divided by an unfloored count now puts the masked-mean page,
    whose mechanism and clamp(min=1) fix are the confirmed ones, first."""
    diagnosis = diagnose_folder(SFT_NAN)
    top = [h.id for h in diagnosis.hypotheses[:3]]
    assert diagnosis.context.unset == ("fp16",)
    assert top[0] == "masked-mean-zero-denominator"
    assert "all-labels-ignored-nan-loss" in top
    assert FP16_PAGE not in top


def test_a_single_process_hang_is_not_answered_with_the_pages_about_ranks() -> None:
    """r28a: one CPU process spins forever in a bucket sampler that never yields its last
    partial batches. Before the rule three DDP pages led on the hang's words (judged wrong)."""
    diagnosis = diagnose_folder(SAMPLER_HANG)
    assert "ddp" in diagnosis.context.unset
    assert diagnosis.hypotheses[0].id == "data-iteration-never-terminates"
