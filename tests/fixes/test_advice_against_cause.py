"""Advice that is the bug (issue 18): no fix recommends what the diagnosis names as the cause.

Observed: "more workers and pin_memory" when too many workers is the cause; `--dtype half`
for a run whose cause is fp16 overflow; re-initialising embed_tokens/lm_head called safe.
"""

from __future__ import annotations

from pathlib import Path

from trainwreck import diagnose
from trainwreck.fixes.consistency import against_cause, check
from trainwreck.fixes.targets import target
from trainwreck.model import Change

FIXTURES = Path(__file__).parent / "fixtures"


def test_no_alternative_raises_workers_when_too_many_workers_is_the_cause() -> None:
    report = diagnose([str(FIXTURES / "too-many-workers" / "train.log")])
    assert report.hypotheses[0].id == "dataloader-too-many-workers"
    ids = [h.id for h in report.hypotheses]
    assert "dataloader-few-workers" in ids  # the alternative is still named ...
    for hypothesis in report.hypotheses[1:]:  # ... but none of its fixes adds workers
        for fix in hypothesis.fixes:
            assert not any(target(c.path).leaf == "num_workers" for c in fix.changes), fix
    assert not [v for v in check(report) if v.rule == "against-cause"]


def test_against_cause_at_each_relation() -> None:
    fewer = [Change(path="DataLoader.num_workers", before="32", after=2)]
    more = Change(path="torch.utils.data.DataLoader.num_workers", before=0, after=4)
    same_way = Change(path="DataLoader.num_workers", before=32, after=4)
    other_key = Change(path="DataLoader.pin_memory", before=False, after=True)
    assert against_cause(more, fewer) == "moves num_workers higher; the diagnosis needs it lower"
    assert against_cause(same_way, fewer) is None
    assert against_cause(other_key, fewer) is None
    float32 = [Change(path="cli.vllm serve --dtype", before="half", after="float32")]
    half = Change(path="--dtype", before="auto", after="half")
    assert against_cause(half, float32) == (
        "sets dtype to 'half', the value the diagnosis names as the cause"
    )


def test_a_vocabulary_mismatch_keeps_the_pretrained_rows() -> None:
    # vocab_resize_load.log: what vocab_resize_load.py raised here (tiny Llama, 100 → 101 tokens)
    top = diagnose([str(FIXTURES / "vocab_resize_load.log")]).hypotheses[0]
    assert top.id == "checkpoint-size-mismatch"
    assert "resize_token_embeddings" in " ".join(top.fixes[0].commands)
    for fix in top.fixes:
        assert not any(c.path.endswith("ignore_mismatched_sizes") for c in fix.changes)
        assert "safe" not in fix.action


def test_the_advised_resize_keeps_every_saved_row() -> None:
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    config = LlamaConfig(
        vocab_size=100, hidden_size=16, intermediate_size=32, num_hidden_layers=1,
        num_attention_heads=2, num_key_value_heads=1, tie_word_embeddings=False,
    )  # fmt: skip
    saved = LlamaForCausalLM(config).state_dict()
    model = LlamaForCausalLM(config)
    model.load_state_dict(saved)
    model.resize_token_embeddings(101)
    rows = model.get_input_embeddings().weight
    assert rows.shape[0] == 101
    assert torch.equal(rows[:100], saved["model.embed_tokens.weight"])
