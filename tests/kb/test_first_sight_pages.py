"""Pages written for mechanisms first-sight batch-1 missed: they lead on those real cases,
and stay out of the lead on the near misses and on either side of their thresholds.

The cases are benchmarks/first_sight/batch-1 folders (real public threads and CPU
reproductions, development data since batch-1 was judged). Lines written to temporary
logs below are quoted from public threads (trl PR 3199, open-r1 issue 249, rl-swarm issue
240) or from the library source that prints them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck import diagnose
from trainwreck.curation.cases import diagnose_folder
from trainwreck.model import Diagnosis

BATCH = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-1"


def _case(name: str) -> Diagnosis:
    return diagnose_folder(BATCH / name)


def _log(tmp_path: Path, *lines: str) -> Diagnosis:
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return diagnose([str(log)])


def _ids(diagnosis: Diagnosis) -> list[str]:
    return [h.id for h in diagnosis.hypotheses]


@pytest.mark.parametrize(
    ("case", "page"),
    [
        ("trl-grpo-num-generations-divisible-249", "grpo-batch-not-divisible-by-num-generations"),
        ("r1v-grpo-single-generation-std-nan-69", "grpo-single-generation-nan-advantages"),
        ("deepspeed-zero3-generate-unsynced-hang-860", "deepspeed-zero3-unequal-forward-passes"),
        ("lightning-save-checkpoint-rank0-barrier-hang-381", "collective-in-rank-zero-branch"),
        ("peft-kbit-prep-fp32-upcast-oom-1149", "peft-kbit-prep-upcasts-to-fp32"),
        # Its snippet.py runs the VAE outside no_grad: the code detector's finding carries it.
        ("diffusers-vae-tiling-oom-no-grad-9648", "inference-without-no-grad"),
        ("kempnerforge-vlm-labels-not-shifted-loss-zero-154", "lm-labels-not-shifted-copy-task"),
        ("transformers-trocr-double-bos-labels-1067", "seq2seq-labels-start-token-doubled"),
        ("robustvlm-llava-eval-use-cache-false-slow-27", "generate-kv-cache-disabled"),
        ("pytorch-omp-threads-oversubscription-ddp-slow-20311", "cpu-thread-oversubscription"),
    ],
)
def test_page_leads_on_the_case_it_was_written_for(case: str, page: str) -> None:
    assert _ids(_case(case))[0] == page


def test_a_sudden_fp16_drop_to_zero_is_not_read_as_unshifted_labels() -> None:
    # Same words ("loss drops to 0"), another mechanism: fp16 overflow after a spike.
    top = _ids(_case("llamafactory-llama2-fp16-lora-loss-collapse-zero-506"))[0]
    assert top == "fp16-overflow-bf16-pretrained-model"


@pytest.mark.parametrize(
    "case",
    [
        "torchtune-gemma-save-keyerror-masked-allgather-timeout-1165",
        "pytorch-rank0-only-postprocess-nccl-timeout-444",
    ],
)
def test_a_bare_watchdog_timeout_does_not_name_a_rank_zero_branch(case: str) -> None:
    assert _ids(_case(case))[0] != "collective-in-rank-zero-branch"


def test_weights_loaded_in_fp32_needs_loading_evidence_not_just_an_oom() -> None:
    # InternLM #71's log holds only the two allocation failures, no loading frame: the page
    # may come back from the user's words, never from the log.
    hypotheses = _case("transformers-internlm-fp32-default-oom-71").hypotheses
    page = [h for h in hypotheses if h.id == "from-pretrained-default-fp32-weights"]
    assert all(not h.evidence for h in page)


# trl's GRPO checks: num_generations 1 can never divide into groups, 2 and up can.
SINGLE = (
    "ValueError: The global train batch size (1 x 4) must be evenly divisible by the number of "
    "generations per prompt (1). Given the current train batch size, the valid values for the "
    "number of generations are: [2, 4]."
)
SEVEN_OF_EIGHT = (
    "ValueError: The global train batch size (7 x 1) must be evenly divisible by the number of "
    "generations per prompt (8). Given the current train batch size, the valid values for the "
    "number of generations are: [7]."
)
ONE_PROCESS = (
    "ValueError: The global train batch size (1 x 1) must be evenly divisible by the number of "
    "generations per prompt (8). Given the current train batch size, the valid values for the "
    "number of generations are: []."
)


def test_num_generations_one_is_the_single_generation_page(tmp_path: Path) -> None:
    assert _ids(_log(tmp_path, SINGLE))[0] == "grpo-single-generation-nan-advantages"


def test_num_generations_above_one_is_the_divisibility_page(tmp_path: Path) -> None:
    assert _ids(_log(tmp_path, SEVEN_OF_EIGHT))[0] == "grpo-batch-not-divisible-by-num-generations"


def _num_generations_changes(diagnosis: Diagnosis) -> list[object]:
    top = diagnosis.hypotheses[0]
    assert top.id == "grpo-batch-not-divisible-by-num-generations"
    return [c.after for f in top.fixes for c in f.changes if c.path == "GRPOConfig.num_generations"]


def test_the_process_count_is_offered_as_num_generations_from_two_processes(
    tmp_path: Path,
) -> None:
    # a count the log printed is a number in the fix (GRPOConfig(num_generations=7), not '7')
    assert _num_generations_changes(_log(tmp_path, SEVEN_OF_EIGHT)) == [7]


def test_one_process_is_never_offered_as_num_generations(tmp_path: Path) -> None:
    assert _num_generations_changes(_log(tmp_path, ONE_PROCESS)) == []


def test_the_gradient_checkpointing_notice_is_not_a_disabled_cache(tmp_path: Path) -> None:
    notice = (
        "`use_cache=True` is incompatible with gradient checkpointing. Setting `use_cache=False`..."
    )
    assert "generate-kv-cache-disabled" not in _ids(_log(tmp_path, notice))


def test_the_no_grad_page_cites_the_forward_outside_no_grad() -> None:
    # diffusers #9648: `vae(tensor_o)` on line 16 of the user's snippet, with no no_grad around it.
    top = _case("diffusers-vae-tiling-oom-no-grad-9648").hypotheses[0]
    assert top.id == "inference-without-no-grad"
    assert [(Path(ref.source).name, ref.line) for ref in top.evidence] == [("snippet.py", 16)]
