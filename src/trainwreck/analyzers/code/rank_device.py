"""A distributed script that puts its tensors on GPU 0 by a literal index.

Under torchrun every process must work on the GPU of its own local rank. A literal
`.cuda(0)`, `"cuda:0"` or `torch.device("cuda", 0)` sends every rank's tensor to the
same card: the ranks' CUDA contexts and buffers pile up on GPU 0, NCCL may refuse two
ranks on one device, and collectives over a device mesh that expects rank r on cuda:r
can hang or leave the job unable to exit. A script that sets CUDA_VISIBLE_DEVICES per
process (so each sees one GPU as index 0) is quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import distributed
from trainwreck.analyzers.code.tree import Hit, Tree, argument, is_method, last, number

_FIRST_GPU = "cuda:0"


def _first_gpu(call: ast.Call) -> bool:
    """`.cuda(0)`, `torch.device("cuda", 0)`, or a call given the string "cuda:0"."""
    if is_method(call, "cuda"):
        return number(argument(call, "device", 0)) == 0
    if last(call) == "device" and len(call.args) == 2:
        kind, index = call.args
        return isinstance(kind, ast.Constant) and kind.value == "cuda" and number(index) == 0
    values = [*call.args, *(kw.value for kw in call.keywords)]
    return any(isinstance(value, ast.Constant) and value.value == _FIRST_GPU for value in values)


def _find(tree: Tree) -> list[Hit]:
    if not distributed(tree):
        return []
    if "CUDA_VISIBLE_DEVICES" in tree.source:
        return []
    return [tree.hit(call) for call in tree.calls if _first_gpu(call)][:1]


DETECTOR = Detector(
    name="rank_device_hardcoded",
    title="A distributed script puts tensors on GPU 0 by a literal index: every rank uses one GPU",
    category="crash",
    explain=(
        "{where}: `{code}` names GPU 0 in a script that starts a process group; every rank "
        "runs this line and puts its tensors on the same card instead of its local rank's"
    ),
    find=_find,
)
