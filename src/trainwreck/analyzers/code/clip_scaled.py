"""Gradients clipped while still multiplied by GradScaler's loss scale.

`scaler.scale(loss).backward()` leaves every `.grad` multiplied by the loss scale
(65,536 at the start). `scaler.step()` divides it out again, or `scaler.unscale_(opt)`
does it earlier; a `clip_grad_norm_` between the backward and either of them measures a
norm thousands of times too large and shrinks every gradient to the clip value in
scaled units, so each applied update is about max_norm / scale of what it should be
and the loss barely moves. Accelerate's and Lightning's clips unscale first, so only
the torch.nn.utils clips count.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import method_calls
from trainwreck.analyzers.code.tree import Hit, Tree, last, receiver

# torch.nn.utils' clips, called through the module (or imported bare), not through a framework.
_CLIPS = frozenset({"clip_grad_norm_", "clip_grad_value_", "clip_grad_norm"})
_FRAMEWORK_RECEIVERS = ("accelerator", "fabric", "self", "trainer")


def _torch_clip(call: ast.Call) -> bool:
    if last(call) not in _CLIPS:
        return False
    owner = receiver(call)
    return not any(owner == name or owner.endswith(f".{name}") for name in _FRAMEWORK_RECEIVERS)


def _scaled_backwards(loop: ast.AST) -> list[ast.Call]:
    """`<scaler>.scale(loss).backward()` calls in the loop."""
    return [
        call
        for call in method_calls(loop, "backward")
        if isinstance(call.func, ast.Attribute)
        and isinstance(call.func.value, ast.Call)
        and last(call.func.value) == "scale"
    ]


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for clip in (call for call in tree.calls if _torch_clip(call)):
        loops = tree.loops(clip)
        if not loops:
            continue
        loop = loops[0]
        scaled = [call.lineno for call in _scaled_backwards(loop) if call.lineno < clip.lineno]
        if not scaled:
            continue
        unscales = [call.lineno for call in method_calls(loop, "unscale_")]
        if not any(max(scaled) < line < clip.lineno for line in unscales):
            hits.append(tree.hit(clip, clip=ast.unparse(clip)))
    return hits


DETECTOR = Detector(
    name="clip_before_unscale",
    title="Gradients are clipped while still multiplied by the GradScaler's loss scale",
    category="divergence",
    explain=(
        "{where}: `{clip}` runs after `scaler.scale(loss).backward()` with no "
        "`scaler.unscale_(optimizer)` before it, so it clips gradients still multiplied by the "
        "loss scale"
    ),
    find=_find,
)
