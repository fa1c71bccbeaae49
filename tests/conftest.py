"""Shared fixtures: the golden-file update flag, and a private disk cache."""

from __future__ import annotations

import os
import tempfile

import pytest

# The suite (and the CLI processes it starts) must not read or fill the user's cache.
os.environ["TRAINWRECK_CACHE_DIR"] = tempfile.mkdtemp(prefix="trainwreck-test-cache-")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite expected.md/expected.json beside each real case",
    )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))
