"""TensorFlow and Keras runs: torch pages stay out of them, and the pages written for their
recurring failures (from batch-21/22's Keras threads, none judged right at a8272ee0) lead on
the case they explain, with the case's own record left out of the case memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.curation.cases import diagnose_folder
from trainwreck.kb import load

FIRST_SIGHT = Path(__file__).resolve().parents[2] / "benchmarks" / "first_sight"


def _ids(case: str) -> list[str]:
    return [h.id for h in diagnose_folder(FIRST_SIGHT / case).hypotheses]


@pytest.mark.parametrize(
    ("case", "page"),
    [
        # "GPU utilisation near zero, CPU pegged" in an SSD Keras training (ssd_keras#250)
        (
            "batch-22/t22F-keras-ssd-training-slow-low-gpu-util",
            "tensorflow-gpu-not-visible-runs-on-cpu",
        ),
        # NaN loss on some batches of a TF2 YOLOv5 with sparse categorical cross-entropy
        (
            "batch-22/t22F-tf2-yolov5-sparse-ce-nan-some-batches",
            "sparse-categorical-labels-out-of-range-tf",
        ),
        # host RAM several times the NumPy arrays passed to fit (tensorflow#35030)
        (
            "batch-22/t22F-keras-fit-numpy-host-ram-blowup",
            "keras-fit-numpy-arrays-copied-into-tensors",
        ),
        # fit() called once per GAN step; predict() once per file
        (
            "batch-22/t22F-keras-gan-fit-loop-memory-grows",
            "keras-predict-or-fit-called-in-python-loop",
        ),
        (
            "batch-21/t21F-tf-keras-predict-memory-grows",
            "keras-predict-or-fit-called-in-python-loop",
        ),
        # Keras 2 model code under TF 2.16+, where tf.keras is Keras 3
        ("batch-22/t22F-keras-layer-never-called-no-output", "tf-keras-resolves-to-keras-3"),
        ("batch-21/t21F-keras-kerastensor-valueerror-tf216", "tf-keras-resolves-to-keras-3"),
    ],
)
def test_a_keras_case_leads_with_its_page(case: str, page: str) -> None:
    assert _ids(case)[0] == page


def test_a_keras_run_gets_no_torch_page_but_keeps_plain_python_ones() -> None:
    """batch-21's Keras run (validation accuracy at chance, keras#12689) shows Keras only:
    the torch-only page that led it before (a shuffled torch eval loader) is out, and the
    page that names Python beside torch (evaluation preprocessed unlike training) leads."""
    ids = _ids("batch-21/t21F-keras-val-acc-chance-level")
    torch_only = load().get("eval-loader-shuffled-predictions-misaligned")
    assert torch_only is not None and torch_only.requires == ("pytorch",)
    assert "eval-loader-shuffled-predictions-misaligned" not in ids
    assert ids[0] == "eval-preprocessing-differs-from-training"
