"""Issue 15: each analyzer and code detector names a real case it turns from wrong to right.

Each test diagnoses one real case with every analyzer and detector, then again with
one left out (trainwreck.curation.ablation, as benchmarks/ablation.py does): with it
the top answer is the page the case's confirmed cause maps to, without it another.
Cases are looked up as the benchmark finds them (tests/cases, a first-sight folder or
bundled record that names its page, a reproduction with its script); the first-sight
folders whose record names no page carry the page read from their confirmed cause.
"""

from __future__ import annotations

from functools import cache, partial
from pathlib import Path

import pytest
import yaml
from arith_helpers import run_script

from trainwreck import analyzers
from trainwreck.analyzers import code
from trainwreck.curation.ablation import ablate, parts, without
from trainwreck.curation.cases import diagnose_unseen
from trainwreck.curation.known import (
    Known,
    folder_case,
    record_cases,
    script_cases,
    suite_cases,
)
from trainwreck.pipeline import diagnose

ROOT = Path(__file__).parents[2]
FIRST_SIGHT = ROOT / "benchmarks" / "first_sight"
FIXTURES = Path(__file__).parent / "fixtures"
FROZEN = "frozen_no_param_count"
SIMILARITY = "similarity_matrix_oom"
LONG_INPUT = "long_input_position_table"


@cache
def _known() -> dict[str, Known]:
    cases = suite_cases(ROOT / "tests" / "cases") + record_cases(FIRST_SIGHT)
    return {case.name: case for case in cases + script_cases(cases)}


def _without_description(folder: Path, page: str) -> Known:
    """A first-sight case as a user hands in its log and script without a description: for
    cases whose description alone now leads to the page (the memory's descriptions of the
    page's other threads share its words), the detector is what turns the top."""
    meta = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))
    inputs = tuple(folder / name for name in meta["inputs"])
    own = (meta["source"], folder.name)
    return Known(folder.name, page, partial(diagnose_unseen, inputs, None, own, None), folder)


def _decides(part: str, case: Known) -> None:
    moved = ablate(case, part)
    assert moved.with_it == case.expected
    assert moved.without_it != case.expected


def test_cuda_oom_tells_a_fragmented_cache_from_another_process() -> None:
    """pytorch-oom-fragmentation-35901: reserved-but-unallocated memory is the cause;
    without the OOM arithmetic the top answer blames another process."""
    _decides("cuda_oom", _known()["pytorch-oom-fragmentation-35901"])


def test_cuda_oom_sees_an_8x22b_model_does_not_fit_one_a100() -> None:
    """vllm-wizardlm-8x22b-single-a100-oom-4408 (first-sight batch-2)."""
    _decides("cuda_oom", _known()["vllm-wizardlm-8x22b-single-a100-oom-4408"])


def test_memory_budget_shows_llama_7b_fsdp_exceeds_a_v100() -> None:
    """alpaca-llama7b-fsdp-v100-223: over capacity, not fragmentation."""
    _decides("memory_budget", _known()["alpaca-llama7b-fsdp-v100-223"])


def test_nccl_keeps_a_slow_rank_watchdog_timeout_over_a_rank_zero_branch() -> None:
    """lm-eval-multigpu-generate-nccl-timeout-1404 (batch-2; its record names no page): one
    rank's generation outlasted the 30-minute timeout; the fix raised it. Without the
    timeout finding the top answer is a collective inside a rank-0 branch."""
    case = folder_case(
        FIRST_SIGHT / "batch-2" / "lm-eval-multigpu-generate-nccl-timeout-1404",
        "nccl-watchdog-timeout",
    )
    _decides("nccl", case)


def test_loss_reads_the_spikes_of_adam_beta2_from_the_loss_curve() -> None:
    """repro-divergence-adam-beta2-spike: without it, the bare curve finding leads."""
    _decides("loss", _known()["repro-divergence-adam-beta2-spike"])


def test_loss_names_adam_eps_underflow_over_a_bf16_model_in_fp16() -> None:
    """repro-nan-adam-eps-fp16."""
    _decides("loss", _known()["repro-nan-adam-eps-fp16"])


def test_index_range_reads_a_negative_label_as_an_index_error_not_bad_data() -> None:
    """happytransformer-negative-label-target-out-of-bounds-248 (batch-3)."""
    _decides("index_range", _known()["happytransformer-negative-label-target-out-of-bounds-248"])


def test_loss_constants_names_a_frozen_model_from_its_loss_at_ln_3() -> None:
    """fixtures/frozen_no_param_count.py, run on the CPU: every parameter frozen and the
    error silenced, no parameter count printed; without the chance-level finding the
    tool has no hypothesis at all."""
    log = FIXTURES / f"{FROZEN}.log"
    case = Known(FROZEN, "no-trainable-parameters", partial(diagnose, [str(log)]))
    _decides("loss_constants", case)


def test_the_frozen_model_log_is_what_its_script_prints() -> None:
    pytest.importorskip("torch")
    captured = (FIXTURES / f"{FROZEN}.log").read_text(encoding="utf-8")
    assert run_script(f"{FROZEN}.py", fails=False) == captured


def _fixture_case(name: str, expected: str) -> Known:
    """A fixture script's captured log, diagnosed alone."""
    return Known(name, expected, partial(diagnose, [str(FIXTURES / f"{name}.log")]))


def _last_line(text: str) -> str:
    return text.rstrip().splitlines()[-1]


def test_allocation_names_the_full_distance_matrix_behind_a_cpu_oom() -> None:
    """fixtures/similarity_matrix_oom.py, run on the CPU: torch.cdist over 100,000 embeddings
    asks for 100,000² x 4 B; without the factoring the top answer is plain host-RAM exhaustion."""
    _decides("allocation", _fixture_case(SIMILARITY, "pairwise-matrix-materialized-oom"))


def test_the_similarity_matrix_log_is_what_its_script_prints() -> None:
    pytest.importorskip("torch")
    captured = (FIXTURES / f"{SIMILARITY}.log").read_text(encoding="utf-8")
    assert _last_line(run_script(f"{SIMILARITY}.py")) == _last_line(captured)


def test_shapes_reads_a_broadcast_error_as_an_input_past_the_position_table() -> None:
    """fixtures/long_input_position_table.py, run on the CPU: a 600-token input to DistilBERT
    (512 positions) fails adding position embeddings; without the shape finding the tool has
    only an ungrounded guess from the exception."""
    case = _fixture_case(LONG_INPUT, "input-exceeds-model-max-length")
    _decides("shapes", case)


def test_the_long_input_log_is_what_its_script_prints() -> None:
    pytest.importorskip("transformers")
    captured = (FIXTURES / f"{LONG_INPUT}.log").read_text(encoding="utf-8")
    assert _last_line(run_script(f"{LONG_INPUT}.py")) == _last_line(captured)


def test_loss_scale_sees_a_loss_above_the_uniform_guess_under_accumulation() -> None:
    """unsloth-gemma4-ga-high-loss-4982 (batch-2): the model skips the loss normalisation."""
    _decides("loss_scale", _known()["unsloth-gemma4-ga-high-loss-4982"])


def test_version_change_names_the_deepspeed_upgrade_behind_a_slow_cpu_adam() -> None:
    """deepspeed-cpuadam-slow-after-upgrade-1697: without it, a CPU half-precision page."""
    _decides("version_change", _known()["deepspeed-cpuadam-slow-after-upgrade-1697"])


def test_version_change_names_the_transformers_4_38_regression_behind_an_oom() -> None:
    """transformers-438-llama-causal-mask-buffer-oom-29484 (batch-3): not plain capacity."""
    _decides("version_change", _known()["transformers-438-llama-causal-mask-buffer-oom-29484"])


def test_api_drift_names_an_argument_the_installed_vllm_lacks() -> None:
    """trl-vllm-serve-engineargs-worker-extension-cls-3304 (a bundled record's excerpt)."""
    _decides("api_drift", _known()["trl-vllm-serve-engineargs-worker-extension-cls-3304"])


def test_fsdp_wrap_names_the_layer_class_the_model_does_not_have() -> None:
    """accelerate-fsdp-wrap-cls-xlmroberta-66 (batch-1): BertLayer in an XLM-RoBERTa model."""
    _decides("fsdp_wrap", _known()["accelerate-fsdp-wrap-cls-xlmroberta-66"])


def test_the_code_detectors_turn_host_ram_into_a_loss_kept_with_its_graph() -> None:
    """repro-torch-val-loss-accumulated-graph-oom (batch-1), all detectors left out at once."""
    _decides("code", _known()["repro-torch-val-loss-accumulated-graph-oom"])


def test_loss_accumulated_live_names_the_validation_loss_kept_with_its_graph() -> None:
    """repro-torch-val-loss-accumulated-graph-oom: `val_loss += loss` in its script."""
    _decides("code.loss_accumulated_live", _known()["repro-torch-val-loss-accumulated-graph-oom"])


def test_zero_grad_missing_turns_a_high_learning_rate_into_the_missing_zero_grad() -> None:
    """repro-torch-missing-zero-grad-divergence with its repro.py (batch-1)."""
    case = _known()["repro-torch-missing-zero-grad-divergence+repro.py"]
    _decides("code.zero_grad_missing", case)


def test_eval_without_no_grad_names_a_vae_forward_outside_no_grad() -> None:
    """diffusers-vae-tiling-oom-no-grad-9648 (batch-1; its record names no page): the
    maintainer's fix wraps vae(...) in torch.no_grad(); without it, an fp16 VAE page."""
    case = folder_case(
        FIRST_SIGHT / "batch-1" / "diffusers-vae-tiling-oom-no-grad-9648",
        "inference-without-no-grad",
    )
    _decides("code.eval_without_no_grad", case)


def test_log_without_eps_names_the_custom_bce_log_of_zero() -> None:
    """repro-torch-manual-bce-log-zero-nan with its repro.py (batch-1; no page in its record)."""
    case = folder_case(
        FIRST_SIGHT / "batch-1" / "repro-torch-manual-bce-log-zero-nan",
        "custom-loss-log-of-zero",
        with_scripts=True,
    )
    _decides("code.log_without_eps", case)


def test_standardize_by_zero_std_names_the_constant_column_behind_nan() -> None:
    """repro-pytorch-standardize-constant-column-nan (batch-2; no page in its record)."""
    case = folder_case(
        FIRST_SIGHT / "batch-2" / "repro-pytorch-standardize-constant-column-nan",
        "standardize-zero-std-feature",
    )
    _decides("code.standardize_by_zero_std", case)


def test_optimizer_stale_model_names_the_optimizer_left_on_the_old_model() -> None:
    """repro-pytorch-optimizer-stale-params-after-reload with its repro.py (batch-2; no page
    in its record): without it, a learning rate decayed to zero."""
    case = folder_case(
        FIRST_SIGHT / "batch-2" / "repro-pytorch-optimizer-stale-params-after-reload",
        "optimizer-holds-replaced-model-params",
        with_scripts=True,
    )
    _decides("code.optimizer_stale_model", case)


def test_leaving_a_part_out_restores_both_registries_afterwards() -> None:
    analyzers_before, detectors_before = analyzers.ANALYZERS, code.DETECTORS
    with without("code.zero_grad_missing"):
        assert len(code.DETECTORS) == len(detectors_before) - 1
        assert analyzers_before == analyzers.ANALYZERS
    with without("shapes"):
        assert len(analyzers.ANALYZERS) == len(analyzers_before) - 1
    assert detectors_before == code.DETECTORS
    assert analyzers_before == analyzers.ANALYZERS


def test_every_analyzer_and_detector_can_be_left_out_by_name() -> None:
    assert len(parts()) == len(set(parts())) >= 30
    with pytest.raises(KeyError), without("no-such-analyzer"):
        pass


def test_inference_in_train_mode_names_a_predict_wrapper_that_never_calls_eval() -> None:
    """r15D-pytorch-single-sample-predictions-random-repro (batch-15), its log and script
    without the description: without the detector a CPU-only-build page leads; the predict
    wrapper never calls self.model.eval()."""
    case = _without_description(
        FIRST_SIGHT / "batch-15" / "r15D-pytorch-single-sample-predictions-random-repro",
        "inference-in-train-mode-dropout-active",
    )
    _decides("code.inference_in_train_mode", case)


def test_ddp_forward_on_one_rank_names_rank_zero_evaluation_through_the_wrapper() -> None:
    """r15E-pytorch-ddp-stuck-after-first-epoch-repro (batch-15): without the detector a page
    for a per-rank decision leads; rank 0 alone runs evaluate(model) on the DDP wrapper."""
    case = folder_case(
        FIRST_SIGHT / "batch-15" / "r15E-pytorch-ddp-stuck-after-first-epoch-repro",
        "ddp-buffer-broadcast-mismatched-collectives",
    )
    _decides("code.ddp_forward_on_one_rank", case)


def test_item_whole_split_names_statistics_recomputed_per_item() -> None:
    """r15E-pytorch-tabular-dataloader-slow-repro (batch-15): without the detector a
    too-few-workers page leads; __getitem__ recomputes self.X.mean/std for every row."""
    case = folder_case(
        FIRST_SIGHT / "batch-15" / "r15E-pytorch-tabular-dataloader-slow-repro",
        "getitem-processes-whole-dataset",
    )
    _decides("code.item_processes_whole_split", case)


def test_scheduler_per_micro_batch_names_why_onecycle_ran_out_of_steps() -> None:
    """r15E-pytorch-onecycle-valueerror-midtraining-repro (batch-15): without the detector the
    OneCycleLR page restates the error; scheduler.step() runs outside the accumulation branch."""
    case = folder_case(
        FIRST_SIGHT / "batch-15" / "r15E-pytorch-onecycle-valueerror-midtraining-repro",
        "lr-scheduler-stepped-every-micro-batch",
    )
    _decides("code.scheduler_stepped_per_micro_batch", case)


def test_column_minus_vector_names_the_broadcast_behind_a_57_gb_request() -> None:
    """r15D-pytorch-val-rmse-cannot-allocate-memory-repro (batch-15): without the detector the
    all-pairs (cdist) page leads on the n x n request; the RMSE subtracts (N,) from (N, 1)."""
    case = folder_case(
        FIRST_SIGHT / "batch-15" / "r15D-pytorch-val-rmse-cannot-allocate-memory-repro",
        "column-minus-vector-broadcast-oom",
    )
    _decides("code.column_minus_vector", case)


def test_sharded_save_names_a_zero3_save_only_rank_zero_makes() -> None:
    """t15B-transformers-zero3-final-save-never-finishes (batch-15, transformers#31624): without
    the detector a disk-full page leads; save_model sits under is_world_process_zero()."""
    case = folder_case(
        FIRST_SIGHT / "batch-15" / "t15B-transformers-zero3-final-save-never-finishes",
        "sharded-save-called-on-rank-zero-only",
    )
    _decides("code.sharded_save_in_rank_zero_branch", case)


def test_tokenizer_fork_names_a_fast_tokenizer_used_before_the_workers_fork() -> None:
    """t15A-tokenizers-dataloader-worker-freeze (batch-15, tokenizers#187): without the detector
    a too-many-workers page ties and leads by name; the script encodes once before the fork."""
    case = folder_case(
        FIRST_SIGHT / "batch-15" / "t15A-tokenizers-dataloader-worker-freeze",
        "fork-after-threads-deadlock",
    )
    _decides("code.tokenizer_used_before_fork", case)


def test_boosting_fork_names_a_fit_forked_after_the_parent_trained() -> None:
    """t33e-xgboost-fit-in-child-process-never-returns (batch-33, xgboost#7044): without the
    detector a stop-sentinel page leads; lgb.train runs at module level before the Process."""
    case = folder_case(
        FIRST_SIGHT / "batch-33" / "t33e-xgboost-fit-in-child-process-never-returns",
        "fork-after-threads-deadlock",
    )
    _decides("code.boosting_used_before_fork", case)


def test_padding_to_max_length_names_short_texts_padded_to_512() -> None:
    """r15E-transformers-bert-training-very-slow-repro (batch-15): without the detector a ZeRO-3
    all-gather page leads a CPU run; the collate function pads every batch to 512 tokens."""
    case = folder_case(
        FIRST_SIGHT / "batch-15" / "r15E-transformers-bert-training-very-slow-repro",
        "tokenizer-pads-every-batch-to-max-length",
    )
    _decides("code.padding_to_max_length", case)


def test_inference_in_train_mode_names_evaluation_never_switched_to_eval() -> None:
    """r16D-pytorch-val-accuracy-chance-despite-train-99-repro (batch-16): without the detector
    a page for targets misaligned with inputs leads; evaluate() never calls model.eval()."""
    case = folder_case(
        FIRST_SIGHT / "batch-16" / "r16D-pytorch-val-accuracy-chance-despite-train-99-repro",
        "inference-in-train-mode-dropout-active",
    )
    _decides("code.inference_in_train_mode", case)


@pytest.mark.parametrize(
    "slug",
    [
        "r16D-transformers-bert-loss-stuck-at-chance-repro",
        "r16E-pytorch-loss-frozen-after-epoch1-repro",
    ],
)
def test_schedule_length_names_a_schedule_that_ran_out_after_one_epoch(slug: str) -> None:
    """batch-16: num_training_steps=EPOCHS and =len(train_loader) under an epoch loop; without
    the detector a page for frozen parameters or an LR not scaled to the GPU count leads."""
    _decides(
        "code.schedule_shorter_than_training",
        folder_case(FIRST_SIGHT / "batch-16" / slug, "lr-decayed-to-zero-early"),
    )


def test_infinite_fill_names_the_fully_masked_rows_of_a_padded_batch() -> None:
    """r16D-pytorch-attention-classifier-loss-nan-early-repro (batch-16): without the detector
    the generic NaN-loss page leads; the attention fills padding with -inf before its softmax."""
    case = folder_case(
        FIRST_SIGHT / "batch-16" / "r16D-pytorch-attention-classifier-loss-nan-early-repro",
        "attention-fully-masked-row-nan",
    )
    _decides("code.infinite_fill_before_softmax", case)


def test_item_whole_split_names_a_feature_file_reloaded_for_every_sample() -> None:
    """r16E-pytorch-low-samples-per-sec-repro (batch-16): without the finding the top answers
    are thread oversubscription and worker counts; __getitem__ np.loads the whole 37 MB file."""
    case = folder_case(
        FIRST_SIGHT / "batch-16" / "r16E-pytorch-low-samples-per-sec-repro",
        "getitem-processes-whole-dataset",
    )
    _decides("code.item_processes_whole_split", case)


def test_rank_shard_names_hand_made_shards_that_leave_one_rank_a_batch_more() -> None:
    """r16E-pytorch-ddp-stuck-first-epoch-repro (batch-16): without the detector a start-up
    rendezvous page leads; x[rank::world_size] gives rank 0 33 batches and rank 1 32."""
    case = folder_case(
        FIRST_SIGHT / "batch-16" / "r16E-pytorch-ddp-stuck-first-epoch-repro", "ddp-uneven-inputs"
    )
    _decides("code.data_sharded_by_rank_by_hand", case)


def test_batch_std_names_the_last_batch_of_one_sample() -> None:
    """pytorch-batch-std-last-batch-size1-nan-repro (batch-6), its log and script as a user
    hands them in without a description (the description alone now names the page): without
    the detector the generic NaN-loss page leads; forward() divides by x.std(dim=0) and the
    loader keeps its last batch, which holds one sample."""
    case = _without_description(
        FIRST_SIGHT / "batch-6" / "pytorch-batch-std-last-batch-size1-nan-repro",
        "std-of-single-value-nan",
    )
    _decides("code.batch_std_with_bessel_correction", case)


def test_module_freeze_names_a_freeze_flag_set_on_the_module() -> None:
    """r18E-transformers-frozen-encoder-still-changes-repro (batch-18): without the detector a
    linear-probe slowness record leads; model.bert.requires_grad = False froze nothing."""
    case = folder_case(
        FIRST_SIGHT / "batch-18" / "r18E-transformers-frozen-encoder-still-changes-repro",
        "freeze-flag-never-reaches-parameters",
    )
    _decides("code.requires_grad_set_on_module", case)


def test_schedule_length_reads_one_epoch_counted_from_the_dataset() -> None:
    """r17D-pytorch-loss-flat-after-first-epoch-repro (batch-17): num_training_steps =
    len(train_ds) // BATCH under an eight-epoch loop; without the detector an LR-scaling page
    leads."""
    case = folder_case(
        FIRST_SIGHT / "batch-17" / "r17D-pytorch-loss-flat-after-first-epoch-repro",
        "lr-decayed-to-zero-early",
    )
    _decides("code.schedule_shorter_than_training", case)
