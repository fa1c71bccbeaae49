"""Code detectors: read the user's training code for the mistakes that explain failures.

The code comes from three places: `.py` files handed in or found in a run
directory, code pasted into logs or the symptoms (evidence.code), and the
source lines traceback frames show for the user's own files. Each is parsed
tolerantly (parse.py) and checked by every detector in `DETECTORS`; a detector
that fires becomes one Finding `code.<name>` citing each `file:line` it fired
at, which knowledge-base pages use through `finding:` signatures.
"""

from __future__ import annotations

from trainwreck.analyzers.code import (
    accumulate,
    batch_count,
    batch_dim,
    batch_jacobian,
    batch_std,
    bf16_weights,
    bool_flag,
    boosting_fork,
    broadcast_compare,
    choice_in_loop,
    class_weights,
    clip_order,
    clip_scaled,
    constant_init,
    count_denominator,
    dataset_pool,
    ddp_sync,
    decoder_labels,
    dense_embedding,
    double_softmax,
    double_step,
    ema_update,
    epoch_scheduler,
    eval_batch_one,
    float64,
    forward_layer,
    functional_dropout,
    generate_prompt,
    getitem_index,
    grown_in_loop,
    half_adam,
    half_weights,
    hook_in_loop,
    host_sync,
    ignored_labels,
    inf_mask,
    item_cache,
    item_frame_row,
    item_inplace,
    item_tensors,
    item_whole_split,
    jax_unjitted,
    join_before_get,
    leaf_inplace,
    leaf_loss,
    lenient_load,
    loader_iter,
    loop_rebound,
    mask_polarity,
    max_length_padding,
    max_values,
    micro_batch_scheduler,
    module_freeze,
    modulo_condition,
    naive_softmax,
    nll_without_log,
    no_grad,
    nondiff_grad,
    normalize_dims,
    one_label,
    parameter_iterator,
    per_step_io,
    plain_backward,
    plateau_mode,
    policy_sign,
    pool_after_with,
    rank_device,
    rank_local_stop,
    rank_shard,
    rank_zero,
    rebound_weight,
    rebuilt_optimizer,
    refit_after_load,
    regex_backtracking,
    reversed_betas,
    rnn_layout,
    sampler_epoch,
    schedule_length,
    set_order,
    shared_subset_transform,
    shuffled_eval,
    slice_view,
    split_leak,
    split_preprocessing,
    stale_optimizer,
    state_alias,
    step_skip,
    swapped_arguments,
    tokenizer_fork,
    torchfix,
    train_mode_inference,
    trainer_loss_order,
    trainer_optimizer,
    unbounded_queue,
    uncalled_state_dict,
    unregistered,
    unresized_vocab,
    unsafe_math,
    unscaled_accumulation,
    unsharded_loader,
    unshuffled_train,
    variance_scale,
    xla_fraction,
    zero_grad,
    zero_std,
)
from trainwreck.analyzers.code.detector import Detector
from trainwreck.analyzers.code.parse import parse
from trainwreck.analyzers.code.tree import Hit, Tree
from trainwreck.model import CodeSnippet, Evidence, Finding, SourceRef

DETECTORS: tuple[Detector, ...] = (
    accumulate.DETECTOR,
    zero_grad.DETECTOR,
    no_grad.DETECTOR,
    train_mode_inference.DETECTOR,
    float64.DETECTOR,
    unsafe_math.DETECTOR,
    nondiff_grad.DETECTOR,
    rank_zero.DETECTOR,
    rank_zero.DDP_FORWARD,
    rank_zero.SHARDED_SAVE,
    half_adam.DETECTOR,
    half_weights.DETECTOR,
    ddp_sync.DETECTOR,
    host_sync.DETECTOR,
    zero_std.DETECTOR,
    broadcast_compare.DETECTOR,
    broadcast_compare.ERROR_TERM,
    stale_optimizer.DETECTOR,
    double_step.DETECTOR,
    lenient_load.DETECTOR,
    shuffled_eval.DETECTOR,
    clip_order.DETECTOR,
    clip_scaled.DETECTOR,
    decoder_labels.DETECTOR,
    batch_jacobian.DETECTOR,
    dense_embedding.DETECTOR,
    choice_in_loop.DETECTOR,
    normalize_dims.DETECTOR,
    unbounded_queue.DETECTOR,
    rank_device.DETECTOR,
    policy_sign.DETECTOR,
    loader_iter.DETECTOR,
    epoch_scheduler.DETECTOR,
    micro_batch_scheduler.DETECTOR,
    join_before_get.DETECTOR,
    tokenizer_fork.DETECTOR,
    boosting_fork.DETECTOR,
    max_length_padding.DETECTOR,
    double_softmax.DETECTOR,
    state_alias.DETECTOR,
    plain_backward.DETECTOR,
    ignored_labels.DETECTOR,
    inf_mask.DETECTOR,
    inf_mask.FULLY_MASKED_ROW,
    rnn_layout.DETECTOR,
    rnn_layout.PADDED_TIME_MAJOR,
    eval_batch_one.DETECTOR,
    pool_after_with.DETECTOR,
    swapped_arguments.DETECTOR,
    bool_flag.DETECTOR,
    hook_in_loop.DETECTOR,
    leaf_loss.DETECTOR,
    one_label.DETECTOR,
    item_cache.DETECTOR,
    item_frame_row.DETECTOR,
    double_softmax.SIGMOID_DETECTOR,
    unregistered.DETECTOR,
    forward_layer.DETECTOR,
    batch_dim.DETECTOR,
    batch_count.DETECTOR,
    getitem_index.DETECTOR,
    rebuilt_optimizer.DETECTOR,
    reversed_betas.DETECTOR,
    zero_grad.RESET_BEFORE_STEP,
    uncalled_state_dict.DETECTOR,
    constant_init.DETECTOR,
    count_denominator.DETECTOR,
    refit_after_load.DETECTOR,
    modulo_condition.DETECTOR,
    rebound_weight.DETECTOR,
    loop_rebound.DETECTOR,
    trainer_loss_order.DETECTOR,
    variance_scale.DETECTOR,
    unscaled_accumulation.DETECTOR,
    per_step_io.DETECTOR,
    unresized_vocab.DETECTOR,
    shared_subset_transform.DETECTOR,
    naive_softmax.DETECTOR,
    leaf_inplace.DETECTOR,
    max_values.DETECTOR,
    item_tensors.DETECTOR,
    set_order.DETECTOR,
    item_inplace.DETECTOR,
    dataset_pool.DETECTOR,
    slice_view.DETECTOR,
    trainer_optimizer.DETECTOR,
    class_weights.DETECTOR,
    class_weights.ZERO_COUNT_DETECTOR,
    split_leak.DETECTOR,
    regex_backtracking.DETECTOR,
    item_whole_split.DETECTOR,
    schedule_length.DETECTOR,
    rank_local_stop.DETECTOR,
    step_skip.DETECTOR,
    xla_fraction.DETECTOR,
    rank_shard.DETECTOR,
    bf16_weights.DETECTOR,
    batch_std.DETECTOR,
    sampler_epoch.DETECTOR,
    unsharded_loader.DETECTOR,
    unshuffled_train.DETECTOR,
    jax_unjitted.DETECTOR,
    split_preprocessing.DETECTOR,
    plateau_mode.DETECTOR,
    generate_prompt.COUNTED,
    generate_prompt.DECODED,
    module_freeze.DETECTOR,
    ema_update.DETECTOR,
    mask_polarity.DETECTOR,
    torchfix.TORCH_LOAD,
    torchfix.REENTRANT_CHECKPOINT,
    torchfix.SYNCHRONOUS_LOADER,
    torchfix.REQUIRE_GRAD_TYPO,
    functional_dropout.DETECTOR,
    parameter_iterator.DETECTOR,
    grown_in_loop.DETECTOR,
    nll_without_log.DETECTOR,
)
FINDING_IDS: tuple[str, ...] = tuple(detector.id for detector in DETECTORS)
# Places cited per finding: enough to show a pattern repeats, few enough to read.
MAX_PLACES = 5


def snippets(evidence: Evidence) -> list[CodeSnippet]:
    """The evidence's code, plus each user frame's source line not already in a code file."""
    files = {snippet.source for snippet in evidence.code if snippet.origin == "file"}
    seen: set[tuple[str, int | None]] = set()
    found = list(evidence.code)
    for exc in evidence.exceptions:
        for frame in exc.frames:
            place = (frame.file, frame.line)
            if frame.library or not frame.code or place in seen or _in_files(frame.file, files):
                continue
            seen.add(place)
            found.append(
                CodeSnippet(
                    source=frame.file, first_line=frame.line or 1, text=frame.code, origin="log"
                )
            )
    return found


def _in_files(path: str, files: set[str]) -> bool:
    """A frame in a file the user also handed in: the whole file is read already."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return any(source.replace("\\", "/").rsplit("/", 1)[-1] == name for source in files)


def _finding(detector: Detector, hits: list[Hit]) -> Finding:
    first = hits[0]
    where = f"{first.source}:{first.line}"
    places = list(dict.fromkeys((hit.source, hit.line, hit.text) for hit in hits))
    return Finding(
        id=detector.id,
        title=detector.title,
        category=detector.category,
        summary=detector.explain.format(where=where, code=first.text, **first.values),
        evidence=tuple(
            SourceRef(source=source, line=line, text=text)
            for source, line, text in places[:MAX_PLACES]
        ),
        values={"file": first.source, "line": first.line, "places": len(places), **first.values},
    )


def analyze(evidence: Evidence) -> list[Finding]:
    """One finding per detector that fires anywhere in the user's code."""
    trees = [Tree(piece) for snippet in snippets(evidence) for piece in parse(snippet)]
    findings = []
    for detector in DETECTORS:
        hits = [hit for tree in trees for hit in detector.find(tree)]
        if hits:
            findings.append(_finding(detector, hits))
    return findings
