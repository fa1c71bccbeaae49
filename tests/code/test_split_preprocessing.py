"""code.split_preprocessing_differs: one split's ImageDataGenerator rescales and another's not."""

from __future__ import annotations

import pytest
from code_helpers import fires

ID = "code.split_preprocessing_differs"


@pytest.mark.parametrize(
    "validation",
    ["ImageDataGenerator()", "ImageDataGenerator(horizontal_flip=False)"],
)
def test_fires_when_only_the_training_generator_rescales(validation: str) -> None:
    source = f"""
train_gen = ImageDataGenerator(rescale=1./255, rotation_range=20)
val_gen = {validation}
"""
    assert fires(source, ID)


@pytest.mark.parametrize(
    "validation",
    [
        "ImageDataGenerator(rescale=1./255)",
        "ImageDataGenerator(preprocessing_function=preprocess_input)",
    ],
)
def test_quiet_when_every_generator_scales(validation: str) -> None:
    source = f"""
train_gen = ImageDataGenerator(rescale=1./255, rotation_range=20)
val_gen = {validation}
"""
    assert not fires(source, ID)


def test_quiet_when_no_generator_scales() -> None:
    """Both splits raw: consistent (the model may still want scaling, but not this mistake)."""
    assert not fires("a = ImageDataGenerator()\nb = ImageDataGenerator(zoom_range=0.1)\n", ID)
