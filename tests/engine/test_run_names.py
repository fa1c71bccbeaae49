"""A report names what the run did, not what a look-alike run does (issue 18).

Each input is a small script run for real on the CPU: an out-of-range embedding
index, a DataLoader worker whose `__getitem__` raises, a loss that is NaN at step 0.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from trainwreck.model import Diagnosis
from trainwreck.pipeline import diagnose

EMBEDDING_INDEX = """
import torch
torch.nn.Embedding(10, 4)(torch.tensor([[1, 2, 10]]))
"""
WORKER_KEY_ERROR = """
from torch.utils.data import DataLoader, Dataset

class Rows(Dataset):
    def __len__(self):
        return 2
    def __getitem__(self, i):
        return [{"text": "a"}, {"txt": "b"}][i]["text"]

if __name__ == "__main__":
    for batch in DataLoader(Rows(), batch_size=1, num_workers=1):
        print(batch)
"""
# One NaN feature in the data; the loss is printed before each optimizer step.
NAN_FROM_STEP_ZERO = """
import torch
torch.manual_seed(0)
model = torch.nn.Linear(4, 1)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
inputs, targets = torch.randn(16, 4), torch.randn(16, 1)
inputs[3, 2] = float("nan")
for step in range(3):
    loss = torch.nn.functional.mse_loss(model(inputs), targets)
    print({"step": step, "loss": loss.item(), "learning_rate": 1e-3})
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
"""


def _diagnose_run(tmp_path: Path, code: str) -> Diagnosis:
    script = tmp_path / "train.py"
    script.write_text(code)
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    log = tmp_path / "train.log"
    log.write_text(run.stdout + run.stderr)
    return diagnose([str(log)])


def test_a_cpu_index_error_is_not_called_a_cuda_assert(tmp_path: Path) -> None:
    diagnosis = _diagnose_run(tmp_path, EMBEDDING_INDEX)
    top = diagnosis.hypotheses[0]
    assert top.id == "cuda-device-side-assert-index"
    assert "IndexError: index out of range in self" in top.evidence[0].text
    assert "CUDA" not in top.title and "CUDA" not in diagnosis.summary


def test_a_worker_error_from_the_users_getitem_is_raised_in_their_code(tmp_path: Path) -> None:
    top = _diagnose_run(tmp_path, WORKER_KEY_ERROR).hypotheses[0]
    assert not top.grounded
    assert top.title == "KeyError raised in your code (train.py:8, __getitem__)"


def test_a_nan_at_step_zero_is_not_blamed_on_the_learning_rate(tmp_path: Path) -> None:
    diagnosis = _diagnose_run(tmp_path, NAN_FROM_STEP_ZERO)
    assert "loss.non_finite_before_update" in {f.id for f in diagnosis.findings}
    ids = [h.id for h in diagnosis.hypotheses]
    assert "loss-non-finite" not in ids  # "the optimiser step was too large"
    assert ids[0] == "nan-inf-in-input-data"
    assert not [h for h in diagnosis.hypotheses if "learning rate" in h.root_cause]
