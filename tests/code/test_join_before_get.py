"""code.process_joined_before_queue_drained: workers joined before their queue is read."""

from __future__ import annotations

import pytest
from code_helpers import findings

ID = "code.process_joined_before_queue_drained"

JOIN_THEN_GET = """
import multiprocessing as mp
def run():
    q = mp.Queue()
    procs = [mp.Process(target=work, args=(i, q)) for i in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    return [q.get() for _ in procs]
"""
GET_THEN_JOIN = """
import multiprocessing as mp
def run():
    q = mp.Queue()
    procs = [mp.Process(target=work, args=(i, q)) for i in range(4)]
    for p in procs:
        p.start()
    out = [q.get() for _ in procs]
    for p in procs:
        p.join()
    return out
"""
THREAD_QUEUE = """
import queue, threading
def run():
    q = queue.Queue()
    t = threading.Thread(target=work, args=(q,))
    t.start()
    t.join()
    return q.get()
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (JOIN_THEN_GET, True),
        (JOIN_THEN_GET.replace("mp.Queue()", "ctx.Queue()"), True),
        (GET_THEN_JOIN, False),
        (THREAD_QUEUE, False),  # threads share memory: a thread's queue has nothing to flush
        (JOIN_THEN_GET.replace("p.join()", "p.join(timeout=5)"), False),
    ],
)
def test_fires_when_the_join_comes_before_the_first_read(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires
