"""A failed allocation too large for any machine: the size is a shape bug, not a shortage.

One tensor of a tebibyte or more is past the RAM of ordinary training hosts and
every GPU; no job means to materialise one, and no swap or limit makes it fit. Sizes
like that come from a shape: a dimension squared (a pairwise matrix over every
sample), an axis broadcast against another, a length read from the wrong field.
So the size itself is decoded: its element count at each width, and the side of
the square matrix it would be when the count is a perfect square.
"""

from __future__ import annotations

import math

from trainwreck.analyzers.allocation import ELEMENT_BYTES, failed_request
from trainwreck.model import Arithmetic, ArithmeticLine, Evidence, Finding

FINDING_IDS: tuple[str, ...] = ("alloc.implausible_size",)

TIB = 2**40
IMPLAUSIBLE_BYTES = TIB  # one tensor: beyond ordinary hosts' RAM and every GPU's memory


def _square_side(count: int) -> int | None:
    side = math.isqrt(count)
    return side if side * side == count and side > 1 else None


def _decoded(n_bytes: int, where: str) -> tuple[list[ArithmeticLine], str]:
    """Element counts per width, and the square matrix side where there is one."""
    lines = [
        ArithmeticLine(
            label="requested", formula="from the error", value=n_bytes, unit="bytes", source=where
        )
    ]
    implied = ""
    for width, dtype in sorted(ELEMENT_BYTES.items(), reverse=True):
        if n_bytes % width:
            continue
        count = n_bytes // width
        side = _square_side(count)
        formula = f"{n_bytes:,} / {width} B"
        lines.append(
            ArithmeticLine(
                label=f"{dtype} elements", formula=formula, value=count, source="computed"
            )
        )
        if side is not None and not implied:
            lines.append(
                ArithmeticLine(
                    label=f"{dtype} square matrix side",
                    formula=f"√{count:,}",
                    value=side,
                    source="computed",
                )
            )
            implied = f"a {side:,} x {side:,} {dtype} matrix"
    return lines, implied or f"{n_bytes // 4:,} fp32 elements"


def analyze(evidence: Evidence) -> list[Finding]:
    """An `alloc.implausible_size` finding when one failed request is a TiB or more."""
    request = failed_request(evidence)
    if request is None or request[0] < IMPLAUSIBLE_BYTES:
        return []
    n_bytes, _, said = request
    lines, implied = _decoded(n_bytes, said.where)
    size = f"{n_bytes / TIB:,.2f} TiB"
    summary = f"one request of {size} is {implied}: a shape bug, not a memory shortage"
    return [
        Finding(
            id="alloc.implausible_size",
            title=f"the failed allocation ({size}) is {implied}, more than hosts and GPUs hold",
            category="oom",
            summary=summary,
            evidence=(said.ref,),
            values={
                "requested_bytes": n_bytes,
                "requested_tib": round(n_bytes / TIB, 2),
                "implied_shape": implied,
            },
            arithmetic=Arithmetic(
                title="What the failed allocation's size implies",
                lines=tuple(lines),
                result=summary,
            ),
        )
    ]
