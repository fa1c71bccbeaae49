"""Estimated vs measured peak GPU memory for three small training setups.

Run on a machine with a CUDA GPU (torch and transformers installed). Each setup
trains a real transformers model, built from its config without downloads, for
a few AdamW steps and prints the closed-form peak next to
`torch.cuda.max_memory_allocated()` (which, like the estimate here, leaves out
the CUDA context and the allocator's cached but unused blocks).

Usage: python benchmarks/gpu_memory_check.py [--steps 3]
"""

from __future__ import annotations

import argparse
import sys

from trainwreck.memory.architectures import shape_of
from trainwreck.memory.budget import Training, total_of, training_budget
from trainwreck.memory.config import ModelConfig, load_config

SETUPS = [  # (label, config, batch, seq, dtype, gradient checkpointing)
    ("gpt2 124M fp32", "openai-community/gpt2", 8, 1024, "fp32", False),
    ("Llama-3.2-1B bf16", "meta-llama/Llama-3.2-1B", 2, 2048, "bf16", False),
    ("Qwen2.5-1.5B bf16 + ckpt", "Qwen/Qwen2.5-1.5B-Instruct", 4, 4096, "bf16", True),
]


def measure(config: ModelConfig, run: Training, steps: int) -> int:
    import torch
    import transformers

    values = {k: v for k, v in config.values.items() if not str(k).startswith("_")}
    model_type = values.pop("model_type")
    hf_config = transformers.AutoConfig.for_model(model_type, **values)
    dtype = {"fp32": torch.float32, "bf16": torch.bfloat16}[run.dtype]
    model = transformers.AutoModelForCausalLM.from_config(hf_config, torch_dtype=dtype).cuda()
    if run.gradient_checkpointing:
        model.gradient_checkpointing_enable()
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
    torch.cuda.reset_peak_memory_stats()
    for _ in range(steps):
        ids = torch.randint(0, hf_config.vocab_size, (run.batch_size, run.seq_len), device="cuda")
        model(input_ids=ids, labels=ids).loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    peak = int(torch.cuda.max_memory_allocated())
    del model, optimizer
    torch.cuda.empty_cache()
    return peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3)
    args = parser.parse_args()
    try:
        import torch
    except ImportError:
        sys.exit("gpu_memory_check: torch is not installed")
    if not torch.cuda.is_available():
        sys.exit("gpu_memory_check: no CUDA GPU here; run it on a GPU machine")
    print(f"GPU: {torch.cuda.get_device_name(0)}")
    print(f"{'setup':28} {'estimate GiB':>12} {'measured GiB':>12} {'ratio':>6}")
    for label, name, batch, seq, dtype, checkpointing in SETUPS:
        config = load_config(name)
        run = Training(
            batch_size=batch, seq_len=seq, dtype=dtype,
            gradient_checkpointing=checkpointing, context_gib=0,
        )  # fmt: skip
        estimate = total_of(training_budget(shape_of(config), run))
        measured = measure(config, run, args.steps)
        print(f"{label:28} {estimate / 2**30:12.2f} {measured / 2**30:12.2f} "
              f"{estimate / measured:6.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
