"""code.numpy_float64_input: NumPy float64 data made into a tensor with no dtype."""

from __future__ import annotations

from code_helpers import BATCH_1, file_findings, findings, fires

ID = "code.numpy_float64_input"


def test_fires_on_both_conversions_of_the_batch_1_reproduction() -> None:
    finding = file_findings(BATCH_1 / "repro-torch-float64-numpy-input" / "repro.py")[ID]
    assert (finding.values["line"], finding.values["array"]) == (12, "X")
    assert [ref.line for ref in finding.evidence] == [12, 13]  # X_t and y_t


DATA = """
    import numpy as np
    import torch
    features = {make}
    inputs = {convert}
    prediction = model(inputs)
"""


def _source(
    make: str = "np.random.randn(100, 8)", convert: str = "torch.from_numpy(features)"
) -> str:
    return DATA.format(make=make, convert=convert)


def test_fires_on_float64_from_each_numpy_source() -> None:
    for make in (
        "np.random.randn(100, 8)",
        "np.zeros((100, 8))",
        "np.loadtxt('data.csv', delimiter=',')",
        "np.array([[0.5, 1.5]]) * 2",
        "frame.values",
        "frame.to_numpy()",
    ):
        assert fires(_source(make=make), ID), make
    for convert in ("torch.tensor(features)", "torch.as_tensor(features)"):
        assert findings(_source(convert=convert))[ID].values["convert"] == convert.split("(")[0]


def test_quiet_when_the_data_or_the_tensor_is_float32() -> None:
    assert not fires(_source(make="np.random.randn(100, 8).astype(np.float32)"), ID)
    assert not fires(_source(make="np.zeros((100, 8), dtype=np.float32)"), ID)
    assert not fires(_source(convert="torch.from_numpy(features).float()"), ID)
    assert not fires(_source(convert="torch.tensor(features, dtype=torch.float32)"), ID)
    assert not fires(_source() + "inputs = inputs.to(torch.float32)\n", ID)


def test_quiet_on_integer_labels_and_on_arrays_of_unknown_origin() -> None:
    assert not fires(_source(make="np.random.randint(0, 10, size=100)"), ID)
    assert not fires("inputs = torch.from_numpy(image)", ID)


def test_quiet_when_the_model_runs_in_float64_on_purpose() -> None:
    assert not fires(_source() + "model = model.double()\n", ID)
