"""Setups the user says the run does not use: out of the page search, and demoting pages
whose title rests on them (first-sight batch-8's attention-pooling reproduction)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from trainwreck.context.denied import affirmed, denied_setups, rests_on
from trainwreck.pipeline import diagnose

CASE = (
    Path(__file__).parent.parent.parent
    / "benchmarks"
    / "first_sight"
    / "batch-8"
    / "pytorch-attention-pooling-loss-nan-midepoch-repro"
)


@pytest.mark.parametrize(
    ("text", "denied"),
    [
        ("There is no fp16/AMP involved and the learning rate is modest.", ("fp16",)),
        ("We train without DeepSpeed or FSDP, on one node.", ("deepspeed", "fsdp")),
        ("I am not using LoRA, this is a full fine-tune", ("lora",)),
        ("fp16 is off and the loss is still nan", ("fp16",)),
        # the failure itself, stated with "no": nothing is denied
        ("no progress after step 10 and no output at all", ()),
        # the reason a run uses fp16, not a setup it lacks (sentence-transformers#2703)
        ("fine-tuning mt5-base with fp16=True on a GPU without bf16", ()),
        # a comparison names the setup on both sides: the run may well use it
        ("with fp16 it NaNs after 100 steps", ()),
        # batch-15 (Lightning#9694): both runs compared, AMP on and off
        ("Megatron-LM with or without AMP converges, Lightning with AMP does not", ()),
        # one card said in words runs no DDP (batch-29's resumed RoBERTa run on one RTX 3090)
        ("resuming pre-training on a single RTX 3090 never starts", ("multi-process",)),
        ("using one A100 the loss becomes nan", ("multi-process",)),
        # one GPU as the comparison, or a node of several: DDP may well run
        ("single GPU works, but multi-GPU training with DDP hangs", ()),
        ("a single-node job with 8 GPUs hangs at the barrier", ()),
        # batch-19: the run uses DeepSpeed; "without DeepSpeed" is the run it is compared with
        (
            "Lightning with the DeepSpeed plugin: the loss does not go down the way it does with "
            "accumulate_grad_batches=1 or without DeepSpeed",
            (),
        ),
    ],
)
def test_a_description_denies_the_setups_it_says_the_run_does_not_use(
    text: str, denied: tuple[str, ...]
) -> None:
    assert denied_setups(text) == denied


def test_the_page_search_reads_the_description_without_its_denials() -> None:
    text = affirmed("Adam 1e-3, there is no fp16/AMP involved, loss becomes nan")
    assert "fp16" not in text and "AMP" not in text
    assert "Adam 1e-3" in text and "loss becomes nan" in text


def test_a_page_title_rests_on_a_denied_setup() -> None:
    title = "Adam/AdamW on float16 weights turns them NaN (eps=1e-8 rounds to 0 in half precision)"
    assert rests_on(title, ("fp16", "deepspeed")) == ("fp16",)
    assert rests_on(title, ("deepspeed",)) == ()


def test_a_float32_run_that_denies_fp16_gets_no_fp16_page_in_its_top_three() -> None:
    meta = yaml.safe_load((CASE / "case.yaml").read_text(encoding="utf-8"))
    diagnosis = diagnose([str(CASE / name) for name in meta["inputs"]], symptoms=meta["symptoms"])
    top = [h.id for h in diagnosis.hypotheses[:3]]
    assert diagnosis.context.denied == ("fp16",)
    # before the denial was read, the fp16-overflow and fp16-Adam pages were second and third
    assert not {"fp16-overflow-bf16-pretrained-model", "adam-eps-underflow-fp16-params"} & set(top)
    assert "attention-fully-masked-row-nan" in top
