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


PADDED = "code.padded_time_major_into_batch_first_layer"
BATCH_31_GRU = (
    Path(__file__).parents[2]
    / "benchmarks/first_sight/batch-31/r31a-pytorch-intent-gru-batch-size-mismatch-first-step-repro"
)

COLLATE = """
def collate(batch):
    seqs, labels = zip(*batch)
    ids = pad_sequence(seqs, padding_value=PAD)
    return ids, torch.tensor(labels)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru = nn.GRU(64, 64, batch_first=True)
"""


@pytest.mark.parametrize(
    ("change", "fires"),
    [
        (("", ""), True),
        (("padding_value=PAD)", "batch_first=True, padding_value=PAD)"), False),
        (("padding_value=PAD)", "batch_first=False, padding_value=PAD)"), True),
        # a time-major model is what the default layout is for
        (("nn.GRU(64, 64, batch_first=True)", "nn.GRU(64, 64)"), False),
        # put back in batch-first order before the model
        (("return ids,", "return ids.transpose(0, 1),"), False),
        (("padding_value=PAD)", "padding_value=PAD).T"), False),
        # the attention stack has the same switch
        (
            (
                "nn.GRU(64, 64, batch_first=True)",
                "nn.TransformerEncoderLayer(64, 4, batch_first=True)",
            ),
            True,
        ),
    ],
)
def test_fires_on_time_major_padding_into_a_batch_first_layer(
    change: tuple[str, str], fires: bool
) -> None:
    assert (PADDED in findings(COLLATE.replace(*change))) is fires


def test_its_page_leads_the_reproduction_whose_batch_size_was_the_sequence_length() -> None:
    """batch-31's GRU intent classifier: "Expected input batch_size (11) to match target
    batch_size (32)"; first sight at f4ddcf4b led with the batch-size family page (High)."""
    top = diagnose_folder(BATCH_31_GRU).hypotheses[0]
    assert top.id == "pad-sequence-time-major-into-batch-first-layer"
