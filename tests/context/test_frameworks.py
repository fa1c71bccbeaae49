"""Frameworks, hardware and phase read from real case evidence."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import pytest

from trainwreck.context import build
from trainwreck.context.frameworks import FRAMEWORK_WORDS, without_torch
from trainwreck.context.hardware import hardware_of
from trainwreck.evidence.collect import collect
from trainwreck.model import CodeSnippet, Evidence

CASES = Path(__file__).parent.parent / "cases"
NCCL_WATCHDOG = "pytorch-rank0-only-postprocess-nccl-timeout-444"


def _context_of(case: str, symptoms: str | None = None):  # type: ignore[no-untyped-def]
    folder = CASES / case
    inputs = [
        str(p) for p in sorted(folder.iterdir()) if not p.name.startswith(("case.", "expected."))
    ]
    return build(collect(inputs, symptoms=symptoms))


def test_a_jax_run_shows_jax_and_not_torch() -> None:
    context = _context_of("jax-debug-nans-log-25299")
    assert "jax" in context.frameworks
    assert "pytorch" not in context.frameworks


@pytest.mark.parametrize(
    ("code", "frameworks"),
    [
        # torch, MLX and Flax layers all subclass `nn.Module`: alone it names torch
        (
            "class Critic(nn.Module):\n    def __init__(self):\n        super().__init__()",
            {"pytorch"},
        ),
        ("import mlx.nn as nn\nclass Critic(nn.Module):\n    pass", {"mlx"}),
        ("import flax.linen as nn\nimport jax\nclass Critic(nn.Module):\n    pass", {"jax"}),
    ],
)
def test_the_shared_module_base_class_names_torch_only_without_mlx_or_flax(
    code: str, frameworks: set[str]
) -> None:
    evidence = Evidence(code=(CodeSnippet(source="model.py", text=code),))
    assert set(build(evidence).frameworks) & {"pytorch", "mlx", "jax"} == frameworks


def test_a_traceback_frame_inside_a_package_names_its_framework() -> None:
    context = _context_of("vllm-max-model-len-kv-cache-2418")
    assert "vllm" in context.frameworks
    assert context.frameworks["vllm"].startswith("traceback frame")


def test_the_user_words_name_a_framework_and_a_phase() -> None:
    context = _context_of(
        "jax-debug-nans-log-25299", "NaN when saving the checkpoint with deepspeed"
    )
    assert context.frameworks.get("deepspeed") == "symptoms"
    assert context.phase is not None


@pytest.mark.parametrize(
    ("said", "hardware"),
    [
        # batch-30's JAX timing thread: JAX's fallback warning denies a TPU
        ("UserWarning: No GPU/TPU found, falling back to CPU.", None),
        ("training on a TPU v4-8 pod slice", "tpu"),
        ("libtpu.so already in use by pid 4242", "tpu"),
    ],
)
def test_jax_denying_a_gpu_or_tpu_names_no_tpu(said: str, hardware: str | None) -> None:
    assert hardware_of(Evidence(symptoms=said)) == hardware


def test_a_cuda_oom_run_is_on_cuda() -> None:
    assert _context_of("alpaca-llama7b-fsdp-v100-223").hardware == "cuda"


def test_torch_naming_itself_pytorch_is_a_torch_run() -> None:
    """An sm_120 GPU refused by a torch wheel: the log says "PyTorch", never "torch"."""
    assert "pytorch" in _context_of("cosmos-reason1-sm120-blackwell-57").frameworks


def test_trainingarguments_flags_on_the_command_line_are_a_transformers_run() -> None:
    """Alpaca's torchrun line passes `--per_device_train_batch_size`: HF Trainer flags."""
    assert "transformers" in _context_of("alpaca-llama13b-fsdp-a100-86").frameworks


def test_torchs_nccl_watchdog_is_a_torch_run(tmp_path: Path) -> None:
    """A bundled record whose whole log is torch's c10d watchdog line and its frame."""
    text = files("trainwreck.cases").joinpath("data/bundled.jsonl").read_text(encoding="utf-8")
    (record,) = [r for r in map(json.loads, text.splitlines()) if r["id"] == NCCL_WATCHDOG]
    log = tmp_path / "rank0.log"
    log.write_text(record["evidence"], encoding="utf-8")
    assert "ProcessGroupNCCL.cpp" in record["evidence"] and "torch" not in record["evidence"]
    assert "pytorch" in build(collect([str(log)])).frameworks


@pytest.mark.parametrize(
    ("line", "torch"),
    [
        ("AssertionError: Torch not compiled with CUDA enabled", True),
        ("RuntimeError: [enforce fail at alloc_cpu.cpp:114] DefaultCPUAllocator: not enough", True),
        (
            "[E ProcessGroupNCCL.cpp:474] [Rank 0] Watchdog caught collective operation timeout",
            True,
        ),
        ("torchvision 0.18.0", False),  # a package named after torch is not torch
        ("NCCL WARN Call to ibv_reg_mr failed", False),
    ],
)
def test_torchs_own_messages_name_a_torch_run(line: str, torch: bool) -> None:
    assert bool(FRAMEWORK_WORDS["pytorch"].search(line)) is torch


@pytest.mark.parametrize(
    ("line", "deepspeed"),
    [
        ("ZeRO-3 training on five 3090s still OOMs", True),
        ("launched with zero3 offload and bf16", True),
        ("switching to zero stage 2 fixes it", True),
        ('"zero_optimization": {"stage": 2}', True),
        ("ZeRO offload keeps the optimizer on the CPU", True),
        # the case store's PoissonNLLLoss record: a parameter initialised to zero
        ("gives NaN loss when the parameter starts at zero.", False),
        ("zero-shot accuracy drops after fine-tuning", False),
    ],
)
def test_zero_names_deepspeed_only_as_zero_or_with_a_stage(line: str, deepspeed: bool) -> None:
    assert bool(FRAMEWORK_WORDS["deepspeed"].search(line)) is deepspeed


@pytest.mark.parametrize(
    ("framework", "line"),
    [
        ("jax", "Finished jaxpr to MLIR module conversion jit(jac_scaled) in 0.13 sec"),
        ("jax", "Finished tracing + transforming project for pjit in 0.0073 sec"),
        (
            "lightning",
            "Trainer(strategy='ddp') is not compatible with an interactive environment."
            " Choose one of the compatible strategies: Fabric(strategy='dp'|'ddp_notebook')",
        ),
        (
            "pytorch",
            "RuntimeError: Expected all tensors to be on the same device, but found at"
            " least two devices, cuda:0 and cpu!",
        ),
        # vLLM's Ray executor waiting on its reservation (vllm#11134)
        (
            "ray",
            "Waiting for creating a placement group of specs for 10 seconds. specs=[{'GPU': 1.0}]",
        ),
        ("ray", "vllm serve model --distributed-executor-backend ray --tensor-parallel-size 8"),
        # image diffusion: the pipelines' safety checker (CatVTON#22), sd-scripts' latent check
        ("diffusers", "Potential NSFW content was detected in one or more images."),
        ("diffusers", "RuntimeError: NaN detected in latents: /data/train/img_0001.png"),
        ("diffusers", "accelerate launch sdxl_train_network.py --mixed_precision fp16"),
        (
            "transformers",
            "ImportError: tokenizers>=0.22.0,<=0.23.0 is required for a normal"
            " functioning of this module, but found tokenizers==0.23.1.",
        ),
        # Apple's MLX (batch-28's mlx#1711 and mlx-lm threads)
        ("mlx", "python -m mlx_lm.lora --model openai/gpt-oss-20b --train"),
        ("mlx", "import mlx.core as mx"),
        ("mlx", "mx.eval(model.parameters(), optimizer.state)"),
        # gradient-boosted trees and PaddlePaddle (batch-31's threads)
        ("xgboost", "bst = xgb.train(params, dtrain)"),
        ("xgboost", "dtrain = DMatrix(X, label=y)"),
        ("lightgbm", "[LightGBM] [Warning] Found whitespace in feature_names"),
        ("lightgbm", "train_set = lgb.Dataset(df, label=y)"),
        ("catboost", "model = CatBoostClassifier(loss_function='MultiClass')"),
        ("paddle", "PaddleOCR: python3 tools/train.py -c configs/rec/rec_lite.yml"),
        ("paddle", "paddle.set_device('gpu')"),
    ],
)
def test_a_message_only_one_framework_prints_names_it(framework: str, line: str) -> None:
    assert FRAMEWORK_WORDS[framework].search(line)


def test_nccl_is_seen_inside_process_group_names() -> None:
    """This log names NCCL only inside `ProcessGroupNCCL.cpp` and `WorkNCCL(...)`."""
    assert "nccl" in _context_of("automodel-ckpt-barrier-timeout-1038").frameworks


@pytest.mark.parametrize(
    ("line", "nccl"),
    [
        # batch-34's two-node torchrun hang: the job never printed "NCCL"
        (
            "torchrun --nproc_per_node=2 --nnodes=2 --node_rank=0 --master_addr=10.0.0.1 main.py",
            True,
        ),
        ("a multi-node job on 4 nodes", True),
        ("torchrun --nnodes=1 --nproc_per_node=8 train.py", False),
        ("the graph has two nodes and one edge", False),
    ],
)
def test_a_job_launched_over_several_nodes_talks_through_nccl(line: str, nccl: bool) -> None:
    assert bool(FRAMEWORK_WORDS["nccl"].search(line)) is nccl


def test_an_xla_python_client_error_is_a_jax_run() -> None:
    """jaxlib's XLA client prints from xla/python/ (jax-ml/jax#788): a JAX run, not torch."""
    context = _context_of("jax-preallocation-off-oom-788")
    assert "jax" in context.frameworks
    assert without_torch(context.frameworks)


def test_without_torch_needs_another_stack_and_no_torch() -> None:
    assert without_torch({"jax": "x"})
    assert not without_torch({"jax": "x", "pytorch": "y"})
    assert not without_torch({})  # nothing seen: torch may well be there


def test_lm_eval_with_the_hf_model_type_is_a_transformers_run() -> None:
    """lm-evaluation-harness#2990 (batch-6): `lm_eval --model hf` loads Qwen3 through
    transformers; without it a transformers page title read as foreign to the run."""
    folder = (
        Path(__file__).parent.parent.parent
        / "benchmarks/first_sight/batch-6/lm-eval-mbpp-apply-chat-template-pass-at-1-zero-2990"
    )
    context = build(collect([str(folder / "train.log")]))
    assert "transformers" in context.frameworks


def test_the_empty_backend_sections_of_an_accelerate_config_name_no_framework() -> None:
    # accelerate's default_config.yaml (diffusers#2606, first-sight batch-8): every backend's
    # section is written, empty when unused; MULTI_GPU with "megatron_lm_config: {}" is no
    # Megatron run and "deepspeed_config: {}" no DeepSpeed one
    config = "distributed_type: MULTI_GPU\ndeepspeed_config: {}\nmegatron_lm_config: {}"
    context = build(collect([], symptoms=config))
    assert not {"deepspeed", "megatron"} & set(context.frameworks)
    used = build(collect([], symptoms="deepspeed_config:\n  zero_stage: 2"))
    assert "deepspeed" in used.frameworks


@pytest.mark.parametrize(
    ("line", "seen"),
    [
        # t19B-torchvision-pretrained-cifar-resnet-low-accuracy (batch-19): torchvision's
        # datasets module read as Hugging Face datasets, and no torch seen in a DataLoader
        ("datasets.ImageFolder(training_dir, transform=transforms.Compose([", set()),
        ("from torchvision import datasets, transforms", set()),
        ("train_loader = DataLoader(train_set, batch_size=1, shuffle=True)", {"pytorch"}),
        ("from datasets import load_dataset", {"datasets"}),
    ],
)
def test_torchvision_datasets_are_not_hugging_face_datasets(line: str, seen: set[str]) -> None:
    found = {name for name in ("datasets", "pytorch") if FRAMEWORK_WORDS[name].search(line)}
    assert found == seen


FIRST_SIGHT = Path(__file__).resolve().parents[2] / "benchmarks" / "first_sight"


def _context_of_folder(folder: Path):  # type: ignore[no-untyped-def]
    inputs = [str(p) for p in sorted(folder.iterdir()) if p.name != "case.yaml"]
    return build(collect(inputs))


def test_a_tensorflow_log_is_a_tensorflow_run_without_torch() -> None:
    """TF-TRT's logger prints from tensorflow/compiler/... (tensorflow/tensorrt#120)."""
    context = _context_of_folder(
        FIRST_SIGHT / "batch-18" / "t18C-tftrt-conv2d-transpose-no-implementation"
    )
    assert "tensorflow" in context.frameworks
    assert without_torch(context.frameworks)


@pytest.mark.parametrize(
    ("framework", "line"),
    [
        # TensorFlow's loader failing to open the CUDA runtime (quoted on the GPU-not-visible page)
        (
            "tensorflow",
            "W tensorflow/stream_executor/platform/default/dso_loader.cc:60] Could not load"
            " dynamic library 'libcudart.so.11.0'",
        ),
        ("tensorflow", "I upgraded to TF 2.16 and the model no longer builds"),
        ("tensorflow", "dataset = tf.data.Dataset.from_tensor_slices((x, y))"),
        # Keras 3 refusing a symbolic tensor in a TF op (serengil/deepface#1121)
        ("keras", "ValueError: A KerasTensor cannot be used as input to a TensorFlow function."),
        ("keras", "pip install tf-keras and set TF_USE_LEGACY_KERAS=1"),
    ],
)
def test_tensorflow_and_keras_name_themselves(framework: str, line: str) -> None:
    assert FRAMEWORK_WORDS[framework].search(line)


@pytest.mark.parametrize(
    "line",
    [
        "for tf in range(10): total += tf",  # a variable named tf is not TensorFlow
        "torch.nn.functional.cross_entropy(logits, target)",
    ],
)
def test_other_code_does_not_name_tensorflow(line: str) -> None:
    assert not FRAMEWORK_WORDS["tensorflow"].search(line)
    assert not FRAMEWORK_WORDS["keras"].search(line)


def test_a_keras_run_is_not_a_torch_run() -> None:
    assert without_torch({"keras": "symptoms"})
    assert without_torch({"tensorflow": "symptoms", "keras": "symptoms"})
    assert not without_torch({"keras": "symptoms", "pytorch": "symptoms"})  # Keras 3 on torch


@pytest.mark.parametrize(
    ("symptoms", "framework"),
    [
        ("sglang.launch_server --mem-fraction-static 0.9 OOMs on the VLM", "sglang"),
        ("the text-generation-inference 1.4.3 image fails under load", "tgi"),
        ("TGI returns 'Request failed during generation: Server error'", "tgi"),
    ],
)
def test_serving_engines_are_frameworks_of_their_own(symptoms: str, framework: str) -> None:
    """SGLang and TGI run on torch, but a vLLM page's settings are not theirs (batch-24's
    SGLang thread, batch-25's TGI threads)."""
    context = build(collect([], symptoms=symptoms))
    assert context.frameworks.get(framework) == "symptoms"
    assert "vllm" not in context.frameworks


def test_a_named_image_build_is_not_an_install_phase() -> None:
    """batch-25's TGI thread: "(also tried a newer sha build)" names an image release; the
    requests that fail are the phase."""
    symptoms = (
        "Running the TGI 1.4.3 image (also tried a newer sha build): generation requests fail"
    )
    assert build(collect([], symptoms=symptoms)).phase == "generation/serving"


@pytest.mark.parametrize(
    "symptoms",
    [
        "With --build-dataset-num-proc 8 the dataset-building map step gets stuck",
        "Building the dataset with num_proc=8 gets stuck before training starts",
    ],
)
def test_building_a_dataset_is_not_an_install_phase(symptoms: str) -> None:
    """batch-26's SpecForge thread: a dataset build hangs at start-up, no package is built."""
    assert build(collect([], symptoms=symptoms)).phase != "install/import"


def test_a_failing_package_build_is_an_install_phase() -> None:
    assert build(collect([], symptoms="the flash-attn build fails after an hour")).phase == (
        "install/import"
    )


def test_a_dated_build_is_a_release_not_an_install_phase() -> None:
    """batch-26's llama.cpp chat: "(build from early June 2023)" says which release ran."""
    symptoms = "llama.cpp ./main (build from early June 2023) stops responding after a while"
    assert build(collect([], symptoms=symptoms)).phase != "install/import"


@pytest.mark.parametrize(
    "symptoms",
    [
        # batch-31's XGBoost thread led with an fp16 loss-scale page, its CatBoost thread with
        # a DDP page, before the libraries were frameworks of their own
        "XGBoost 1.3 trains only 10 trees although n_estimators is 500",
        "CatBoost fit with loss_function QuerySoftMax is 20 times slower at 200 iterations",
        "LightGBM binary logloss rises every round on both sets",
        "PaddleOCR recognition model fine-tuned from the pretrained weights outputs random text",
    ],
)
def test_a_run_on_trees_or_paddle_shows_no_torch(symptoms: str) -> None:
    context = build(collect([], symptoms=symptoms))
    assert without_torch(context.frameworks)


def test_an_mlx_run_shows_no_torch() -> None:
    """batch-28's MLX notebook hang led with a DDP page before MLX was a framework."""
    context = build(
        collect([], symptoms="Training an MLP in MLX on Apple silicon: the cell hangs on a rerun")
    )
    assert "mlx" in context.frameworks
    assert without_torch(context.frameworks)


@pytest.mark.parametrize(
    ("symptoms", "phase"),
    [
        # a release named as a build; the failure's own sentence says eval (batch-29)
        (
            "On a mid-2023 PyTorch 2.x build, nn.MultiheadAttention is run in eval mode under "
            "no_grad. With the float mask the returned scores are entirely NaN.",
            "evaluation",
        ),
        # how the setup was installed, and a loading setting, are no phase of their own
        (
            "TensorFlow 2.0 installed with Pipenv. The model I get back after validation has "
            "the last weights, not the best ones; the results are wrong.",
            "evaluation",
        ),
        ("Fine-tuning with load_in_8bit on an H100 crashes at the first step", "first step"),
        # the sentence that states the failure names the phase before the setup's words
        (
            "I load the checkpoint from the hub. Training hangs after 2 epochs.",
            "training",
        ),
    ],
)
def test_the_phase_is_read_where_the_failure_is_stated(symptoms: str, phase: str) -> None:
    assert build(collect([], symptoms=symptoms)).phase == phase


def test_collect_env_on_a_cuda_machine_is_not_rocm() -> None:
    """torch's collect_env prints "ROCM used to build PyTorch: N/A" on every CUDA machine; the
    batch-15 vLLM thread's listing (A100s) read as a ROCm run."""
    listing = (
        Path(__file__).parent.parent.parent
        / "benchmarks/first_sight/batch-15/t15C-vllm-olmo-incorrect-output-multi-gpu/env.txt"
    )
    assert build(collect([str(listing)])).hardware == "cuda"
    assert hardware_of(Evidence(symptoms="ROCM used to build PyTorch: 6.2.41133")) == "rocm"


@pytest.mark.parametrize(
    ("symptoms", "framework"),
    [
        # batch-35's SD3 ControlNet thread named only the example script
        ("Training examples/controlnet/train_controlnet_sd3.py runs out of memory", "diffusers"),
        ("an SD3 ControlNet fine-tune on one A100", "diffusers"),
        # a split helper only torch has
        ("the script splits the tickets 80/10/10 with random_split", "pytorch"),
    ],
)
def test_words_that_name_a_framework_without_its_name(symptoms: str, framework: str) -> None:
    assert framework in build(Evidence(symptoms=symptoms)).frameworks


@pytest.mark.parametrize(
    "symptoms",
    [
        # batch-35's mmdetection thread: the check that fails as training starts
        "Training stops immediately with an AssertionError about num_classes",
        "the trainer fails right away with a ValueError",
    ],
)
def test_a_failure_at_once_is_the_start_up_phase(symptoms: str) -> None:
    assert build(collect([], symptoms=symptoms)).phase == "start-up"


def test_training_that_stops_later_stays_in_training() -> None:
    assert build(collect([], symptoms="training stops after 3 epochs")).phase == "training"


@pytest.mark.parametrize(
    "symptoms",
    [
        # batch-36's Triton thread: torch.compile compiling a model is no package build
        "the tutorial fails at the torch.compile step of the compiled model on Colab",
        "compiling the model takes forever and then crashes",
    ],
)
def test_compiling_a_model_is_not_an_install_phase(symptoms: str) -> None:
    assert build(collect([], symptoms=symptoms)).phase != "install/import"


@pytest.mark.parametrize(
    "symptoms",
    [
        # batch-35's OTX thread: a DataLoader that hangs while loading data saves nothing
        "training hangs during data loading with num_workers=4",
        "it freezes while loading the dataset images in the workers",
    ],
)
def test_loading_data_is_not_the_checkpoint_phase(symptoms: str) -> None:
    assert build(collect([], symptoms=symptoms)).phase != "checkpoint save/load"


def test_loading_a_checkpoint_is_the_checkpoint_phase() -> None:
    symptoms = "it crashes when loading the checkpoint from step 500"
    assert build(collect([], symptoms=symptoms)).phase == "checkpoint save/load"
