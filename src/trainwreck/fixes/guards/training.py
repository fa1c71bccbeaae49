"""Guards on the training loop: spikes, divergence, non-finite values, the loss scale."""

from __future__ import annotations

from trainwreck.fixes.guards.base import GuardTemplate

HF_CALLBACKS = "https://huggingface.co/docs/transformers/v4.51.3/main_classes/callback"
TORCH_ISFINITE = "https://github.com/pytorch/pytorch/blob/a5a2680b1fd6197f34d5193a170a13559e015b42/torch/_torch_docs.py"
GRAD_SCALER = "https://pytorch.org/docs/2.3/_modules/torch/cuda/amp/grad_scaler.html"
FORWARD_HOOK = "https://pytorch.org/docs/2.0/generated/torch.nn.modules.module.register_module_forward_hook.html"

_GRAD_NORM_SPIKE = '''import statistics
from collections import deque

from transformers import TrainerCallback


class GradNormSpikeStop(TrainerCallback):
    """Stop training when the logged grad_norm exceeds FACTOR x its running median."""

    def __init__(self, factor=$factor, window=$window, consecutive=$consecutive):
        self.factor, self.consecutive = factor, consecutive
        self.history = deque(maxlen=window)
        self.strikes = 0

    def on_log(self, args, state, control, logs=None, **kwargs):
        norm = (logs or {}).get("grad_norm")
        if norm is None:
            return control
        if len(self.history) >= 10 and norm > self.factor * statistics.median(self.history):
            self.strikes += 1
        else:
            self.strikes = 0
        self.history.append(norm)
        if self.strikes >= self.consecutive:
            print(f"step {state.global_step}: grad_norm {norm:.3g} is over "
                  f"{self.factor}x its running median; stopping")
            control.should_training_stop = True
        return control

# trainer.add_callback(GradNormSpikeStop())
'''

_LOSS_RISE = '''import statistics
from collections import deque

from transformers import TrainerCallback


class LossRiseStop(TrainerCallback):
    """Stop when the median of the last WINDOW logged losses exceeds FACTOR x the best loss."""

    def __init__(self, factor=$factor, window=$window):
        self.factor = factor
        self.recent = deque(maxlen=window)
        self.best = float("inf")

    def on_log(self, args, state, control, logs=None, **kwargs):
        loss = (logs or {}).get("loss")
        if loss is None:
            return control
        self.best = min(self.best, loss)
        self.recent.append(loss)
        full = len(self.recent) == self.recent.maxlen
        if full and statistics.median(self.recent) > self.factor * self.best:
            print(f"step {state.global_step}: recent loss median is over "
                  f"{self.factor}x the best loss {self.best:.4g}; stopping")
            control.should_training_stop = True
        return control

# trainer.add_callback(LossRiseStop())
'''

_LR_FLOOR = '''from transformers import TrainerCallback


class LearningRateFloor(TrainerCallback):
    """Stop when the logged learning rate falls below MIN_FRACTION of its peak too early."""

    def __init__(self, min_fraction=$min_fraction, before_fraction=$before_fraction):
        self.min_fraction, self.before_fraction = min_fraction, before_fraction
        self.peak = 0.0

    def on_log(self, args, state, control, logs=None, **kwargs):
        lr = (logs or {}).get("learning_rate")
        if lr is None:
            return control
        self.peak = max(self.peak, lr)
        early = state.global_step < self.before_fraction * max(state.max_steps, 1)
        if early and self.peak > 0 and lr < self.min_fraction * self.peak:
            print(f"step {state.global_step}: learning rate {lr:.3g} is under "
                  f"{self.min_fraction:.0%} of its peak before {self.before_fraction:.0%} "
                  "of the planned steps; stopping")
            control.should_training_stop = True
        return control

# trainer.add_callback(LearningRateFloor())
'''

_NONFINITE_LOSS = '''import math


class FiniteLossGuard:
    """Raise after MAX_CONSECUTIVE non-finite losses in a row, naming the batches."""

    def __init__(self, max_consecutive=$max_consecutive):
        self.max_consecutive = max_consecutive
        self.bad_batches = []

    def check(self, loss, batch_ids=None):
        value = float(loss.detach()) if hasattr(loss, "detach") else float(loss)
        if math.isfinite(value):
            self.bad_batches.clear()
            return True
        self.bad_batches.append(batch_ids)
        if len(self.bad_batches) >= self.max_consecutive:
            raise FloatingPointError(
                f"{len(self.bad_batches)} non-finite losses in a row; batches: {self.bad_batches}"
            )
        return False

# guard = FiniteLossGuard()
# if guard.check(loss, batch_ids=batch.get("idx")): loss.backward()  # else skip the step
'''

_NONFINITE_PARAMS = '''import torch


def check_finite_parameters(model, step, first_steps=$first_steps):
    """After optimizer.step(): raise at the first parameter holding a NaN or inf."""
    if step >= first_steps:
        return
    for name, param in model.named_parameters():
        if not torch.isfinite(param).all():
            raise FloatingPointError(f"step {step}: parameter {name} is no longer finite")

# optimizer.step(); check_finite_parameters(model, step)
'''

_NONFINITE_BATCH = '''import torch


def check_finite_batch(batch, indices=None, max_nonfinite=$max_nonfinite):
    """Raise when a batch's floating tensors hold more than MAX_NONFINITE NaN/inf values."""
    tensors = batch.items() if isinstance(batch, dict) else enumerate(batch)
    for key, value in tensors:
        if torch.is_tensor(value) and value.is_floating_point():
            bad = int((~torch.isfinite(value)).sum())
            if bad > max_nonfinite:
                raise ValueError(f"{bad} non-finite values in {key!r}; samples {indices}")
    return batch

# for batch in loader: check_finite_batch(batch, indices=batch.get("idx"))
'''

_ACTIVATION_BOUND = '''import torch


def install_activation_guard(model, max_abs=$max_abs, steps=$steps):
    """Forward hooks that raise when a module output is non-finite or above MAX_ABS."""
    calls = {"n": 0}

    def hook(module, inputs, output):
        tensors = output if isinstance(output, (tuple, list)) else (output,)
        for t in tensors:
            if not (torch.is_tensor(t) and t.is_floating_point()) or calls["n"] >= steps:
                continue
            if not torch.isfinite(t).all():
                raise FloatingPointError(f"{type(module).__name__} produced NaN/inf")
            peak = float(t.detach().abs().max())
            if peak > max_abs:
                raise FloatingPointError(
                    f"{type(module).__name__} output reached {peak:.4g} > {max_abs}"
                )

    def count(module, inputs, output):
        calls["n"] += 1

    handles = [m.register_forward_hook(hook) for m in model.modules() if m is not model]
    handles.append(model.register_forward_hook(count))
    return handles

# handles = install_activation_guard(model); ...; [h.remove() for h in handles]
'''

_LOSS_SCALE = '''from collections import deque


class LossScaleGuard:
    """Watch a GradScaler: fail when the scale drops below MIN_SCALE or too many steps skip."""

    def __init__(self, scaler, min_scale=$min_scale, max_skipped_fraction=$max_skipped_fraction,
                 window=$window, warmup_steps=$warmup_steps):
        self.scaler, self.min_scale = scaler, min_scale
        self.max_skipped_fraction, self.warmup_steps = max_skipped_fraction, warmup_steps
        self.skipped = deque(maxlen=window)
        self.steps = 0

    def after_update(self, scale_before):
        """Call after scaler.update() with the scale read before it."""
        scale = self.scaler.get_scale()
        self.steps += 1
        self.skipped.append(scale < scale_before)
        if self.steps <= self.warmup_steps:
            return
        if scale < self.min_scale:
            raise FloatingPointError(f"loss scale collapsed to {scale} (< {self.min_scale})")
        share = sum(self.skipped) / len(self.skipped)
        if len(self.skipped) == self.skipped.maxlen and share > self.max_skipped_fraction:
            raise FloatingPointError(f"{share:.0%} of the last {len(self.skipped)} steps skipped")

# before = scaler.get_scale(); scaler.step(opt); scaler.update(); guard.after_update(before)
'''

TEMPLATES = (
    GuardTemplate(
        "grad-norm-spike",
        "HF Trainer callback: stop when grad_norm exceeds k x its running median",
        {"factor": 10.0, "window": 100, "consecutive": 1},
        HF_CALLBACKS,
        _GRAD_NORM_SPIKE,
    ),
    GuardTemplate(
        "loss-rise",
        "HF Trainer callback: stop when recent losses exceed k x the best loss",
        {"factor": 2.0, "window": 10},
        HF_CALLBACKS,
        _LOSS_RISE,
    ),
    GuardTemplate(
        "lr-floor",
        "HF Trainer callback: stop when the learning rate decays to ~0 too early",
        {"min_fraction": 0.01, "before_fraction": 0.8},
        HF_CALLBACKS,
        _LR_FLOOR,
    ),
    GuardTemplate(
        "nonfinite-loss",
        "raise after N non-finite losses in a row",
        {"max_consecutive": 3},
        TORCH_ISFINITE,
        _NONFINITE_LOSS,
    ),
    GuardTemplate(
        "nonfinite-params",
        "check every parameter is finite after the first optimizer steps",
        {"first_steps": 10},
        TORCH_ISFINITE,
        _NONFINITE_PARAMS,
    ),
    GuardTemplate(
        "nonfinite-batch",
        "reject batches whose inputs or labels hold NaN/inf",
        {"max_nonfinite": 0},
        TORCH_ISFINITE,
        _NONFINITE_BATCH,
    ),
    GuardTemplate(
        "activation-bound",
        "forward hooks: fail on non-finite or too large activations",
        {"max_abs": 65504.0, "steps": 20},
        FORWARD_HOOK,
        _ACTIVATION_BOUND,
    ),
    GuardTemplate(
        "loss-scale-floor",
        "GradScaler: fail when the scale collapses or too many steps are skipped",
        {"min_scale": 128.0, "max_skipped_fraction": 0.05, "window": 100, "warmup_steps": 20},
        GRAD_SCALER,
        _LOSS_SCALE,
    ),
)
