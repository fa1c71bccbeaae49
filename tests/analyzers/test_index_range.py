"""Index errors against the size of the table they index (analyzers/index_range.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from arith_helpers import first_sight, found, logged, sources, values

from helpers import torch_error


def test_repro_crossentropy_1based_labels_names_one_based_labels() -> None:
    """batch-1 repro: labels drawn from 1..10 for 10 logits; the log prints num_classes."""
    diagnosis = first_sight("repro-torch-crossentropy-1based-labels")
    finding = found(diagnosis, "index.")["index.labels_one_based"]
    assert "labels are 1-based: target 10 == number of classes 10" in finding.title
    origin = sources(finding)
    assert origin["offending index"].endswith("train.log:18")  # IndexError: Target 10 ...
    assert origin["number of classes"].endswith("train.log:1 ('num_classes: 10')")
    assert diagnosis.hypotheses[0].id == "cuda-device-side-assert-index"
    assert diagnosis.hypotheses[0].values["index"] == 10


def test_tokenizers_llama31_pad_token_is_the_first_id_past_the_vocabulary() -> None:
    """tokenizers#1609: [PAD] got id 128256 after the vocabulary size was taken; the symptoms
    name Meta-Llama-3.1-8B-Instruct, whose bundled config has vocab_size 128256."""
    diagnosis = first_sight("tokenizers-llama31-pad-token-index-assert-1609")
    finding = found(diagnosis, "index.")["index.token_beyond_vocab"]
    assert "token id 128256 >= vocabulary size 128256" in finding.summary
    assert "the first id past the embedding table" in finding.summary
    assert sources(finding)["vocabulary size"].startswith(
        "bundled meta-llama/Llama-3.1-8B config.json (named in symptoms)"
    )
    assert diagnosis.hypotheses[0].id == "cuda-device-side-assert-index"


def test_litllama_custom_tokenizer_assert_names_the_table_and_the_missing_numbers() -> None:
    """lit-llama#306: only the kernel assertion was pasted: an embedding lookup, no numbers."""
    diagnosis = first_sight("litllama-custom-tokenizer-vocab-index-assert-306")
    finding = found(diagnosis, "index.")["index.out_of_range"]
    assert finding.values["table"] == "tokens"
    assert "does not print its value" in finding.summary
    assert values(finding)["vocabulary size"] == "-"
    assert diagnosis.hypotheses[0].id == "cuda-device-side-assert-index"


@pytest.mark.parametrize(
    ("logits", "target", "expected"),
    [
        (9, 9, "index.out_of_range"),  # below the stated 10: the stated count is not the head's
        (10, 10, "index.labels_one_based"),  # at
        (10, 11, "index.labels_exceed_classes"),  # above
    ],
)
def test_target_against_the_stated_class_count(
    tmp_path: Path, logits: int, target: int, expected: str
) -> None:
    error = torch_error(f"F.cross_entropy(torch.zeros(1, {logits}), torch.tensor([{target}]))")
    assert error == f"IndexError: Target {target} is out of bounds."
    finding = found(logged(tmp_path, f"num_classes: 10\n{error}\n"), "index.")
    assert list(finding) == [expected]
    assert finding[expected].values == {"table": "labels", "index": target, "table_size": 10}


def test_negative_target_is_padding_unless_it_is_the_ignore_index(tmp_path: Path) -> None:
    error = torch_error(
        "F.cross_entropy(torch.zeros(1, 10), torch.tensor([-100]), ignore_index=-1)"
    )
    finding = found(logged(tmp_path, f"ignore_index: -1\n{error}\n"), "index.")
    negative = finding["index.negative_label"]
    assert "target -100 is negative and not the loss's ignore_index -1" in negative.summary
    assert sources(negative)["ignore_index"].endswith("train.log:1")


def test_negative_target_against_the_default_ignore_index(tmp_path: Path) -> None:
    error = torch_error("F.cross_entropy(torch.zeros(1, 10), torch.tensor([-1]))")
    negative = found(logged(tmp_path, error + "\n"), "index.")["index.negative_label"]
    assert "ignore_index -100" in negative.summary
    assert sources(negative)["ignore_index"].startswith("[assumed]")


@pytest.mark.parametrize(
    ("token", "expected"),
    [(31999, None), (32000, "the first id past"), (32001, "1 id past"), (32005, "5 ids past")],
)
def test_token_id_against_the_vocabulary(tmp_path: Path, token: int, expected: str | None) -> None:
    text = f"vocab_size = 32000\nERROR:__main__:Token ID {token} out of range\n"
    finding = found(logged(tmp_path, text), "index.")
    if expected is None:
        assert list(finding) == ["index.out_of_range"]
        assert "smaller than that" in finding["index.out_of_range"].summary
    else:
        assert expected in finding["index.token_beyond_vocab"].summary


def test_cpu_embedding_lookup_has_no_value_to_compare(tmp_path: Path) -> None:
    error = torch_error("torch.nn.Embedding(100, 8)(torch.tensor([100]))")
    assert error == "IndexError: index out of range in self"
    finding = found(logged(tmp_path, f"vocab_size: 100\n{error}\n"), "index.")
    assert finding["index.out_of_range"].values == {
        "table": "tokens",
        "index": None,
        "table_size": 100,
    }


def test_no_index_error_no_finding(tmp_path: Path) -> None:
    assert found(logged(tmp_path, "num_classes: 10\nepoch 1 loss 0.5\n"), "index.") == {}
