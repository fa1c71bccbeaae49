"""The setups the user says the run does NOT use ("there is no fp16/AMP involved").

A word search reads a mention as a match: on first-sight batch-8 that denial made the
fp16-Adam and bf16-overflow pages two of the top three candidates of a float32 run. So
the denied setups are taken out of the text the pages are searched with, and a page
whose title rests on a denied setup is demoted like a page for an absent framework.
Only setups are read as denied (precision modes, distributed strategies, adapters,
quantisation, compilers, attention kernels): "no progress" or "no output" state the
failure and stay.
"""

from __future__ import annotations

import re

# Each setup a user can deny, and the words that name it (in a description or a page title).
# Not bf16: "a GPU without bf16" is why a run uses fp16, and the pages that name bf16 (a
# bf16-trained model overflowing in fp16, bf16 refused before Ampere) are then the ones
# that fit.
SETUPS: dict[str, str] = {
    "fp16": r"fp16|float16|half(?:[- ]precision)?|amp|autocast|mixed[- ]precision|grad ?scaler",
    "deepspeed": r"deepspeed|zero-?[123]",
    "fsdp": r"fsdp2?",
    "ddp": r"ddp|distributed(?: training)?|multi-?gpu|multi-?node",
    # processes that wait on each other, as a page's title says it: a run on one GPU has
    # none, though it may load a checkpoint a DDP run saved (the "module." prefix page)
    "multi-process": r"ranks|collectives?|all-?reduce",
    "lora": r"q?lora|peft|adapters?",
    "quantization": r"quantization|quantisation|[48]-?bit|bitsandbytes",
    "gradient accumulation": r"gradient accumulation",
    "gradient checkpointing": r"gradient checkpointing",
    "torch.compile": r"torch\.compile",
    "flash-attention": r"flash[- ]?attention(?:[- ]?2)?|flash[-_]attn|xformers|sdpa",
}
_NAMES = {setup: re.compile(rf"(?i)\b(?:{words})\b") for setup, words in SETUPS.items()}
_ANY = "|".join(SETUPS.values())
_LIST = rf"(?:{_ANY})(?:\s*(?:/|,|\bor\b|\band\b|\bnor\b)\s*(?:{_ANY}))*"
_DENIAL = re.compile(
    # "with or without AMP" compares two runs; it denies nothing
    r"(?i)\b(?:no|(?<!with or )without|not using|not use|never used?|(?:is|are|am|was) not using|"
    r"(?:do|does|did)(?: not|n'?t) use|(?:isn|aren|wasn)'?t using|disabled?|turned off)"
    rf"\s+(?:any\s+|the\s+)?{_LIST}\b|"
    rf"\b{_LIST}\s+(?:is|are|was|were)\s+(?:not (?:involved|used|enabled|on)|off|disabled)\b"
)


# A run on one GPU, said in words ("on a single RTX 3090", "using one GPU"), has no ranks
# waiting on each other (batch-29's resumed RoBERTa run on one card was answered with rank
# pages).
_CARD = r"(?:\w+[- ]){0,2}?(?:gpu|card|a100|h100|v100|t4|l4|\d{4})\b"
_ONE_GPU = re.compile(
    rf"(?i)\bsingle[- ]{_CARD}|\b(?:on|with|using|uses) (?:one|1|a single) {_CARD}"
)


def denied_setups(symptoms: str | None) -> tuple[str, ...]:
    """The setups the description says the run does not use, in SETUPS order.

    A run said to be on one GPU denies several processes the same way.
    A setup the description also names outside its denials is one the run uses, and the
    denial is the run it is compared with ("with the DeepSpeed plugin ... the loss falls the
    way it does with accumulate_grad_batches=1 or without DeepSpeed", batch-19).
    """
    if not symptoms:
        return ()
    denials = " ".join(match.group(0) for match in _DENIAL.finditer(symptoms))
    rest = affirmed(symptoms)
    # one GPU beside a DDP run it is compared with ("multi-GPU with DDP hangs") denies nothing
    one_gpu = _ONE_GPU.search(symptoms) is not None and not _NAMES["ddp"].search(rest)
    return tuple(
        setup
        for setup, name in _NAMES.items()
        if (name.search(denials) or (setup == "multi-process" and one_gpu))
        and not name.search(rest)
    )


def affirmed(symptoms: str) -> str:
    """The description without the setups it denies."""
    return _DENIAL.sub(" ", symptoms)


def rests_on(title: str, denied: tuple[str, ...]) -> tuple[str, ...]:
    """The denied setups a page's title names."""
    return tuple(setup for setup in denied if _NAMES[setup].search(title))
