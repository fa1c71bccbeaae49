"""code.weights_cast_to_bfloat16_for_training: the parameters themselves in bfloat16."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

from trainwreck.curation.cases import diagnose_folder

ID = "code.weights_cast_to_bfloat16_for_training"
SCRIPT = """
DTYPE = torch.bfloat16
model = ConvNet()
{cast}
opt = torch.optim.AdamW(model.parameters(), lr=3e-5)
"""


@pytest.mark.parametrize(
    "cast",
    [
        "model = model.to(DTYPE)",
        "model = model.to(torch.bfloat16)",
        "model.bfloat16()",
        "model = AutoModel.from_pretrained('bert-base-uncased', torch_dtype=torch.bfloat16)",
        "model = model.to(device, dtype=torch.bfloat16)",
    ],
)
def test_fires_when_the_weights_are_cast_and_trained(cast: str) -> None:
    assert fires(SCRIPT.format(cast=cast), ID)


@pytest.mark.parametrize(
    "source",
    [
        SCRIPT.format(cast="model = model.to(torch.float32)"),
        SCRIPT.format(cast="x = x.to(torch.bfloat16)"),  # the inputs, not the weights
        # autocast computes in bfloat16 on fp32 weights
        SCRIPT.format(cast="ctx = torch.autocast('cpu', dtype=torch.bfloat16)"),
        # inference only: no optimizer
        "model = Net().to(torch.bfloat16)\nwith torch.no_grad():\n    out = model(x)\n",
    ],
)
def test_quiet_for_fp32_weights_inputs_autocast_or_inference(source: str) -> None:
    assert not fires(source, ID)


def test_the_batch_19_reproduction_leads_with_the_bf16_master_page() -> None:
    """r19D-pytorch-bf16-loss-plateaus-early-repro (batch-19, judged family at 8c2ac608: a
    target-alignment page led, the bf16 page second): ConvNet().to(DTYPE) with
    DTYPE = torch.bfloat16 at line 72, then AdamW at lr 3e-5."""
    case = ROOT / "benchmarks/first_sight/batch-19/r19D-pytorch-bf16-loss-plateaus-early-repro"
    assert file_findings(case / "train.py")[ID].evidence[0].line == 72
    assert diagnose_folder(case).hypotheses[0].id == "bf16-weights-without-fp32-master"
