"""Flight-recorder dumps: written by PyTorch itself, read without running any pickled global."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

from helpers import DISTRIBUTED_JOBS, one_rank_dumps
from trainwreck.evidence.collect import collect


class _Planted:
    """Unpickling this runs os.system: what a hostile "dump" would do."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, (f"touch {self.marker}",))


def test_a_dump_pytorch_wrote_is_read_with_its_call_sites(tmp_path: Path) -> None:
    one_rank_dumps(
        tmp_path, "all_reduce", "broadcast", "dump:fr_trace_rank_0", "json:fr_rank_0.json"
    )
    evidence = collect([str(tmp_path / "fr_trace_rank_0"), str(tmp_path / "fr_rank_0.json")])
    assert evidence.gaps == ()
    pickled, as_json = evidence.flight_dumps
    assert [(c.seq, c.op, c.input_sizes) for c in pickled.calls] == [
        (1, "all_reduce", ((4, 2),)),
        (2, "broadcast", ((4, 2),)),
    ]
    assert pickled.rank == 0
    assert str(pickled.calls[0].site).startswith(f"{DISTRIBUTED_JOBS / 'one_rank_dumps.py'}:")
    assert [c.op for c in as_json.calls] == ["all_reduce", "broadcast"]  # no stacks in JSON
    assert as_json.calls[0].site is None


def test_a_pickle_asking_for_a_global_is_refused_and_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    planted = {
        "version": "2.10",
        "pg_config": {},
        "comm_lib_version": "",
        "entries": [_Planted(marker)],
    }
    dump = tmp_path / "nccl_trace_rank_0"
    dump.write_bytes(pickle.dumps(planted))
    evidence = collect([str(dump)])
    assert evidence.flight_dumps == ()
    (gap,) = evidence.gaps
    assert gap.reason.startswith("refused: the pickle asks for posix.system")
    assert not marker.exists()


def test_a_damaged_dump_is_a_gap(tmp_path: Path) -> None:
    one_rank_dumps(tmp_path, "all_reduce", "dump:whole_rank_1")
    whole = (tmp_path / "whole_rank_1").read_bytes()
    dump = tmp_path / "fr_trace_rank_1"
    dump.write_bytes(whole[: len(whole) // 2])
    evidence = collect([str(dump)])
    assert evidence.flight_dumps == ()
    assert evidence.gaps[0].reason.startswith("not a readable flight-recorder dump")


def test_a_pickle_that_is_not_a_dump_stays_a_binary_file(tmp_path: Path) -> None:
    other = tmp_path / "weights.pkl"
    other.write_bytes(pickle.dumps({"layer.weight": [0.1, 0.2]}))
    assert collect([str(other)]).gaps[0].reason == "binary file, not a log"
