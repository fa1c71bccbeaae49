"""Which checkpoint to resume from, and the command that resumes from it.

The newest checkpoint whose files loaded and held only finite values, saved no later
than the last step the history logged as finite before the first bad one: a NaN logged at
step b may come from any step since the previous log, so a checkpoint between the last
finite log and b is not trusted, even when its tensors are finite.
"""

from __future__ import annotations

from trainwreck.checkpoints.model import BadStep, Checkpoint, Framework, Resume
from trainwreck.model import Arithmetic, ArithmeticLine, Citation

# How each framework resumes, and where that is documented.
RESUME: dict[Framework, tuple[str, Citation]] = {
    "hf-trainer": (
        'trainer.train(resume_from_checkpoint="{path}")',
        Citation(
            page="transformers:Trainer.train",
            url="https://github.com/huggingface/transformers/blob/v5.24.0/src/transformers/trainer.py#L1460",
            detail="resume_from_checkpoint takes the path of a checkpoint a previous Trainer "
            "saved, and training resumes from the model, optimizer and scheduler states in it",
        ),
    ),
    "lightning": (
        'trainer.fit(model, ckpt_path="{path}")',
        Citation(
            page="lightning:checkpointing_basic",
            url="https://lightning.ai/docs/pytorch/2.5.5/reference/common/checkpointing_basic",
            detail="training resumes from a checkpoint through fit()'s ckpt_path argument "
            "(resume_from_checkpoint is deprecated); a .ckpt holds the global step and "
            "the optimizer and scheduler states",
        ),
    ),
    "plain": (
        'model.load_state_dict(<state dict read from "{path}">)',
        Citation(
            page="pytorch:saving_loading_models",
            url="https://github.com/pytorch/pytorch/blob/v2.13.0/torch/nn/modules/module.py#L2530",
            detail="a plain weights file is loaded into a built model with load_state_dict "
            "(safetensors.torch.load_file, or torch.load(weights_only=True)); the optimizer's "
            "own state_dict, when saved, is restored the same way",
        ),
    ),
}


def _line(label: str, value: int | str, source: str) -> ArithmeticLine:
    return ArithmeticLine(label=label, formula="read", value=value, unit="step", source=source)


def _arithmetic(chosen: Checkpoint, bad: BadStep | None, limit: int | None) -> Arithmetic:
    lines = [_line("checkpoint step", str(chosen.step), f"{chosen.path} ({chosen.step_source})")]
    if bad is not None:
        lines.append(_line(f"first non-finite {bad.metric} ({bad.value})", bad.step, bad.source))
        lines.append(
            ArithmeticLine(
                label="last step logged finite before it",
                formula="the logged step before the first non-finite one",
                value=str(limit),
                unit="step",
                source=bad.source,
            )
        )
    result = (
        f"step {chosen.step} <= {limit}: saved before the first bad step {bad.step}"
        if bad is not None
        else "no non-finite loss or gradient norm in the history: the newest healthy checkpoint"
    )
    return Arithmetic(
        title="Checkpoint against the metric history", lines=tuple(lines), result=result
    )


def eligible(checkpoint: Checkpoint, limit: int | None, bad: BadStep | None) -> bool:
    """Healthy, and (when the history has a bad step) saved no later than `limit`.

    Healthy: no file broken or non-finite, and at least one checked; a file that could not
    be checked here (an `optimizer.pt` without torch) does not rule the others out.
    """
    statuses = {check.status for check in checkpoint.files}
    if "ok" not in statuses or statuses - {"ok", "unchecked"}:
        return False
    if bad is None:
        return True
    return checkpoint.step is not None and limit is not None and checkpoint.step <= limit


def choose(checkpoints: list[Checkpoint], bad: BadStep | None) -> Resume | None:
    """The last eligible checkpoint in step order, with its framework's resume command."""
    limit = bad.last_finite_step if bad is not None else None
    good = [c for c in checkpoints if eligible(c, limit, bad)]
    if not good:
        return None
    chosen = good[-1]
    template, citation = RESUME[chosen.framework]
    return Resume(
        checkpoint=chosen.path,
        step=chosen.step,
        command=template.format(path=chosen.path),
        citation=citation,
        arithmetic=_arithmetic(chosen, bad, limit),
    )
