"""The setups a whole script the user handed in never turns on (float16 in a float32 run).

A run whose script is shown runs in float32 unless something names a lower precision:
the script itself, a config, the log, or the user's words. Yet a NaN's words alone
retrieve the float16 pages: on batches 1-24 (development) a page about a bf16-trained
model overflowing in float16 was the top answer of CPU float32 reproductions, never
judged right on a run whose whole script named no precision. So a setup the whole script
leaves unset is demoted like a setup the user denies.

Only a whole script counts (its imports and the call that runs the model): an excerpt
may leave the precision out. And only a script that sets its precision itself: a
launcher's config (Accelerate, DeepSpeed, LightningCLI, TrainingArguments parsed from the
command line) or a checkpoint's own dtype (from_pretrained and serving engines default
to the checkpoint's) can turn float16 on from outside it.
"""

from __future__ import annotations

import re

from trainwreck.context.denied import SETUPS
from trainwreck.model import Evidence

# The words that turn float16 on: the denial words, plus `.half()`, Lightning's
# `precision=16` and Keras' "mixed_float16" policy; bf16 too, since a script that sets
# bf16 chose its precision and the float16 pages' bf16 fixes are then its subject.
_FP16 = re.compile(
    rf"(?i)\b(?:{SETUPS['fp16']}|bf16|bfloat16|mixed_float16)\b|\bprecision\s*=\s*['\"]?16"
)
# A whole script: it imports what it uses and calls what runs the model.
_IMPORTS = re.compile(r"(?m)^(?:import|from)\s+\w")
_RUNS = re.compile(r"\.backward\(|\.fit\(|\.train\(\)|\.generate\(|\btrain_step\b|\.predict\(")
# What can set the precision from outside the script.
_OUTSIDE = re.compile(
    r"\bAccelerator\(|\bHfArgumentParser\b|parse_args_into_dataclasses|\bdeepspeed\b|"
    r"\bLightningCLI\b|from_pretrained\(|\bLLM\(|\bpipeline\(|\bhydra\b|\bOmegaConf\b"
)


def unset_in_script(evidence: Evidence) -> tuple[str, ...]:
    """("fp16",) when a whole script is shown and nothing in the evidence turns float16 on."""
    scripts = [
        snippet.text
        for snippet in evidence.code
        if snippet.origin == "file" and _IMPORTS.search(snippet.text) and _RUNS.search(snippet.text)
    ]
    if not scripts or any(_OUTSIDE.search(text) for text in scripts):
        return ()
    said = [
        evidence.symptoms or "",
        evidence.setup.precision or "",
        *(snippet.text for snippet in evidence.code),
        *(line.text for line in evidence.lines),
        *(f"{key}={value}" for config in evidence.configs for key, value in config.values.items()),
    ]
    return () if any(_FP16.search(text) for text in said) else ("fp16",)
