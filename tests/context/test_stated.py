"""The failure class a user's words state, read from real issue titles and descriptions.

The descriptions are the users' own words from the first-sight batch
(benchmarks/first_sight/batch-1/<case>/case.yaml), so the reader is tested on
how people actually describe failures.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from trainwreck.context.logged import from_exception
from trainwreck.context.stated import from_symptoms, ran_out, refined
from trainwreck.model import ExceptionRecord, StatedClass

FIRST_SIGHT = Path(__file__).parent.parent.parent / "benchmarks" / "first_sight"
BATCH = FIRST_SIGHT / "batch-1"


def _symptoms(case: str, batch: Path = BATCH) -> str:
    meta = yaml.safe_load((batch / case / "case.yaml").read_text(encoding="utf-8"))
    return str(meta["symptoms"])


@pytest.mark.parametrize(
    ("case", "category"),
    [
        ("pytorch-cpp-extension-stale-lock-hang-245", "hang"),
        ("trl-grpo-vllm-colocate-peft-tp-hang-3671", "hang"),
        ("sentencepiece-trainer-host-ram-killed-598", "oom"),
        ("jax-norm-grad-nan-at-zero-4177", "nan_inf"),
        ("peft-deberta-pooler-not-saved-2171", "wrong_output"),
        ("vllm-041-throughput-regression-pr3550-4210", "slow_throughput"),
        ("peft-autoawq-shard-checkpoint-removed-2725", "dependency_conflict"),
    ],
)
def test_real_descriptions_state_their_class(case: str, category: str) -> None:
    stated = from_symptoms(_symptoms(case))
    assert stated is not None and stated.category == category, stated


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("loss is stuck at 2.30 and does not decrease", "divergence"),  # "stuck" is not a hang here
        # batch-29: a generation of one repeated mark, not a version conflict the user asks about
        (
            'the output is always "!!!!!!!!!!!!"; the user asks whether Qwen is incompatible '
            "with vLLM",
            "wrong_output",
        ),
        ("time per token is about 110 ms versus about 18 ms without --quantize", "slow_throughput"),
        # batch-21: CUDA's own "CUDA error:" quoted, a build without this GPU's kernels
        (
            'Running PyTorch 1.10.2 code on the GPU fails with "CUDA error: no kernel image is '
            'available for execution on the device".',
            "dependency_conflict",
        ),
        ("training hangs when saving the checkpoint", "hang"),
        ("GPU memory grows every iteration until it is killed", "oom"),
        ("loss spikes and then becomes NaN", "nan_inf"),  # tie: the class read first wins
        ("segfault in the dataloader worker", "crash"),
        ("GPU memory overflow when training with batch 32", "oom"),  # not a numeric overflow
        ("fp16 overflow in the attention scores", "nan_inf"),
        # batch-2 repro-pytorch-label-column-broadcast-accuracy: a metric stuck is not a hang
        ("validation accuracy is stuck at ~25% (chance for 4 classes) every epoch", "wrong_output"),
        ("vLLM getting stuck. Nothing is generated while requests are running", "hang"),
        # batch-26's SpecForge thread: a datasets map step that hangs is no detection metric
        ("with num_proc 8 the dataset-building map step just gets stuck", "hang"),
        ("val mAP is stuck at 0.31 from epoch 5 on", "wrong_output"),
        # batch-26's weighted-Trainer reproduction: a metric frozen at a value is no hang
        ("eval accuracy is frozen at 0.436 in all four evaluations", "wrong_output"),
        ("the training process is frozen, nothing is printed", "hang"),
        # batch-26's Lightning thread: a synced loss that grows with the GPU count
        ("the loss shown in the progress bar scales with the number of GPUs", "wrong_output"),
        ("it looks like a sum over GPUs rather than the mean that was requested", "wrong_output"),
        ("GPU memory grows with the number of processes", "oom"),
        # a component named for accuracy is no statement about it (specforge#222's record)
        ("training prints graph-break warnings from the accuracy metric on every rank", None),
        # a value reported in passing is no statement that it is wrong (batch-11's KeyError
        # reproduction); an accuracy reward is a component too (batch-11's GRPO thread)
        ("the first evaluation prints accuracy 0.745 and my F1, then the run crashes", "crash"),
        ("I swapped the accuracy reward for an F1 score and training crashes", "crash"),
        ("validation accuracy is far too low", "wrong_output"),
        # batch-12: freezing part of the model is a setup; a rate is a speed; silence is a hang
        ("I swap the head, freeze the backbone, and build Adam over the rest", None),
        (
            "it only processes about 2,000-3,000 flows per second, ~12 s per epoch",
            "slow_throughput",
        ),
        ("it stops after the cached-file line and never prints anything else", "hang"),
        ("it dies listing only eval_runtime, samples/steps per second and epoch", "crash"),
        # batch-15 (TinyLlama#32): an OOM the user already got past states no OOM
        (
            "I got CUDA out of memory, so I added model = model.half(). Now it fits, but the "
            "loss becomes 0 and the eval loss is nan",
            "nan_inf",
        ),
        ("CUDA out of memory at step 3, so I added gradient checkpointing", "oom"),
        # batch-21 (faster-rcnn-pytorch#27): the frozen-backbone epochs are a setting, and a
        # process "simply Killed" (quoted from the terminal) was killed for memory
        (
            "the first (frozen-backbone) epochs run fine, but once the epochs after unfreezing "
            'start, the process is simply "Killed"',
            "oom",
        ),
        ("RAM climbs steadily throughout the epoch", "oom"),
        # batch-21 (ddpm-pytorch#17): a loss that "becomes much larger" has diverged
        ("the loss decreases normally and then suddenly becomes much larger", "divergence"),
        # batch-21: a state ruled out states nothing; a crash the run was restarted after is
        # its history; a process that prints nothing more while idle is a hang
        ("it crashes in torch.load; the checkpoint file isn't truncated", "crash"),
        ("a run restarted from a checkpoint after a crash never decays its learning rate", None),
        # batch-20 (a GPT-2 reproduction): a score of what generation returns
        ("greedy generation gets 0% of continuations right", "wrong_output"),
        # batch-27 (a DANN reproduction): autograd's message quoted, not a wrong output
        (
            "it crashes in loss.backward() with a RuntimeError about GradReverseBackward and an "
            "incorrect number of gradients",
            "crash",
        ),
        ("the predictions are incorrect for half of the inputs", "wrong_output"),
        (
            "it prints 'extracting features' and then nothing else; all processes idle at ~0% "
            "CPU, so it isn't slow compute",
            "hang",
        ),
        # batch-28: a returned value that is wrong, a utilisation that spikes, a run that only
        # looks stuck, a time that is "nearly" long
        ("multiplying by the identity does not return the vector unchanged", None),
        # batch-30's CartPole reproduction: a crash denied is no crash
        ("the return falls to 9 while the printed loss shrinks and nothing crashes", None),
        ("the GPU result differs from the CPU result", "wrong_output"),
        ("the call does not return and the process sits there", "hang"),
        ("torch.load never returns", "hang"),
        ("the same job runs 2x slower; GPU utilisation spikes from low to high", "slow_throughput"),
        (
            "when transcribing, CPU usage spikes to 100%, the process becomes painfully slow",
            "slow_throughput",
        ),
        (
            "the progress bar looks stuck. It is not actually frozen, it is just extremely slow "
            "and GPU utilisation is only about 2%",
            "slow_throughput",
        ),
        ("generating a single image takes nearly 7 minutes", "slow_throughput"),
        # batch-31's rl-baselines-zoo thread: a speed-up that is too small is a slow run
        (
            "in both cases the GPU run is only about 5-10 seconds faster than the CPU run",
            "slow_throughput",
        ),
        ("training on four GPUs is barely faster than on one", "slow_throughput"),
        ("it prints the parameter counts (657,664 frozen, 34,052 trainable) and crashes", "crash"),
    ],
)
def test_phrases_that_state_a_class(text: str, category: str | None) -> None:
    stated = from_symptoms(text)
    assert (stated.category if stated else None) == category, stated


@pytest.mark.parametrize(
    ("case", "category"),
    [
        # batch-5 descriptions that stated no class before these phrases were read
        ("ms-swift-megatron-moe-exit-hang-7992", "hang"),  # "the job times out at exit"
        ("mmdetection-garpn-1gpu-lr-not-scaled-4383", "divergence"),  # "losses become huge"
        ("jax-kaggle-tpu-metadata-timeout-slow-init-14600", "slow_throughput"),  # "takes >60 s"
        ("tgi-agentlm-output-truncated-max-new-tokens-11", "wrong_output"),  # "truncated"
        # no phrase, but a quoted error states its class
        ("transformers-deepspeed-grad-norm-tensor-json-118", "crash"),  # TypeError: ... JSON
        ("kohya-ss-cosine-with-min-lr-scheduler-type-3064", "config_error"),  # "is not a valid"
    ],
)
def test_batch_5_descriptions_state_their_class(case: str, category: str | None) -> None:
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / "batch-5"))
    assert (stated.category if stated else None) == category, stated


@pytest.mark.parametrize(
    ("case", "category"),
    [
        # batch-6 descriptions the reader got wrong when the batch was measured at 559cae3
        ("nanochat-sft-bestfit-packing-dropped-loss-mask-582", "wrong_output"),  # "throughput
        # look normal" is not a slow run
        ("jax-xla-triton-fusion-miscompile-sm120-wrong-results-39486", "wrong_output"),  # "no NaN"
        (
            "pytorch-lambdalr-warmup-uncapped-lr-divergence-repro",
            "divergence",
        ),  # "slowly creeps up"
        ("faster-whisper-ctranslate2-needs-cudnn8-system-cudnn9-885", "dependency_conflict"),
        ("pytorch-knn-eval-cdist-full-matrix-host-oom-repro", "oom"),  # "can't allocate memory"
        # "the training time of each iteration keeps increasing" (stated nothing at e5dd01d)
        ("wandb-watch-log-all-histograms-slowdown-3701", "slow_throughput"),
    ],
)
def test_batch_6_descriptions_state_their_class(case: str, category: str) -> None:
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / "batch-6"))
    assert stated is not None and stated.category == category, stated


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # PEFT's refusal of the target_modules setting (three first-sight threads, all config)
        ("fails with ValueError: Target modules ['q_proj'] not found", "config_error"),
        ("raises ImportError: cannot import name 'x' from 'y'", "dependency_conflict"),
        ("dies with RuntimeError: DataLoader worker is killed by signal: Killed", "oom"),
        ("ValueError: unexpected keyword argument 'foo' in the config", "config_error"),
    ],
)
def test_a_quoted_error_states_the_class_its_message_does(text: str, category: str) -> None:
    stated = from_symptoms(text)
    assert stated is not None and stated.category == category, stated


@pytest.mark.parametrize("text", ["it fails with an error", "got this exception", "", None])
def test_words_that_name_no_class_state_none(text: str | None) -> None:
    assert from_symptoms(text) is None


def test_a_manual_stop_states_no_class_but_an_import_error_does() -> None:
    stop = ExceptionRecord(type="KeyboardInterrupt", message="", source="x.log", line=9)
    missing = ExceptionRecord(
        type="ModuleNotFoundError", message="No module named 'x'", source="x.log", line=3
    )
    assert from_exception(stop) is None
    logged = from_exception(missing)
    assert logged is not None and logged.category == "dependency_conflict"


@pytest.mark.parametrize(
    ("exception", "message", "category"),
    [
        ("SystemExit", "0", None),  # a plain exit status: how the run stopped
        ("SystemExit", "", None),
        # batch-7 (strands-robots#988): a validation that refuses the config and exits
        (
            "SystemExit",
            "spec invalid: ['rollout_steps (250) must be divisible by num_mini_batches (4)']",
            "config_error",
        ),
        # batch-7 (avod#137): a setting's value outside the allowed choices
        (
            "ValueError",
            "Invalid data split: trainval, possible_splits: ['train', 'val']",
            "config_error",
        ),
        ("ValueError", "invalid literal for int() with base 10: 'abc'", "crash"),
    ],
)
def test_an_exit_or_a_refused_value_states_its_class(
    exception: str, message: str, category: str | None
) -> None:
    record = ExceptionRecord(type=exception, message=message, source="x.log", line=1)
    logged = from_exception(record)
    assert (logged.category if logged else None) == category


@pytest.mark.parametrize(
    ("case", "category"),
    [
        # batch-7 descriptions the reader got wrong when the batch was measured at ff53c5d
        ("finetune-optimizer-built-before-head-swap-repro", "divergence"),  # "a frozen backbone",
        # "loss stays exactly 1.7973"
        ("lm-eval-llama2-batched-generation-eos-pad-1090", "wrong_output"),  # "exact_match 0.08
        # with batch size 8 but 0.135 with batch size 1"
        ("jax-tpu-default-matmul-precision-dot-general-16349", "wrong_output"),  # "different
        # numbers (about 1-2% apart)"
        ("strands-robots-ppo-rollout-minibatch-divisible-988", None),  # "training never starts"
        # after "exits immediately with 'spec invalid'", and "does not crash"
        (
            "transformers-load-best-model-barrier-null-checkpoint-hang-40923",
            "hang",
        ),  # "never exits"
        ("lightning-104-optimizer-step-override-no-closure-4447", "divergence"),  # "nothing is
        # learned"
        ("accelerate-main-process-first-zero3-init-load-hang-3709", "hang"),  # "never gets past
        # model loading ... sit there forever"
        # "loss ... drops for the first few dozen iterations, then jumps up and keeps growing";
        # its "accuracy wanders" had stated a wrong output
        ("sgd-missing-zero-grad-loss-explodes-repro", "divergence"),
    ],
)
def test_batch_7_descriptions_state_their_class(case: str, category: str | None) -> None:
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / "batch-7"))
    assert (stated.category if stated else None) == category, stated


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("the process froze after epoch 2", "hang"),
        ("training is frozen at step 10", "hang"),
        ("fine-tuning with frozen layers, loss is stuck at 2.3", "divergence"),
        ("training never starts and nothing is printed", "hang"),
        # batch-10 reproduction: a flag's name is no freeze
        ("I pass --freeze_encoder False but the encoder still trains", None),
    ],
)
def test_frozen_and_never_starts_state_a_hang_only_about_the_process(
    text: str, category: str | None
) -> None:
    stated = from_symptoms(text)
    assert (stated.category if stated else None) == category, stated


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # batch-6 (llamafactory#770): a crash whose quoted error refuses a dataset name
        (
            "Training crashes right away with ValueError: Undefined dataset mllm_demo in "
            "dataset_info.json",
            "config_error",
        ),
        # batch-7 (optax#694): a crash whose quoted error is an API the installed JAX lacks
        (
            "The notebook crashes on import with AttributeError: module 'jax.numpy' has no "
            "attribute 'DeviceArray'",
            "dependency_conflict",
        ),
        # autograd's own counter is no package version: the crash stays a crash
        (
            "backward crashes with RuntimeError: one of the variables needed for gradient "
            "computation has been modified by an inplace operation: is at version 3; expected "
            "version 2 instead",
            "crash",
        ),
        # a quoted error that is itself only a crash does not change the statement
        ("it crashes with RuntimeError: shape '[4, 8]' is invalid for input of size 30", "crash"),
    ],
)
def test_a_stated_crash_is_read_as_the_kind_its_quoted_error_states(
    text: str, category: str
) -> None:
    stated = from_symptoms(text)
    assert stated is not None and stated.category == category, stated
    assert stated.words[0].startswith("crash")


def test_a_stated_crash_takes_the_kind_the_final_exception_states() -> None:
    said = StatedClass(category="crash", source="symptoms", words=("crashes",))
    config = from_exception(
        ExceptionRecord(
            type="ValueError",
            message="The global train batch size (7 x 1) must be evenly divisible by the number "
            "of generations per prompt (8).",
            source="x.log",
            line=1,
        )
    )
    assert refined(said, config) == StatedClass(
        category="config_error", source="symptoms", words=("crashes", *config.words)
    )
    hang = StatedClass(category="hang", source="symptoms", words=("hangs",))
    assert refined(hang, config) == hang  # only a crash is refined
    crash = from_exception(
        ExceptionRecord(type="IndexError", message="index out of range", source="x.log", line=1)
    )
    assert refined(said, crash) == said


def test_a_loss_that_does_not_move_is_a_divergence_before_the_accuracy_it_drags() -> None:
    # batch-8 reproduction: "training loss and validation accuracy don't move at all ...
    # near chance" had read as a wrong output ("don't" was not a negation the rule knew)
    stated = from_symptoms(
        "After the first epoch the training loss and validation accuracy don't move at all"
        " (loss 2.2390, val_acc 0.2895, near chance for 10 classes)."
    )
    assert stated is not None and stated.category == "divergence", stated


@pytest.mark.parametrize(
    ("case", "category"),
    [
        # batch-9 descriptions the reader got wrong when the batch was measured at 1e00051
        ("r1-pytorch-lstm-har-loss-stuck-repro", "divergence"),  # "the loss drops ... and
        # then gets stuck around 0.84" had read as a hang
        ("r4-pytorch-tf-port-mlp-loss-stuck-near-chance-repro", "divergence"),  # "loss sits at"
        ("r1-pytorch-classifier-loss-plateau-repro", "divergence"),  # "the loss hardly moves"
        ("r3-transformers-ner-token-accuracy-stuck-low-repro", "wrong_output"),  # a metric
        # named eval_token_accuracy is stuck, not the process
        ("r2-pytorch-intent-training-stuck-after-epoch1-repro", "hang"),  # "never gets any
        # further"; its expected "eval accuracy line" had read as a wrong output
        ("r4-pytorch-iter-training-stuck-at-validation-repro", "hang"),  # "nothing ever happens"
        ("r2-pytorch-two-stage-finetune-resume-valueerror-repro", "crash"),  # "with the backbone
        # frozen" is a setup; "dies ... with a ValueError"
        ("r2-pytorch-lora-finetune-backward-runtimeerror-repro", "crash"),  # "the rest of the
        # model is frozen"
        ("r2-transformers-trainer-args-valueerror-at-start-repro", "crash"),  # "halved when
        # training stalls" describes the scheduler the user chose
        ("c6-unsloth-gemma4-merged-eos-no-stop-5386", "wrong_output"),  # "responses never end"
        ("c1-apex-fp16-optimizer-no-speedup-153", "slow_throughput"),  # "not faster at all"
    ],
)
def test_batch_9_descriptions_state_their_class(case: str, category: str) -> None:
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / "batch-9"))
    assert stated is not None and stated.category == category, stated


def test_a_worker_killed_for_memory_is_the_oom_kind_of_crash() -> None:
    # batch-4 (rlvigen): "the training sometimes dies with RuntimeError: DataLoader worker
    # (pid 22358) is killed by signal: Killed" is an OOM, not a generic crash
    stated = from_symptoms(
        "the training sometimes dies with RuntimeError: DataLoader worker (pid 22358) is killed "
        "by signal: Killed"
    )
    assert stated is not None and stated.category == "oom", stated


@pytest.mark.parametrize(
    ("case", "category"),
    [
        # "val macro-F1 0.71" is a value; the loss that "is nan" is the statement
        ("r16D-pytorch-multilabel-loss-nan-second-epoch-repro", "nan_inf"),
        # "--gpu-memory-utilization 0.8" is a memory budget, the outputs are "gibberish"
        ("t16C-vllm-deepseek-r1-awq-gibberish-after-upgrade", "wrong_output"),
        # "training never starts: it fails immediately ... with the traceback below"
        ("t16B-peft-falcon-lora-training-fails-at-get-peft-model", None),
    ],
)
def test_batch_16_descriptions_state_their_class(case: str, category: str | None) -> None:
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / "batch-16"))
    assert (stated.category if stated else None) == category, stated


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("macro-F1 is 0.0 on every epoch", "wrong_output"),
        ("macro-F1 0.71 after the first epoch, then the loss is nan", "nan_inf"),
        ("GPU utilization is 30% on every step", "slow_throughput"),
        ("with --gpu-memory-utilization 0.9 it answers in gibberish", "wrong_output"),
    ],
)
def test_a_metric_value_and_a_memory_budget_state_nothing(text: str, category: str) -> None:
    stated = from_symptoms(text)
    assert stated is not None and stated.category == category, stated


def test_a_hyphenated_out_of_memory_states_an_oom() -> None:
    """t17C-llamacpp-oom-default-context-deepseek-v2 (batch-17): "the run dies with an
    out-of-memory error while allocating the KV buffer" was read as a crash ("dies")."""
    stated = from_symptoms(
        "The run dies with an out-of-memory error while allocating the KV buffer"
    )
    assert stated is not None and stated.category == "oom", stated


def test_timings_in_minutes_and_seconds_state_slowness() -> None:
    """t16C-bitsandbytes-4bit-generate-much-slower-than-8bit (batch-16): two run times written
    as "1m 9.8s" and "6m 55.2s", and "expected 4-bit to be at least as fast", stated nothing."""
    stated = from_symptoms(
        "The 8-bit run takes 1m 9.8s, the 4-bit run takes 6m 55.2s. I expected 4-bit to be at "
        "least as fast."
    )
    assert stated is not None and stated.category == "slow_throughput", stated


def test_truncation_to_a_length_is_a_setting_not_a_truncated_output() -> None:
    """r18E-transformers-added-tokens-index-error-repro (batch-18): "sequences are truncated to
    64 tokens" stated a wrong output over the IndexError the run dies with."""
    stated = from_symptoms(
        'The script dies on the first step with "IndexError: index out of range in self". '
        "Sequences are truncated to 64 tokens."
    )
    assert stated is None or stated.category != "wrong_output", stated
    assert from_symptoms("the answers come back truncated mid-sentence").category == "wrong_output"


def test_a_slow_download_is_not_a_slow_run() -> None:
    """t18C-xformers-install-uninstalls-torch (batch-18): pip replacing torch "which is slow
    (large download)" stated slow throughput."""
    stated = from_symptoms(
        "pip uninstalls the existing torch 2.4.1 and installs a different torch, which is slow "
        "(large download) and breaks the environment."
    )
    assert stated is None or stated.category != "slow_throughput", stated


@pytest.mark.parametrize(
    ("batch", "case", "category"),
    [
        # 'dies ... with "TypeError: Got unsupported ScalarType BFloat16"': numpy's words
        ("batch-18", "r18D-pytorch-bf16-eval-crash-repro", "crash"),
        # "a frozen TensorFlow .pb generator model" is a graph, not a process that froze
        ("batch-18", "t18C-tftrt-conv2d-transpose-no-implementation", None),
        # ONNX Runtime's INVALID_ARGUMENT is an error code, not an argument the user set
        ("batch-18", "t18C-onnxruntime-batch-invalid-rank", None),
        # "a Finnish dependency parser" is a model
        ("batch-14", "t14c-supar-bert-device-side-assert-in-embeddings", "crash"),
        # "no crash, no exit, CPU idle ... I had to kill it"
        ("batch-14", "r14e-pytorch-sound-features-pool-never-finishes-repro", "hang"),
        # vLLM's "No available memory for the cache blocks" is an OOM
        ("batch-16", "t16C-vllm-v1-no-available-memory-for-cache-blocks", "oom"),
        # "instead of going down it climbs" outweighs an accuracy "at chance" it drags along
        ("batch-16", "r16D-pytorch-cnn-loss-grows-every-epoch-repro", "divergence"),
        ("batch-12", "r1-transformers-trainer-news-topic-loss-climbs", "divergence"),
        # "the loss still jumps to ~12", "what is blowing the loss up"
        ("batch-12", "r1-pytorch-custom-adam-optimizer-loss-explodes", "divergence"),
        # "drops for the first 3-4 epochs and then goes up"
        ("batch-12", "r3-pytorch-imu-cnn-train-loss-rises-each-epoch-repro", "divergence"),
    ],
)
def test_quoted_library_words_and_loss_curves_state_their_class(
    batch: str, case: str, category: str | None
) -> None:
    """Misreads found on the development batches: each description stated another class."""
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / batch))
    assert (stated.category if stated else None) == category, stated


@pytest.mark.parametrize(
    ("message", "category"),
    [
        ("NameError: name 'LoraConfig' is not defined", "crash"),
        ("AttributeError: 'BertConfig' object has no attribute 'pad_token_id'", "crash"),
        ("TypeError: f() missing 1 required positional argument: 'reason'", "crash"),
        ("_pickle.UnpicklingError: invalid load key, 'v'.", "crash"),
        ("ValueError: No available memory for the cache blocks.", "oom"),
        ("NotImplementedError: xFormers wasn't built with CUDA support", "dependency_conflict"),
        ("ValidationError: 1 validation error for DeepSpeedZeroConfig", "config_error"),
        ("MisconfigurationException: ReduceLROnPlateau conditioned on val_loss", "config_error"),
        ("TypeError: __init__() got an unexpected keyword argument 'tokenizer'", "config_error"),
        # batch-33: TensorFlow's InvalidArgumentError for a shape an op refused, and a Rust
        # binding's type error about one argument, are crashes, not refused settings
        (
            "InvalidArgumentError: ConcatOp : Dimensions of inputs should match: "
            "shape[0] = [1,256,48,64] vs. shape[1] = [1,288,48,63]",
            "crash",
        ),
        (
            "TypeError: argument 'tokens': 'NoneType' object cannot be interpreted as an integer",
            "crash",
        ),
        # t17C-vllm-max-model-len-exceeds-kv-cache (batch-17): the advice names the settings
        (
            "ValueError: The model's max seq len (131072) is larger than the maximum number of "
            "tokens that can be stored in KV cache (39024). Try increasing `gpu_memory_utilization`"
            " or decreasing `max_model_len` when initializing the engine.",
            "config_error",
        ),
    ],
)
def test_an_exception_message_states_its_class(message: str, category: str) -> None:
    name, _, text = message.partition(": ")
    exc = ExceptionRecord(type=name, message=text, source="error.log", line=1)
    stated = from_exception(exc)
    assert stated is not None and stated.category == category, stated


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # batch-19 threads, each read as another class at 8c2ac608
        ("validation images are black with 'invalid value encountered in cast'", "nan_inf"),
        (
            "the job hangs; removing --adaptive makes it run (after lowering the batch size to "
            "avoid OOM)",
            "hang",
        ),
        (
            "it gets close to (or hits) CUDA out of memory, and the images are garbled",
            "wrong_output",
        ),
        (
            "the Lightning version converges noticeably slower and never reaches the same training "
            "loss",
            "divergence",
        ),
        (
            "the accumulated run's learning curves are consistently worse (higher loss)",
            "divergence",
        ),
        ("processes for GPUs 1-3 each also hold almost a GB of memory on GPU 0", "oom"),
        ("the other batch entries produce wrong/garbled outputs", "wrong_output"),
        ("ZeRO-3 training on five 3090s still OOMs", "oom"),
        ("it never crashes, the accuracy just stays at 10%", "wrong_output"),
        # batch-30 t30d (GPT-J resume): SIGKILL's exit status is the OOM killer's
        ("then the script crashed with an error -9 and no error message", "oom"),
        ("the pod restarts with exit code 137 during the first epoch", "oom"),
        # batch-18 r18D (bf16 weights): slow learning, not a slow run
        ("The loss creeps down extremely slowly (2.42 -> 2.06 over 6 epochs)", "divergence"),
        # batch-19 t19A (LLaMA-Factory DPO): a fine-tuning method, not a freeze
        (
            "starting from a model fine-tuned with the freeze method, the run aborts with a "
            "ValueError saying the target modules are not found",
            "config_error",
        ),
    ],
)
def test_avoided_ooms_slow_convergence_and_memory_on_gpu_0(text: str, category: str) -> None:
    stated = from_symptoms(text)
    assert stated is not None and stated.category == category, stated


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # batch-20 threads, each read as another class at 01690ec1
        (
            "Training with accelerate and DeepSpeed on 24 GB GPUs (without DeepSpeed it runs out "
            "of memory). As soon as the first checkpoint save is reached the job stops making "
            "progress and sits there indefinitely.",
            "hang",
        ),
        (
            "Multi-GPU DDP training freezes without any exception. The training_step returns None "
            "for some batches (when the loss is NaN) to skip them.",
            "hang",
        ),
        (
            "training with the Trainer makes memory usage climb steadily until all 12 GB of RAM "
            "are used up and the run dies",
            "oom",
        ),
        ("After epoch 0, memory usage rises a lot.", "oom"),
        # a NaN the run reports is still a NaN
        ("the loss is NaN after the first step", "nan_inf"),
    ],
)
def test_an_oom_a_setup_avoids_a_skip_guard_and_memory_used_up(text: str, category: str) -> None:
    stated = from_symptoms(text)
    assert stated is not None and stated.category == category, stated


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # batch-20 t20F (jax#17426): the wheels the environment was installed from
        ("jax/jaxlib 0.4.14 (cuda12/cudnn89 pip wheels); the script fails at the ppermute", None),
        (
            "ERROR: Could not find a version that satisfies the requirement: no matching wheel",
            "dependency_conflict",
        ),
        ("the torch wheel is built for CUDA 11.8", "dependency_conflict"),
    ],
)
def test_a_wheel_states_a_conflict_only_when_it_does_not_fit(
    text: str, category: str | None
) -> None:
    stated = from_symptoms(text)
    assert (stated.category if stated else None) == category, stated


BATCH_23 = FIRST_SIGHT / "batch-23"


@pytest.mark.parametrize(
    ("case", "category"),
    [
        # "train and eval loss go down nicely and plateau, but generate() never stops"
        ("r23E-transformers-finetuned-lm-never-stops-repro", "wrong_output"),
        # "an epoch takes just as long as on one GPU - no speed gain at all"
        ("t23A-pytorch-ddp-3gpu-no-speedup", "slow_throughput"),
        # "the loss is much worse than the README curve and then blows up"
        ("t23C-nanogpt-single-gpu-loss-worse-then-blows-up", "divergence"),
    ],
)
def test_batch_23_descriptions_state_their_class(case: str, category: str) -> None:
    stated = from_symptoms(_symptoms(case, BATCH_23))
    assert stated is not None and stated.category == category, stated


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # batch-25's vLLM thread: praised throughput beside a memory question states no slow run
        ("memory use is almost double; throughput is much higher than with FastChat", None),
        # batch-24's bf16 reproduction: "no nan/inf" denies both, and a loss that "goes down,
        # but very slowly" is slow learning, not a slow run
        (
            "The loss goes down, but very slowly. There are no nan/inf or errors and throughput "
            "is good.",
            "divergence",
        ),
        ("throughput dropped from 3000 to 900 tokens per second", "slow_throughput"),
        # batch-24's YOLO resume thread: a curve that descends slowly is slow learning
        ("The objectness curve also descends very slowly after the resume.", "divergence"),
    ],
)
def test_praised_throughput_and_slow_learning_state_no_slow_run(
    text: str, category: str | None
) -> None:
    stated = from_symptoms(text)
    assert (stated.category if stated else None) == category, stated


def test_a_crash_after_memory_that_keeps_growing_is_an_oom() -> None:
    """batch-29's MLX thread: "the active memory I print keeps going up until the run crashes"."""
    crash = from_symptoms("the active memory I print keeps going up until the run crashes")
    assert crash is not None and crash.category == "crash"
    assert ran_out(crash, ("memory i print keeps going up",)).category == "oom"  # type: ignore[union-attr]
    assert ran_out(crash, ()) == crash


@pytest.mark.parametrize(
    ("batch", "case", "category"),
    [
        # "WER falls ... to about 13.3% by epoch 28-30, where it stalls, far from the README figure"
        ("batch-31", "t31g-neuralsp-librispeech-las-wer-above-readme", "wrong_output"),
        # "the loss becomes extremely large"
        ("batch-31", "t31f-keras3-gru-outputs-explode-long-sequences", "divergence"),
        # "the wall time ... jumps roughly 20-fold at exactly 200 iterations"
        ("batch-31", "t31h-catboost-querysoftmax-200-iterations-20x-slower", "slow_throughput"),
        # "a single request sent by hand gets no response at all from the model"
        ("batch-30", "t30e-llamacpp-server-loadtest-requests-stuck-no-response", "hang"),
        # "the generated text is non-sensical"
        ("batch-30", "t30b-transformers-flan-t5-xxl-8bit-nonsense-generation", "wrong_output"),
        # "the transcriptions differ from the per-utterance ones"
        ("batch-30", "t30g-speechbrain-batch-inference-transcripts-differ", "wrong_output"),
        # "the model I get back has the epoch-40 weights and their worse validation score"
        ("batch-29", "t29f-keras-earlystopping-final-weights-not-best", "wrong_output"),
    ],
)
def test_descriptions_that_stated_no_class_before_batch_32(
    batch: str, case: str, category: str
) -> None:
    """Phrases the reader missed on batches 29-31: each of these descriptions stated no class."""
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / batch))
    assert stated is not None and stated.category == category, stated


@pytest.mark.parametrize(
    ("text", "category"),
    [
        ("the loss only drops by tiny amounts each epoch", "divergence"),
        ("the training time doubles when I add a second GPU", "slow_throughput"),
        ("the outputs are non-sensical", "wrong_output"),
        # a wall time that is simply reported states nothing
        ("the wall time is 3 hours for 10 epochs", None),
    ],
)
def test_tiny_decreases_growing_times_and_nonsense_state_their_class(
    text: str, category: str | None
) -> None:
    stated = from_symptoms(text)
    assert (stated.category if stated else None) == category, stated


def test_a_forward_without_nans_beside_a_nan_gradient_states_nan() -> None:
    """batch-32's kornia thread: "The Lab output itself contains no NaNs, but the gradient
    does" denies the forward only."""
    stated = from_symptoms(
        "The Lab output itself contains no NaNs, but the gradient does, so the transform "
        "cannot be used inside a differentiable loss."
    )
    assert stated is not None and stated.category == "nan_inf", stated
    assert from_symptoms("no NaNs, the loss just stays flat") is not None
    assert from_symptoms("no NaNs, the loss just stays flat").category == "divergence"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # batch-32's threads: each of these descriptions stated no class (or a hang) before
        (
            "__1_0.distcp is empty, so loading it back fails and rank 1's values are gone",
            "wrong_output",
        ),
        ("the reported gradient norm does not match the pp_size=1 baseline", "wrong_output"),
        ("the acceptance rate does not improve: acceptance degrades or stalls", "wrong_output"),
        ("the output boxes and scores are always empty tensors", "wrong_output"),
        (
            "at other timestamps the output is text in some other language instead of English",
            "wrong_output",
        ),
        ("the detections drawn on the output image are clearly wrong", "wrong_output"),
        (
            "Training is extremely unstable and the reward collapses instead of increasing",
            "divergence",
        ),
        ("the training loss changes wildly between consecutive epochs", "divergence"),
        ("nvidia-smi shows the GPU is not being used", "slow_throughput"),
        ("Inference works, but it only runs on the CPU", "slow_throughput"),
        # a CPU run described as such, and a GPU named as the setup, state nothing
        ("trained on the CPU with torch 2.13", None),
        ("the GPU is an RTX 3090 with 24 GB", None),
    ],
)
def test_empty_or_wrong_outputs_unstable_rewards_and_an_idle_gpu_state_their_class(
    text: str, category: str | None
) -> None:
    stated = from_symptoms(text)
    assert (stated.category if stated else None) == category, stated


def test_memory_that_creeps_up_slowly_is_an_oom_not_a_slow_run() -> None:
    """batch-32's Paddle thread: "The memory is not released after evaluation finishes and
    instead keeps creeping up slowly" had been read as a slow run."""
    stated = from_symptoms(
        "The memory is not released after evaluation finishes and instead keeps creeping up slowly."
    )
    assert stated is not None and stated.category == "oom", stated
    assert from_symptoms("GPU memory climbs up slowly every epoch").category == "oom"  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("case", "category"),
    [
        # a comparison with the CPU's output flagged "diverged": a wrong output
        ("t33a-pytorch-mps-linear-mismatch-ci-runner", "wrong_output"),
        # argparse's "error: unrecognized arguments" beside "training never starts": no hang,
        # the refused argument (read as a config error since batch-34)
        ("t33a-pytorch-xmem-train-rejects-launcher-argument", "config_error"),
        # a question whether another card would run out of memory: the refused bf16 stands
        ("t33f-lmflow-colab-t4-training-setup-valueerror", "config_error"),
        ("t33j-segmentation-models-keras-decoder-concat-shape-error", "crash"),
        ("t33b-llamafactory-qwen-lora-sft-typeerror", "crash"),
    ],
)
def test_batch_33_descriptions_state_their_class(case: str, category: str | None) -> None:
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / "batch-33"))
    assert (stated.category if stated else None) == category, stated


@pytest.mark.parametrize(
    ("case", "category"),
    [
        # each stated no class at ada73364
        ("t34i-causvid-generator-fails-to-converge", "divergence"),  # "struggles to converge"
        ("t34b-trl-grpo-on-saved-lora-adapter-reward-flat", "divergence"),  # a reward stuck
        ("t34g-sb3-ppo-training-slow-on-xeon-workstation", "slow_throughput"),  # "a very long time"
        ("t34g-litgpt-tutorial-lora-command-rejected", "config_error"),  # "an invalid choice"
        # "NANSY" is a model's name, not NaNs (the stall it describes names no class)
        ("t34g-nansy-voice-training-stalls-cpu-pegged-gpu-idle", None),
    ],
)
def test_batch_34_descriptions_state_their_class(case: str, category: str | None) -> None:
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / "batch-34"))
    assert (stated.category if stated else None) == category, stated


def test_a_reward_that_rises_states_no_divergence() -> None:
    assert from_symptoms("the reward increases steadily over the first 200 steps") is None


@pytest.mark.parametrize(
    ("case", "category"),
    [
        # NumPy's "_ArrayMemoryError", and "fails with a memory error"
        ("t35d-llama-cpp-python-qwen2-arraymemoryerror-on-load", "oom"),
        ("t35d-exllamav2-convert-memory-error-token-embeddings", "oom"),
        # a launcher's "exits with return code = -7", a process's "exit code -1073740791"
        ("t35c-deepspeed-chat-exits-return-code-7-no-error", "crash"),
        ("t35e-catboost-gpu-exit-code-0xc0000409", "crash"),
        # "pressing Ctrl+C no longer terminates the server"
        ("t35d-tgi-ctrl-c-does-not-stop-server", "hang"),
        # "stalls for a noticeable amount of time before the next epoch starts": a pause
        ("t35e-keras-pause-after-every-epoch", "slow_throughput"),
        # "fitting takes about a minute and a half"
        ("t35e-xgboost-tiny-regression-takes-90s", "slow_throughput"),
        # "also posted the question on Stack Overflow" is no numeric overflow
        ("t35e-lightgbm-ranker-predicts-all-zeros", None),
        # "the slow and fast RoFormer tokenizers" name two implementations, not a speed
        ("t35b-transformers-roformer-tokenizer-ids-change-after-save", None),
    ],
)
def test_batch_35_descriptions_state_their_class(case: str, category: str | None) -> None:
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / "batch-35"))
    assert (stated.category if stated else None) == category, stated


@pytest.mark.parametrize(
    ("case", "category"),
    [
        # each stated no class at c6a0bb53
        ("t36a-pytorch-pretrained-models-wrong-classes", "wrong_output"),  # "strange classes"
        ("t36e-ollama-ignores-user-prompt-with-long-note", "wrong_output"),  # instruction ignored
        ("t36c-llamafactory-qwen15-lora-api-demo-repeats-irrelevant", "wrong_output"),
        ("t36f-xgboost-reloaded-model-gives-different-predictions", "wrong_output"),
        ("t36h-yolov8-obb-epoch-12x-slower-than-yolov5", "slow_throughput"),  # "took 6 hours"
    ],
)
def test_batch_36_descriptions_state_their_class(case: str, category: str | None) -> None:
    stated = from_symptoms(_symptoms(case, FIRST_SIGHT / "batch-36"))
    assert (stated.category if stated else None) == category, stated


def test_a_warning_that_a_call_took_seconds_states_no_slow_run() -> None:
    """batch-31's Ray Tune thread quoted "`start_trial` took 0.6 seconds" before a crash."""
    stated = from_symptoms("a warning says `start_trial` took 0.6 seconds, then the trials crash")
    assert stated is not None and stated.category == "crash"


@pytest.mark.parametrize(
    ("text", "category"),
    [
        # a bare duration is said of fine runs too
        ("the run takes about a minute, as expected", None),
        # a stall with no end is still a hang
        ("it stalls and never comes back", "hang"),
        # a clean exit is no crash
        ("the job exits with exit code 0", None),
    ],
)
def test_a_plain_duration_an_endless_stall_and_a_clean_exit(
    text: str, category: str | None
) -> None:
    stated = from_symptoms(text)
    assert (stated.category if stated else None) == category, stated
