"""The package exports exactly its public, non-module names, sorted."""

import inspect

import pytest

import trainwreck


def test_all_is_sorted_and_holds_every_public_name() -> None:
    public = {
        name
        for name, value in vars(trainwreck).items()
        if not name.startswith("_") and not inspect.ismodule(value) and name != "annotations"
    }
    assert trainwreck.__all__ == sorted(trainwreck.__all__)
    assert public | {"__version__"} <= set(trainwreck.__all__)


def test_every_exported_name_resolves_and_unknown_names_do_not() -> None:
    """The models load on first use; an export that names nothing would fail here."""
    for name in trainwreck.__all__:
        assert getattr(trainwreck, name) is not None
    assert trainwreck.Diagnosis is trainwreck.model.Diagnosis
    assert callable(trainwreck.diagnose)
    with pytest.raises(AttributeError, match="no_such_name"):
        trainwreck.no_such_name  # noqa: B018
