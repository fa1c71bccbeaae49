"""code.disk_work_every_step: a checkpoint per step, a from_pretrained per sample or step."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_11, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.disk_work_every_step"
STEP = "for x, y in loader:\n    loss = crit(model(x), y)\n    loss.backward()\n    opt.step()\n"


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (STEP + "    torch.save(model.state_dict(), 'last.pt')", True),
        (STEP + "    model.save_pretrained('out')", True),
        (
            STEP + "    if step % 500 == 0:\n        torch.save(model.state_dict(), 'last.pt')",
            False,
        ),
        (
            "for epoch in range(3):\n    for x, y in loader:\n        loss = crit(model(x), y)\n"
            "        loss.backward()\n        opt.step()\n"
            "    torch.save(model.state_dict(), 'e.pt')",  # once per epoch, after the step loop
            False,
        ),
        (
            "class D(Dataset):\n    def __getitem__(self, i):\n"
            "        tok = AutoTokenizer.from_pretrained(self.path)\n        return tok(self.t[i])",
            True,
        ),
        ("tok = AutoTokenizer.from_pretrained(path)\n" + STEP, False),
    ],
)
def test_fires_on_per_step_saves_and_per_sample_loads(source: str, expected: bool) -> None:
    assert fires(source, ID) is expected


@pytest.mark.parametrize(
    "case",
    [
        # batch-11 reproductions, judged family at 8a38e4c (data-loader worker pages led)
        "r1-pytorch-ctr-model-low-samples-per-sec-repro",
        "r1-transformers-review-rating-trainer-few-samples-per-sec-repro",
    ],
)
def test_the_slow_reproductions_get_the_page(case: str) -> None:
    assert diagnose_folder(BATCH_11 / case).hypotheses[0].id == "disk-work-every-step"
