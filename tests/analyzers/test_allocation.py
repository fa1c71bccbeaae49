"""A failed allocation factored against the run's sizes (analyzers/allocation.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from arith_helpers import found, logged, run_script, sources, values

from trainwreck.model import Finding

CUDA_OOM = (
    "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate {size}. GPU 0 has a total "
    "capacity of 79.19 GiB of which 1.20 GiB is free. Including non-PyTorch memory, this "
    "process has 77.98 GiB memory in use.\n"
)


def test_pairwise_distances_on_the_cpu_are_a_full_n_by_n_float32_matrix(tmp_path: Path) -> None:
    """A real run: torch.cdist over a million 16-d points asks for 10^12 float32 distances."""
    output = run_script("pairwise_distances.py")
    assert "you tried to allocate 4000000000000 bytes" in output
    finding = found(logged(tmp_path, output), "alloc.")["alloc.full_matrix"]
    assert finding.title == (
        "the failed allocation is a full n x n matrix in fp32 (1000000 x 1000000 x 4 B)"
    )
    assert sources(finding)["n (count)"].endswith("train.log:1 ('n_points = 1000000')")
    assert values(finding)["a full n x n matrix"] == 4_000_000_000_000


@pytest.mark.parametrize(
    ("printed", "matches"),
    [
        ("23.83 GiB", False),  # 80,000² x 4 B = 23.8419 GiB: printed to 2 decimals it is 23.84
        ("23.84 GiB", True),
        ("23.85 GiB", False),
        ("25599999999 bytes", False),  # exact bytes: exact product or nothing
        ("25600000000 bytes", True),
        ("25600000001 bytes", False),
    ],
)
def test_a_match_is_exact_to_the_printed_precision(
    tmp_path: Path, printed: str, matches: bool
) -> None:
    symptoms = "OOM while computing the similarity matrix of 80,000 samples"
    diagnosis = logged(tmp_path, CUDA_OOM.format(size=printed), symptoms=symptoms)
    assert ("alloc.full_matrix" in found(diagnosis, "alloc.")) is matches


def _llm_run(tmp_path: Path, size: str) -> dict[str, Finding]:
    model = {"model_type": "llama", "vocab_size": 32000, "num_attention_heads": 32}
    train = "per_device_train_batch_size: 8\nmax_seq_length: 2048\n"
    diagnosis = logged(
        tmp_path,
        CUDA_OOM.format(size=size),
        files={"config.json": json.dumps(model), "train_config.yaml": train},
    )
    return found(diagnosis, "alloc.")


def test_full_vocabulary_logits_in_fp32(tmp_path: Path) -> None:
    # 8 x 2048 x 32000 x 4 B = 2,097,152,000 B = 1.953 GiB
    finding = _llm_run(tmp_path, "1.95 GiB")["alloc.logits"]
    assert "8 x 2048 x 32000 x 4 B = 2,097,152,000 bytes (b·s·V·k)" in finding.summary
    origin = sources(finding)
    assert origin["V (vocab)"] == "config.json:vocab_size"
    assert origin["b (batch)"].endswith("train_config.yaml:per_device_train_batch_size")


def test_attention_scores_in_half_precision(tmp_path: Path) -> None:
    # 8 x 32 x 2048² x 2 B = 2,147,483,648 B = 2.00 GiB
    findings = _llm_run(tmp_path, "2.00 GiB")
    assert "8 x 32 x 2048 x 2048 x 2 B" in findings["alloc.attention_scores"].summary


def test_one_ranks_shard_of_fp32_weights(tmp_path: Path) -> None:
    """LLaMA-2-7B (bundled config): 6,738,415,616 params x 4 B / 8 ranks = 3.14 GiB."""
    command = "torchrun --nproc_per_node=8 train.py --model_name_or_path meta-llama/Llama-2-7b-hf\n"
    diagnosis = logged(tmp_path, CUDA_OOM.format(size="3.14 GiB"), files={"command.txt": command})
    finding = found(diagnosis, "alloc.")["alloc.weights"]
    assert "one rank's shard of the weights in fp32" in finding.summary
    assert values(finding)["params (params)"] == 6_738_415_616
    assert values(finding)["world (world)"] == 8


def test_no_stated_size_no_finding(tmp_path: Path) -> None:
    assert found(logged(tmp_path, CUDA_OOM.format(size="23.84 GiB")), "alloc.") == {}


@pytest.mark.parametrize(
    ("shape", "names_the_matrix"),
    [
        ("(122994, 122994)", True),  # idstcv/SoftTriple#13: the n x n similarity matrix
        ("(122994, 122993)", False),  # not square: some other large array
    ],
)
def test_numpy_names_the_matrix_page_only_for_a_square_shape(
    tmp_path: Path, shape: str, names_the_matrix: bool
) -> None:
    """NumPy prints the shape it could not allocate; only a square one is an n x n matrix."""
    error = (
        f"MemoryError: Unable to allocate 113. GiB for an array with shape {shape} "
        "and data type float64\n"
    )
    ranked = [h.id for h in logged(tmp_path, error).hypotheses]
    assert (ranked[:1] == ["pairwise-matrix-materialized-oom"]) is names_the_matrix
    assert ("pairwise-matrix-materialized-oom" in ranked) is names_the_matrix


CPU_OOM = (
    "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't "
    "allocate memory: you tried to allocate {size} bytes. Error code 12 (Cannot allocate memory)\n"
)


@pytest.mark.parametrize(
    ("stated", "side"),
    [
        ("the validation set has 120k rows", 120_000),
        ("validation split: 120k", None),  # a count of nothing named
        ("120k validation rows", 120_000),
        ("120,000 validation rows", 120_000),
        ("0.12M eval samples", 120_000),
        ("1.5k rows", None),  # 1,500 rows: 9 MB, not the request
        # batch-19 r19E (bi-encoder Recall@k): the rows of stated 2-D tensors, and queries
        ("embeds two 120k x 64 tensors, 22 MiB each", 120_000),
        ("a 120,000 \u00d7 768 fp32 matrix", 120_000),
        ("120k queries against the catalogue", 120_000),
        ("a 120k x 64 slice", None),  # no tensor named
    ],
)
def test_counts_as_people_write_them(tmp_path: Path, stated: str, side: int | None) -> None:
    """batch-15 r15D (val RMSE): "120k validation rows" names the n of a 57.6 GB n x n matrix."""
    diagnosis = logged(tmp_path, CPU_OOM.format(size=57_600_000_000), symptoms=stated)
    finding = found(diagnosis, "alloc.").get("alloc.full_matrix")
    if side is None:
        assert finding is None
        return
    assert finding is not None and values(finding)["n (count)"] == side


RETRIEVAL_LOG = (
    "encoded 40000 queries and 200000 passages in 60.9s\n"
    "RuntimeError: [enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't "
    "allocate memory: you tried to allocate {n_bytes} bytes. Error code 12 (Cannot allocate "
    "memory)\n"
)


def test_every_query_against_every_passage_is_an_m_by_n_matrix(tmp_path: Path) -> None:
    """r20E-transformers-retrieval-eval-alloc-oom-repro (batch-20, family at 01690ec1): the
    counts the run logged, 40,000 x 200,000 float32 scores, are exactly the failed request."""
    finding = found(logged(tmp_path, RETRIEVAL_LOG.format(n_bytes=32_000_000_000)), "alloc.")[
        "alloc.full_matrix"
    ]
    assert finding.title == (
        "the failed allocation is a full m x n matrix of all pairs in fp32 (40000 x 200000 x 4 B)"
    )
    assert sources(finding)["m (count)"].endswith("train.log:1 ('40000 queries')")
    assert sources(finding)["n (count)"].endswith("train.log:1 ('200000 passages')")


def test_two_counts_that_do_not_multiply_to_the_request_name_nothing(tmp_path: Path) -> None:
    assert not found(logged(tmp_path, RETRIEVAL_LOG.format(n_bytes=32_000_000_004)), "alloc.")
