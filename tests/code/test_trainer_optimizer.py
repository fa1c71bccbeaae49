"""code.trainer_optimizer_without_lr: an optimizer with no lr handed to the Trainer."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_12, file_findings, fires

ID = "code.trainer_optimizer_without_lr"


@pytest.mark.parametrize(
    ("built", "expected"),
    [
        ("torch.optim.RMSprop(model.parameters(), weight_decay=0.01)", True),
        ("AdamW(model.parameters())", True),
        ("torch.optim.AdamW(model.parameters(), lr=2e-5)", False),
        ("torch.optim.SGD(model.parameters(), 0.01, momentum=0.9)", False),
    ],
)
def test_fires_only_without_a_rate(built: str, expected: bool) -> None:
    source = f"opt = {built}\ntrainer = Trainer(model=model, args=args, optimizers=(opt, None))"
    assert fires(source, ID) is expected


def test_an_optimizer_the_trainer_builds_is_quiet() -> None:
    assert not fires("opt = AdamW(model.parameters())\ntrainer = Trainer(model=model)", ID)


def test_the_news_topic_script_is_found() -> None:
    script = BATCH_12 / "r1-transformers-trainer-news-topic-loss-climbs" / "train.py"
    assert file_findings(script)[ID].values["optimizer"] == "RMSprop"
