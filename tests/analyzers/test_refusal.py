"""A library's own check refused a combination of settings (analyzers/refusal.py).

The tracebacks are real: each snippet runs against the installed torch or
transformers and fails the way a user's script does.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from arith_helpers import ROOT, found, logged

from trainwreck.curation.cases import diagnose_folder

ID = "library.refused_setting"
BATCH_9 = ROOT / "benchmarks" / "first_sight" / "batch-9"
BATCH_8 = ROOT / "benchmarks" / "first_sight" / "batch-8"


def _failed(code: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode != 0, f"{code!r} was meant to fail"
    return result.stderr


PLATEAU_WITHOUT_EVAL = (
    "from transformers import TrainingArguments\n"
    "TrainingArguments(output_dir='out', lr_scheduler_type='reduce_lr_on_plateau', report_to=[])"
)
SAMPLER_AND_SHUFFLE = (
    "import torch\n"
    "from torch.utils.data import DataLoader, SequentialSampler\n"
    "data = list(range(8))\n"
    "DataLoader(data, sampler=SequentialSampler(data), shuffle=True)"
)


def test_a_library_check_names_the_refused_combination_and_leads(tmp_path: Path) -> None:
    log = _failed(PLATEAU_WITHOUT_EVAL)
    diagnosis = logged(tmp_path, log)
    finding = found(diagnosis, "library.")[ID]
    assert finding.values["library"] == "transformers"
    assert "reduce_lr_on_plateau requires an eval strategy" in str(finding.values["refusal"])
    top = diagnosis.hypotheses[0]
    assert top.id == "library-refused-setting"
    assert "reduce_lr_on_plateau requires an eval strategy" in top.title
    assert top.confidence != "high"  # a catch-all page


def test_a_page_that_knows_the_check_outranks_the_catch_all(tmp_path: Path) -> None:
    log = _failed(SAMPLER_AND_SHUFFLE)
    assert "sampler option is mutually exclusive with shuffle" in log
    diagnosis = logged(tmp_path, log)
    assert ID in found(diagnosis, "library.")
    assert diagnosis.hypotheses[0].id == "dataloader-sampler-with-shuffle"


def test_the_users_own_raise_and_a_kernels_shape_error_are_no_refusal(tmp_path: Path) -> None:
    own = _failed("raise ValueError('--epochs requires --lr to be set')")
    assert found(logged(tmp_path, own), "library.") == {}
    shape = _failed(
        "import torch, torch.nn.functional as F\n"
        "F.cross_entropy(torch.zeros(4, 3), torch.zeros(8, dtype=torch.long))"
    )
    assert "Expected input batch_size" in shape
    run = tmp_path / "shape"
    run.mkdir()
    assert found(logged(run, shape), "library.") == {}


def test_first_sight_reproductions_whose_refusal_had_no_page() -> None:
    # batch-9 at 1e00051, both judged wrong: the plateau scheduler refusal was answered with a
    # data-loader page (its "stalls" had read as a hang), the sampler refusal under torchrun with
    # an fp16 NaN case
    trainer = diagnose_folder(BATCH_9 / "r2-transformers-trainer-args-valueerror-at-start-repro")
    assert trainer.hypotheses[0].id == "library-refused-setting"
    torchrun = diagnose_folder(BATCH_9 / "r2-pytorch-torchrun-fails-at-start-repro")
    assert torchrun.hypotheses[0].id == "dataloader-sampler-with-shuffle"


def test_the_streaming_dataset_page_reads_the_reworded_transformers_5_message() -> None:
    # batch-8 reproduction: transformers 5 added "so the number of training steps cannot be
    # inferred;" to the message, and the page's own signature no longer matched it
    report = diagnose_folder(BATCH_8 / "transformers-trainer-jsonl-stream-valueerror-repro")
    assert report.hypotheses[0].id == "iterable-dataset-needs-max-steps"
