"""Real CPU failures that issue 18 found cleanly missed (`[no KB]`), run here for real.

A gloo all_reduce under `mp.spawn` that one rank never joins ("Timed out waiting
...ms for recv operation to complete"), and a Hugging Face Trainer fed batches
without labels ("The model did not return a loss").
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from trainwreck.evidence.collect import collect
from trainwreck.model import Diagnosis
from trainwreck.pipeline import diagnose

GLOO_TIMEOUT_MESSAGE = "Timed out waiting 10000ms for recv operation to complete"
# Rank 1 sleeps past the group's 10 s timeout instead of joining rank 0's all_reduce. (With a
# 2 s timeout a loaded CI machine could time out the rendezvous itself, another failure.)
GLOO_SKIPPED_COLLECTIVE = """
import datetime, os, time
import torch
import torch.distributed as dist
import torch.multiprocessing as mp

def worker(rank, world_size, port):
    os.environ["MASTER_ADDR"], os.environ["MASTER_PORT"] = "127.0.0.1", str(port)
    dist.init_process_group(
        "gloo", rank=rank, world_size=world_size, timeout=datetime.timedelta(seconds=10)
    )
    if rank == 0:
        dist.all_reduce(torch.ones(4))
    else:
        time.sleep(15)
    dist.destroy_process_group()

if __name__ == "__main__":
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    mp.spawn(worker, args=(2, port), nprocs=2)
"""
NO_LOSS_MESSAGE = "The model did not return a loss from the inputs"
# A dataset of input_ids only: the causal LM computes logits and no loss.
TRAINER_WITHOUT_LABELS = """
import sys
import torch
import transformers

class Rows(torch.utils.data.Dataset):
    def __len__(self):
        return 8
    def __getitem__(self, index):
        ids = torch.arange(16) % 64
        return {"input_ids": ids, "attention_mask": torch.ones_like(ids)}

config = transformers.LlamaConfig(
    hidden_size=32, intermediate_size=64, num_hidden_layers=1, num_attention_heads=4,
    num_key_value_heads=4, vocab_size=64,
)
model = transformers.AutoModelForCausalLM.from_config(config)
args = transformers.TrainingArguments(
    output_dir=sys.argv[1], max_steps=2, per_device_train_batch_size=2, report_to=[], use_cpu=True
)
transformers.Trainer(model=model, args=args, train_dataset=Rows()).train()
"""


def _run_log(tmp_path: Path, code: str, message: str) -> Path:
    """Run the script as a user would and keep what it printed as the run's log."""
    script = tmp_path / "train.py"
    script.write_text(code)
    run = subprocess.run(
        [sys.executable, str(script), str(tmp_path / "out")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode != 0 and message in run.stdout, run.stdout[-2000:]
    log = tmp_path / "train.log"
    log.write_text(run.stdout, encoding="utf-8")
    return log


@pytest.fixture(scope="module")
def gloo_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _run_log(tmp_path_factory.mktemp("gloo"), GLOO_SKIPPED_COLLECTIVE, GLOO_TIMEOUT_MESSAGE)


def _top_quotes(diagnosis: Diagnosis, message: str) -> bool:
    return any(message in ref.text for ref in diagnosis.hypotheses[0].evidence)


def test_a_gloo_timeout_under_mp_spawn_is_diagnosed_from_its_own_message(gloo_log: Path) -> None:
    diagnosis = diagnose([str(gloo_log)])
    top = diagnosis.hypotheses[0]
    assert top.id == "gloo-collective-timeout" and top.grounded
    assert _top_quotes(diagnosis, GLOO_TIMEOUT_MESSAGE)


def test_the_worker_error_is_the_root_and_mp_spawns_wrapper_a_cascade(gloo_log: Path) -> None:
    """The wrapper was the root, so the gloo message of the worker counted as a cascade."""
    roles = {record.type: record.role for record in collect([str(gloo_log)]).exceptions}
    assert roles == {
        "torch.multiprocessing.spawn.ProcessRaisedException": "cascade",
        "RuntimeError": "root",
    }


def test_a_trainer_without_labels_is_grounded_in_a_confirmed_failure(tmp_path: Path) -> None:
    pytest.importorskip("transformers")
    log = _run_log(tmp_path, TRAINER_WITHOUT_LABELS, NO_LOSS_MESSAGE)
    diagnosis = diagnose([str(log)])
    top = diagnosis.hypotheses[0]
    assert top.grounded and diagnosis.grounding != "ungrounded"
    assert "labels" in top.root_cause
    assert _top_quotes(diagnosis, NO_LOSS_MESSAGE)


def test_a_gloo_hang_asks_for_cpu_evidence_not_nccl(gloo_log: Path) -> None:
    """Left open by the issue-18 trace: the undecided requests of a gloo run on the CPU named
    nvidia-smi and NCCL's flight recorder, which have nothing to report there."""
    hows = " ".join(request.how for request in diagnose([str(gloo_log)]).next_evidence)
    assert hows and "NCCL" not in hows and "nvidia-smi" not in hows
    assert "TORCH_DISTRIBUTED_DEBUG=DETAIL" in hows
