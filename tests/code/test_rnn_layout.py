"""code.rnn_time_major_read_batch_first: a default-layout RNN read as batch-first."""

from __future__ import annotations

from pathlib import Path

import pytest
from code_helpers import findings

from trainwreck.curation.cases import diagnose_folder

ID = "code.rnn_time_major_read_batch_first"
BATCH_9 = Path(__file__).parents[2] / "benchmarks" / "first_sight" / "batch-9"

MODEL = """
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(input_size=6, hidden_size=64, num_layers=2)
        self.head = nn.Linear(64, 6)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.head(out[:, -1, :])
"""


@pytest.mark.parametrize(
    ("source", "fires"),
    [
        (MODEL, True),
        (MODEL.replace("num_layers=2)", "num_layers=2, batch_first=True)"), False),
        (MODEL.replace("out[:, -1, :]", "out[-1]"), False),  # time-major read, consistent
        (MODEL.replace("nn.LSTM", "nn.GRU"), True),
        (MODEL.replace("num_layers=2)", "num_layers=2, batch_first=False)"), True),
    ],
)
def test_fires_only_for_a_time_major_layer_read_batch_first(source: str, fires: bool) -> None:
    assert (ID in findings(source)) is fires


def test_the_activity_lstm_whose_loss_sticks_at_0_85_gets_its_page() -> None:
    # first-sight batch-9 reproduction, judged wrong at 1e00051 (its "gets stuck" read as a hang)
    report = diagnose_folder(BATCH_9 / "r1-pytorch-lstm-har-loss-stuck-repro")
    assert report.hypotheses[0].id == "rnn-time-major-fed-batch-first"
