"""A JSONL file written by a background thread, so a training step never waits on the disk.

Records wait in a bounded deque (no lock: a SIGTERM handler that closes the writer may run
in the middle of an append, and a `queue.Queue` would deadlock on its own mutex there);
when it is full, new records are dropped and counted instead of blocking the step. Each
batch goes to an unbuffered file descriptor as whole lines in one `os.write`, so nothing
sits in a user-space buffer and a `kill -9` leaves a file that parses up to its last
complete line (at worst one cut line, which the curves reader skips).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections import deque
from collections.abc import Callable

# Records held at most while the disk lags: a watch() record is about 250 bytes of JSON,
# so a stalled disk costs at most ~2.5 MB before records are dropped.
QUEUE_LIMIT = 10_000
# The writer's sleep when nothing is queued: a `kill -9` loses at most this much of the
# newest records, and 20 wake-ups a second cost nothing measurable
# (benchmarks/recorder_overhead.py).
POLL_SECONDS = 0.05
# How long close() waits for the last batch: a batch of QUEUE_LIMIT records is ~2.5 MB,
# written in milliseconds on any local disk; past this the disk is hung and exit goes on.
JOIN_SECONDS = 5.0

Record = dict[str, float | int]


class JsonlWriter:
    """Appends records to `path` from a daemon thread; `on_error` hears of a failed write."""

    def __init__(self, path: str, on_error: Callable[[BaseException], None]) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        self._pending: deque[Record] = deque()
        self._on_error = on_error
        self._closing = False
        self.dropped = 0
        self._thread = threading.Thread(target=self._run, name="trainwreck-writer", daemon=True)
        self._thread.start()

    def put(self, record: Record) -> None:
        """Queue a record, or count it as dropped when the queue is full or closed."""
        if self._closing or len(self._pending) >= QUEUE_LIMIT:
            self.dropped += 1
        else:
            self._pending.append(record)

    def close(self) -> None:
        """Write what is queued, then stop; safe to call from a signal handler and twice."""
        self._closing = True
        if self._thread is not threading.current_thread():
            self._thread.join(JOIN_SECONDS)

    def _run(self) -> None:
        try:
            while True:
                closing = self._closing  # read before draining: nothing queued after it is lost
                self._drain()
                if closing:
                    return
                time.sleep(POLL_SECONDS)
        except Exception as error:  # a full disk, a closed mount: the recorder stops, training not
            self._on_error(error)
        finally:
            os.close(self._fd)

    def _drain(self) -> None:
        lines = []
        while self._pending:
            lines.append(json.dumps(self._pending.popleft()))
        data = ("\n".join(lines) + "\n").encode() if lines else b""
        while data:
            data = data[os.write(self._fd, data) :]
