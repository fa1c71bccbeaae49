"""Which frameworks a piece of advice names, and which it says it brings in.

The report auditor holds every title, fix and warning to the run's context (issue 18,
rule g) and the engine leaves out a command for a stack the run does not show; both
read advice with these names, so the two never disagree. A name inside an aside is no
claim about the run: "(e.g. flash-attn, xformers)" gives examples of a generic
page's family, "(requires bitsandbytes)" says the fix brings the package in.
"""

from __future__ import annotations

import re

# How advice names each framework: its API names and its proper name, never a plain verb.
ADVICE_NAMES: dict[str, re.Pattern[str]] = {
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
    "sglang": re.compile(r"(?i)\bsglang\b|--mem-fraction-static"),
    "tgi": re.compile(
        r"text-generation-(?:inference|launcher)|\bTGI\b|--max-batch-total-tokens|"
        r"--cuda-memory-fraction|--max-concurrent-requests"
    ),
    "bitsandbytes": re.compile(r"(?i)bitsandbytes|\bbnb\b|BitsAndBytesConfig|load_in_[48]bit"),
    "flash-attn": re.compile(r"(?i)flash[_-]attn|flash_attention_2|FlashAttention"),
    "lightning": re.compile(r"(?i)\blightning\b|LightningModule|\bpl\.Trainer\b"),
    "jax": re.compile(r"\bJAX\b|\bjax\b|\bjaxlib\b|\bXLA_PYTHON\w*|\bflax\b|\boptax\b"),
    "xformers": re.compile(r"(?i)\bxformers\b"),
    "megatron": re.compile(r"(?i)\bmegatron\b"),
}
_EXAMPLES = re.compile(r"\(e\.g\. [^)]*\)")
_BRINGS_IN = re.compile(r"\((?:requires|needs|install) [^)]*\)", re.I)


def _names(text: str) -> set[str]:
    return {name for name, words in ADVICE_NAMES.items() if words.search(text)}


def named(text: str) -> set[str]:
    """The frameworks a text names as part of its advice, asides left out."""
    return _names(_BRINGS_IN.sub("", _EXAMPLES.sub("", text)))


def brought_in(action: str) -> set[str]:
    """The frameworks a fix's action says it brings in: "(requires deepspeed)"."""
    return {name for aside in _BRINGS_IN.findall(action) for name in _names(aside)}
