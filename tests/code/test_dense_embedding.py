"""code.dense_embedding_adam: a huge embedding table with dense gradients under Adam."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

from trainwreck.analyzers.code.dense_embedding import DENSE_TABLE_ENTRIES, ID_TABLE_ROWS
from trainwreck.curation.cases import diagnose_folder

ID = "code.dense_embedding_adam"
CASE = ROOT / "benchmarks/first_sight/batch-28/r28a-pytorch-recommender-1s-per-step-repro"
ADAM = "\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)"
DIM_AT_THRESHOLD = DENSE_TABLE_ENTRIES // ID_TABLE_ROWS


@pytest.mark.parametrize(
    ("code", "fired"),
    [
        ("emb = nn.Embedding(1_600_000, 64)" + ADAM, True),
        # the sizes set together in one line, the table from them
        ("N_ITEMS, DIM = 1_600_000, 64\nemb = nn.Embedding(N_ITEMS, DIM)" + ADAM, True),
        ("emb = nn.Embedding(num_embeddings=500000, embedding_dim=128)" + ADAM, True),
        (f"emb = nn.Embedding({ID_TABLE_ROWS}, {DIM_AT_THRESHOLD + 1})" + ADAM, True),
        (f"emb = nn.Embedding({ID_TABLE_ROWS - 1}, 1024)" + ADAM, False),  # a vocabulary's rows
        (f"emb = nn.Embedding({ID_TABLE_ROWS}, {DIM_AT_THRESHOLD - 1})" + ADAM, False),
        # sparse gradients, a vocabulary-sized table, no dense optimizer
        ("emb = nn.Embedding(1_600_000, 64, sparse=True)" + ADAM, False),
        ("emb = nn.Embedding(30522, 768)" + ADAM, False),  # BERT's vocabulary, 23 M entries
        (
            "emb = nn.Embedding(1_600_000, 64)\nopt = torch.optim.SparseAdam(emb.parameters())",
            False,
        ),
    ],
)
def test_fires_on_a_huge_dense_table_under_adam(code: str, fired: bool) -> None:
    assert fires(code, ID) is fired


def test_the_recommender_reproduction_is_found() -> None:
    """batch-28: 400k user and 1.6M item tables with dense gradients under Adam, ~1 s a step."""
    assert "400000 x 64" in file_findings(CASE / "train.py")[ID].summary


def test_its_page_leads_the_reproduction_it_was_judged_wrong_on() -> None:
    """First sight at 8a4665ed and the dev run at ee237083 led with an embedding-size page."""
    assert diagnose_folder(CASE).hypotheses[0].id == "dense-embedding-gradients-huge-table"
