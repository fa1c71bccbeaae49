"""The OOM's course the user states: memory that grows over the run, or not at all."""

from __future__ import annotations

import pytest

from trainwreck.context.growth import memory_growth


@pytest.mark.parametrize(
    ("text", "words"),
    [
        # first-sight batch-16 (a Lightning template's training_step): the user's own words
        (
            "GPU memory usage grows linearly after each training step instead of staying flat.",
            ("gpu memory usage grows",),
        ),
        # batch-14 (pytorch#5902): an adverb between the noun and the verb
        ("memory usage slowly increases from 5 GB to 17 GB", ("memory usage slowly increases",)),
        ("RAM climbs steadily throughout the epoch", ("ram climbs",)),
        ("host RSS keeps going up every epoch", ("host rss keeps going up",)),
        ("I suspect a memory leak in the evaluation loop", ("memory leak",)),
        # batch-34's DGL thread: what each step takes and never gives back
        (
            "in validation each forward pass allocates new memory that is not released",
            ("memory that is not released",),
        ),
        # the course ruled out: memory that does not grow states nothing
        ("GPU memory does not grow between steps, it OOMs at step 0", ()),
        ("RAM never increases; the kill comes at load time", ()),
        # a rising loss is not memory
        ("the loss increases after epoch 3", ()),
        # a one-off peak is not a course
        ("memory is 70 GB at the first step", ()),
    ],
)
def test_a_description_says_whether_memory_grows(text: str, words: tuple[str, ...]) -> None:
    assert memory_growth(text) == words


def test_no_description_states_no_course() -> None:
    assert memory_growth(None) == ()
    assert memory_growth("") == ()
