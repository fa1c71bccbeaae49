"""code.rank_device_hardcoded: a distributed script placing tensors on GPU 0 by index."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

ID = "code.rank_device_hardcoded"
CASE = (
    ROOT
    / "benchmarks/first_sight/batch-30/t30a-pytorch-dtensor-distribute-module-script-never-exits"
)
DIST = "import torch.distributed as dist\ndist.init_process_group('nccl')\n"
MESH = "mesh = init_device_mesh('cuda', (4,))\n"


@pytest.mark.parametrize(
    ("code", "fired"),
    [
        # batch-30's DTensor thread: every rank builds its input on cuda(0) and the job never exits
        (MESH + "x = torch.randn(8, 8).cuda(0)", True),
        (DIST + "model = Net().to('cuda:0')", True),
        (DIST + "device = torch.device('cuda', 0)", True),
        (DIST + "state = torch.load('ckpt.pt', map_location='cuda:0')", True),
        # each rank on its own GPU
        (DIST + "model = Net().cuda(local_rank)", False),
        (DIST + "model = Net().to(f'cuda:{rank}')", False),
        # the script makes each process see one GPU, which is index 0 there
        (
            "import os\nos.environ['CUDA_VISIBLE_DEVICES'] = str(rank)\n" + DIST + "x = t.cuda(0)",
            False,
        ),
        # no process group: a single-process script may use GPU 0
        ("model = Net().cuda(0)", False),
    ],
)
def test_fires_on_a_literal_gpu_0_in_a_distributed_script(code: str, fired: bool) -> None:
    assert fires(code, ID) is fired


def test_the_dtensor_thread_is_found() -> None:
    """batch-30: every rank of a 4-GPU device mesh builds its input with .cuda(0) and the
    script never exits (distributed-ranks-share-one-gpu now leads the case)."""
    found = file_findings(CASE / "train.py")[ID]
    assert ".cuda(0)" in found.summary
