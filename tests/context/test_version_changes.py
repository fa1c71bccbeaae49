"""Version changes the user names: "works with X a, fails with X b" in its common forms."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainwreck import analyzers
from trainwreck.context.versions import stated_changes, version_changes, versions_of
from trainwreck.evidence.collect import collect
from trainwreck.model import Evidence

CASES = Path(__file__).parent.parent / "cases"


@pytest.mark.parametrize(
    ("text", "package", "good", "bad"),
    [
        (
            "Works with transformers 4.44.2 but fails with 4.45.0",
            "transformers",
            "4.44.2",
            "4.45.0",
        ),
        ("It fails on vllm 0.6.1, works on 0.6.0", "vllm", "0.6.0", "0.6.1"),
        ("after upgrading deepspeed from 0.5.3 to 0.5.8 it is slow", "deepspeed", "0.5.3", "0.5.8"),
        ("Performance regression between vLLM v0.4.0 and v0.4.1", "vllm", "0.4.0", "0.4.1"),
        ("torch 2.3.1 -> 2.4.0 gives NaN", "torch", "2.3.1", "2.4.0"),
        (
            "since upgrading to transformers 4.46 the loss is 10x higher",
            "transformers",
            None,
            "4.46",
        ),
        ("downgrading peft to 0.13.2 fixes it", "peft", "0.13.2", None),
        # packages beyond the torch stack, and a release series (batch-35's TGI and Lightning)
        (
            "The same model and command worked with TGI 2.0.0.",
            "text-generation-inference",
            "2.0.0",
            None,
        ),
        (
            "After upgrading PyTorch Lightning from 1.3.x to 1.4.x the metrics are weird",
            "lightning",
            "1.3",
            "1.4",
        ),
        ("after upgrading to LightGBM 4.2.0 it never finishes", "lightgbm", None, "4.2.0"),
    ],
)
def test_a_named_change_gives_package_and_window(
    text: str, package: str, good: str | None, bad: str | None
) -> None:
    (change,) = stated_changes(text)
    assert (change.package, change.good, change.bad) == (package, good, bad)


@pytest.mark.parametrize(
    "text",
    [
        "loss at step 2.5 is bad",
        "python 3.10 on ubuntu 22.04",
        "lr 3.0e-4, batch 8",
        # first-sight batch-2 deepspeed-0140-zero2-grad-norm-nan-5347: "fine" inside
        # "fine-tuning" was read as "works with deepspeed 0.14.0", the failing version.
        "training LLaMA-VID stage 2 (full fine-tuning) with deepspeed==0.14.0 and the Trainer",
        # batch-31's TF thread: the libraries were found, which says nothing of the run
        "TensorFlow 2.1 (GPU build, CUDA 10.1 libraries load fine)",
    ],
)
def test_numbers_that_are_not_a_version_change(text: str) -> None:
    assert stated_changes(text) == ()


def test_two_listings_show_the_packages_that_changed(tmp_path: Path) -> None:
    """The working environment's listing first; only packages whose version differs."""
    working = CASES / "transformers-gemma2-fa2-softcap-nan-31997" / "env.txt"
    text = working.read_text(encoding="utf-8")
    failing = tmp_path / "env-failing.txt"
    failing.write_text(text.replace("flash-attn==2.6.1", "flash-attn==2.6.3"), "utf-8")
    evidence = collect([], symptoms="loss is nan", env_files=[str(working), str(failing)])
    (change,) = version_changes(evidence)
    assert (change.package, change.good, change.bad) == ("flash-attn", "2.6.1", "2.6.3")
    assert change.source == "listings"
    finding = next(f for f in analyzers.run(evidence) if f.id == "version.regression")
    assert finding.values["bad_version"] == "2.6.3"


def test_versions_the_description_names_where_the_logs_print_none() -> None:
    # batch-11's DeepSpeed thread lists its stack only in the description
    evidence = Evidence(
        symptoms="torch 2.6.0+cu118, transformers 4.50.0, peft 0.15.0, deepspeed 0.16.5",
        environment={"torch": "2.7.0"},
    )
    versions = versions_of(evidence)
    assert versions["peft"] == "0.15.0" and versions["deepspeed"] == "0.16.5"
    assert versions["torch"] == "2.7.0"  # what the environment listing printed wins


def test_a_change_without_its_failing_side_fails_on_the_version_the_run_shows() -> None:
    # batch-35's TGI thread: the image tag names the failing release, the words the good one
    evidence = Evidence(
        symptoms="Running text-generation-inference:2.0.2 with a CodeLlama fine-tune fails "
        "at warmup. The same model and command worked with TGI 2.0.0."
    )
    (change,) = version_changes(evidence)
    assert (change.package, change.good, change.bad) == (
        "text-generation-inference",
        "2.0.0",
        "2.0.2",
    )
