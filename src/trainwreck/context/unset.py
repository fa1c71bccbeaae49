"""The setups a whole script the user handed in never turns on (float16 in a float32 run,
several processes in a single-process one).

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

Several processes likewise: a whole script that never creates a process group, wraps a
model for DDP or reads its rank, in a run whose words and logs name no launcher, GPU
count or collective, runs alone, yet a hang's words alone retrieve the pages about ranks
waiting on each other (first-sight batch-28's sampler reproduction, a single CPU process
that spun forever in its own batch sampler, was answered with three DDP pages).
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
# Launchers and configs that set a run up from outside its script: they can turn on a
# precision and spread a run over several processes alike.
_LAUNCHED = r"\bAccelerator\(|\bdeepspeed\b|\bLightningCLI\b|\bhydra\b|\bOmegaConf\b|\bLLM\("
# What can set the precision from outside the script: those, argument parsers and a
# checkpoint's own dtype.
_OUTSIDE = re.compile(
    rf"{_LAUNCHED}|\bHfArgumentParser\b|parse_args_into_dataclasses|from_pretrained\(|\bpipeline\("
)

# The words that show several processes: the denial words (DDP, distributed, multi-GPU,
# ranks, collectives), what creates or joins a process group, the launchers, a GPU count
# above one, and JAX's and TPU's own ways of spreading over devices.
_PROCESSES = re.compile(
    rf"(?i)\b(?:{SETUPS['ddp']}|{SETUPS['multi-process']})\b|DataParallel|init_process_group|"
    r"\bdist\.|world_size|"
    r"\b(?:local_)?rank\b|torchrun|torch\.distributed|nproc|\bnccl\b|\bgloo\b|mpirun|\bsrun\b|"
    r"horovod|\bfsdp|fully_shard|\bxm\.|xla_multiprocessing|\bpmap\b|shard_map|\bMesh\(|"
    r"\bstrategy\b|\b(?:[2-9]|[1-9]\d+|two|four|eight)\s*(?:x\s*)?(?:\w+\s+)?(?:GPUs|cards|devices)\b"
)
# What can start several processes from outside the script: those, and the framework
# trainers a launcher spreads over devices (a Trainer subclass too).
_OUTSIDE_PROCESSES = re.compile(rf"{_LAUNCHED}|Trainer\b|\bFabric\(")


def unset_in_script(evidence: Evidence) -> tuple[str, ...]:
    """The setups ("fp16", "ddp" and its "multi-process") a whole script shown never turns
    on, with nothing else in the evidence turning them on."""
    scripts = [
        snippet.text
        for snippet in evidence.code
        if snippet.origin == "file" and _IMPORTS.search(snippet.text) and _RUNS.search(snippet.text)
    ]
    if not scripts:
        return ()
    said = _said(evidence)
    unset = tuple(
        setup
        for setup, outside, words in (
            ("fp16", _OUTSIDE, _FP16),
            ("ddp", _OUTSIDE_PROCESSES, _PROCESSES),
        )
        if not any(outside.search(text) for text in scripts)
        and not any(words.search(text) for text in said)
    )
    return (*unset, "multi-process") if "ddp" in unset else unset


def _said(evidence: Evidence) -> list[str]:
    """Every text of the run that can name a setup: words, settings, code, log lines."""
    return [
        evidence.symptoms or "",
        evidence.setup.precision or "",
        *(snippet.text for snippet in evidence.code),
        *(line.text for line in evidence.lines),
        *(f"{key}={value}" for config in evidence.configs for key, value in config.values.items()),
    ]
