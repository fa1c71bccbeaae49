"""Memory the user says grows points at pages whose memory grows, away from one-shot ones.

Real cases from the first-sight batches, symptoms only: Lightning 1.x keeping every
validation_step output (batch-17, pytorch-lightning#8453), and forked DataLoader workers
copying a pandas-backed dataset page by page (batch-14, pytorch#5902). Before the course
was read, both led with a page whose memory is taken at once (or had no page at all).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gate_helpers import match, page

from trainwreck.curation.cases import diagnose_folder
from trainwreck.engine.gate import STEADY_MEMORY_FACTOR, gate_factor
from trainwreck.model import RunContext, StatedClass

FIRST_SIGHT = Path(__file__).parents[2] / "benchmarks" / "first_sight"
OOM = StatedClass(category="oom", source="symptoms", words=("out of memory",))
GROWS = RunContext(stated=OOM, memory_grows=("gpu memory keeps climbing",))
AT_ONCE = RunContext(stated=OOM)


def test_a_one_shot_oom_page_is_demoted_when_the_user_says_memory_grows() -> None:
    capacity = page("cuda-oom-capacity")
    assert not capacity.memory_grows
    factor, notes = gate_factor(capacity, match(capacity, 0.5), GROWS)
    assert factor == STEADY_MEMORY_FACTOR
    assert "gpu memory keeps climbing" in notes[0]
    assert gate_factor(capacity, match(capacity, 0.5), AT_ONCE)[0] == 1.0


def test_a_page_whose_memory_grows_or_whose_own_message_matched_keeps_its_score() -> None:
    kept = page("loss-accumulated-with-graph")
    assert kept.memory_grows
    assert gate_factor(kept, match(kept, 0.5), GROWS)[0] == 1.0
    capacity = page("cuda-oom-capacity")
    assert gate_factor(capacity, match(capacity, 0.9), GROWS)[0] == 1.0


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        (
            "batch-17/t17A-lightning-validation-gpu-memory-grows",
            "lightning-epoch-end-outputs-retained",
        ),
        (
            "batch-14/t14a-pytorch-dataloader-ram-grows-with-workers",
            "dataloader-workers-copy-python-objects",
        ),
    ],
)
def test_a_described_growth_leads_with_a_page_whose_memory_grows(case: str, expected: str) -> None:
    diagnosis = diagnose_folder(FIRST_SIGHT / case)
    assert diagnosis.context.memory_grows
    assert diagnosis.hypotheses[0].id == expected
