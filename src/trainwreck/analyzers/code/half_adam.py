"""Weights cast to float16 and trained by Adam or AdamW with an epsilon float16 cannot hold.

After `model.half()` (or loading with torch_dtype=torch.float16) the optimizer's
state has the parameters' dtype. float16's smallest subnormal is 2**-24; round
to nearest sends anything up to half of it to exactly 0, and Adam's default
eps of 1e-8 is below that. An element whose gradient is exactly zero is then
updated by 0 / (0 + 0) = NaN, and the NaN spreads through the weights.
"""

from __future__ import annotations

import ast
import re

from trainwreck.analyzers.code.casts import weight_casts
from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, keyword, last, number

# Half of float16's smallest subnormal (2**-24): round to nearest, ties to even, makes
# this value and anything smaller exactly 0.
FP16_ZERO_AT_OR_BELOW = 2.0**-25
# torch.optim.Adam and AdamW's default eps.
ADAM_DEFAULT_EPS = 1e-8
_ADAM = frozenset({"Adam", "AdamW"})
_FLOAT16 = re.compile(r"\b(?:float16|half)\b")


def _find(tree: Tree) -> list[Hit]:
    casts = weight_casts(tree, _FLOAT16)
    if not casts:
        return []
    hits = []
    for call in tree.calls:
        if last(call) not in _ADAM:
            continue
        given = keyword(call, "eps")
        eps = ADAM_DEFAULT_EPS if given is None else number(given)
        if eps is not None and eps <= FP16_ZERO_AT_OR_BELOW:
            hits.append(tree.hit(call, eps=eps, cast=ast.unparse(casts[0]), optimizer=last(call)))
    return hits


DETECTOR = Detector(
    name="half_adam_default_eps",
    title="Float16 weights trained by Adam/AdamW with an eps that rounds to 0 in float16",
    category="nan_inf",
    explain=(
        "{where}: `{code}` builds {optimizer} with eps={eps:g} for weights cast by `{cast}`; "
        "in float16 that eps is 0, so a zero gradient gives a 0/0 = NaN update"
    ),
    find=_find,
)
