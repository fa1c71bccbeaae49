"""Where each framework keeps its config classes, per release layout.

`files` lists, for each file wanted, its candidate paths in the repository
(the first that exists at a release is read); `globs` add every matching file.
`classes` are the classes written to the snapshot, with the fields of their
bases in the same framework merged in; `extends` names bases from another
framework (TRL's configs extend transformers' TrainingArguments).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Spec:
    name: str
    repo: str
    classes: tuple[str, ...]
    files: tuple[tuple[str, ...], ...]
    globs: tuple[str, ...] = ()
    extends: dict[str, str] = field(default_factory=dict)
    key_harvest: dict[str, tuple[str, ...]] = field(default_factory=dict)
    wheel_prefix: str = ""
    tag_format: str = "v{version}"


SPECS = {
    "transformers": Spec(
        "transformers",
        "huggingface/transformers",
        ("TrainingArguments", "Seq2SeqTrainingArguments"),
        (
            ("src/transformers/training_args.py",),
            ("src/transformers/training_args_seq2seq.py",),
            ("src/transformers/trainer_utils.py",),
            ("src/transformers/debug_utils.py",),
        ),
        wheel_prefix="src/",
    ),
    "trl": Spec(
        "trl",
        "huggingface/trl",
        ("SFTConfig", "DPOConfig", "GRPOConfig", "ModelConfig", "ScriptArguments"),
        (
            ("trl/trainer/sft_config.py",),
            ("trl/trainer/dpo_config.py",),
            ("trl/trainer/grpo_config.py",),
            ("trl/trainer/model_config.py",),
            ("trl/scripts/utils.py", "trl/utils.py", "trl/commands/cli_utils.py"),
        ),
        extends={
            "TrainingArguments": "transformers:TrainingArguments",
            "_BaseConfig": "transformers:TrainingArguments",
        },
        globs=(r"trl/trainer/base_config\.py", r"trl/trainer/_?base_config\.py"),
    ),
    "peft": Spec(
        "peft",
        "huggingface/peft",
        ("LoraConfig",),
        (
            ("src/peft/tuners/lora/config.py", "src/peft/tuners/lora.py"),
            ("src/peft/config.py", "src/peft/utils/config.py"),
            ("src/peft/utils/peft_types.py",),
        ),
        wheel_prefix="src/",
    ),
    "accelerate": Spec(
        "accelerate",
        "huggingface/accelerate",
        ("ClusterConfig", "SageMakerConfig"),
        (
            ("src/accelerate/commands/config/config_args.py",),
            ("src/accelerate/commands/config/cluster.py",),
            ("src/accelerate/commands/launch.py",),
            ("src/accelerate/utils/dataclasses.py",),
        ),
        key_harvest={
            r".*/commands/config/cluster\.py": ("subscripts",),
            r".*/commands/launch\.py": ("argparse",),
        },
        wheel_prefix="src/",
    ),
    "deepspeed": Spec(
        "deepspeed",
        "deepspeedai/DeepSpeed",
        (
            "DeepSpeedZeroConfig",
            "DeepSpeedZeroOffloadParamConfig",
            "DeepSpeedZeroOffloadOptimizerConfig",
            "DeepSpeedFP16Config",
            "DeepSpeedBF16Config",
        ),
        (
            ("deepspeed/runtime/zero/config.py",),
            ("deepspeed/runtime/zero/offload_config.py",),
            ("deepspeed/runtime/precision_config.py",),
            ("deepspeed/runtime/config.py",),
        ),
        globs=(r"deepspeed/.*constants\.py", r"deepspeed/.*/config\.py"),
        key_harvest={
            r"deepspeed/.*constants\.py": ("constants",),
            r"deepspeed/.*config\.py": ("constants",),
        },
    ),
    "vllm": Spec(
        "vllm",
        "vllm-project/vllm",
        ("EngineArgs", "AsyncEngineArgs", "FrontendArgs"),
        (("vllm/engine/arg_utils.py",), ("vllm/config.py",)),
        globs=(r"vllm/config/\w+\.py", r"vllm/entrypoints/openai/cli_args\.py"),
        key_harvest={r"vllm/entrypoints/openai/cli_args\.py": ("argparse",)},
    ),
}
