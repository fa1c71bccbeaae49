"""Pages for torch refusals, each diagnosed from the real error a CPU snippet raises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from trainwreck.curation.cases import diagnose_folder
from trainwreck.pipeline import examine

BATCH_9 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-9"
PAGE = "optimizer-state-param-groups-differ"

# Stage one trains only the head; stage two unfreezes everything and resumes the state.
TWO_STAGES = """
import torch
model = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(4, 2))
head = torch.optim.Adam(model[1].parameters())
state = head.state_dict()
full = torch.optim.Adam(model.parameters())
full.load_state_dict(state)
"""


# A dataset of 9 samples in batches of 4 leaves a last batch of 1 for the BatchNorm.
LAST_BATCH_OF_ONE = """
import torch
from torch.utils.data import DataLoader
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
for batch in DataLoader(torch.randn(9, 3), batch_size=4):
    model(batch)
"""


def _top(tmp_path: Path, code: str, message: str) -> str:
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert message in result.stderr
    (tmp_path / "train.log").write_text(result.stderr, encoding="utf-8")
    return examine([str(tmp_path)])[1].hypotheses[0].id


def test_a_resume_after_unfreezing_names_the_changed_parameter_set(tmp_path: Path) -> None:
    assert _top(tmp_path, TWO_STAGES, "doesn't match the size of optimizer's group") == PAGE


def test_the_epochs_last_batch_of_one_names_batchnorm_and_drop_last(tmp_path: Path) -> None:
    top = _top(tmp_path, LAST_BATCH_OF_ONE, "Expected more than 1 value per channel when training")
    assert top == "batchnorm-single-value-per-channel"


def test_the_two_stage_fine_tune_that_dies_on_resume_gets_the_page() -> None:
    # first-sight batch-9 reproduction, judged wrong at 1e00051 (its "backbone frozen" read as
    # a hang, and a resume-without-scheduler page led)
    report = diagnose_folder(BATCH_9 / "r2-pytorch-two-stage-finetune-resume-valueerror-repro")
    assert report.hypotheses[0].id == PAGE


# A YAML 1.1 loader reads 3e-4 (no dot) as a string, which torch's optimizer then compares.
YAML_LEARNING_RATE = """
import torch, yaml
cfg = yaml.safe_load("learning_rate: 3e-4")
torch.optim.AdamW(torch.nn.Linear(2, 2).parameters(), lr=cfg["learning_rate"])
"""


def test_an_exponent_learning_rate_read_from_yaml_names_the_string(tmp_path: Path) -> None:
    top = _top(tmp_path, YAML_LEARNING_RATE, "not supported between instances of 'float' and 'str'")
    assert top == "yaml-exponent-number-read-as-string"


# Class ids as floats into a sequence-classification-style BCE loss (3 outputs, 4 samples).
FLOAT_CLASS_IDS = """
import torch
logits = torch.zeros(4, 3)
labels = torch.tensor([0.0, 2.0, 1.0, 1.0])
torch.nn.BCEWithLogitsLoss()(logits, labels)
"""


def test_class_ids_into_a_multi_label_loss_name_the_label_shape(tmp_path: Path) -> None:
    top = _top(tmp_path, FLOAT_CLASS_IDS, "must be the same as input size")
    assert top == "class-index-labels-into-bce-loss"


# A NumPy metric in the trainer state, written at the first checkpoint.
NUMPY_METRIC_SAVED = """
import numpy as np, tempfile, os
from transformers import TrainerState
state = TrainerState()
state.log_history.append({"eval_f1": np.float32(0.5), "step": 10})
state.save_to_json(os.path.join(tempfile.mkdtemp(), "trainer_state.json"))
"""


def test_a_numpy_metric_in_the_saved_trainer_state_names_the_json_value(tmp_path: Path) -> None:
    top = _top(tmp_path, NUMPY_METRIC_SAVED, "Object of type float32 is not JSON serializable")
    assert top == "checkpoint-json-holds-non-json-value"
