"""Diagnoses the renderer tests share: a real-looking CUDA OOM on a Llama-3-8B
QLoRA run (an A10G, micro-batch 8 at 4096 tokens), and the edge cases around it."""

from __future__ import annotations

from pathlib import Path

from trainwreck.model import (
    Arithmetic,
    ArithmeticLine,
    Change,
    Citation,
    Diagnosis,
    Finding,
    Fix,
    Hypothesis,
    InputFile,
    Prevention,
    Setup,
    SourceRef,
    ToolInfo,
    Verification,
)

GOLDEN = Path(__file__).parent / "golden"
TOOL = ToolInfo(version="0.1.0", kb_version="2026.12.0")
OOM_LINE = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.91 GiB. GPU 0 has a total "
    "capacity of 22.19 GiB of which 1.73 GiB is free. Including non-PyTorch memory, this process "
    "has 20.45 GiB memory in use. Of the allocated memory 19.87 GiB is allocated by PyTorch, and "
    "311.52 MiB is reserved by PyTorch but unallocated."
)
TRANSFORMERS_URL = (
    "https://github.com/huggingface/transformers/blob/v4.44.2/"
    "src/transformers/models/llama/modeling_llama.py#L1178"
)
TORCH_URL = "https://pytorch.org/docs/2.4/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf"

SETUP = Setup(
    model="meta-llama/Meta-Llama-3-8B",
    gpu_name="NVIDIA A10G",
    gpu_count=1,
    gpu_memory_gib=22.19,
    # Deliberately not alphabetical: the JSON report sorts free-form mappings.
    frameworks={
        "transformers": "4.44.2",
        "torch": "2.4.0",
        "peft": "0.12.0",
        "bitsandbytes": "0.43.3",
    },
    batch_size=8,
    grad_accum=2,
    seq_len=4096,
    precision="bf16 compute, 4-bit NF4 weights (QLoRA)",
    distributed="single GPU",
)

ACTIVATIONS = Hypothesis(
    id="cuda-oom-activations",
    title="Activations and logits of a long-sequence batch exceed GPU memory",
    category="oom",
    root_cause="Micro-batch 8 x 4096 tokens needs more activation memory than the A10G has "
    "left after the 4-bit weights.",
    mechanism="Without gradient checkpointing every decoder layer keeps its activations for the "
    "backward pass, and the fp32 logits (batch x sequence x 128,256 vocabulary) are one tensor.",
    confidence="high",
    score=0.91,
    evidence=(
        SourceRef(source="train.log", line=1184, text=OOM_LINE),
        SourceRef(
            source="train.log",
            line=1171,
            text="{'loss': 1.4123, 'grad_norm': 0.3311, 'epoch': 0.02}",
        ),
    ),
    citations=(
        Citation(
            page="kb:cuda-oom-activations",
            url=TRANSFORMERS_URL,
            detail="LlamaForCausalLM upcasts logits to fp32 before the loss",
        ),
    ),
    fixes=(
        Fix(
            action="Turn on gradient checkpointing and halve the micro-batch, keeping the "
            "effective batch",
            changes=(
                Change(
                    path="TrainingArguments.gradient_checkpointing",
                    before=False,
                    after=True,
                    default=False,
                    verified=True,
                    reason="recompute activations in backward",
                ),
                Change(
                    path="TrainingArguments.per_device_train_batch_size",
                    before=8,
                    after=4,
                    default=8,
                    verified=True,
                    reason="halves activation and logits memory",
                ),
                Change(
                    path="TrainingArguments.gradient_accumulation_steps",
                    before=2,
                    after=4,
                    default=1,
                    verified=True,
                    reason="keeps the effective batch at 16",
                ),
            ),
        ),
        Fix(
            action="Let the allocator grow segments, and train on shorter sequences",
            changes=(
                Change(
                    path="PYTORCH_CUDA_ALLOC_CONF",
                    before=None,
                    after="expandable_segments:True",
                    verified=True,
                    reason="fewer fragmented blocks",
                ),
                Change(
                    path="--max_seq_length",
                    before=4096,
                    after=2048,
                    verified=False,
                    reason="quarters attention and halves activation memory",
                ),
            ),
            commands=("nvidia-smi --query-gpu=memory.used,memory.total --format=csv",),
            cost="run",
        ),
    ),
    discriminator="Rerun with per_device_train_batch_size=1 for 3 steps: if it fits, "
    "activations are the cause",
    discriminator_cost="minutes",
    verification=Verification(
        kind="training-steps",
        script="import torch\n# after 5 steps with the new settings:\n"
        "print(torch.cuda.max_memory_allocated() / 2**30, 'GiB peak')",
    ),
    why_confidence="documented failure mode, the OOM is in your log, and the source "
    "confirms the mechanism",
    frameworks=("transformers", "peft", "bitsandbytes", "pytorch"),
)
FRAGMENTATION = Hypothesis(
    id="cuda-oom-fragmentation",
    title="Allocator fragmentation",
    category="oom",
    root_cause="Reserved-but-unallocated blocks are too small for the 3.91 GiB request.",
    mechanism="The caching allocator cannot merge freed blocks into one large segment.",
    confidence="medium",
    score=0.38,
    citations=(
        Citation(page="kb:cuda-oom-fragmentation", url=TORCH_URL, detail="expandable_segments"),
    ),
    discriminator="Compare 'reserved by PyTorch but unallocated' with the failed request "
    "in the OOM line",
    discriminator_cost="seconds",
    frameworks=("pytorch",),
)
EVAL_BATCH = Hypothesis(
    id="oom.eval-batch",
    title="Evaluation batch larger than the training batch",
    category="oom",
    root_cause="The first evaluation uses a larger batch than training.",
    mechanism="per_device_eval_batch_size defaults to the training batch size.",
    confidence="low",
    score=0.12,
    grounded=False,
    fixes=(
        Fix(
            action="Set the evaluation batch explicitly",
            changes=(
                Change(
                    path="TrainingArguments.per_device_eval_batch_size",
                    before=8,
                    after=2,
                    verified=True,
                ),
            ),
        ),
    ),
    discriminator="Check whether the OOM happens at an evaluation step",
    discriminator_cost="seconds",
)
LOGITS = Arithmetic(
    title="Logits memory at the failing step",
    lines=(
        ArithmeticLine(
            label="micro-batch size",
            formula="per_device_train_batch_size",
            value=8,
            source="TrainingArguments.per_device_train_batch_size",
        ),
        ArithmeticLine(
            label="sequence length",
            formula="max_seq_length",
            value=4096,
            unit="tokens",
            source="--max_seq_length",
        ),
        ArithmeticLine(
            label="vocabulary size",
            formula="vocab_size",
            value=128256,
            source="config.json:vocab_size",
        ),
        ArithmeticLine(
            label="logits in fp32",
            formula="8 x 4096 x 128256 x 4 B / 2^30",
            value=15.656,
            unit="GiB",
            source="computed",
        ),
        ArithmeticLine(
            label="GPU capacity",
            formula="reported by the OOM message",
            value=22.19,
            unit="GiB",
            source="train.log:1184",
        ),
    ),
    result="The fp32 logits alone need 15.66 GiB of the 22.19 GiB GPU, before weights and "
    "activations.",
)


def oom_diagnosis() -> Diagnosis:
    return Diagnosis(
        tool=TOOL,
        grounding="kb",
        summary="CUDA out of memory on step 1184: micro-batch 8 at 4096 tokens does not fit "
        "an A10G.",
        setup=SETUP,
        hypotheses=(ACTIVATIONS, FRAGMENTATION, EVAL_BATCH),
        arithmetic=(LOGITS,),
        findings=(
            Finding(
                id="oom.allocation",
                title="CUDA allocation failed",
                category="oom",
                summary="Tried to allocate 3.91 GiB with 1.73 GiB free",
            ),
        ),
        prevention=(
            Prevention(
                guard="Log torch.cuda.max_memory_allocated() every 50 steps",
                threshold="warn above 90% of device memory",
                citation="kb:cuda-oom-activations",
            ),
            Prevention(
                guard="Set expandable_segments before long runs",
                threshold="always",
                citation=TORCH_URL,
            ),
        ),
        warnings=("env.txt not given: versions come from the pip freeze at the top of train.log",),
        inputs=(InputFile(path="runs/llama3-qlora/train.log", kind="log", lines_read=1190),),
    )


def ungrounded_diagnosis() -> Diagnosis:
    """Only a hypothesis no KB page confirms."""
    return oom_diagnosis().model_copy(
        update={"grounding": "ungrounded", "hypotheses": (EVAL_BATCH,)}
    )


def empty_diagnosis() -> Diagnosis:
    """Nothing matched: the report says so and lists what was read and what was not."""
    return Diagnosis(
        tool=TOOL,
        grounding="ungrounded",
        summary="No failure signature found in 2 inputs.",
        setup=Setup(model="meta-llama/Meta-Llama-3-8B"),
        findings=(
            Finding(id="run.exit", title="Process exit", summary="the run exited with status 0"),
        ),
        warnings=("metrics.csv: not UTF-8 text, skipped",),
        inputs=(
            InputFile(path="train.log", kind="log", lines_read=412),
            InputFile(path="metrics.csv", kind="metrics"),
        ),
    )


def with_evidence(diagnosis: Diagnosis, texts: list[str]) -> Diagnosis:
    """`diagnosis` whose top hypothesis quotes `texts` as log lines 1, 2, ..."""
    refs = tuple(SourceRef(source="train.log", line=i, text=t) for i, t in enumerate(texts, 1))
    top = diagnosis.hypotheses[0].model_copy(update={"evidence": refs})
    return diagnosis.model_copy(update={"hypotheses": (top, *diagnosis.hypotheses[1:])})


def headings(markdown: str) -> list[str]:
    """Markdown headings, skipping `#` comment lines inside fenced code blocks."""
    found, in_code = [], False
    for line in markdown.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
        elif line.startswith("#") and not in_code:
            found.append(line)
    return found
