"""Pages for mechanisms first-sight batches 1 and 2 had no page for (issue 15, part D):
each leads on the real case it was written from, without the case memory (which holds
those very threads), and stays out of the lead on near misses.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from trainwreck import diagnose
from trainwreck.cases import load_memory
from trainwreck.model import Diagnosis

FIRST_SIGHT = Path(__file__).parents[2] / "benchmarks" / "first_sight"


def _case(batch: str, name: str) -> Diagnosis:
    folder = FIRST_SIGHT / batch / name
    meta = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))
    symptoms = str(meta.get("symptoms") or "").strip() or None
    return diagnose(
        [str(folder / item) for item in meta["inputs"]],
        symptoms=symptoms,
        cases=load_memory(bundled=False),
    )


def _log(tmp_path: Path, *lines: str, symptoms: str | None = None) -> Diagnosis:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return diagnose([str(log)], symptoms=symptoms, cases=load_memory(bundled=False))


def _ids(diagnosis: Diagnosis) -> list[str]:
    return [h.id for h in diagnosis.hypotheses]


@pytest.mark.parametrize(
    ("batch", "case", "page"),
    [
        (
            "batch-2",
            "axolotl-stale-accelerate-default-config-fsdp-394",
            "accelerate-stale-default-config",
        ),
        # Its config.yaml names BertLayer: the wrap-class finding puts the class name first.
        ("batch-1", "accelerate-fsdp-wrap-cls-xlmroberta-66", "fsdp-wrap-layer-class-not-in-model"),
        (
            "batch-2",
            "nanogpt-resume-checkpoint-kept-on-gpu-oom-236",
            "checkpoint-resume-loaded-onto-gpu",
        ),
        (
            "batch-2",
            "datasets-filter-mp-pool-terminate-hang-6393",
            "datasets-map-num-proc-pool-hang",
        ),
    ],
)
def test_page_leads_on_the_case_it_was_written_for(batch: str, case: str, page: str) -> None:
    assert _ids(_case(batch, case))[0] == page


def test_the_wrap_error_alone_names_both_causes(tmp_path: Path) -> None:
    ids = _ids(
        _log(
            tmp_path, "Exception: Could not find the transformer layer class to wrap in the model."
        )
    )
    assert set(ids[:2]) == {"accelerate-stale-default-config", "fsdp-wrap-layer-class-not-in-model"}


def test_the_default_config_file_named_in_the_log_points_at_it(tmp_path: Path) -> None:
    diagnosis = _log(
        tmp_path,
        '  File "/home/user/.cache/huggingface/accelerate/default_config.yaml", line 4',
        "Exception: Could not find the transformer layer class to wrap in the model.",
    )
    assert _ids(diagnosis)[0] == "accelerate-stale-default-config"


OOM = "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB"


def test_an_oom_on_resume_with_a_cuda_map_location_names_the_checkpoint(tmp_path: Path) -> None:
    diagnosis = _log(
        tmp_path,
        "Resuming training from checkpoint out/ckpt.pt",
        "    checkpoint = torch.load(ckpt_path, map_location=device)",
        OOM,
    )
    assert _ids(diagnosis)[0] == "checkpoint-resume-loaded-onto-gpu"


def test_an_oom_without_a_resume_is_not_blamed_on_the_checkpoint(tmp_path: Path) -> None:
    diagnosis = _log(tmp_path, "Saving model checkpoint to output/checkpoint-500", OOM)
    assert "checkpoint-resume-loaded-onto-gpu" not in _ids(diagnosis)


def test_a_map_without_num_proc_is_not_the_pool_hang(tmp_path: Path) -> None:
    diagnosis = _log(
        tmp_path,
        "Map: 100%|##########| 1000/1000 [00:01<00:00, 900.00 examples/s]",
        symptoms="training hangs after the first epoch",
    )
    assert _ids(diagnosis)[:1] != ["datasets-map-num-proc-pool-hang"]
