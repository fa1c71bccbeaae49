"""Gradient clipping called after optimizer.step() in the same iteration.

clip_grad_norm_ rescales the `.grad` tensors in place; the optimizer reads them in
step(). Clipping after the step rescales gradients that were already applied (and
that the next zero_grad() throws away), so every update is unclipped: the run has
clipping in its code and its logs (the returned norm is printed) but not in its
updates, and a loss that clipping should hold climbs or spikes. A backward() between
the step and the clip (a clip that belongs to the next iteration's gradients) keeps
it quiet.
"""

from __future__ import annotations

import ast

from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.names import method_calls, optimizer_steps
from trainwreck.analyzers.code.tree import Hit, Tree, last

# torch.nn.utils' two clips, and the same under accelerate and Lightning's manual optimization.
_CLIPS = frozenset({"clip_grad_norm_", "clip_grad_value_", "clip_grad_norm", "clip_gradients"})


def _find(tree: Tree) -> list[Hit]:
    hits = []
    for clip in (call for call in tree.calls if last(call) in _CLIPS):
        loops = tree.loops(clip)
        if not loops:
            continue
        loop = loops[0]
        backwards = [call.lineno for call in method_calls(loop, "backward")]
        for step in optimizer_steps(loop):
            between = any(step.lineno < line < clip.lineno for line in backwards)
            if step.lineno < clip.lineno and backwards and not between:
                hits.append(tree.hit(clip, clip=ast.unparse(clip), step=ast.unparse(step)))
                break
    return hits


DETECTOR = Detector(
    name="clip_after_optimizer_step",
    title="Gradients are clipped after optimizer.step(), so no update is clipped",
    category="divergence",
    explain=(
        "{where}: `{clip}` runs after `{step}` in the same iteration; the step has already "
        "applied the unclipped gradients"
    ),
    find=_find,
)
