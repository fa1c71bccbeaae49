"""A format the run asks for that its GPU has no tensor cores for (analyzers/gpu_arch.py).

The real cases are batch-28 first-sight threads: FLUX in bf16 on a V100 (seven minutes an
image; the top answer was an fp16 NaN page before the finding) and Transformer Engine's
FP8 quickstart on an RTX 3090.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck.analyzers import gpu_arch
from trainwreck.curation.cases import diagnose_folder
from trainwreck.evidence.collect import collect

BATCH_28 = Path(__file__).parents[2] / "benchmarks/first_sight/batch-28"
FLUX_V100 = BATCH_28 / "t28e-diffusers-flux-dev-v100-seven-minutes-per-image"
TE_FP8_3090 = BATCH_28 / "t28g-transformerengine-fp8-autocast-assertion-rtx3090"


def _ids(symptoms: str) -> set[str]:
    return {finding.id for finding in gpu_arch.analyze(collect([], symptoms=symptoms))}


@pytest.mark.parametrize(
    ("symptoms", "fires"),
    [
        # below Ampere (8.0): no bf16 tensor cores
        ("Fine-tuning in bf16 on a Tesla V100 is very slow.", True),
        ("torch_dtype=torch.bfloat16 on a T4 in Colab, one step takes 9 s.", True),
        ("bfloat16 training on an RTX 2080 Ti crawls.", True),
        ("bf16 on my GTX 1080 is slow.", True),
        # Ampere and newer have them
        ("Fine-tuning in bf16 on an A100 is very slow.", False),
        ("bf16 on an RTX 3090 is slow.", False),
        ("bf16 on an H100 is slow.", False),
        # a V100 without bf16 named is no finding
        ("Fine-tuning in fp16 on a V100 is very slow.", False),
    ],
)
def test_bf16_needs_compute_capability_8_0(symptoms: str, fires: bool) -> None:
    assert (gpu_arch.BF16_FINDING in _ids(symptoms)) is fires


@pytest.mark.parametrize(
    ("symptoms", "fires"),
    [
        ("FP8 training with Transformer Engine on an RTX 3090 fails.", True),
        ("float8 rowwise on an A100 fails.", True),
        ("fp8_autocast on an NVIDIA A10 fails.", True),
        # Ada (8.9) and Hopper (9.0) have FP8 tensor cores
        ("FP8 training with Transformer Engine on an RTX 4090 fails.", False),
        ("FP8 training on an NVIDIA L4 fails.", False),
        ("FP8 training on an H100 fails.", False),
    ],
)
def test_fp8_needs_compute_capability_8_9(symptoms: str, fires: bool) -> None:
    assert (gpu_arch.FP8_FINDING in _ids(symptoms)) is fires


def test_a_stated_capability_is_the_devices_and_a_required_one_is_not() -> None:
    assert _ids("fp8 fails; nvidia-smi says compute_cap 8.6") == {gpu_arch.FP8_FINDING}
    assert _ids("fp8 fails; nvidia-smi says compute_cap 9.0") == set()
    # the library's requirement names a capability too, but not the device's
    assert _ids("fp8 fails: Device compute capability 8.9 or higher required") == set()


def test_a_gpu_in_a_log_banner_and_bf16_in_the_code(tmp_path: Path) -> None:
    (tmp_path / "train.log").write_text(
        "Using GPU: Tesla V100-SXM2-32GB\nstep 10 loss 2.31\n", encoding="utf-8"
    )
    (tmp_path / "train.py").write_text(
        "import torch\nmodel = model.to(torch.bfloat16)\n", encoding="utf-8"
    )
    [finding] = gpu_arch.analyze(collect([str(tmp_path / "train.log"), str(tmp_path / "train.py")]))
    assert finding.values["capability"] == "7.0"
    assert finding.values["architecture"] == "Volta"


def test_flux_in_bf16_on_a_v100_leads_with_the_bf16_page() -> None:
    """Wrong at first sight (an fp16 NaN page led); the finding makes the bf16 page lead."""
    report = diagnose_folder(FLUX_V100)
    assert report.hypotheses[0].id == "bf16-on-gpu-without-native-bf16"


def test_fp8_on_an_rtx_3090_is_found_with_the_users_compute_cap() -> None:
    finding = next(f for f in diagnose_folder(TE_FP8_3090).findings if f.id == gpu_arch.FP8_FINDING)
    assert finding.values["gpu"] == "RTX 3090"
    assert finding.values["capability"] == "8.6"
