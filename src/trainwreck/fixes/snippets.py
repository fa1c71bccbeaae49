"""Snippets that catch the next occurrence of a failure with more evidence than a log.

An OOM message says how much memory was missing, not what held it. PyTorch can
record every allocation with its stack trace and dump the allocator's state; a
snapshot taken at the moment of the OOM shows exactly which tensors filled the
card (https://pytorch.org/docs/2.3/_sources/torch_cuda_memory.rst.txt).
"""

from __future__ import annotations

from trainwreck.model import Finding, Snippet

MEMORY_DOCS = "https://pytorch.org/docs/2.3/_sources/torch_cuda_memory.rst.txt"

_OOM_SNAPSHOT = """import torch

# Keep the last 100k allocation events, each with the Python stack that made it.
torch.cuda.memory._record_memory_history(max_entries=100_000)
try:
    trainer.train()  # or: your training loop
except torch.OutOfMemoryError:
    # The allocator's state at the failing allocation, with its history; one file per rank.
    dist = torch.distributed
    rank = dist.get_rank() if dist.is_initialized() else 0
    torch.cuda.memory._dump_snapshot(f"oom_rank{rank}.pickle")
    raise
finally:
    torch.cuda.memory._record_memory_history(enabled=None)"""


def snippets_for(findings: tuple[Finding, ...]) -> tuple[Snippet, ...]:
    """The snippets the findings call for (today: a memory snapshot for CUDA OOMs)."""
    if not any(finding.id == "cuda.oom" for finding in findings):
        return ()
    return (
        Snippet(
            title="Catch the next OOM with a memory snapshot",
            language="python",
            code=_OOM_SNAPSHOT,
            usage=(
                "Wrap the training call, rerun until it fails, then drag the .pickle onto "
                "https://pytorch.org/memory_viz (it runs locally in the browser and uploads "
                "nothing). The Active Memory Timeline shows which tensors were alive at the "
                "OOM and the stack trace that allocated each."
            ),
            citation=MEMORY_DOCS,
        ),
    )
