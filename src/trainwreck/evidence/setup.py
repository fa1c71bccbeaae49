"""Extract the user's Setup (model, GPUs, versions, batch, precision, parallelism).

Reports must echo the user's setup, and the arithmetic needs it; every value
here comes from something the user handed in, and unknowns stay None.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from trainwreck.evidence.printed import printed_settings
from trainwreck.model import ConfigFile, LogLine, Scalar, Setup

ML_PACKAGES = (
    "torch",
    "transformers",
    "peft",
    "trl",
    "accelerate",
    "deepspeed",
    "vllm",
    "bitsandbytes",
    "flash-attn",
    "lightning",
    "pytorch-lightning",
    "jax",
    "jaxlib",
    "numpy",
    "xformers",
    "triton",
    "megatron-core",
    "datasets",
    "tokenizers",
    "safetensors",
    "torchvision",
    "nvidia-nccl-cu12",
    "apex",
    "unsloth",
    "axolotl",
    "llamafactory",
    "tensorflow",
    "keras",
)
Values = Mapping[str, Scalar | list[Scalar]]
_KEYS = {
    "model": (
        "model_name_or_path",
        "_name_or_path",
        "model",
        "model_name",
        "base_model",
        "pretrained_model_name_or_path",
        "model_path",
    ),
    "batch_size": (
        "per_device_train_batch_size",
        "train_micro_batch_size_per_gpu",
        "micro_batch_size",
        "batch_size",
        "per_gpu_train_batch_size",
        "max_num_seqs",
    ),
    "grad_accum": ("gradient_accumulation_steps", "accumulate_grad_batches"),
    "seq_len": (
        "max_seq_length",
        "max_seq_len",
        "max_model_len",
        "seq_length",
        "cutoff_len",
        "max_length",
        "block_size",
        "model_max_length",
        "sequence_len",
    ),
    "world_size": (
        "world_size",
        "num_processes",
        "nproc_per_node",
        "num_gpus",
        "tensor_parallel_size",
    ),
}
_GPU_CAPACITY = re.compile(
    r"GPU (\d+) has a total capacity of ([\d.]+) GiB"
    r"|\(GPU (\d+); ([\d.]+) GiB total capacity"  # the OOM message of torch before 2.0
)
_GPU_NAME = re.compile(
    r"((?:NVIDIA |Tesla |Quadro )?(?:[AHBLV]\d{2,3}[A-Za-z0-9\- ]*?|GeForce RTX \d{4}(?: Ti)?"
    r"|RTX A?\d{4}[A-Za-z ]*?|GH200|GB200|MI\d{3}X?)(?:-(?:SXM|PCIE|NVL)[\w-]*)?)"
    r"(?:\s*(?:\||,|$|\(|On\b|Off\b|')|\s+(?:GPU|with)\b)"  # ... "Your <name> GPU has"
)
_SMI_MEMORY = re.compile(r"\d+MiB\s*/\s*(\d+)MiB")
_CUDA = re.compile(
    r"CUDA Version:\s*([\d.]+)|CUDA used to build PyTorch:\s*([\d.]+)"
    r"|cuda[_ ]version[:= ]+([\d.]+)",
    re.I,
)
_PYTHON = re.compile(
    r"Python version:\s*([\d.]+)|python(3\.\d+)/(?:site|dist)-packages"
    r"|requires a different Python: ([\d.]+) not in"  # pip refusing the interpreter
)


def _first(values: Values, names: Sequence[str]) -> Scalar | list[Scalar]:
    """The first of `names` present, matching a key or its last dotted segment."""
    for name in names:
        for key, value in values.items():
            unset = value in (None, "", "auto") or (isinstance(value, str) and "$" in value)
            key = key.replace("-", "_")  # vLLM and shell flags use dashes
            if (key == name or key.endswith("." + name)) and not unset:
                return value
    return None


def _as_int(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isdigit():
        return int(value)
    return None


def _precision(values: Values) -> str | None:
    for key, value in values.items():
        last = key.rsplit(".", 1)[-1]
        if last in ("bf16", "fp16", "tf32") and value is True and key.count(".") == 0:
            return last
        if key in ("bf16.enabled", "fp16.enabled") and value is True:
            return key.split(".")[0]
        if last in ("mixed_precision", "precision", "torch_dtype", "dtype") and isinstance(
            value, str
        ):
            text = value.lower()
            for name in ("bf16", "bfloat16", "fp16", "float16", "16-mixed", "fp32", "float32"):
                if name in text:
                    return {
                        "bfloat16": "bf16",
                        "float16": "fp16",
                        "16-mixed": "fp16",
                        "float32": "fp32",
                    }.get(name, name)
    return None


def _distributed(values: Values) -> str | None:
    stage = _as_int(_first(values, ("zero_optimization.stage", "zero_stage")))
    if stage is not None:
        return f"deepspeed-zero{stage}"
    kind = _first(values, ("distributed_type",))
    if isinstance(kind, str) and kind not in ("NO", "no"):
        return kind.lower()
    if any(key.split(".")[0] in ("fsdp", "fsdp_config") and value for key, value in values.items()):
        return "fsdp"
    tp = _as_int(_first(values, ("tensor_parallel_size",)))
    return f"tensor-parallel-{tp}" if tp and tp > 1 else None


def from_configs(configs: Iterable[ConfigFile], model_config: Values) -> dict[str, object]:
    """Setup fields from configs and launch argv, first source wins."""
    merged: dict[str, Scalar | list[Scalar]] = {}
    for config in configs:
        for key, value in config.values.items():
            merged.setdefault(key, value)
    fields: dict[str, object] = {}
    model = _first(merged, _KEYS["model"]) or _first(model_config, ("_name_or_path",))
    if isinstance(model, str):
        fields["model"] = model
    for name in ("batch_size", "grad_accum", "seq_len", "world_size"):
        number = _as_int(_first(merged, _KEYS[name]))
        if number is not None:
            fields[name] = number
    fields["precision"] = _precision(merged) or _precision(model_config)
    fields["distributed"] = _distributed(merged)
    return {key: value for key, value in fields.items() if value is not None}


def from_text(texts: Iterable[str]) -> dict[str, object]:
    """GPU model/count/memory, CUDA and Python versions from log or listing text."""
    fields: dict[str, object] = {}
    gpu_ids: set[int] = set()
    smi_gpus = 0
    for text in texts:
        capacity = _GPU_CAPACITY.search(text)
        if capacity:
            gpu, total = [group for group in capacity.groups() if group is not None]
            gpu_ids.add(int(gpu))
            fields.setdefault("gpu_memory_gib", float(total))
        memory = _SMI_MEMORY.search(text)
        if memory:
            smi_gpus += 1
            fields.setdefault("gpu_memory_gib", round(int(memory.group(1)) / 1024, 2))
        name = _GPU_NAME.search(text) if "GPU" in text or "NVIDIA" in text or "|" in text else None
        if name and "gpu_name" not in fields:
            fields["gpu_name"] = name.group(1).strip()
        for pattern, key in ((_CUDA, "cuda"), (_PYTHON, "python")):
            match = pattern.search(text)
            if match and key not in fields:
                fields[key] = next(group for group in match.groups() if group)
    if smi_gpus:
        fields["gpu_count"] = smi_gpus
    return fields


def build_setup(
    environment: Mapping[str, str],
    configs: Sequence[ConfigFile],
    model_config: Values,
    lines: Sequence[LogLine],
    env_texts: Sequence[str],
) -> Setup:
    """Combine every source into one Setup."""
    fields = from_text([*env_texts, *(item.text for item in lines)])
    printed = ConfigFile(source="log", values=dict(printed_settings(lines)))
    fields.update(from_configs([*configs, printed], model_config))  # a config file wins
    frameworks = {name: environment[name] for name in ML_PACKAGES if name in environment}
    if "python" in environment and "python" not in fields:  # a printout or a listing says it
        fields["python"] = environment["python"]
    ranks = {item.rank for item in lines if item.rank is not None}
    if "world_size" not in fields and ranks:
        fields["world_size"] = max(ranks) + 1
    name, count = fields.get("gpu_name"), fields.get("gpu_count")
    if name:
        fields["gpus"] = f"{count}x {name}" if count else str(name)
    return Setup(frameworks=frameworks, **fields)
