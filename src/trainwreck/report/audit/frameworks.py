"""Rule (g): the report names no framework or hardware the run's context does not have.

A ZeRO-3 fix for a run without DeepSpeed, `TrainingArguments(bf16=True)` for a plain
PyTorch script, `torch.backends.cudnn` for a JAX user, autocast on `'cuda'` in a CPU
run (issue 18). The context is the engine's (`Diagnosis.context`, built by
`trainwreck.context` from all the evidence); a framework a present one is built on
counts as present (vLLM runs on PyTorch). A fix that says it brings a package in
("(requires bitsandbytes)") names it honestly. With no framework seen at all there
is nothing to hold the report to, and the framework check is skipped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from trainwreck.model import Diagnosis
from trainwreck.report.audit.base import Audited, AuditFinding

# How reports name each framework: its API names and its proper name, never a plain verb.
_NAMES: dict[str, re.Pattern[str]] = {
    "pytorch": re.compile(r"\btorch\.\w|\bPyTorch\b|\bPYTORCH_\w+|\bTORCH_\w+"),
    "transformers": re.compile(
        r"\bTrainingArguments\b|\bfrom_pretrained\b|\btransformers\b|\bAutoModel\w*|"
        r"\bPreTrainedModel\b|\bHF Trainer\b"
    ),
    "peft": re.compile(r"\bLoraConfig\b|\bPEFT\b|\bpeft\b|get_peft_model|\bPeftModel\b"),
    "trl": re.compile(r"\b(?:SFT|DPO|GRPO|KTO|ORPO)(?:Trainer|Config)\b|\bTRL\b|\btrl\b"),
    "accelerate": re.compile(r"\baccelerate (?:launch|config)\b|\bAccelerator\b|\bAccelerate\b"),
    "deepspeed": re.compile(r"(?i:deepspeed)|\bds_config\b|\bZeRO\b|zero_optimization"),
    "vllm": re.compile(r"(?i)\bvllm\b"),
    "bitsandbytes": re.compile(r"(?i)bitsandbytes|\bbnb\b|BitsAndBytesConfig|load_in_[48]bit"),
    "flash-attn": re.compile(r"(?i)flash[_-]attn|flash_attention_2|FlashAttention"),
    "lightning": re.compile(r"(?i)\blightning\b|LightningModule|\bpl\.Trainer\b"),
    "jax": re.compile(r"\bJAX\b|\bjax\b|\bjaxlib\b|\bXLA_PYTHON\w*|\bflax\b|\boptax\b"),
    "xformers": re.compile(r"(?i)\bxformers\b"),
    "megatron": re.compile(r"(?i)\bmegatron\b"),
}
# What each framework runs on, so naming it is no stranger to the run.
_BUILT_ON: dict[str, tuple[str, ...]] = {
    "transformers": ("pytorch", "accelerate"),
    "peft": ("transformers", "pytorch", "accelerate"),
    "trl": ("transformers", "accelerate", "pytorch"),
    "vllm": ("pytorch", "transformers"),
    **dict.fromkeys(
        ("accelerate", "deepspeed", "lightning", "bitsandbytes", "flash-attn", "xformers"),
        ("pytorch",),
    ),
    "megatron": ("pytorch",),
}
_BRINGS_IN = re.compile(r"\((?:requires|needs|install) [^)]*\)", re.I)
# Code that runs on one kind of accelerator; ROCm builds answer to the CUDA names.
_CUDA_CODE = re.compile(r"""['"]cuda(?::\d)?['"]|\.cuda\(\)|\btorch\.cuda\.|\bCUDA_\w+""")
_NOT_CUDA = ("cpu", "mps", "tpu")


def present(diagnosis: Diagnosis) -> set[str]:
    """The frameworks the run's context has, with what they run on."""
    seen = set(diagnosis.context.frameworks)
    return seen | {base for name in seen for base in _BUILT_ON.get(name, ())}


def _texts(diagnosis: Diagnosis) -> Iterator[tuple[str, str, bool]]:
    """(where, text, is code) of everything a framework may be named in."""
    for index, hypothesis in enumerate(diagnosis.hypotheses):
        yield f"hypotheses[{index}].title", hypothesis.title, False
    top = diagnosis.hypotheses[0] if diagnosis.hypotheses else None
    for number, fix in enumerate(top.fixes if top else ()):
        yield f"hypotheses[0].fixes[{number}].action", fix.action, False
        for index, change in enumerate(fix.changes):
            code = f"{change.path} {change.after}"
            yield f"hypotheses[0].fixes[{number}].changes[{index}]", code, True
        for index, command in enumerate(fix.commands):
            yield f"hypotheses[0].fixes[{number}].commands[{index}]", command, True
    for index, block in enumerate(diagnosis.consolidated):
        yield f"consolidated[{index}]", block.text, True
    for index, warning in enumerate(diagnosis.warnings):
        yield f"warnings[{index}]", warning, False


def frameworks_in_context(report: Audited) -> list[AuditFinding]:
    """(g) Each framework named is in the run's context; CUDA code only on a CUDA run."""
    d = report.diagnosis
    if d is None:
        return []
    have, hardware = present(d), d.context.hardware
    found = []
    for where, text, is_code in _texts(d):
        text = _BRINGS_IN.sub("", text)
        absent = [name for name, words in _NAMES.items() if name not in have and words.search(text)]
        if have and absent:
            why = f"names {', '.join(absent)}, which the run's context does not have"
            found.append(AuditFinding("framework-not-in-context", where, why))
        if is_code and hardware in _NOT_CUDA and (match := _CUDA_CODE.search(text)):
            why = f"{match.group(0)!r} on a {hardware} run"
            found.append(AuditFinding("framework-not-in-context", where, why))
    return found
