"""One name per metric, whatever the logger called it.

Detectors ask for `loss`, `grad_norm`, `learning_rate`, `eval_loss` and
`loss_scale`; trainers spell these a dozen ways (`train/loss`, `lm loss`, `lr`).
"""

from __future__ import annotations

import re
from functools import lru_cache

_ALIASES: dict[str, str] = {
    "loss": "loss",
    "train_loss": "loss",
    "train/loss": "loss",
    "training_loss": "loss",
    "train_loss_step": "loss",
    "lm_loss": "loss",
    "lm loss": "loss",
    "total_loss": "loss",
    "train/train_loss": "loss",
    "lr": "learning_rate",
    "learning_rate": "learning_rate",
    "learning rate": "learning_rate",
    "train/learning_rate": "learning_rate",
    "train/lr": "learning_rate",
    "lr-adamw": "learning_rate",
    "lr-adam": "learning_rate",
    "lr-sgd": "learning_rate",
    "grad_norm": "grad_norm",
    "grad norm": "grad_norm",
    "gradient_norm": "grad_norm",
    "train/grad_norm": "grad_norm",
    "grad_norm_total": "grad_norm",
    "eval_loss": "eval_loss",
    "eval/loss": "eval_loss",
    "val_loss": "eval_loss",
    "val/loss": "eval_loss",
    "valid_loss": "eval_loss",
    "validation_loss": "eval_loss",
    "validation loss": "eval_loss",
    "loss_scale": "loss_scale",
    "loss scale": "loss_scale",
    "scaler/scale": "loss_scale",
    "epoch": "epoch",
    "train/epoch": "epoch",
}
STEP_KEYS = (
    "step",
    "global_step",
    "_step",
    "iteration",
    "iter",
    "trainer/global_step",
    "train/global_step",
    "steps",
)
# Seconds since the epoch or since the start; both order points in time.
TIME_KEYS = ("_timestamp", "timestamp", "wall_time", "time", "_runtime", "elapsed")
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=4096)  # readers ask for the same few names on every row
def canonical(name: str) -> str:
    """The detectors' name for a metric; unknown names are kept, lower-cased."""
    key = _SPACES.sub(" ", name.strip().strip("'\"").lower())
    if key in _ALIASES:
        return _ALIASES[key]
    return _ALIASES.get(key.replace(" ", "_"), key.replace(" ", "_"))
