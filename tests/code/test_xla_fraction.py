"""code.xla_memory_fraction_whole_card: JAX's GPU pool set to the whole card or a percentage."""

from __future__ import annotations

import pytest
from code_helpers import fires

ID = "code.xla_memory_fraction_whole_card"


@pytest.mark.parametrize(
    "source",
    [
        'import os\nos.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = "100"',
        "import os\nos.environ['XLA_PYTHON_CLIENT_MEM_FRACTION'] = '1.0'",
        'os.environ.setdefault("XLA_PYTHON_CLIENT_MEM_FRACTION", ".95")',
    ],
)
def test_fires_on_the_whole_card_or_a_percentage(source: str) -> None:
    assert fires(source, ID)


@pytest.mark.parametrize(
    "source",
    [
        'os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = ".75"',  # the typical ratio
        'os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = "0.94"',  # just below the threshold
        'os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "100"',  # another variable
        'os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] = fraction',  # not a constant
    ],
)
def test_quiet_on_a_ratio_below_the_card_or_another_setting(source: str) -> None:
    assert not fires(source, ID)
