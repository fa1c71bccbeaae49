"""How users described the confirmed cases filed under a page, searched beside the page's
own text, finds the page in the user's words: real first-sight cases whose top was judged
wrong or family without it, diagnosed with their own record left out of the case memory."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from trainwreck import diagnose
from trainwreck.cases import load_memory
from trainwreck.curation.cases import diagnose_folder

FIRST_SIGHT = Path(__file__).resolve().parents[2] / "benchmarks" / "first_sight"


def _without_memory(folder: Path) -> str:
    meta = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))
    inputs = [str(folder / name) for name in meta.get("inputs") or []]
    found = diagnose(inputs, symptoms=meta.get("symptoms"), cases=load_memory(bundled=False))
    return found.hypotheses[0].id


@pytest.mark.parametrize(
    ("case", "page"),
    [
        # a diffusion model's loss jumps mid-training, no log: the learning rate
        ("batch-21/t21A-pytorch-ddpm-loss-jumps-midtraining", "loss-divergence-high-learning-rate"),
        # LLaVA LoRA at lr 2e-4, loss spikes in its log: judged family at a8272ee0
        ("batch-22/t22B-llava-lora-loss-spikes-high-lr", "loss-divergence-high-learning-rate"),
    ],
)
def test_the_memorys_descriptions_turn_the_top(case: str, page: str) -> None:
    folder = FIRST_SIGHT / case
    assert _without_memory(folder) != page
    assert diagnose_folder(folder).hypotheses[0].id == page
