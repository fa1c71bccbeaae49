"""code.pool_results_read_after_with_block: Pool results read after the block ended."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.pool_results_read_after_with_block"
CASE = (
    ROOT
    / "benchmarks/first_sight/batch-31"
    / "r31a-pytorch-kws-feature-extraction-stalls-before-training-repro"
)

EXTRACT = """
import multiprocessing as mp

def extract(chunks):
    with mp.Pool(2) as pool:
        pending = [pool.apply_async(featurize, (c,)) for c in chunks]
    feats = []
    for i, job in enumerate(pending):
        feats.extend(job.get())
    return feats
"""


INSIDE = """
import multiprocessing as mp

def extract(chunks):
    with mp.Pool(2) as pool:
        pending = [pool.apply_async(featurize, (c,)) for c in chunks]
        feats = [job.get() for job in pending]
    return feats
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (EXTRACT, True),
        (
            EXTRACT.replace("pool.apply_async(featurize, (c,))", "pool.map_async(featurize, [c])"),
            True,
        ),
        # collected inside the block: the workers are still there
        (INSIDE, False),
        # a blocking map returns the results before the block ends
        (
            EXTRACT.replace(
                "[pool.apply_async(featurize, (c,)) for c in chunks]", "pool.map(featurize, chunks)"
            ),
            False,
        ),
        # no context manager: nothing terminates the pool early
        (EXTRACT.replace("with mp.Pool(2) as pool:", "pool = mp.Pool(2)\n    if True:"), False),
    ],
)
def test_fires_on_results_read_after_the_pool_block(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_reproduction_that_stalled_before_training_is_found() -> None:
    """batch-31: 80 feature chunks submitted, then nothing; Ctrl-C showed job.get(); first
    sight at f4ddcf4b led with a DataLoader timeout page."""
    assert "job.get()" in file_findings(CASE / "train.py")[ID].summary
    assert diagnose_folder(CASE).hypotheses[0].id == "pool-results-read-after-with-block"
