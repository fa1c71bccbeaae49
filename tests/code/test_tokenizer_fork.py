"""code.tokenizer_used_before_fork: a fast tokenizer encodes in the parent, then in workers."""

from __future__ import annotations

import pytest
from code_helpers import BATCH_15, file_findings, fires

ID = "code.tokenizer_used_before_fork"
SCRIPT = """
{prelude}
tokenizer = AutoTokenizer.from_pretrained("roberta-base")
{parent}

class Texts(Dataset):
    def __getitem__(self, i):
        return tokenizer.encode(self.texts[i])

loader = DataLoader(Texts(texts), num_workers=4)
"""


def _script(parent: str = 'print(tokenizer.encode("a test"))', prelude: str = "") -> str:
    return SCRIPT.format(parent=parent, prelude=prelude)


def test_fires_on_the_batch_15_thread() -> None:
    """tokenizers#187: a test encode at module level, then encode() in __getitem__."""
    found = file_findings(BATCH_15 / "t15A-tokenizers-dataloader-worker-freeze" / "train.py")[ID]
    assert found.values["tokenizer"] == "TEST_TOKENIZER"


def test_fires_on_an_encode_in_the_parent_and_the_items() -> None:
    assert fires(_script(), ID)


@pytest.mark.parametrize(
    ("parent", "prelude"),
    [
        ("pass", ""),  # the parent never encodes: no pool to inherit
        ('print(tokenizer.encode("a test"))', 'os.environ["TOKENIZERS_PARALLELISM"] = "false"'),
        ("def check():\n    tokenizer.encode('x')", ""),  # inside a function, not at start-up
    ],
)
def test_quiet_without_an_encode_in_the_parent_or_with_the_pool_off(
    parent: str, prelude: str
) -> None:
    assert not fires(_script(parent, prelude), ID)
