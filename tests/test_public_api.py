"""The package exports exactly its public, non-module names, sorted."""

import inspect

import trainwreck


def test_all_is_sorted_and_matches_public_names() -> None:
    public = {
        name
        for name, value in vars(trainwreck).items()
        if not name.startswith("_") and not inspect.ismodule(value) and name != "annotations"
    }
    assert trainwreck.__all__ == sorted(trainwreck.__all__)
    assert public | {"__version__"} == set(trainwreck.__all__)
