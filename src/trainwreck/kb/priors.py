"""Hyperparameter priors: cited starting values for common knobs, as knowledge-base data.

Rows live in `priors/*.yaml`; each names the knob, the setting it applies to
(method, model size, precision), the value its source used or recommends, the
source, and what the source establishes. `query()` ranks rows for a free-text
question; `verify.defaults` reads a knob's default for the user's framework version,
so the answer can say whether a recommendation differs from what the user runs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from trainwreck.errors import KnowledgeBaseError
from trainwreck.kb.schema import HttpsUrl
from trainwreck.tables import read_yaml

PRIORS_DIR = Path(__file__).parent / "priors"

Method = Literal["full", "lora", "qlora", "dpo", "pretraining", "serving", "any"]

# Words of a question that name a knob, checked in order (longer phrases first).
_KNOB_WORDS: tuple[tuple[str, str], ...] = (
    (r"gpu[_ ]memory[_ ]util", "gpu_memory_utilization"),
    (r"max[_ ]num[_ ]batched|batched[_ ]tokens|chunked prefill", "max_num_batched_tokens"),
    (r"max[_ ]num[_ ]seqs|concurrent (?:sequences|requests)", "max_num_seqs"),
    (r"max[_ ]model[_ ]len|context length", "max_model_len"),
    (r"enforce[_ ]eager|cuda ?graph", "enforce_eager"),
    (r"learning[_ ]rate|\blr\b", "learning_rate"),
    (r"warm[- ]?up", "warmup"),
    (r"lora[_ ]alpha|\balpha\b", "lora_alpha"),
    (r"lora[_ ]dropout|dropout", "lora_dropout"),
    (r"target[_ ]modules|which (?:layers|modules)", "target_modules"),
    (r"lora[_ ]r\b|\brank\b|\br\s*=", "lora_r"),
    (r"beta ?2|betas|\bbeta1\b", "adam_beta2"),
    (r"dpo beta|\bbeta\b", "beta"),
    (r"epsilon|\beps\b", "adam_epsilon"),
    (r"clip|grad(?:ient)?[_ ]norm", "max_grad_norm"),
    (r"weight[_ ]decay", "weight_decay"),
    (r"batch", "batch_size"),
)
_METHOD_WORDS: tuple[tuple[str, Method], ...] = (
    (r"qlora|4[- ]?bit|nf4", "qlora"),
    (r"lora|peft|adapter", "lora"),
    (r"\bdpo\b|preference", "dpo"),
    (r"pre-?train", "pretraining"),
    (r"vllm|serv(?:e|ing)|inference", "serving"),
    (r"full[- ]?(?:fine[- ]?tun|ft|param)|sft|fine[- ]?tun", "full"),
)
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*b\b", re.IGNORECASE)


class Prior(BaseModel):
    """One cited row: a knob's value in one setting, and what its source shows."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str
    knob: str
    method: Method
    model_size: str | None = Field(None, pattern=r"^\d+(\.\d+)?B(-\d+(\.\d+)?B)?$")
    precision: Literal["fp16", "bf16"] | None = None
    value: str
    key: str | None = Field(None, pattern=r"^[a-z]+:\w+\.\w+$")  # framework:Class.field
    source: HttpsUrl
    establishes: str

    def sizes(self) -> tuple[float, float] | None:
        """The model-size range in billions of parameters, when the row has one."""
        if self.model_size is None:
            return None
        low, _, high = self.model_size.partition("-")
        return float(low.rstrip("B")), float((high or low).rstrip("B"))


@dataclass(frozen=True)
class Question:
    """What a free-text question asks about: knobs, method, model size, precision."""

    knobs: tuple[str, ...]
    method: Method | None
    size: float | None
    precision: str | None


def read_priors(directory: Path = PRIORS_DIR) -> tuple[Prior, ...]:
    """Every row under `directory`, validated; duplicate ids are an error."""

    rows: list[Prior] = []
    for path in sorted(directory.glob("*.yaml")):
        try:
            entries = read_yaml(path) or []
            rows += [Prior.model_validate(entry) for entry in entries]
        except (OSError, yaml.YAMLError) as exc:
            raise KnowledgeBaseError(f"{path}: cannot read: {exc}") from exc
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise KnowledgeBaseError(f"{path}: {where}: {first['msg']}") from exc
    ids = [row.id for row in rows]
    duplicated = sorted({i for i in ids if ids.count(i) > 1})
    if duplicated:
        raise KnowledgeBaseError(f"{directory}: duplicate prior ids {duplicated}")
    return tuple(rows)


@cache
def load_priors() -> tuple[Prior, ...]:
    """The packaged priors, read once per process."""
    return read_priors()


def parse_question(text: str) -> Question:
    lower = text.lower()
    knobs = tuple(dict.fromkeys(knob for word, knob in _KNOB_WORDS if re.search(word, lower)))
    method = next((m for word, m in _METHOD_WORDS if re.search(word, lower)), None)
    size = _SIZE.search(text)
    precision = next((p for p in ("fp16", "bf16") if p in lower.replace("float16", "fp16")), None)
    return Question(knobs, method, float(size.group(1)) if size else None, precision)


def fit(row: Prior, question: Question) -> float:
    """How well a row's setting matches the question (higher is closer)."""
    score = 0.0
    if question.method is not None:
        near = {("qlora", "lora"), ("lora", "qlora")}
        if row.method == question.method:
            score += 3  # the method matters more than the size: QLoRA rates are not SFT rates
        elif (question.method, row.method) in near or row.method == "any":
            score += 1.5
    sizes = row.sizes()
    if question.size is not None and sizes is not None:
        low, high = sizes
        score += 2 if low <= question.size <= high else -abs(question.size - (low + high) / 2) / 100
    if question.precision is not None and row.precision is not None:
        score += 2 if row.precision == question.precision else -1
    return score


def query(text: str, rows: tuple[Prior, ...] | None = None) -> tuple[Question, list[Prior]]:
    """Rows about the knobs the question names, closest setting first.

    A question naming no known knob gets every row whose method matches, so
    "QLoRA on a 70B model" still returns the QLoRA recipe.
    """
    rows = rows if rows is not None else load_priors()
    question = parse_question(text)
    if question.knobs:
        chosen = [row for row in rows if _knob_matches(row.knob, question.knobs)]
    elif question.method is not None:
        chosen = [row for row in rows if fit(row, question) >= 1]
    else:
        chosen = []
    order = {knob: i for i, knob in enumerate(question.knobs)}
    chosen.sort(key=lambda row: (_knob_rank(row.knob, order), -fit(row, question), row.id))
    return question, chosen


def _knob_matches(knob: str, wanted: tuple[str, ...]) -> bool:
    return any(knob == w or knob.startswith(w) for w in wanted)


def _knob_rank(knob: str, order: Mapping[str, int]) -> int:
    return next((i for w, i in order.items() if knob == w or knob.startswith(w)), len(order))
