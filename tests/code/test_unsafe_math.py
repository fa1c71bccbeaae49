"""code.log_without_eps: log, sqrt or division on a probability with no epsilon or clamp."""

from __future__ import annotations

from code_helpers import BATCH_1, file_findings, findings, fires

from trainwreck.analyzers.code.unsafe_math import MAX_EPSILON

ID = "code.log_without_eps"


def test_fires_on_the_hand_written_bce_of_the_batch_1_reproduction() -> None:
    finding = file_findings(BATCH_1 / "repro-torch-manual-bce-log-zero-nan" / "repro.py")[ID]
    assert (finding.values["line"], finding.values["operation"]) == (23, "log")
    assert finding.values["operand"] == "p"


def test_fires_on_log_of_squashed_outputs_in_each_spelling() -> None:
    for source in (
        "loss = -(y * torch.log(torch.sigmoid(logits))).mean()",
        "probs = F.softmax(logits, dim=-1)\nloss = -torch.log(probs[range(n), y]).mean()",
        "p = logits.sigmoid()\nloss = -(1 - p).log().mean()",
    ):
        assert fires(source, ID), source


def test_fires_on_a_dice_ratio_over_sigmoid_outputs() -> None:
    source = "p = torch.sigmoid(logits)\ndice = 2 * (p * t).sum() / (p.sum() + t.sum())"
    assert findings(source)[ID].values["operation"] == "division"


def test_quiet_with_an_epsilon_a_clamp_or_a_log_space_function() -> None:
    for source in (
        "loss = -torch.log(torch.sigmoid(x) + 1e-7)",
        "loss = -torch.log(torch.sigmoid(x) + eps)",
        "loss = -torch.log(torch.sigmoid(x).clamp(min=1e-7))",
        "loss = -torch.log(torch.clamp(torch.sigmoid(x), 1e-7, 1 - 1e-7))",
        "loss = -F.log_softmax(logits, dim=-1)",
        "p = torch.sigmoid(x)\ndice = 2 * (p * t).sum() / (p.sum() + t.sum() + smooth)",
    ):
        assert not fires(source, ID), source


def test_quiet_on_data_and_on_counts() -> None:
    assert not fires("scaled = torch.log(features)\nloss = loss / accumulation_steps", ID)


def test_an_added_constant_counts_as_an_epsilon_up_to_the_limit() -> None:
    def fires_with(constant: float) -> bool:
        return fires(f"loss = -torch.log(torch.sigmoid(x) + {constant!r})", ID)

    assert not fires_with(MAX_EPSILON / 10)
    assert not fires_with(MAX_EPSILON)
    assert fires_with(MAX_EPSILON * 10)


def test_a_parameter_counts_only_in_a_function_named_like_a_loss() -> None:
    assert fires("def focal_loss(p, t):\n    return -(t * torch.log(p)).mean()", ID)
    assert not fires("def normalise(p, t):\n    return torch.log(p)", ID)
    assert not fires("def bce(weights, t):\n    return torch.log(weights)", ID)


def test_a_division_counts_only_inside_a_loss() -> None:
    model_code = "def decode_boxes(anchors, x):\n    return anchors / torch.sigmoid(x)\n"
    assert not fires(model_code, ID)
    assert fires(model_code.replace("decode_boxes", "box_loss"), ID)
