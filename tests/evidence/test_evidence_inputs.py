"""Input handling: compression, encodings, terminal noise, gaps, directories, keep."""

from __future__ import annotations

import gzip
import io
import lzma
import shutil
from pathlib import Path

from evidence_helpers import FIXTURES

from trainwreck.evidence.collect import collect
from trainwreck.evidence.logs import scan_stream
from trainwreck.evidence.matcher import GENERIC_LITERALS, build_matcher

EIGHT_RANKS = FIXTURES / "torchrun_8rank_shape_mismatch.log"


def _summary(path: str) -> list[tuple[str, str, int | None, int]]:
    evidence = collect([path])
    return [(e.type, e.role, e.rank, e.count) for e in evidence.exceptions]


def test_gzip_input_reads_like_plain(tmp_path: Path) -> None:
    packed = tmp_path / "train.log.gz"
    packed.write_bytes(gzip.compress(EIGHT_RANKS.read_bytes()))
    evidence = collect([str(packed)])
    assert evidence.files[0].compressed == "gzip"
    assert evidence.files[0].lines_read == 174
    assert _summary(str(packed)) == _summary(str(EIGHT_RANKS))


def test_xz_input_is_sniffed_by_magic_bytes_not_name(tmp_path: Path) -> None:
    packed = tmp_path / "train.log"  # no .xz suffix: the magic bytes decide
    packed.write_bytes(lzma.compress(EIGHT_RANKS.read_bytes()))
    evidence = collect([str(packed)])
    assert evidence.files[0].compressed == "xz"
    assert _summary(str(packed)) == _summary(str(EIGHT_RANKS))


def test_truncated_gzip_keeps_what_was_read_and_records_gap(tmp_path: Path) -> None:
    data = gzip.compress(EIGHT_RANKS.read_bytes() * 300)  # ~4 MB of log, 52k lines
    packed = tmp_path / "cut.log.gz"
    packed.write_bytes(data[: len(data) // 2])  # as if the job died mid-write
    evidence = collect([str(packed)])
    assert any(gap.reason.startswith("read stopped after") for gap in evidence.gaps)
    assert 10_000 < (evidence.files[0].lines_read or 0) < 174 * 300
    assert evidence.exceptions and evidence.exceptions[0].rank == 3


def test_invalid_utf8_is_replaced_not_fatal(tmp_path: Path) -> None:
    log = tmp_path / "bad.log"
    log.write_bytes(b"step 1 ok\nRuntimeError: bad byte \xff\xfe here\n")
    evidence = collect([str(log)])
    assert not evidence.gaps
    assert evidence.exceptions[0].message == "bad byte \ufffd\ufffd here"


def test_crlf_lines_parse_as_a_traceback(tmp_path: Path) -> None:
    text = 'Traceback (most recent call last):\r\n  File "t.py", line 3, in <module>\r\n'
    text += "    main()\r\nValueError: boom\r\n"
    log = tmp_path / "crlf.log"
    log.write_bytes(text.encode())
    exc = collect([str(log)]).exceptions[0]
    assert (exc.type, exc.message, exc.frames[0].code) == ("ValueError", "boom", "main()")
    assert not any("\r" in line.text for line in collect([str(log)]).lines)


def test_tqdm_carriage_returns_and_ansi_codes(tmp_path: Path) -> None:
    bars = "".join(f"\r{p:3d}%|#| {p}/100 [00:0{p % 10}<00:01, 9.5it/s]" for p in range(0, 40))
    line = bars + "\x1b[31mtorch.OutOfMemoryError: CUDA out of memory.\x1b[0m\n"
    log = tmp_path / "bar.log"
    log.write_bytes(("epoch 1\n" + line).encode())
    evidence = collect([str(log)])
    assert [e.type for e in evidence.exceptions] == ["torch.OutOfMemoryError"]
    texts = [entry.text for entry in evidence.lines if entry.line == 2]
    assert "torch.OutOfMemoryError: CUDA out of memory." in texts
    assert len(texts) <= 2 and not any("\x1b" in text for text in texts)


def test_very_long_line_is_capped(tmp_path: Path) -> None:
    log = tmp_path / "long.log"
    log.write_bytes(b"RuntimeError: " + b"x" * 100_000 + b"\nnext line\n")
    evidence = collect([str(log)])
    assert max(len(entry.text) for entry in evidence.lines) <= 4096
    assert evidence.files[0].lines_read == 2


def test_binary_file_is_a_gap(tmp_path: Path) -> None:
    blob = tmp_path / "model.safetensors"
    blob.write_bytes(b"\x00\x01\x02" * 5000)
    evidence = collect([str(blob)])
    assert [(gap.source, gap.reason) for gap in evidence.gaps] == [
        (str(blob), "binary file, not a log")
    ]
    assert not evidence.files


def test_missing_path_is_a_gap_and_others_still_read(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.log")
    evidence = collect([missing, str(FIXTURES / "cuda_device_assert_qlora_3.log")])
    assert [(gap.source, gap.reason) for gap in evidence.gaps] == [
        (missing, "no such file or directory")
    ]
    assert evidence.exceptions and evidence.exceptions[0].type == "RuntimeError"


def test_empty_stdin_is_a_gap() -> None:
    evidence = collect(["-"], stdin=io.BytesIO(b""))
    assert [(gap.source, gap.reason) for gap in evidence.gaps] == [
        ("-", "empty input on standard input")
    ]


def test_stdin_log_and_gzipped_stdin() -> None:
    raw = (FIXTURES / "cuda_device_assert_qlora_3.log").read_bytes()
    for payload in (raw, gzip.compress(raw)):
        evidence = collect(["-"], stdin=io.BytesIO(payload))
        assert evidence.files[0].path == "-" and not evidence.gaps
        assert evidence.final_exception is not None


def test_directory_with_good_and_binary_file(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "childfailed_sigkill_cppo_6.log", tmp_path / "a_train.log")
    (tmp_path / "b_core.bin").write_bytes(b"\x7fELF\x00\x00" * 1000)
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("Traceback (most recent call last):\n")
    evidence = collect([str(tmp_path)])
    assert [Path(f.path).name for f in evidence.files] == ["a_train.log"]
    assert [Path(g.source).name for g in evidence.gaps] == ["b_core.bin"]
    assert evidence.exits and evidence.exits[0].exitcode == -9


def test_keep_regex_retains_lines_without_error_words(tmp_path: Path) -> None:
    log = tmp_path / "ds.log"
    body = [f"step {i} loss 1.{i:03d}" for i in range(1000)]
    body[500] = "train_batch_size is not equal to micro_batch_per_gpu * gradient_acc_step"
    log.write_text("\n".join(body) + "\n")
    plain = collect([str(log)])
    kept = collect([str(log)], keep=[r"train_batch_size is not equal to"])
    assert not any(entry.line == 501 for entry in plain.lines)
    assert [entry.line for entry in kept.lines if entry.line == 501] == [501]


def _reference(data: bytes) -> set[int]:
    """Line numbers a naive line-by-line scan would keep as hits."""
    return {
        number
        for number, line in enumerate(data.split(b"\n"), start=1)
        if any(literal in line.lower() for literal in GENERIC_LITERALS)
    }


def test_chunked_scan_line_numbers_match_naive_scan() -> None:
    lines = [f"step {i} loss 0.5" if i % 37 else f"Error at step {i}" for i in range(1, 5000)]
    data = ("\n".join(lines) + "\n").encode()
    scan = scan_stream(io.BytesIO(data), build_matcher(), chunk_bytes=997)
    kept = {line.line: line.text for line in scan.lines}
    assert scan.lines_read == len(lines)
    for number in _reference(data):
        assert kept[number] == lines[number - 1]
    assert kept[len(lines)] == lines[-1] and kept[1] == lines[0]  # tail and head


def test_secrets_never_reach_evidence(tmp_path: Path) -> None:
    token = "hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ012345"
    log = tmp_path / "run.log"
    log.write_text(
        f"python train.py --hub_token {token} --per_device_train_batch_size 2 --bf16\n"
        f"OSError: 401 Client Error: bad credentials HF_TOKEN={token}\n"
    )
    evidence = collect([str(log)])
    dumped = evidence.model_dump_json()
    assert token not in dumped
    assert evidence.exceptions[0].type == "OSError"
    assert evidence.setup.batch_size == 2 and evidence.setup.precision == "bf16"


def test_dense_keep_series_is_sampled_uniformly_and_rare_keep_lines_survive(
    tmp_path: Path,
) -> None:
    log = tmp_path / "curve.log"
    body = [f"step {i} loss: {1 + (i % 7) / 10:.2f}" for i in range(200_000)]
    body[150_000] = "Minimum loss scale reached (0.0001)"  # no generic error word in it
    log.write_text("\n".join(body) + "\n")
    # "loss" is on every line, so its pass is sampled; the rare signature nests under it
    keep = [r"loss:? \d", r"Minimum loss scale reached \([\d.e-]+\)"]
    evidence = collect([str(log)], keep=keep)
    series = [entry.line for entry in evidence.lines if "loss: " in entry.text]
    assert 1_000 < len(series) <= 5_000 + 400  # sample + head/tail, not 200k lines
    assert min(series) <= 200 and max(series) > 199_800  # spans the whole run
    assert 150_001 in {entry.line for entry in evidence.lines}


def test_log_that_opens_with_nvidia_smi_is_read_as_listing_and_as_log(tmp_path: Path) -> None:
    # The ColabDock issue pasted nvidia-smi output above its traceback, as job logs often do.
    case = FIXTURES.parent.parent / "cases" / "colabdock-jax-cpu-jaxlib-28"
    job_log = tmp_path / "job.out"
    job_log.write_text((case / "nvidia-smi.txt").read_text() + (case / "train.log").read_text())
    evidence = collect([str(job_log)])
    assert [f.kind for f in evidence.files] == ["env", "log"]
    assert any("CUDA-enabled jaxlib is not installed" in line.text for line in evidence.lines)


def test_directory_walk_skips_reports_beside_the_logs(tmp_path: Path) -> None:
    case = FIXTURES.parent.parent / "cases" / "llamafactory-oom-13b-lora-a100-2908"
    for name in ("train.log", "expected.md", "expected.json"):
        shutil.copy(case / name, tmp_path / name)
    (tmp_path / "report.html").write_text("<html>CUDA out of memory</html>")
    evidence = collect([str(tmp_path)])
    assert [Path(f.path).name for f in evidence.files] == ["train.log"]
    assert any("trainwreck report" in gap.reason for gap in evidence.gaps)
