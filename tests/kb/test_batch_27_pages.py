"""Pages written from batch-27's first-sight misses lead on the case they explain, with the
case's own record left out of the case memory.

Each case was judged family or wrong at e0b33e66 (benchmarks/first_sight/judged); each page
covers a mechanism that recurs across threads (its citations name several), not only this
case's wording. The pages tied to code detectors are tested beside their detectors
(tests/code/test_clip_scaled.py, test_count_denominator.py, test_throughput.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_folder

BATCH_27 = Path(__file__).resolve().parents[2] / "benchmarks" / "first_sight" / "batch-27"


@pytest.mark.parametrize(
    ("case", "page"),
    [
        # TypeError: 'AcceleratedScheduler' object is not iterable, at the first epoch
        (
            "r27a-accelerate-intent-bert-typeerror-first-epoch-repro",
            "accelerate-prepare-outputs-unpacked-out-of-order",
        ),
        # function GradReverseBackward returned an incorrect number of gradients (expected 2, got 1)
        (
            "r27a-pytorch-dann-runtimeerror-first-backward-repro",
            "custom-autograd-backward-gradient-count",
        ),
        # The hidden size (300) is not a multiple of the number of attention heads (8)
        (
            "r27a-transformers-sentiment-bert-valueerror-model-build-repro",
            "hidden-size-not-divisible-by-attention-heads",
        ),
        # numpy's Unable to allocate 2.47 GiB below a memmap __getitem__ frame
        (
            "r27a-pytorch-defect-cnn-memoryerror-before-training-repro",
            "numpy-memmap-fancy-indexing-copies-into-ram",
        ),
        # symptoms only: a long system prompt that an Ollama model ignores
        (
            "t27c-ollama-long-system-prompt-ignored",
            "ollama-default-context-window-truncates-prompt",
        ),
        # GPT2Tokenizer (the Python class) timed against tiktoken
        (
            "t27b-tokenizers-gpt2-encode-slower-than-tiktoken",
            "slow-python-tokenizer-instead-of-fast",
        ),
        # wandb.log calls with and without step= mixed, some metric streams missing
        (
            "t27d-wandb-some-metric-streams-missing-from-dashboard",
            "wandb-log-step-not-monotonic-data-dropped",
        ),
        # symptoms only: sentence-transformers OOM on the bigger dataset, long texts
        (
            "t27b-sentence-transformers-finetune-oom-depends-on-dataset-size",
            "long-outlier-sequences-oom-without-truncation",
        ),
    ],
)
def test_the_batch_27_case_leads_with_its_page(case: str, page: str) -> None:
    assert diagnose_folder(BATCH_27 / case).hypotheses[0].id == page
