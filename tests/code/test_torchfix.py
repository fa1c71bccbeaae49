"""TorchFix's failure-explaining rules: TOR102 (torch.load), TOR003 (checkpoint), TOR002 (typo)."""

from __future__ import annotations

from code_helpers import CASES, findings, fires

from trainwreck.analyzers import code
from trainwreck.evidence.collect import collect

LOAD = "code.torch_load_without_weights_only"
REENTRANT = "code.checkpoint_reentrant"
TYPO = "code.require_grad_typo"


def test_torch_load_without_weights_only_fires_and_with_it_is_quiet() -> None:
    assert fires("state = torch.load(path, map_location='cpu')", LOAD)
    assert not fires("state = torch.load(path, weights_only=True)", LOAD)
    assert not fires("state = torch.load(path, weights_only=False)", LOAD)


def test_torch_load_is_read_from_the_traceback_frame_of_a_real_resume_failure() -> None:
    # fvdb-reality-capture #147: the resume code's frame line, under torch 2.6's new default.
    evidence = collect([str(CASES / "pytorch-weights-only-resume-147" / "train.log")])
    finding = {f.id: f for f in code.analyze(evidence)}[LOAD]
    assert finding.values["line"] == 89
    assert str(finding.values["file"]).endswith("cli/frgs/_resume.py")


def test_reentrant_checkpointing_fires_unless_use_reentrant_is_false() -> None:
    assert findings("y = torch.utils.checkpoint.checkpoint(block, x)")[REENTRANT].values == {
        "file": "train.py",
        "line": 1,
        "places": 1,
        "use_reentrant": "not given",
    }
    assert fires("y = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=True)", REENTRANT)
    imported = "from torch.utils.checkpoint import checkpoint\ny = checkpoint(block, x)\n"
    assert fires(imported, REENTRANT)
    assert not fires(imported.replace("x)", "x, use_reentrant=False)"), REENTRANT)


def test_a_checkpoint_function_of_the_users_own_is_not_torchs() -> None:
    assert not fires(
        "def checkpoint(state):\n    save(state)\ncheckpoint(trainer_state)\n", REENTRANT
    )


def test_the_require_grad_typo_fires_and_the_real_attribute_does_not() -> None:
    assert findings("for p in model.parameters():\n    p.require_grad = False\n")[TYPO]
    assert not fires("for p in model.parameters():\n    p.requires_grad = False\n", TYPO)
