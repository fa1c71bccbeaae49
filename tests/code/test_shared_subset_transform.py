"""code.subset_shares_dataset_attribute: a transform set through a random_split subset."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_11, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.subset_shares_dataset_attribute"
SPLIT = "train_ds, val_ds = random_split(full, [900, 100])\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (SPLIT + "train_ds.dataset.transform = train_tf", True),
        (SPLIT + "val_ds.dataset.transforms = eval_tf", True),
        (
            SPLIT + "train_ds.transform = train_tf",
            False,
        ),  # on the Subset itself: no effect, no share
        ("train_ds = MyDataset(files, transform=train_tf)\ntrain_ds.dataset = other", False),
        ("loader.dataset.transform = tf", False),  # not a split
    ],
)
def test_fires_on_attributes_set_through_a_split(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


def test_the_glyph_cnn_with_augmented_validation_gets_its_page() -> None:
    # batch-11 reproduction, judged family at 8a38e4c (BatchNorm running statistics led)
    report = diagnose_folder(BATCH_11 / "r1-pytorch-glyph-cnn-val-acc-low-and-changes-repro")
    assert report.hypotheses[0].id == "random-split-subsets-share-transform"
