"""Five planted NaN bugs and two healthy steps, each a small model with one training step.

Each bug's line carries a `# bug: <name>` marker, so tests and the benchmark find the line
from this file's text. `make(name)` builds a fresh model and batch (seeded) and returns
its step: forward, loss, backward, returning the loss.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import torch
from torch import nn

Step = Callable[[], torch.Tensor]
SOURCE = Path(__file__)


def line_of(bug: str) -> int:
    """The 1-based line of this file that carries `# bug: <bug>`."""
    lines = SOURCE.read_text(encoding="utf-8").splitlines()
    return next(n for n, text in enumerate(lines, 1) if text.endswith(f"# bug: {bug}"))


class LogOfRelu(nn.Module):
    """log of a ReLU output: a unit ReLU zeroed gives -inf, and LayerNorm turns it to NaN."""

    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.norm = nn.LayerNorm(8)
        self.head = nn.Linear(8, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        hidden = torch.relu(self.proj(x))
        hidden = torch.log(hidden)  # bug: log-of-relu
        return self.head(self.norm(hidden))


class Normalize(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x / x.norm(dim=-1, keepdim=True)  # bug: zero-norm


class ZeroNormEmbedding(nn.Module):
    """Unit-normalised embeddings; the padding row is all zeros, so its norm is 0."""

    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(10, 8, padding_idx=0)
        self.normalize = Normalize()
        self.head = nn.Linear(8, 1)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(self.normalize(self.embed(tokens)))


class Fp16Overflow(nn.Module):
    """Unscaled inputs into a float16 Linear: 64 x 4096 x 0.5 = 131072 > 65504, fp16's max."""

    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(64, 4).half()
        nn.init.constant_(self.proj.weight, 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.proj(x.half())  # bug: fp16-matmul


class PairwiseDistance(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        diff = x[:, None, :] - x[None, :, :]
        return diff.pow(2).sum(-1).sqrt()  # bug: sqrt-at-zero


class SqrtAtZero(nn.Module):
    """Distances between all pairs, the diagonal included: sqrt(0) has an infinite slope."""

    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(8, 8)
        self.distance = PairwiseDistance()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.distance(self.proj(x))


class MaskedAttention(nn.Module):
    def forward(self, q: torch.Tensor, k: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        scores = (q @ k.transpose(-1, -2)).masked_fill(~mask, float("-inf"))
        return torch.softmax(scores, dim=-1)  # bug: softmax-all-masked


class MaskedSoftmax(nn.Module):
    """Attention weights with a padding mask; a query whose keys are all masked gets NaN."""

    def __init__(self) -> None:
        super().__init__()
        self.query = nn.Linear(8, 8)
        self.key = nn.Linear(8, 8)
        self.attention = MaskedAttention()

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.attention(self.query(x), self.key(x), mask)


def _step(model: nn.Module, *batch: torch.Tensor) -> Step:
    def step() -> torch.Tensor:
        loss = model(*batch).float().mean()
        loss.backward()
        return loss

    return step


def _mask(rows_fully_masked: int) -> torch.Tensor:
    mask = torch.ones(4, 4, dtype=torch.bool).tril()
    mask[:rows_fully_masked] = False
    return mask


BUILDERS: dict[str, Callable[[], Step]] = {
    "log-of-relu": lambda: _step(LogOfRelu(), torch.randn(4, 8)),
    "zero-norm": lambda: _step(ZeroNormEmbedding(), torch.tensor([[0, 3, 5], [1, 2, 4]])),
    "fp16-matmul": lambda: _step(Fp16Overflow(), torch.full((2, 64), 4096.0)),
    "sqrt-at-zero": lambda: _step(SqrtAtZero(), torch.randn(5, 8)),
    "softmax-all-masked": lambda: _step(MaskedSoftmax(), torch.randn(4, 8), _mask(1)),
    "healthy-mlp": lambda: _step(
        nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)), torch.randn(4, 8)
    ),
    "healthy-masked-softmax": lambda: _step(MaskedSoftmax(), torch.randn(4, 8), _mask(0)),
}
BUGS = ("log-of-relu", "zero-norm", "fp16-matmul", "sqrt-at-zero", "softmax-all-masked")


def make(name: str, seed: int = 0) -> Step:
    """A fresh, seeded model and batch for `name`, as a step to run once."""
    torch.manual_seed(seed)
    return BUILDERS[name]()
