"""Which frameworks the run used, and where each one was seen.

Pages for DeepSpeed, vLLM, JAX or flash-attn used to rank for runs that never
touched them, on one shared word. A framework counts as present when the
evidence names it: a traceback frame inside its package, an installed package
in an environment listing, a version it printed, a config key only it reads,
or its name (or an API only it has) in a log line, the user's code or description.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

from packaging.utils import canonicalize_name

from trainwreck.context.scan import Texts
from trainwreck.model import Evidence

# A framework's name or an API only it has, as it appears in logs, code and prose.
FRAMEWORK_WORDS: dict[str, re.Pattern[str]] = {
    # torch names itself "PyTorch" or "Torch" ("Torch not compiled with CUDA enabled"); its
    # c10d watchdog, collective checks and CPU allocator print from torch's own classes
    "pytorch": re.compile(
        r"(?i:\btorch\b|pytorch)|\bCUDA out of memory|\bDataLoader\(|\brandom_split\b|"
        r"ProcessGroup(?:NCCL|Gloo)|"
        r"\bWorkNCCL\b|CollectiveFingerPrint|DefaultCPUAllocator|"
        r"Expected all tensors to be on the same device"
    ),
    "transformers": re.compile(
        r"\btransformers\b|\bAutoModel\w*|\bAutoTokenizer\b|from_pretrained|TrainingArguments|"
        r"\bTrainer\b|PreTrainedModel|\bhf_\w+|huggingface|"
        # keys only TrainingArguments reads (and configs built on it), as flags or config; not
        # per_device_train_batch_size, which DeepSpeed-Chat's own argparse copies
        r"\b(?:evaluation|eval|save|logging)_strategy\b|\bsave_total_limit\b|"
        r"\bfsdp_transformer_layer_cls_to_wrap\b|"
        r"\bfinetuning_type\b|"  # LLaMA-Factory's own key: it trains through the HF Trainer
        r"(?i:\bllama-?factory\b|llamafactory-cli)|"  # and its name
        # the Trainer's metrics hook and the generation API, as users name them in prose
        r"\bcompute_metrics\b|\bmodel\.generate\b|"
        r"\bUnsloth\b|"  # Unsloth patches transformers models and trains through TRL/the HF Trainer
        r"--model[ =]hf\b|"  # lm-evaluation-harness's `hf` model type loads through transformers
        # transformers' dependency check (utils/versions.py) refusing a pinned package
        r"is required for a normal functioning of this module"
    ),
    "peft": re.compile(r"\bpeft\b|LoraConfig|\blora_\w+|\bLoRA\b|get_peft_model|PeftModel", re.I),
    "trl": re.compile(r"(?i:\btrl\b)|\b(?:SFT|DPO|GRPO|PPO|KTO|ORPO|Reward)(?:Trainer|Config)\b"),
    "accelerate": re.compile(
        r"\baccelerate[/.]|accelerate launch|\bAccelerator\b|\bAccelerate\b|accelerate config"
    ),
    # ZeRO by its capitalisation or with a stage; the plain word "zero" ("the parameter
    # starts at zero") is no DeepSpeed run
    "deepspeed": re.compile(
        r"(?i:deepspeed|zero_optimization|\bzero[-_ ]?(?:stage[-_ ]?)?[0-3]\b|\bds_config)|"
        r"\bZeRO\b"
    ),
    "vllm": re.compile(r"\bvllm\b|LLMEngine|EngineCore|\bSamplingParams\b", re.I),
    # SGLang's server and its flags; Hugging Face's text-generation-inference (TGI): its
    # launcher, its Python server package, its router's error lines
    "sglang": re.compile(r"\bsglang\b|--mem-fraction-static", re.I),
    "tgi": re.compile(
        r"text[-_]generation[-_](?:inference|launcher|server)|\bTGI\b|"
        r"Request failed during generation"
    ),
    "bitsandbytes": re.compile(
        r"bitsandbytes|\bbnb\b|load_in_[48]bit|Linear4bit|Linear8bitLt|BitsAndBytesConfig", re.I
    ),
    "flash-attn": re.compile(r"flash[_-]attn|flash_attention_2|FlashAttention", re.I),
    # Fabric and the ddp_notebook strategy are Lightning's own (its interactive-DDP refusal)
    "lightning": re.compile(
        r"lightning|LightningModule|\bpl\.Trainer|\bFabric\(|ddp_notebook", re.I
    ),
    # xla/python (xla_extension) is jaxlib's XLA client: the path its C++ errors print from
    "jax": re.compile(
        # users write "JAX", "Flax", "Optax" in prose
        r"(?i:\bjax\b|\bjaxlib\b|\bflax\b|\boptax\b)|XlaRuntimeError|\bxla/python/|xla_extension|"
        r"\bjaxpr\b|\bpjit\b"  # its compile log: "jaxpr to MLIR module conversion jit(f)"
    ),
    # its C++ core logs from tensorflow/core/... and its loader from dso_loader ("Could not
    # load dynamic library 'libcudart.so.11.0'"); users write "TF 2.16" and tf.<module>
    "tensorflow": re.compile(
        r"(?i:\btensorflow\b)|\bTF ?2\.\d+|\btf\.(?:keras|data|function|config|distribute|"
        r"GradientTape|Variable|Tensor|constant|compat)\b|\bdso_loader\b"
    ),
    # Keras 3 runs on TensorFlow, JAX or torch; tf_keras is the Keras 2 package for TF 2.16+
    # and its own classes in messages (KerasTensor, KerasVariable)
    "keras": re.compile(r"(?i:\bkeras\b|\btf[-_]keras\b)|\bKeras[A-Z]\w*"),
    # also inside names: ProcessGroupNCCL.cpp, WorkNCCL(...), NCCL_DEBUG; and a torch job
    # launched over several nodes, whose GPUs talk through NCCL unless the script names
    # another backend (batch-34's two-node torchrun hang never printed the word)
    "nccl": re.compile(
        r"(?i:nccl)|--nnodes[= ]?(?:[2-9]|\d{2})|--node[-_]rank\b|(?i:\bmulti-?node\b)"
    ),
    "cuda": re.compile(r"\bcuda\b|\bcudnn\b|\bcublas\b|nvidia-smi|\bnvcc\b", re.I),
    "xformers": re.compile(r"xformers", re.I),
    "apex": re.compile(r"\bapex\b"),
    "triton": re.compile(r"\btriton\b|\binductor\b", re.I),
    "megatron": re.compile(r"megatron", re.I),
    # Ray (vLLM's multi-node executor, Ray Train): its name, its init, its placement groups
    "ray": re.compile(
        r"\bray\.init\b|\bRay(?:Worker\w*|Executor|Train)?\b|placement group|\bray status\b|"
        r"backend\W{1,4}ray\b"
    ),
    # image-diffusion pipelines, and the trainers (kohya sd-scripts) and UIs built on them
    "diffusers": re.compile(
        r"\bdiffusers\b|\w*Diffusion\w*Pipeline\b|(?i:stable[-_ ]?diffusion|\bsdxl)|"
        r"UNet2DConditionModel|AutoencoderKL|\bkohya\b|sd-scripts|"
        # SD3 and ControlNet by name, and the library's example training scripts (batch-35's
        # SD3 ControlNet validation thread named only train_controlnet_sd3.py)
        r"(?i:\bsd3\b|\bcontrolnet)|train_(?:controlnet|dreambooth|text_to_image)\w*\.py|"
        # the pipelines' safety checker; sd-scripts' and the web UI's checks of the VAE's output
        r"Potential NSFW content was detected|NaN (?:detected|found) in latents|produced in VAE"
    ),
    # llama.cpp's programs, its model format, and the lines its context and loader print
    "llama-cpp": re.compile(
        r"(?i:llama[-_.]?cpp)|\bllama-(?:cli|server|bench)\b|\.gguf\b|\bGGUF\b|"
        r"llama_(?:new_context_with_model|init_from_model|model_load|kv_cache_init)\b|\bggml_\w+"
    ),
    "tokenizers": re.compile(r"\btokenizers\b|\bTokenizer\b|tokenizer"),
    # not torchvision's datasets module ("datasets.ImageFolder", "from torchvision import datasets")
    "datasets": re.compile(
        r"(?<!torchvision\.)(?<!torchvision import )\bdatasets\b(?!\.(?:ImageFolder|DatasetFolder|"
        r"CIFAR\d*|MNIST|FashionMNIST|ImageNet|SVHN|STL10|CelebA|VOC\w*|Coco\w*)\b)|load_dataset"
    ),
    "numpy": re.compile(r"\bnumpy\b|\bnp\.\w+"),
    # Apple's array framework and its LLM package; `mx.` is how its users import it
    "mlx": re.compile(r"(?i:\bmlx\b|\bmlx[-_]lm\b)|\bmlx\.(?:core|nn|optimizers)\b|\bmx\.eval\("),
    # gradient-boosted trees: their names, their usual import aliases, their estimator classes,
    # and the tags their native libraries print ("[LightGBM] [Warning] ...")
    "xgboost": re.compile(
        r"(?i:\bxgboost\b)|\bxgb\.\w+|\bXGB(?:Classifier|Regressor|Ranker)\b|\bDMatrix\b"
    ),
    "lightgbm": re.compile(r"(?i:\blightgbm\b)|\blgb\.\w+|\bLGBM(?:Classifier|Regressor|Ranker)\b"),
    "catboost": re.compile(r"(?i:\bcatboost\b)|\bCatBoost\w*"),
    # Baidu's framework and the toolkits built on it (PaddleOCR, PaddleNLP, PaddleDetection)
    "paddle": re.compile(
        r"(?i:\bpaddle(?:paddle|ocr|nlp|detection|seg|speech|x)?\b)|\bpaddle\.\w+"
    ),
}
# Installed package (PEP 503 name) or traceback frame package -> framework. The first
# PEP 503 name of each framework is the distribution pip installs it as.
PACKAGE_FRAMEWORK: dict[str, str] = {
    "torch": "pytorch",
    "transformers": "transformers",
    "peft": "peft",
    "trl": "trl",
    "accelerate": "accelerate",
    "deepspeed": "deepspeed",
    "vllm": "vllm",
    "sglang": "sglang",
    "text-generation-server": "tgi",
    "text_generation_server": "tgi",
    "bitsandbytes": "bitsandbytes",
    "flash-attn": "flash-attn",
    "flash_attn": "flash-attn",
    "lightning": "lightning",
    "pytorch-lightning": "lightning",
    "pytorch_lightning": "lightning",
    "jax": "jax",
    "jaxlib": "jax",
    "flax": "jax",
    "tensorflow": "tensorflow",
    "tensorflow-gpu": "tensorflow",
    "tensorflow-cpu": "tensorflow",
    "tensorflow_core": "tensorflow",
    "keras": "keras",
    "tf-keras": "keras",
    "tf_keras": "keras",
    "xformers": "xformers",
    "apex": "apex",
    "triton": "triton",
    "megatron-core": "megatron",
    "megatron": "megatron",
    "diffusers": "diffusers",
    "ray": "ray",
    "tokenizers": "tokenizers",
    "datasets": "datasets",
    "numpy": "numpy",
    "llama-cpp-python": "llama-cpp",
    "llama_cpp": "llama-cpp",
    "mlx": "mlx",
    "mlx-lm": "mlx",
    "mlx_lm": "mlx",
    "xgboost": "xgboost",
    "lightgbm": "lightgbm",
    "catboost": "catboost",
    "paddlepaddle": "paddle",
    "paddlepaddle-gpu": "paddle",
    "paddle": "paddle",
    "paddleocr": "paddle",
    "paddlenlp": "paddle",
}


def distribution(framework: str) -> str | None:
    """The distribution pip installs a framework as (`pytorch` -> `torch`, `megatron` ->
    `megatron-core`); None for what pip does not install (`cuda`, `nccl`, `python`)."""
    return next(
        (
            package
            for package, owner in PACKAGE_FRAMEWORK.items()
            if owner == framework and canonicalize_name(package) == package
        ),
        None,
    )


# What each framework runs on: a run that shows one runs these too (vLLM runs on PyTorch).
FOUNDATIONS: dict[str, tuple[str, ...]] = {
    "transformers": ("pytorch", "accelerate"),
    "peft": ("transformers", "pytorch", "accelerate"),
    "trl": ("transformers", "accelerate", "pytorch"),
    "vllm": ("pytorch", "transformers"),
    "sglang": ("pytorch", "transformers"),
    "tgi": ("pytorch", "transformers"),
    **dict.fromkeys(
        ("accelerate", "deepspeed", "lightning", "bitsandbytes", "flash-attn", "xformers"),
        ("pytorch",),
    ),
    "megatron": ("pytorch",),
    "diffusers": ("pytorch",),
}


def with_foundations(frameworks: Collection[str]) -> set[str]:
    """The frameworks a run shows, with what they run on."""
    seen = set(frameworks)
    return seen | {base for name in seen for base in FOUNDATIONS.get(name, ())}


# Runs on these frameworks alone do not run torch: torch pages and torch advice need torch seen
# (Keras 3 can run on torch, and such a run shows torch itself; llama.cpp is C++, and its
# Python converter, which imports torch, shows torch when it is the one that ran). Gradient-
# boosted trees and PaddlePaddle train without torch (batch-31's XGBoost, LightGBM and CatBoost
# threads led with fp16 loss-scale and DDP pages).
NOT_TORCH = frozenset(
    {"jax", "tensorflow", "keras", "llama-cpp", "mlx", "xgboost", "lightgbm", "catboost", "paddle"}
)
# What a page names when it is about the torch stack: torch and what runs on it. A page
# naming none of these (plain Python: an API removed in a release, a Python version
# refused) applies to a JAX run as much as to a torch one.
TORCH_STACK = frozenset(
    {"pytorch", *(name for name, bases in FOUNDATIONS.items() if "pytorch" in bases)}
)
# A page that names one of these beside torch is about the language or the data, with torch
# as its example (NaN in the inputs, evaluation preprocessed unlike training, a package's
# version gate): it applies to a Keras or JAX run too.
ANY_STACK = frozenset({"python"})
# Log lines naming a niche framework are kept by the log reader for this module.
KEEP: tuple[str, ...] = (
    r"(?i)deepspeed|vllm|bitsandbytes|flash_attn|flash-attn|lightning|jaxlib|peft|xformers|unsloth|"
    r"tensorflow|keras|\bmlx|xgboost|lightgbm|catboost|paddle",
)


# accelerate's config file lists every backend's section, empty when it is not used
# ("deepspeed_config: {}", "megatron_lm_config: {}"): an empty section names no framework.
_EMPTY_SECTION = re.compile(r"\b(?:deepspeed|megatron_lm|fsdp)_config\s*[:=]\s*\{\s*\}")


# `nn.Module` is the base class of torch's, MLX's and Flax's layers alike: it names torch only
# in a run that shows neither of the others (batch-29's MLX thread read as PyTorch by it).
_MODULE_BASE = re.compile(r"\bnn\.Module\b")
_MODULE_BASE_SHARERS = frozenset({"mlx", "jax"})


def _first_mention(texts: Sequence[tuple[str, str]], found: dict[str, str]) -> None:
    """Record, for each framework not yet found, the first text that names it."""
    searched = Texts([_EMPTY_SECTION.sub(" ", text) for _, text in texts])
    for framework, words in FRAMEWORK_WORDS.items():
        if framework not in found and (index := searched.first(words)) is not None:
            found[framework] = texts[index][0]


def frameworks_seen(evidence: Evidence) -> dict[str, str]:
    """Framework -> where the evidence first shows it (most direct kind of evidence first)."""
    found: dict[str, str] = {}
    for exc in evidence.exceptions:
        for frame in exc.frames:
            framework = PACKAGE_FRAMEWORK.get(frame.library or "")
            if framework and framework not in found:
                found[framework] = f"traceback frame {frame.file}"
    for package in evidence.environment:
        framework = PACKAGE_FRAMEWORK.get(package.lower())
        if framework and framework not in found:
            found[framework] = f"installed: {package} {evidence.environment[package]}"
    if "transformers_version" in evidence.model_config_values:  # written by save_pretrained
        found.setdefault("transformers", "model config: transformers_version")
    for trace in evidence.traces:  # torch.profiler wrote it; its nccl kernels are NCCL's
        found.setdefault("pytorch", f"torch.profiler trace {trace.source}")
        if trace.total("comm_us") > 0:
            found.setdefault("nccl", f"nccl kernels in {trace.source}")
    config_texts = [
        (f"config {config.source}", f"{key}={value}")
        for config in evidence.configs
        for key, value in config.values.items()
    ]
    line_texts = [(f"{ln.source}:{ln.line}", ln.text) for ln in evidence.lines]
    exception_texts = [
        (f"{e.source}:{e.message_ref_line}", f"{e.type}: {e.message}") for e in evidence.exceptions
    ]
    code_texts = [(f"{code.source}:{code.first_line}", code.text) for code in evidence.code]
    symptom_texts = [("symptoms", evidence.symptoms)] if evidence.symptoms else []
    every = (config_texts, line_texts, exception_texts, code_texts, symptom_texts)
    for texts in every:
        _first_mention(texts, found)
    if "pytorch" not in found and not found.keys() & _MODULE_BASE_SHARERS:
        base = next(
            (where for texts in every for where, text in texts if _MODULE_BASE.search(text)), None
        )
        if base is not None:
            found["pytorch"] = base
    return found


def without_torch(frameworks: Collection[str]) -> bool:
    """Whether the run shows a stack that is not torch (JAX) and never torch itself."""
    seen = set(frameworks)
    return bool(seen & NOT_TORCH) and "pytorch" not in seen
