"""Metric curves: NaN onset and order, spikes, divergence, plateau, overfitting, oscillation,
LR schedule, clipping.

A thin shell over `trainwreck.curves`: one table per metric file (read by the
evidence pipeline) and one per log whose kept lines print metrics, the run facts
the evidence states, and the detectors. `loss` already reports non-finite values
and divergence from log lines, so those ids come from here only for sources it
did not see.
"""

from __future__ import annotations

import re
from collections import defaultdict

from trainwreck.curves.detect import FINDING_IDS as CURVE_FINDING_IDS
from trainwreck.curves.detect import detect
from trainwreck.curves.facts import Fact, RunFacts
from trainwreck.curves.lr_prior import lr_against_priors
from trainwreck.curves.textlog import read_lines
from trainwreck.model import Evidence, Finding, LogLine, MetricTable, SourceRef

KEEP: tuple[str, ...] = (
    r"OVERFLOW!|[Gg]radient overflow",
    r"Num examples = |Total train batch size|Gradient Accumulation steps = "
    r"|Total optimization steps = |Instantaneous batch size per device = |Num Epochs = ",
    r"trainable params: [\d,]+ \|\| all params: ",
)
FINDING_IDS: tuple[str, ...] = CURVE_FINDING_IDS
_FROM_LOSS_ANALYZER = frozenset({"loss.non_finite", "grad_norm.non_finite", "loss.diverged"})
_METRIC_WORDS = ("loss", "overflow")
# A value logged for a metric, not the word in a traceback (`compute_loss`): only then
# is NumPy worth importing.
_METRIC_VALUE = re.compile(
    r"(?i)loss['\"]?\s*[:=]?\s*['\"]?[-+]?(?:\d|\.\d|nan|inf)|overflow!|gradient overflow"
)
_BANNER = {
    "num_examples": re.compile(r"Num examples = ([\d,]+)"),
    "total_batch": re.compile(r"Total train batch size[^=]*= ([\d,]+)"),
    "micro_batch": re.compile(r"Instantaneous batch size per device = ([\d,]+)"),
    "grad_accum": re.compile(r"Gradient Accumulation steps = ([\d,]+)"),
    "max_steps": re.compile(r"Total optimization steps = ([\d,]+)"),
    "num_train_epochs": re.compile(r"Num Epochs = ([\d,]+)"),
}
_CONFIG_KEYS = {
    "warmup_steps": ("warmup_steps", "lr_warmup_steps", "warmup_num_steps"),
    "warmup_ratio": ("warmup_ratio",),
    "micro_batch": (
        "per_device_train_batch_size",
        "train_micro_batch_size_per_gpu",
        "micro_batch_size",
    ),
    "grad_accum": ("gradient_accumulation_steps",),
    "max_steps": ("max_steps", "train_iters"),
    "num_train_epochs": ("num_train_epochs",),
    # HF TrainingArguments, DeepSpeed config, Lightning Trainer: a gradient-norm threshold
    "max_grad_norm": ("max_grad_norm", "gradient_clipping", "gradient_clip_val"),
    "learning_rate": ("learning_rate", "lr"),
}
# PEFT's print_trainable_parameters(): an adapter run, and the model's size.
_TRAINABLE = re.compile(r"trainable params: ([\d,]+) \|\| all params: ([\d,]+)")
_SIZE_IN_NAME = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)[bB](?![a-zA-Z0-9])")
_ADAPTER_KEYS = frozenset({"lora_r", "lora_rank", "lora_alpha", "lora_target", "lora_dropout"})
_FOUR_BIT = frozenset({"load_in_4bit", "bnb_4bit_quant_type", "bnb_4bit_compute_dtype"})
_TABLE_FACTS = ("max_steps", "num_train_epochs")


def _facts(evidence: Evidence) -> dict[str, tuple[float, str]]:
    """Run facts from configs, the setup and the Trainer's start-of-training banner."""
    found: dict[str, tuple[float, str]] = {}
    for config in evidence.configs:
        for key, value in config.values.items():
            leaf = key.rsplit(".", 1)[-1]
            for fact, names in _CONFIG_KEYS.items():
                if leaf in names and isinstance(value, int | float) and not isinstance(value, bool):
                    found.setdefault(fact, (float(value), f"{config.source}:{key}"))
    setup = evidence.setup
    for fact, value in (("world_size", setup.world_size), ("grad_accum", setup.grad_accum)):
        if value:
            found.setdefault(fact, (float(value), f"setup:{fact}"))
    for line in evidence.lines:
        if " = " not in line.text:
            continue
        for fact, pattern in _BANNER.items():
            if (match := pattern.search(line.text)) is not None:
                found.setdefault(
                    fact, (float(match[1].replace(",", "")), f"{line.source}:{line.line}")
                )
    return found


def _trainable(evidence: Evidence) -> tuple[int, int, str] | None:
    """PEFT's printed (trainable, all) parameter counts and where they were printed."""
    for line in evidence.lines:
        if (match := _TRAINABLE.search(line.text)) is not None:
            counts = (int(match[1].replace(",", "")), int(match[2].replace(",", "")))
            return *counts, f"{line.source}:{line.line}"
    return None


def _model_size(evidence: Evidence) -> tuple[float, str] | None:
    """Billions of parameters: PEFT's printed count, else a size in the model's name."""
    if (printed := _trainable(evidence)) is not None:
        return printed[1] / 1e9, printed[2]
    model = evidence.setup.model
    if model and (match := _SIZE_IN_NAME.search(model)) is not None:
        return float(match[1]), f"model name {model}"
    return None


def _method(evidence: Evidence) -> tuple[str, str] | None:
    """full, lora, qlora or dpo, where the configs or PEFT's printout say so; else None."""
    adapter = four_bit = stated = None
    for config in evidence.configs:
        for key, value in config.values.items():
            leaf, where = key.rsplit(".", 1)[-1], f"{config.source}:{key}"
            if leaf in _ADAPTER_KEYS or (leaf == "peft_type" and value == "LORA"):
                adapter = adapter or where
            elif (leaf in _FOUR_BIT and value not in (False, None)) or (
                leaf == "quantization_bit" and value == 4
            ):
                four_bit = four_bit or where
            # a tuple, not a set: a config value may be a list, which does not hash
            elif (leaf, value) in (("stage", "dpo"), ("finetuning_type", "full")):
                stated = stated or (str(value), where)
            elif (leaf, value) == ("finetuning_type", "lora"):
                adapter = adapter or where
    printed = _trainable(evidence)
    if printed is not None and printed[0] * 2 < printed[1]:  # under half the weights train
        adapter = adapter or printed[2]
    if stated is not None and stated[0] == "dpo":
        return stated
    if adapter is not None:
        return ("qlora", f"{adapter}, {four_bit}") if four_bit else ("lora", adapter)
    return stated


def _run_facts(
    found: dict[str, tuple[float, str]],
    method: tuple[str, str] | None,
    table: MetricTable | None,
) -> RunFacts:
    facts = {key: Fact(value, source) for key, (value, source) in found.items()}
    for key in _TABLE_FACTS:
        value = table.info.get(key) if table is not None else None
        if table is not None and isinstance(value, int | float) and key not in facts:
            facts[key] = Fact(float(value), f"{table.source}:{key}")
    return RunFacts(facts, method)


def _log_tables(evidence: Evidence, skip: set[str]) -> list[MetricTable]:
    by_source: dict[str, list[LogLine]] = defaultdict(list)
    for line in evidence.lines:
        if line.source not in skip and any(w in line.text.lower() for w in _METRIC_WORDS):
            by_source[line.source].append(line)
    tables = [
        read_lines(src, ((ln.line, ln.text) for ln in lines)) for src, lines in by_source.items()
    ]
    return [table for table in tables if table is not None]


def _with_log_text(finding: Finding, texts: dict[tuple[str, int], str]) -> Finding:
    """Point evidence at the log line itself when the value came from one."""
    refs = tuple(
        SourceRef(source=ref.source, line=ref.line, text=texts[(ref.source, ref.line)])
        if ref.line is not None and (ref.source, ref.line) in texts
        else ref
        for ref in finding.evidence
    )
    return finding.model_copy(update={"evidence": refs})


def _found_facts(evidence: Evidence) -> dict[str, tuple[float, str]]:
    found = _facts(evidence)
    if (size := _model_size(evidence)) is not None:
        found.setdefault("model_size_b", size)
    return found


def configured_lr(evidence: Evidence) -> list[Finding]:
    """A configured learning rate against the priors, for a run that logged no curve."""
    found = _found_facts(evidence)
    if "learning_rate" not in found:
        return []

    finding = lr_against_priors(None, _run_facts(found, _method(evidence), None))
    return [finding] if finding is not None else []


def curve_tables(evidence: Evidence) -> list[MetricTable]:
    """Every curve the evidence holds: metric files first, then the metrics logs printed."""
    has_lines = any(_METRIC_VALUE.search(line.text) for line in evidence.lines)
    if not evidence.metrics and not has_lines:
        return []
    file_sources = {table.source for table in evidence.metrics}
    return [*evidence.metrics, *_log_tables(evidence, file_sources)]


def per_table(evidence: Evidence) -> list[tuple[MetricTable, list[Finding]]]:
    """Each curve the evidence holds (metric files, then logs) with its own findings.

    Also what `trainwreck curves` prints and the HTML report plots.
    """
    tables = curve_tables(evidence)
    if not tables:
        return []

    texts = {(line.source, line.line): line.text for line in evidence.lines}
    found, method = _found_facts(evidence), _method(evidence)
    return [
        (table, [_with_log_text(f, texts) for f in detect(table, _run_facts(found, method, table))])
        for table in tables
    ]


def analyze(evidence: Evidence) -> list[Finding]:
    """Every curve event, one table at a time, in input order; with no curve, the
    configured learning rate against the priors."""
    seen_by_loss = {line.source for line in evidence.lines if "loss" in line.text.lower()}
    findings: list[Finding] = []
    reported: set[tuple[str, str]] = set()
    tables = per_table(evidence)
    if not tables:
        return configured_lr(evidence)
    for table, table_findings in tables:
        for finding in table_findings:
            if finding.id in _FROM_LOSS_ANALYZER and table.source in seen_by_loss:
                continue
            # A run that wrote the same history twice (JSONL and CSV) gets one finding.
            key = (finding.id, repr(sorted(finding.values.items())))
            if key not in reported:
                reported.add(key)
                findings.append(finding)
    return findings
