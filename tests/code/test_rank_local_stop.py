"""code.rank_local_stop_condition: a distributed loop left on a count each rank keeps."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.rank_local_stop_condition"
SCRIPT = """
accelerator = Accelerator()
model, opt, loader = accelerator.prepare(model, opt, loader)
tokens_seen, step = 0, 0
for batch in loader:
    out = model(**batch)
    accelerator.backward(out.loss)
    opt.step()
    opt.zero_grad()
    step += 1
    tokens_seen += {added}
    {sync}
    if {condition}:
        break
"""


def _script(
    added: str = 'int(batch["attention_mask"].sum())',
    condition: str = "tokens_seen >= budget",
    sync: str = "pass",
) -> str:
    return SCRIPT.format(added=added, condition=condition, sync=sync)


@pytest.mark.parametrize(
    "added", ['int(batch["attention_mask"].sum())', "len(batch['input_ids'])", "mask.numel()"]
)
def test_fires_on_a_break_on_this_ranks_own_data_count(added: str) -> None:
    assert fires(_script(added), ID)


@pytest.mark.parametrize(
    "source",
    [
        _script(condition="step >= max_steps"),  # the step count is the same on every rank
        _script(added="1"),  # counts steps, not data
        _script(sync="dist.all_reduce(tokens_seen)"),  # made the same on every rank
        _script(sync="tokens_seen = accelerator.reduce(tokens_seen)"),
        _script().replace("accelerator = Accelerator()", "accelerator = None"),  # one process
    ],
)
def test_quiet_on_steps_a_reduced_count_or_a_single_process(source: str) -> None:
    assert not fires(source, ID)


def test_the_batch_19_reproduction_leads_with_the_rank_local_page() -> None:
    """r19E-accelerate-cpu-2proc-stalls-at-end-repro (batch-19, judged family at 8c2ac608: a
    gloo timeout page led, the rank-local page third): each process stops when its own
    attention-mask token count reaches its budget (line 71)."""
    case = ROOT / "benchmarks/first_sight/batch-19/r19E-accelerate-cpu-2proc-stalls-at-end-repro"
    assert file_findings(case / "train.py")[ID].evidence[0].line == 71
    assert diagnose_folder(case).hypotheses[0].id == "rank-local-decision-diverges"
