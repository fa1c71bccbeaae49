"""A training script that assumes a GPU, run with a CPU-only torch wheel.

The installed wheel is the CPU build (its version ends in +cpu), so moving the
model to "cuda" fails before any training step: this is the broken setup on purpose.
"""

import torch

print(f"torch {torch.__version__} cuda build: {torch.version.cuda}")
model = torch.nn.Linear(16, 4)
model = model.to("cuda")  # the CPU-only build has no CUDA backend
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
