"""code.optimizer_stale_model: the optimizer took one model's parameters, the name a new model."""

from __future__ import annotations

import pytest
from code_helpers import ROOT, file_findings, fires

ID = "code.optimizer_stale_model"
REPRO = (
    ROOT
    / "benchmarks/first_sight/batch-2/repro-pytorch-optimizer-stale-params-after-reload/repro.py"
)


def test_fires_on_the_first_sight_repro_whose_loss_never_moved() -> None:
    found = file_findings(REPRO)[ID]
    assert (found.values["line"], found.values["optimizer_line"]) == (19, 14)
    assert found.values["optimizer"] == "SGD"


@pytest.mark.parametrize(
    "rebind",
    [
        "model = build_model()",
        "model = torch.load('warm.pt')",
        "model = copy.deepcopy(teacher)",
        "model = AutoModel.from_pretrained('bert-base-uncased')",
    ],
)
def test_fires_when_the_name_is_bound_to_a_new_module_after_the_optimizer(rebind: str) -> None:
    source = f"""
        model = Net()
        optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
        {rebind}
        for x, y in loader:
            loss = criterion(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    """
    assert fires(source, ID), rebind


@pytest.mark.parametrize(
    "rebind",
    [
        "model = model.to(device)",  # same module object
        "model = DDP(model, device_ids=[rank])",  # wrapper shares the parameters
        "model = torch.compile(model)",
        "model.load_state_dict(torch.load('warm.pt'))",  # loads into the same tensors
    ],
)
def test_quiet_when_the_parameters_stay_the_same_tensors(rebind: str) -> None:
    source = f"""
        model = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        {rebind}
    """
    assert not fires(source, ID), rebind


def test_quiet_when_the_optimizer_is_rebuilt_after_the_new_model() -> None:
    source = """
        model = Net()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        model = build_model()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    """
    assert not fires(source, ID)


def test_quiet_when_the_new_model_comes_before_the_optimizer() -> None:
    source = """
        model = Net()
        model = build_model()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    """
    assert not fires(source, ID)


def test_the_mechanism_an_optimizer_step_leaves_the_new_model_unchanged() -> None:
    torch = pytest.importorskip("torch")
    model = torch.nn.Linear(3, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    model = torch.nn.Linear(3, 1)
    before = model.weight.detach().clone()
    model(torch.ones(2, 3)).sum().backward()
    optimizer.step()
    assert model.weight.grad is not None
    assert torch.equal(model.weight, before)


FINETUNE_REPRO = (
    ROOT / "benchmarks/first_sight/batch-7/finetune-optimizer-built-before-head-swap-repro/repro.py"
)


def test_fires_on_a_head_replaced_after_the_optimizer_was_built() -> None:
    """batch-7 (judged family at ff53c5d): Adam built over the trainable parameters, then
    `model.fc = nn.Linear(256, C)`; loss stayed at 1.7973 every epoch."""
    found = file_findings(FINETUNE_REPRO)[ID]
    assert (found.values["line"], found.values["optimizer_line"]) == (26, 23)
    assert found.values["rebound"] == "model.fc"


@pytest.mark.parametrize(
    "replace",
    ["model.fc = nn.Linear(model.fc.in_features, 6)", "model.classifier = nn.Linear(768, 2)"],
)
def test_fires_when_a_submodule_is_replaced_after_the_optimizer(replace: str) -> None:
    source = f"""
        model = Net()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        {replace}
    """
    assert fires(source, ID), replace


@pytest.mark.parametrize(
    "after",
    [
        "optimizer.add_param_group({'params': model.fc.parameters()})",
        "optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)",
    ],
)
def test_quiet_when_the_new_head_reaches_the_optimizer(after: str) -> None:
    source = f"""
        model = Net()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        model.fc = nn.Linear(256, 6)
        {after}
    """
    assert not fires(source, ID), after


def test_quiet_when_the_head_is_replaced_before_the_optimizer() -> None:
    source = """
        model = Net()
        model.fc = nn.Linear(256, 6)
        model.fc = model.fc.to(device)
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    """
    assert not fires(source, ID)


HELPER = """
def build_optimizer(net, lr, wd=0.01):
    decay, no_decay = [], []
    for name, p in net.named_parameters():
        (no_decay if p.ndim < 2 else decay).append(p)
    return torch.optim.AdamW([{"params": decay}, {"params": no_decay}], lr=lr)

def main():
    model = Net()
    opt = build_optimizer(model, lr=1e-2)
    model.head = nn.Linear(64, 5)
    {after}
    train(model, opt)
"""


def test_fires_when_a_helper_built_the_optimizer_before_the_head_was_replaced() -> None:
    """r19D-pytorch-finetune-loss-flat-at-chance-repro (batch-19, judged family at 8c2ac608):
    the optimizer comes from the script's build_optimizer(model, ...), whose body reads the
    model's named_parameters(); the new probe head after it was never trained."""
    assert fires(HELPER.replace("{after}", "pass"), ID)
    case = ROOT / "benchmarks/first_sight/batch-19/r19D-pytorch-finetune-loss-flat-at-chance-repro"
    found = file_findings(case / "train.py")[ID]
    assert (found.values["line"], found.values["optimizer"]) == (70, "build_optimizer")


def test_quiet_when_the_helper_builds_a_new_optimizer_after_the_head() -> None:
    assert not fires(HELPER.replace("{after}", "opt = build_optimizer(model, lr=1e-2)"), ID)
