"""Guards run once as training starts: what trains, gradients, optimizer, dtypes, labels, speed."""

from __future__ import annotations

from trainwreck.fixes.guards.base import GuardTemplate

MODULE = "https://github.com/pytorch/pytorch/blob/d4cc86dc3cf9b2b5f59d1b24af4c5e430f96ab7b/torch/nn/modules/module.py"
ADAMW = "https://pytorch.org/docs/1.8.1/_modules/torch/optim/adamw.html"
LOSS = "https://github.com/pytorch/pytorch/blob/60ceafb3839ed350e1cf028c6888a28fdad246dd/torch/nn/modules/loss.py"
PERF_COUNTER = "https://github.com/python/cpython/blob/9971e001ef3aa41aa86528a36e038b1659c753c9/Doc/library/time.rst"
ANOMALY = "https://pytorch.org/docs/1.5.0/_modules/torch/autograd/anomaly_mode.html"

_TRAINABLE = '''def check_trainable(model, max_fraction=$max_fraction):
    """Fail when nothing trains, or more than MAX_FRACTION of the weights train."""
    total = sum(p.numel() for p in model.parameters())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    if trainable == 0:
        raise RuntimeError("no trainable parameters: check requires_grad / target modules")
    if trainable > max_fraction * total:
        raise RuntimeError(
            f"{trainable:,} of {total:,} parameters train ({trainable / total:.1%}), "
            f"more than {max_fraction:.0%}"
        )
    return trainable

# check_trainable(model)  # right after get_peft_model / freezing, before training
'''

_GRADS_PRESENT = '''def check_gradients(model, max_missing=$max_missing):
    """After the first backward: fail when trainable parameters got no (or zero) gradient."""
    missing = [n for n, p in model.named_parameters() if p.requires_grad and p.grad is None]
    if len(missing) > max_missing:
        raise RuntimeError(f"{len(missing)} trainable parameters got no gradient: {missing[:5]}")
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    if grads and all(float(g.abs().sum()) == 0.0 for g in grads):
        raise RuntimeError("every gradient is exactly zero")
    return missing

# loss.backward(); check_gradients(model)  # on the first step only
'''

_STEP_SMOKE = '''import time

import torch


def smoke_test(step, steps=$steps, time_limit_s=$time_limit_s):
    """Run STEPS calls of step() with autograd anomaly detection; fail on error or overtime."""
    start = time.perf_counter()
    with torch.autograd.detect_anomaly():
        for i in range(steps):
            step(i)
            elapsed = time.perf_counter() - start
            if elapsed > time_limit_s:
                raise TimeoutError(f"{i + 1} steps took {elapsed:.0f} s > {time_limit_s} s")
    return time.perf_counter() - start

# smoke_test(lambda i: train_step(next(batches)))  # in CI, before the long job
'''

_OPTIMIZER = '''import torch


def check_optimizer(optimizer, max_beta2=$max_beta2):
    """Fail on a beta2 above MAX_BETA2 or an eps that rounds to 0 in a parameter's dtype."""
    for i, group in enumerate(optimizer.param_groups):
        betas = group.get("betas")
        if betas and betas[1] > max_beta2:
            raise ValueError(f"param group {i}: beta2={betas[1]} > {max_beta2}")
        eps = group.get("eps")
        for p in group["params"]:
            if eps is not None and float(torch.tensor(eps, dtype=p.dtype)) == 0.0:
                raise ValueError(f"param group {i}: eps={eps} is 0 in {p.dtype}")

# check_optimizer(optimizer)  # right after creating it
'''

_DTYPES = '''import torch


def check_dtypes(model, trainable_dtype=$trainable_dtype, forbidden_dtype=$forbidden_dtype,
                 max_violations=$max_violations):
    """Trainable parameters in TRAINABLE_DTYPE (fp32 under fp16 AMP); none in FORBIDDEN_DTYPE."""
    bad = []
    for name, p in model.named_parameters():
        if trainable_dtype and p.requires_grad and p.dtype != getattr(torch, trainable_dtype):
            bad.append(f"{name}: trainable {p.dtype}")
        if forbidden_dtype and p.dtype == getattr(torch, forbidden_dtype):
            bad.append(f"{name}: {p.dtype}")
    if len(bad) > max_violations:
        raise TypeError(f"{len(bad)} parameters with the wrong dtype: {bad[:5]}")
    return bad

# check_dtypes(model)  # after loading / wrapping, before the first step
'''

_MFU = '''import time


def check_mfu(step, flops_per_step, peak_flops, steps=$steps, min_mfu=$min_mfu):
    """Time STEPS steps after warm-up; fail when model FLOPs utilisation is under MIN_MFU."""
    step()
    start = time.perf_counter()
    for _ in range(steps):
        step()
    seconds = (time.perf_counter() - start) / steps
    mfu = flops_per_step / seconds / peak_flops
    if mfu < min_mfu:
        raise RuntimeError(f"MFU {mfu:.0%} < {min_mfu:.0%} ({seconds * 1000:.0f} ms per step)")
    return mfu

# check_mfu(train_step, 6 * n_params * tokens_per_step, peak_flops=312e12)  # A100 bf16
'''

_LABEL_MASK = '''import torch


def check_labels(labels, pad_token_id=None, ignore_index=$ignore_index,
                 max_empty_fraction=$max_empty_fraction, max_pad_fraction=$max_pad_fraction):
    """Fail when too many rows have no supervised token, or pads are scored as targets."""
    labels = torch.as_tensor(labels)
    scored = labels != ignore_index
    empty = float((scored.sum(-1) == 0).float().mean())
    if empty > max_empty_fraction:
        raise ValueError(f"{empty:.1%} of rows have no supervised token")
    if pad_token_id is not None and scored.any():
        pads = float((labels[scored] == pad_token_id).float().mean())
        if pads > max_pad_fraction:
            raise ValueError(f"{pads:.1%} of scored labels are the pad id")

# batch = collator(examples[:200]); check_labels(batch["labels"], tokenizer.pad_token_id)
'''

TEMPLATES = (
    GuardTemplate(
        "trainable-params",
        "fail when no parameter trains, or too many do",
        {"max_fraction": 0.1},
        MODULE,
        _TRAINABLE,
    ),
    GuardTemplate(
        "grads-present",
        "after the first backward, fail on trainable parameters without a gradient",
        {"max_missing": 0},
        MODULE,
        _GRADS_PRESENT,
    ),
    GuardTemplate(
        "step-smoke",
        "run a few steps under anomaly detection with a time limit",
        {"steps": 2, "time_limit_s": 600},
        ANOMALY,
        _STEP_SMOKE,
    ),
    GuardTemplate(
        "optimizer-settings",
        "fail on a too-high beta2 or an eps that underflows in the parameter dtype",
        {"max_beta2": 0.999},
        ADAMW,
        _OPTIMIZER,
    ),
    GuardTemplate(
        "dtype-audit",
        "fail on trainable parameters in the wrong dtype or weights in a forbidden one",
        {"trainable_dtype": "float32", "forbidden_dtype": None, "max_violations": 0},
        MODULE,
        _DTYPES,
    ),
    GuardTemplate(
        "mfu-floor",
        "time steps and fail when model FLOPs utilisation is low",
        {"steps": 20, "min_mfu": 0.3},
        PERF_COUNTER,
        _MFU,
    ),
    GuardTemplate(
        "label-mask",
        "fail when rows have no supervised token or pads are scored",
        {"ignore_index": -100, "max_empty_fraction": 0.01, "max_pad_fraction": 0.05},
        LOSS,
        _LABEL_MASK,
    ),
)
