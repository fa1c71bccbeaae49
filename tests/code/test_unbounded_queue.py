"""code.unbounded_prefetch_queue: a producer loop filling a queue with no maxsize."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

ID = "code.unbounded_prefetch_queue"
CASE = (
    ROOT / "benchmarks/first_sight/batch-29/r29a-pytorch-cnn-rss-climbs-until-cpu-alloc-fails-repro"
)
PRODUCER = "\ndef produce():\n    while True:\n        q.put(load_batch())"


@pytest.mark.parametrize(
    ("code", "fired"),
    [
        ("q = queue.Queue()" + PRODUCER, True),
        ("q = multiprocessing.Queue(maxsize=0)" + PRODUCER, True),
        # bounded: put blocks once the consumer falls behind
        ("q = queue.Queue(maxsize=4)" + PRODUCER, False),
        ("q = queue.Queue(8)" + PRODUCER, False),
        # filled once, not by a loop
        ("q = queue.Queue()\nq.put(sentinel)", False),
    ],
)
def test_fires_on_an_unbounded_queue_a_loop_fills(code: str, fired: bool) -> None:
    assert fires(code, ID) is fired


def test_the_prefetch_reproduction_is_found() -> None:
    """batch-29: a prefetch thread fills queue.Queue() with 50 MB batches; RSS grows ~95 MB a
    step until the 4 GiB cap makes the allocator fail."""
    assert "self.q" in file_findings(CASE / "train.py")[ID].summary
