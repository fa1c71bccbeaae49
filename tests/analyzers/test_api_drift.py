"""A name, keyword or flag the installed release lacks (analyzers/api_drift.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy
import yaml
from arith_helpers import ROOT, found, logged

from trainwreck.model import Diagnosis
from trainwreck.pipeline import examine

BATCH_2 = ROOT / "benchmarks" / "first_sight" / "batch-2"
PAGE = "api-missing-in-installed-release"


def _failed(code: str) -> str:
    """What a Python snippet printed when it failed (a real traceback or argparse error)."""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode != 0, f"{code!r} was meant to fail"
    return result.stderr


def _batch_2(name: str) -> Diagnosis:
    folder = BATCH_2 / name
    meta = yaml.safe_load((folder / "case.yaml").read_text(encoding="utf-8"))
    inputs = [str(folder / item) for item in meta.get("inputs") or ["train.log"]]
    return examine(inputs, symptoms=meta.get("symptoms"))[1]


def test_numpy_alias_removed_names_numpy_and_the_installed_version(tmp_path: Path) -> None:
    """np.float on the installed NumPy (2.x here; the alias went in 1.24)."""
    log = _failed("import numpy as np; np.float(1)")
    assert "module 'numpy' has no attribute 'float'" in log
    listing = f"numpy=={numpy.__version__}\n"
    diagnosis = logged(tmp_path, log, files={"requirements-freeze.txt": listing})
    finding = found(diagnosis, "api.")["api.missing_in_installed_release"]
    assert finding.values["package"] == "numpy"
    assert finding.values["symbol"] == "float"
    assert finding.values["caller"] == "your code"
    assert finding.values["installed"] == numpy.__version__
    assert diagnosis.hypotheses[0].id == PAGE
    assert "In this run: " in diagnosis.hypotheses[0].root_cause
    assert "has no numpy.float" in diagnosis.hypotheses[0].root_cause


def test_vendor_program_flag_is_named_but_a_users_script_flag_is_not(tmp_path: Path) -> None:
    parser = "import argparse; p = argparse.ArgumentParser(prog={!r}); p.parse_args(['--x', '1'])"
    log = _failed(parser.format("vllm"))
    assert "vllm: error: unrecognized arguments: --x 1" in log
    finding = found(logged(tmp_path, log), "api.")["api.missing_in_installed_release"]
    assert (finding.values["kind"], finding.values["symbol"]) == ("flag", "--x")
    script = _failed(parser.format("train.py"))
    assert found(logged(tmp_path, script), "api.") == {}


def test_circular_import_is_not_a_release_difference(tmp_path: Path) -> None:
    """A module importing itself half-way: the name exists, the import order is the bug."""
    (tmp_path / "loop_a.py").write_text("from loop_b import B\nA = 1\n", encoding="utf-8")
    (tmp_path / "loop_b.py").write_text("from loop_a import A\nB = 1\n", encoding="utf-8")
    log = _failed(f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import loop_a")
    assert "partially initialized module" in log
    run = tmp_path / "run"
    run.mkdir()
    assert found(logged(run, log), "api.") == {}


def test_keyword_from_the_users_own_call_is_left_to_the_release_pages(tmp_path: Path) -> None:
    log = _failed("def step(lr):\n    pass\nstep(learning_rate=1)")
    assert "got an unexpected keyword argument 'learning_rate'" in log
    assert found(logged(tmp_path, log), "api.") == {}


def test_trl_passing_a_keyword_the_older_transformers_lacks() -> None:
    """MedicalGPT#444: trl 0.14's GRPOTrainer passes processing_class to Trainer.__init__ of
    transformers 4.45; only the frame line above the pasted error says trl called."""
    diagnosis = _batch_2("trl-014-processing-class-old-transformers-444")
    finding = found(diagnosis, "api.")["api.missing_in_installed_release"]
    assert finding.values["package"] == "trl"
    assert finding.values["symbol"] == "processing_class"
    # the page for this very keyword (processing_class arrived in transformers 4.46) is the
    # specific one; the generic page of the finding follows it
    top = [h.id for h in diagnosis.hypotheses[:3]]
    assert top[0] == "trainer-tokenizer-argument-removed" and PAGE in top


def test_setuptools_is_named_for_pkg_resources_and_torch_as_the_caller() -> None:
    """ColBERT#350: torch's cpp_extension imports pkg_resources.packaging, gone in setuptools 70."""
    diagnosis = _batch_2("pytorch-setuptools70-pkg-resources-packaging-350")
    finding = found(diagnosis, "api.")["api.missing_in_installed_release"]
    assert (finding.values["package"], finding.values["caller"]) == ("setuptools", "torch")
    assert diagnosis.hypotheses[0].id == PAGE


def test_a_specific_hf_page_still_leads_on_its_own_import() -> None:
    """diffusers#24: huggingface_hub removed cached_download; the HF page is the specific one."""
    diagnosis = _batch_2("diffusers-hfhub-cached-download-import-24")
    assert diagnosis.hypotheses[0].id == "hf-import-name-version-skew"
    assert [h.id for h in diagnosis.hypotheses[:2]][1] == PAGE
