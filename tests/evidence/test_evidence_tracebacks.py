"""Tracebacks from real failing processes, and real multi-rank logs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from evidence_helpers import FIXTURES, run_broken

from trainwreck.evidence.collect import collect
from trainwreck.evidence.tracebacks import frame_library

CHAINED = """
def load(config):
    return config["lr"]

def setup(config):
    try:
        return load(config)
    except KeyError:
        raise ValueError("learning rate missing from config")

def main():
    try:
        setup({})
    except ValueError as error:
        raise RuntimeError("could not start training") from error

main()
"""


def test_chained_exceptions_keep_order_and_chain_kind(tmp_path: Path) -> None:
    evidence = collect([str(run_broken(CHAINED, tmp_path))])
    kinds = [(exc.type, exc.chain) for exc in evidence.exceptions]
    assert kinds == [("KeyError", "context"), ("ValueError", "cause"), ("RuntimeError", None)]
    final = evidence.final_exception
    assert final is not None and final.message == "could not start training"
    assert final.user_frame is not None and final.user_frame.function == "main"
    assert evidence.exceptions[0].frames[-1].code == 'return config["lr"]'


def test_faulthandler_segfault_is_a_fatal_error_with_frames(tmp_path: Path) -> None:
    code = (
        "import ctypes\n\ndef read_pointer():\n    return ctypes.string_at(0)\n\nread_pointer()\n"
    )
    log = run_broken(code, tmp_path, "-X", "faulthandler")
    evidence = collect([str(log)])
    fatal = [exc for exc in evidence.exceptions if exc.type == "Fatal Python error"]
    assert len(fatal) == 1 and fatal[0].message.startswith("Segmentation fault")
    functions = [frame.function for frame in fatal[0].frames]
    assert functions[-2:] == ["string_at", "read_pointer"] or "read_pointer" in functions
    assert fatal[0].frames[0].function == "<module>"  # stored outermost first


def test_shell_sigkill_becomes_confirming_exit(tmp_path: Path) -> None:
    script = tmp_path / "hog.py"
    script.write_text("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n")
    shell = f'"{sys.executable}" "{script}"; echo "training exited with code $?"'
    result = subprocess.run(["bash", "-c", shell], capture_output=True, timeout=60)
    log = tmp_path / "run.log"
    log.write_bytes(result.stdout + result.stderr)
    evidence = collect([str(log)])
    assert [(e.exitcode, e.signal) for e in evidence.exits][-1] == (137, "SIGKILL")
    assert any(line.role == "confirmation" for line in evidence.lines)


torch = pytest.importorskip("torch")


def test_torch_shape_mismatch_real_runtime_error(tmp_path: Path) -> None:
    code = (
        "import torch\n\ndef forward(x):\n    return x @ torch.zeros(4, 5)\n\n"
        "forward(torch.zeros(2, 3))\n"
    )
    evidence = collect([str(run_broken(code, tmp_path))])
    final = evidence.final_exception
    assert final is not None and final.type == "RuntimeError"
    assert "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)" in final.message
    assert final.user_frame is not None and final.user_frame.function == "forward"
    assert final.role == "root"


def test_c10_error_has_cpp_frame(tmp_path: Path) -> None:
    code = "import torch\ntorch.zeros(2, 3).view(4, 4)\n"
    env = {"TORCH_SHOW_CPP_STACKTRACES": "1", "TORCH_DISABLE_ADDR2LINE": "1"}
    evidence = collect([str(run_broken(code, tmp_path, env=env))])
    final = evidence.final_exception
    assert final is not None and "is invalid for input of size 6" in final.message
    cpp = [frame for frame in final.frames if frame.file.endswith(".h") or ".cpp" in frame.file]
    assert cpp and cpp[0].library == "torch" and cpp[0].line is not None
    assert "infer_size" in (cpp[0].function or "")


def test_eight_ranks_root_is_first_real_error_not_gloo_fallout() -> None:
    evidence = collect([str(FIXTURES / "torchrun_8rank_shape_mismatch.log")])
    roots = [exc for exc in evidence.exceptions if exc.role == "root"]
    assert len(roots) == 1 and roots[0].rank == 3
    assert "shapes cannot be multiplied" in roots[0].message
    cascades = [exc for exc in evidence.exceptions if exc.role == "cascade"]
    assert any(exc.type.endswith("ChildFailedError") for exc in cascades)
    # ranks 1, 2, 4, 5, 7 printed the same gloo error before torchrun sent SIGTERM
    gloo = [exc for exc in cascades if exc.type == "RuntimeError"]
    assert len(gloo) == 1 and gloo[0].count == 5 and "Connection closed by peer" in gloo[0].message
    assert {line.rank for line in evidence.lines if line.rank is not None} == {1, 2, 3, 4, 5, 7}
    assert {exit_.rank for exit_ in evidence.exits} == set(range(8))
    assert [(e.rank, e.exitcode) for e in evidence.exits if e.exitcode == 1] == [(3, 1)]


def test_eight_ranks_sigkill_exit_and_no_root_among_cascades() -> None:
    evidence = collect([str(FIXTURES / "torchrun_8rank_sigkill.log")])
    killed = [e for e in evidence.exits if e.exitcode == -9]
    assert killed and killed[0].rank == 3 and killed[0].signal == "SIGKILL"
    assert all(exc.role == "cascade" for exc in evidence.exceptions)
    assert any(line.role == "confirmation" and "SIGKILL" in line.text for line in evidence.lines)


def test_childfailed_summary_from_issue_gives_exit_minus_9() -> None:
    evidence = collect([str(FIXTURES / "childfailed_sigkill_cppo_6.log")])
    assert [(e.rank, e.exitcode, e.signal) for e in evidence.exits] == [(0, -9, "SIGKILL")]
    child = evidence.exceptions[-1]
    assert child.type.endswith("ChildFailedError") and child.role == "cascade"
    assert {frame.library for frame in child.frames} == {"accelerate", "torch"}


def test_nccl_timeout_ranks_timestamps_and_cascades() -> None:
    evidence = collect([str(FIXTURES / "nccl_timeout_llamafactory_6269.log")])
    assert [line.rank for line in evidence.lines] == [0, 0, 4, 4, 3]
    assert evidence.lines[0].timestamp == "1206 18:44:12.715298746"
    roles = [line.role for line in evidence.lines]
    assert roles.count("root") == 1 and roles[0] == "root" and roles.count("cascade") == 4


def test_nccl_timeout_with_pasted_line_numbers_still_finds_rank() -> None:
    evidence = collect([str(FIXTURES / "nccl_timeout_llamafactory_7396.log")])
    assert [line.rank for line in evidence.lines] == [0, 4, 0, 3]
    assert all(line.text.startswith("[E321") for line in evidence.lines)


def test_cuda_device_side_assert_root_and_advice() -> None:
    evidence = collect([str(FIXTURES / "cuda_device_assert_qlora_3.log")])
    final = evidence.final_exception
    assert final is not None and final.message.startswith("CUDA error: device-side assert")
    advice = [line.text for line in evidence.lines if line.role == "advice"]
    assert len(advice) == 3 and any("CUDA_LAUNCH_BLOCKING=1" in text for text in advice)
    assert sum("srcIndex < srcSelectDimSize" in line.text for line in evidence.lines) == 2


@pytest.mark.parametrize(
    ("path", "library"),
    [
        ("/usr/lib/python3.10/site-packages/transformers/trainer.py", "transformers"),
        ("/opt/conda/lib/python3.10/dist-packages/torch/nn/modules/module.py", "torch"),
        ("/home/me/project/train.py", None),
        ("../aten/src/ATen/native/cuda/Indexing.cu", "torch"),
    ],
)
def test_frame_library(path: str, library: str | None) -> None:
    assert frame_library(path) == library
