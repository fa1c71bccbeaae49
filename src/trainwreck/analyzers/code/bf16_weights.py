"""A model's own weights cast to bfloat16 and trained by an optimizer over them.

`model.to(torch.bfloat16)` (or `.bfloat16()`, or loading with a bfloat16 dtype)
makes the parameters themselves bfloat16, and an optimizer built on them keeps
its state and applies its updates in bfloat16 too. bfloat16 has an 8-bit
significand: a weight near 1 only moves in steps of about 2**-8, so an update a
few hundred times smaller than the weight rounds away and the weight never
changes. Fine-tuning rates (1e-5 to 1e-4) then leave most weights where they
were and the loss stalls near its start. Autocast, by contrast, keeps fp32
weights and computes in bfloat16: it is not this mistake and stays quiet.
"""

from __future__ import annotations

import re

from trainwreck.analyzers.code.casts import weight_casts
from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import OPTIMIZER_CLASSES
from trainwreck.analyzers.code.tree import Hit, Tree, last

_BFLOAT16 = re.compile(r"\bbfloat16\b")


def _find(tree: Tree) -> list[Hit]:
    if not any(last(call) in OPTIMIZER_CLASSES for call in tree.calls):
        return []
    casts = weight_casts(tree, _BFLOAT16)
    return [tree.hit(casts[0])] if casts else []


DETECTOR = Detector(
    name="weights_cast_to_bfloat16_for_training",
    title="The model's weights are cast to bfloat16 and trained directly (no fp32 master copy)",
    category="divergence",
    explain=(
        "{where}: `{code}` makes the parameters themselves bfloat16, and the optimizer updates "
        "them in bfloat16: steps much smaller than a weight round away, so training stalls"
    ),
    find=_find,
)
