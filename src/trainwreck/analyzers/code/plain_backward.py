"""`loss.backward()` inside `accelerator.accumulate(model)`, bypassing accelerator.backward.

Accelerate divides the loss by gradient_accumulation_steps inside
accelerator.backward (and applies its GradScaler there under fp16), while the
prepared optimizer still steps only once per accumulation window. A plain
`loss.backward()` in the same loop adds up the full, undivided gradients of
every micro-batch, so each update is gradient_accumulation_steps times larger
than intended (an effective learning rate that many times higher), and under
fp16 the gradients were never scaled for the scaler that unscales them.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.tree import Hit, Tree, is_method, last, receiver


def _accumulating(tree: Tree, node: ast.AST) -> str | None:
    """The accelerator whose `accumulate(...)` block holds the node, if one does."""
    for outer in tree.ancestors(node):
        if isinstance(outer, ast.With | ast.AsyncWith):
            for item in outer.items:
                context = item.context_expr
                if isinstance(context, ast.Call) and last(context) == "accumulate":
                    return receiver(context) or None
    return None


def _divided(call: ast.Call) -> bool:
    tensor = call.func.value if isinstance(call.func, ast.Attribute) else None
    return isinstance(tensor, ast.BinOp) and isinstance(tensor.op, ast.Div)


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for call in tree.calls:
        if not is_method(call, "backward") or call.args:
            continue  # accelerator.backward(loss) takes the loss as its argument
        if _divided(call):
            continue  # `(loss / steps).backward()`: the user averages the window by hand
        accelerator = _accumulating(tree, call)
        if accelerator is not None and receiver(call) != accelerator:
            hits.append(tree.hit(call, accelerator=accelerator))
    return hits


DETECTOR = Detector(
    name="plain_backward_under_accumulate",
    title="loss.backward() inside accelerator.accumulate(), so the loss is never divided by "
    "the accumulation steps",
    category="divergence",
    explain=(
        "{where}: `{code}` runs inside `{accelerator}.accumulate(...)`; only "
        "`{accelerator}.backward(loss)` divides the loss by gradient_accumulation_steps (and "
        "scales it under fp16), so every update sums undivided gradients"
    ),
    find=_find,
)
