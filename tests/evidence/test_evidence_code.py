"""Code as evidence: .py inputs read as code, code pasted into logs and symptoms recognised."""

from __future__ import annotations

from pathlib import Path

from evidence_helpers import FIXTURES

from trainwreck.evidence.code import MIN_INDENTED_LINES, from_lines, from_symptoms
from trainwreck.evidence.collect import MAX_CODE_FILES, collect

ROOT = FIXTURES.parents[2]
BATCH_1 = ROOT / "benchmarks" / "first_sight" / "batch-1"
CASES = ROOT / "tests" / "cases"


def test_a_py_input_is_read_as_code_not_as_log_lines() -> None:
    script = BATCH_1 / "repro-torch-val-loss-accumulated-graph-oom" / "repro.py"
    evidence = collect([str(script)])
    assert [(f.path, f.kind) for f in evidence.files] == [(str(script), "code")]
    assert evidence.lines == ()
    assert [(s.source, s.first_line, s.origin) for s in evidence.code] == [(str(script), 1, "file")]
    assert evidence.code[0].text == script.read_text(encoding="utf-8")


def test_traceback_source_lines_are_not_pasted_code() -> None:
    log = BATCH_1 / "repro-torch-float64-numpy-input" / "train.log"
    evidence = collect([str(log)])
    assert evidence.exceptions and evidence.exceptions[0].frames[0].code == "pred = model(X_t[idx])"
    assert evidence.code == ()


def test_an_indented_call_is_kept_with_its_opening_and_closing_lines() -> None:
    # transformers #31997: the issue pastes the from_pretrained call above the logged dicts.
    log = CASES / "transformers-gemma2-fa2-softcap-nan-31997" / "train.log"
    (snippet,) = collect([str(log)]).code
    assert (snippet.first_line, snippet.origin) == (1, "log")
    assert snippet.text.splitlines()[0] == "model = AutoModelForCausalLM.from_pretrained("
    assert snippet.text.splitlines()[-1] == ")"


def test_fenced_shell_blocks_are_not_code_and_untagged_ones_are_only_when_shaped_like_it() -> None:
    shell = collect(
        [str(BATCH_1 / "kempnerforge-vlm-labels-not-shifted-loss-zero-154" / "train.log")]
    )
    assert shell.code == ()
    timings = collect([str(BATCH_1 / "robustvlm-llava-eval-use-cache-false-slow-27" / "train.log")])
    assert timings.code == ()


def test_indented_runs_need_two_lines() -> None:
    def found(count: int) -> int:
        lines = [(1, "Some prose before.")] + [(n + 2, "    x = y + 1") for n in range(count)]
        return len(from_lines("log.txt", lines, "log"))

    assert found(MIN_INDENTED_LINES - 1) == 0
    assert found(MIN_INDENTED_LINES) == 1
    assert found(MIN_INDENTED_LINES + 1) == 1


def test_interactive_sessions_drop_their_prompts() -> None:
    lines = [(4, ">>> import torch"), (5, ">>> total = 0"), (6, "... "), (7, "tensor(1.)")]
    (snippet,) = from_lines("session.txt", lines, "log")
    assert (snippet.first_line, snippet.text) == (4, "import torch\ntotal = 0\n")


def test_inline_code_in_the_symptoms_is_kept_and_words_are_not() -> None:
    said = (
        "Memory grows every step.\n"
        "My loop does `total_loss += loss` and the loss prints `nan` after a while."
    )
    assert [(s.first_line, s.text) for s in from_symptoms(said)] == [(2, "total_loss += loss")]
    evidence = collect([], symptoms=said)
    assert [s.origin for s in evidence.code] == ["symptoms"]


def test_secrets_in_code_files_are_redacted(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(
        'from huggingface_hub import login\nlogin(token="hf_Qw2Er4Ty6Ui8Op0As2Df4Gh6Jk8Lz0Xc2V")\n'
    )
    (snippet,) = collect([str(script)]).code
    assert "hf_Qw2Er4" not in snippet.text
    assert snippet.text.count("\n") == 2


def _scripts(folder: Path, count: int) -> None:
    folder.mkdir()
    for number in range(count):
        (folder / f"module_{number:03d}.py").write_text("x = 1\n")


def test_a_run_directory_reads_at_most_the_code_file_limit(tmp_path: Path) -> None:
    for count in (MAX_CODE_FILES - 1, MAX_CODE_FILES, MAX_CODE_FILES + 1):
        folder = tmp_path / f"run_{count}"
        _scripts(folder, count)
        evidence = collect([str(folder)])
        assert len(evidence.code) == min(count, MAX_CODE_FILES)
        assert len(evidence.gaps) == max(0, count - MAX_CODE_FILES)
