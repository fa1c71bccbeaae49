"""code.dataframe_row_read_per_item: a pandas row built for every sample in __getitem__."""

from __future__ import annotations

from code_helpers import ROOT, file_findings, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.dataframe_row_read_per_item"
CASE = (
    ROOT
    / "benchmarks/first_sight/batch-32"
    / "r32a-pytorch-credit-default-mlp-1000-rows-per-second-repro"
)

DATASET = """
class Table(Dataset):
    def __init__(self, df):
        self.df = df

    def __getitem__(self, i):
        row = {lookup}
        return torch.tensor(row[FEATURES].to_numpy(dtype="float32")), row["label"]
"""


def test_fires_on_the_reproduction() -> None:
    """batch-32: `row = self.df.iloc[i]` in FeatureTable.__getitem__, ~1,000 rows/s."""
    assert file_findings(CASE / "train.py")[ID].values["indexer"] == "iloc"


def test_fires_on_each_row_or_cell_indexer() -> None:
    for lookup in ("self.df.iloc[i]", "self.frame.loc[self.ids[i]]", "self.df.iat[i, 0]"):
        assert fires(DATASET.format(lookup=lookup), ID), lookup


def test_quiet_when_the_frame_is_converted_once_or_sliced_outside_an_item() -> None:
    assert not fires(DATASET.format(lookup="self.features[i]"), ID)
    assert not fires("train_df, val_df = df.iloc[:25_000], df.iloc[25_000:]\n", ID)
    assert not fires(DATASET.format(lookup="df.iloc[i]"), ID)  # not the dataset's own storage


def test_the_reproduction_is_answered_with_the_pandas_row_page() -> None:
    assert diagnose_folder(CASE).hypotheses[0].id == "dataset-getitem-reads-pandas-row"
