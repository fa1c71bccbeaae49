"""Guards on compiled code: torch.compile recompiles, shape buckets, matmul precision, JAX."""

from __future__ import annotations

from trainwreck.fixes.guards.base import GuardTemplate

DYNAMO_EXPLAIN = "https://docs.pytorch.org/docs/2.0/_sources/dynamo/troubleshooting.rst.txt"
RECOMPILATION = (
    "https://docs.pytorch.org/docs/2.12/user_guide/torch_compiler/compile/"
    "programming_model.recompilation.html"
)
RECOMPILE_CONFIG = (
    "https://docs.pytorch.org/docs/2.15/user_guide/torch_compiler/torch.compiler.config.html"
)
MATMUL_PRECISION = "https://pytorch.org/docs/2.0/generated/torch.set_float32_matmul_precision.html"
PERF_COUNTER = "https://github.com/python/cpython/blob/9971e001ef3aa41aa86528a36e038b1659c753c9/Doc/library/time.rst"
JAX_CONFIG = (
    "https://github.com/jax-ml/jax/blob/5b3d20345361de51897fa9a4f326900907ccfbfe/jax/_src/config.py"
)

_MATMUL_PRECISION = '''import torch


def check_matmul_precision(min_major=$min_major):
    """On GPUs with TF32 units, fp32 matmuls at 'highest' precision leave speed unused."""
    if not torch.cuda.is_available():
        return None
    major, _ = torch.cuda.get_device_capability()
    precision = torch.get_float32_matmul_precision()
    if major >= min_major and precision == "highest":
        raise RuntimeError(
            f"capability {major}.x with float32 matmul precision 'highest'; call "
            "torch.set_float32_matmul_precision('high') unless full fp32 is required"
        )
    return precision

# check_matmul_precision()  # in the training entry point
'''

_COMPILE = '''import torch


def check_compile(fn, *example_inputs, max_graph_breaks=$max_graph_breaks):
    """Compile FN once and fail on a backend error or more than MAX_GRAPH_BREAKS breaks."""
    explanation = torch._dynamo.explain(fn)(*example_inputs)
    if explanation.graph_break_count > max_graph_breaks:
        reasons = [str(b.reason) for b in explanation.break_reasons][:3]
        raise RuntimeError(f"{explanation.graph_break_count} graph breaks: {reasons}")
    out = torch.compile(fn)(*example_inputs)
    if torch.is_tensor(out) and out.requires_grad:
        out.float().sum().backward()
    return explanation.graph_break_count

# check_compile(model, example_batch)  # in CI after torch/triton upgrades
'''

_SHAPES = '''from collections import defaultdict


class ShapeTracker:
    """Fail when one input dimension takes more than MAX_DISTINCT sizes (each one recompiles)."""

    def __init__(self, max_distinct=$max_distinct):
        self.max_distinct = max_distinct
        self.sizes = defaultdict(set)

    def see(self, name, tensor):
        for dim, size in enumerate(tensor.shape):
            self.sizes[(name, dim)].add(int(size))
            if len(self.sizes[(name, dim)]) > self.max_distinct:
                raise RuntimeError(
                    f"{name} dim {dim} took {len(self.sizes[(name, dim)])} sizes "
                    f"{sorted(self.sizes[(name, dim)])[:8]}; pad or bucket it"
                )

# tracker = ShapeTracker(); tracker.see("input_ids", batch["input_ids"])
'''

_RECOMPILE_LIMIT = '''import torch


def strict_recompiles(max_recompiles=$max_recompiles):
    """For a smoke run: make a function that recompiles more than MAX_RECOMPILES times fail."""
    torch._dynamo.config.recompile_limit = max_recompiles
    torch._dynamo.config.fail_on_recompile_limit_hit = True

# strict_recompiles(); run 50 steps with TORCH_LOGS=recompiles to see each reason
'''

_RELATIVE_SPEED = '''import time


def compare_speed(candidate, baseline, repeats=$repeats, warmup=$warmup,
                  max_slowdown=$max_slowdown):
    """Fail when CANDIDATE is more than MAX_SLOWDOWN x slower than BASELINE per call."""
    def per_call(fn):
        for _ in range(warmup):
            fn()
        start = time.perf_counter()
        for _ in range(repeats):
            fn()
        return (time.perf_counter() - start) / repeats

    ratio = per_call(candidate) / per_call(baseline)
    if ratio > max_slowdown:
        raise RuntimeError(f"candidate is {ratio:.2f}x the baseline time (> {max_slowdown}x)")
    return ratio

# compare_speed(lambda: compiled(x), lambda: eager(x))  # synchronize inside on GPU
'''

_JAX_FLAGS = '''import jax


def debug_run(step, state, batches, steps=$steps, min_devices=$min_devices):
    """Run STEPS steps with NaN and tracer-leak checks on; fail without enough accelerators."""
    gpus = [d for d in jax.devices() if d.platform != "cpu"]
    if len(gpus) < min_devices:
        raise RuntimeError(f"JAX sees {jax.devices()}; install the jax[cudaXX] plugin")
    jax.config.update("jax_debug_nans", True)
    jax.config.update("jax_check_tracer_leaks", True)
    try:
        for _, batch in zip(range(steps), batches):
            state = step(state, batch)
    finally:
        jax.config.update("jax_debug_nans", False)
        jax.config.update("jax_check_tracer_leaks", False)
    return state

# state = debug_run(train_step, state, iter(loader))  # a short debug run, not the full one
'''

TEMPLATES = (
    GuardTemplate(
        "matmul-precision",
        "fail when fp32 matmuls run at 'highest' precision on TF32-capable GPUs",
        {"min_major": 8},
        MATMUL_PRECISION,
        _MATMUL_PRECISION,
    ),
    GuardTemplate(
        "compile-check",
        "compile once; fail on backend errors or graph breaks",
        {"max_graph_breaks": 0},
        DYNAMO_EXPLAIN,
        _COMPILE,
    ),
    GuardTemplate(
        "shape-buckets",
        "fail when a dimension takes too many distinct sizes",
        {"max_distinct": 4},
        RECOMPILATION,
        _SHAPES,
    ),
    GuardTemplate(
        "recompile-limit",
        "make torch.compile fail once a function recompiles too often",
        {"max_recompiles": 2},
        RECOMPILE_CONFIG,
        _RECOMPILE_LIMIT,
    ),
    GuardTemplate(
        "relative-speed",
        "time a configuration against a baseline",
        {"repeats": 20, "warmup": 3, "max_slowdown": 1.1},
        PERF_COUNTER,
        _RELATIVE_SPEED,
    ),
    GuardTemplate(
        "jax-debug-run",
        "a short JAX run with NaN and tracer-leak checks",
        {"steps": 50, "min_devices": 1},
        JAX_CONFIG,
        _JAX_FLAGS,
    ),
)
