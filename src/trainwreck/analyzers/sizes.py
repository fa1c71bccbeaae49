"""The sizes a run's evidence states, each with where it was read.

An error prints one number (a label, a token id, a byte count); whether it means
anything depends on the sizes around it: the class count, the vocabulary, the
hidden width, the batch. These come from the model's config.json, the run's
configs and command line, lines the run printed (`num_classes: 10`, a printed
`Embedding(32000, 4096)`), the user's description ("10 classes"), and the
bundled config of a model the evidence names. Every size keeps its origin, so
the arithmetic can label each input.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache

from trainwreck.analyzers.said import SYMPTOMS, statements
from trainwreck.errors import TrainwreckError
from trainwreck.memory.config import ModelConfig, bundled, load_config
from trainwreck.model import Evidence, Scalar

# config key (last dotted part) -> the quantity it counts
CONFIG_KEYS: Mapping[str, str] = {
    "num_labels": "classes",
    "num_classes": "classes",
    "n_classes": "classes",
    "nclasses": "classes",
    "vocab_size": "vocab",
    "hidden_size": "hidden",
    "d_model": "hidden",
    "n_embd": "hidden",
    "num_attention_heads": "heads",
    "n_head": "heads",
    "max_position_embeddings": "positions",
    "n_positions": "positions",
    "num_hidden_layers": "layers",
    "n_layer": "layers",
    "per_device_train_batch_size": "batch",
    "per_device_eval_batch_size": "batch",
    "train_micro_batch_size_per_gpu": "batch",
    "micro_batch_size": "batch",
    "batch_size": "batch",
    "max_seq_length": "seq_len",
    "max_seq_len": "seq_len",
    "seq_length": "seq_len",
    "max_length": "seq_len",
    "cutoff_len": "seq_len",
    "block_size": "seq_len",
}
_NUMBER = r"(\d[\d,_]*)"
# Which split a stated count is of: "120k validation rows", "50,000 training samples".
_SPLIT_WORD = r"(?:(?:training|train|validation|val|test|eval|evaluation|query|corpus) )?"
# What a count counts, in a user's words or a run's log lines.
_COUNTED = (
    r"(?:samples|points|embeddings|vectors|rows|nodes|items|sequences|documents|images|examples|"
    r"queries|passages|candidates|sentences|texts|records)\b"
)
# A count of items a run reports in a log line ("encoded 40000 queries and 200000 passages");
# allocation.py keeps such lines.
LOGGED_COUNT = rf"(?i)\b{_NUMBER} {_SPLIT_WORD}{_COUNTED}"
# (quantity, regex whose group 1 is the value) for what a run or a user writes
_LINE_SIZES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "classes",
        re.compile(rf"(?i)\b(?:num_classes|n_classes|nclasses|num_labels)\b\W{{0,3}}{_NUMBER}"),
    ),
    ("vocab", re.compile(rf"(?i)\bvocab(?:ulary)?[_ ]size\b\W{{0,3}}{_NUMBER}")),
    ("vocab", re.compile(rf"\blen\(tokenizer\)\W{{0,3}}{_NUMBER}")),
    ("embedding", re.compile(r"\bEmbedding\((\d+), \d+")),
    ("channels", re.compile(r"\bConv[123]d\(\d+, (\d+)")),
    ("batch", re.compile(rf"(?i)\bbatch[_ ]size\b\W{{0,3}}{_NUMBER}")),
    ("count", re.compile(rf"(?i)\b(?:num|n)_(?:samples|points|examples)\b\W{{0,3}}{_NUMBER}")),
    # what a run prints about the sets it built: "encoded 40000 queries and 200000 passages"
    ("count", re.compile(LOGGED_COUNT)),
)
# Thousands and millions as people write counts in prose ("120k rows", "1.2M samples").
_COUNT_SUFFIXES = {"k": 1_000, "K": 1_000, "M": 1_000_000}
_SPOKEN_COUNT = r"(\d[\d,_]*(?:\.\d+)?[kKM]?)"
_SYMPTOM_SIZES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("classes", re.compile(rf"(?i)\b{_NUMBER}[ -](?:output )?class(?:es)?\b")),
    ("vocab", re.compile(rf"(?i)\bvocab(?:ulary)?(?: size)?(?: of)? {_NUMBER}\b")),
    (
        "count",
        re.compile(rf"(?i)\b{_SPOKEN_COUNT} {_SPLIT_WORD}{_COUNTED}"),
    ),
    # the rows of a stated 2-D tensor: "two 90k x 64 tensors", "a 120,000 x 768 matrix"
    (
        "count",
        re.compile(
            rf"(?i)\b{_SPOKEN_COUNT} ?[x\u00d7] ?\d+ (?:float\w* |fp\d+ )?"
            r"(?:tensors?|matrix|matrices|arrays?|embeddings?)\b"
        ),
    ),
)
_MODEL_SIZES = ("vocab", "hidden", "heads", "positions", "layers", "classes")


@dataclass(frozen=True)
class Size:
    """One stated size: what it counts, its value, and where it was read."""

    quantity: str
    value: int
    source: str


def _integer(value: Scalar | list[Scalar]) -> int | None:
    """A positive count: `50000`, `50,000`, `50_000`, and as people write them, `120k`, `1.2M`."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return None
    text = str(value).replace(",", "").replace("_", "")
    scale = _COUNT_SUFFIXES.get(text[-1:], 1)
    if scale > 1:
        try:
            number = float(text[:-1]) * scale
        except ValueError:
            return None
        return int(number) if number.is_integer() and number > 0 else None
    return int(text) if text.isdigit() and int(text) > 0 else None


def _from_config(values: Mapping[str, Scalar | list[Scalar]], source: str) -> Iterator[Size]:
    labels = 0
    for key, value in values.items():
        leaf = key.rsplit(".", 1)[-1]
        if key.startswith("id2label."):
            labels += 1
        quantity = CONFIG_KEYS.get(leaf)
        if quantity is not None and (number := _integer(value)) is not None:
            yield Size(quantity, number, f"{source}:{key}")
    if labels:
        yield Size("classes", labels, f"{source}:id2label ({labels} entries)")


def _from_setup(evidence: Evidence) -> Iterator[Size]:
    setup = evidence.setup
    for quantity, value in (
        ("batch", setup.batch_size),
        ("seq_len", setup.seq_len),
        ("world", setup.world_size),
    ):
        if value:
            yield Size(quantity, value, f"setup: {quantity.replace('_', ' ')} {value}")


def _from_text(evidence: Evidence) -> Iterator[Size]:
    for said in statements(evidence):
        table = _SYMPTOM_SIZES if said.source == SYMPTOMS else _LINE_SIZES
        for quantity, regex in table:
            for found in regex.finditer(said.text):
                if (number := _integer(found.group(1))) is not None:
                    yield Size(quantity, number, f"{said.where} ({found.group(0).strip()!r})")


@cache
def _bundled_names() -> tuple[Mapping[str, str], re.Pattern[str]]:
    """Each bundled model's short name (lowercase) -> its id, and a regex that finds one."""
    ids = {model.id.lower().rsplit("/", 1)[-1]: model.id for model in bundled()}
    names = "|".join(re.escape(short) for short in sorted(ids, key=len, reverse=True))
    return ids, re.compile(rf"(?<![\w.])({names})(?![\w.])", re.IGNORECASE)


def _named_model(evidence: Evidence, from_text: bool) -> tuple[str, str] | None:
    """(bundled model id, where it was named): the run's model, else one the text names."""
    ids, named = _bundled_names()
    if evidence.setup.model:
        wanted = evidence.setup.model.lower().rstrip("/")
        for short, model_id in ids.items():
            if wanted in (model_id.lower(), short):
                return model_id, "the run's model"
    if not from_text:
        return None
    for said in statements(evidence):
        if (found := named.search(said.text)) is not None:
            return ids[found.group(1).lower()], f"named in {said.where}"
    return None


def model_config(evidence: Evidence, *, from_text: bool = True) -> tuple[ModelConfig, str] | None:
    """The model's config and where it came from: the config.json handed in, else the
    bundled config of the run's model or (with `from_text`) of a model the text names."""
    values = evidence.model_config_values
    if values.get("model_type"):
        return ModelConfig(values, "model config.json"), "config.json"
    named = _named_model(evidence, from_text)
    if named is None:
        return None
    try:
        return load_config(named[0]), f"bundled {named[0]} config.json ({named[1]})"
    except TrainwreckError:
        return None


def _from_bundled(evidence: Evidence) -> Iterator[Size]:
    """The sizes of a bundled config the evidence names, when no config.json came with it."""
    if evidence.model_config_values.get("model_type"):
        return
    found = model_config(evidence)
    if found is not None:
        for size in _from_config(found[0].values, found[1]):
            if size.quantity in _MODEL_SIZES:
                yield size


def sizes(evidence: Evidence) -> list[Size]:
    """Every size the evidence states, most authoritative first: configs, setup, text, bundled."""
    found: list[Size] = list(_from_config(evidence.model_config_values, "config.json"))
    for config in evidence.configs:
        found.extend(_from_config(config.values, config.source))
    found.extend(_from_setup(evidence))
    found.extend(_from_text(evidence))
    found.extend(_from_bundled(evidence))
    return found


def of(found: Iterable[Size], *quantities: str) -> list[Size]:
    """The sizes counting one of `quantities`, in the order given, one per distinct value."""
    chosen: list[Size] = []
    for quantity in quantities:
        for size in found:
            if size.quantity == quantity and all(size.value != c.value for c in chosen):
                chosen.append(size)
    return chosen
