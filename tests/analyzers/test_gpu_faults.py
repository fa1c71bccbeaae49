"""GPU hardware faults from real kernel-log, CUDA and nvidia-smi lines (analyzers/gpu_faults.py).

Every fixture under `fixtures/gpu_faults/` is copied from a public report; SOURCES.md names
each one. The multi-rank case checks the issue's rule: a fault on one node outranks the
collective timeouts it causes on all the others.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

from trainwreck.analyzers import nvidia_smi
from trainwreck.evidence.logs import HEAD_LINES, TAIL_LINES
from trainwreck.kb import load
from trainwreck.kb.xid import catalogue, xid_row
from trainwreck.model import Diagnosis, Evidence, Finding
from trainwreck.pipeline import examine

FIXTURES = Path(__file__).parent / "fixtures" / "gpu_faults"
MULTIRANK = FIXTURES / "xid79_multirank"


def _run(*paths: Path) -> tuple[Evidence, Diagnosis]:
    return examine([str(path) for path in paths])


def _gpu(diagnosis: Diagnosis) -> dict[str, list[Finding]]:
    found: dict[str, list[Finding]] = {}
    for finding in diagnosis.findings:
        if finding.id.startswith("gpu."):
            found.setdefault(finding.id, []).append(finding)
    return found


def _top(diagnosis: Diagnosis) -> str | None:
    return diagnosis.hypotheses[0].id if diagnosis.hypotheses else None


def test_xid79_in_the_journal_names_code_bus_host_and_nvidias_action() -> None:
    _, report = _run(FIXTURES / "xid79_journal.log")
    found = _gpu(report)
    (xid,) = found["gpu.xid"]
    assert xid.values["xid"] == 79
    assert xid.values["bus_id"] == "0000:01:00"
    assert xid.values["host"] == "EVE"
    assert xid.values["immediate_action"] == "RESTART_BM"
    assert xid.values["investigatory_action"] == "CONTACT_SUPPORT"
    # the Xid line and the driver's own "GPU ... has fallen off the bus" line that echoes it
    (fallen,) = found["gpu.fallen_off_bus"]
    assert fallen.values["count"] == 2 and fallen.values["xid"] == 79
    assert _top(report) == "gpu-fallen-off-the-bus"
    assert report.hypotheses[0].confidence == "high"


def test_the_driver_can_report_the_gpu_lost_without_an_xid() -> None:
    _, report = _run(FIXTURES / "fallen_off_no_xid.log")
    found = _gpu(report)
    assert "gpu.xid" not in found
    (fallen,) = found["gpu.fallen_off_bus"]
    assert fallen.values["xid"] is None
    assert fallen.evidence[0].line == 3  # "NVRM: fallen off the bus and is not responding ..."
    assert _top(report) == "gpu-fallen-off-the-bus"


def test_an_ecc_error_quoted_by_the_nccl_watchdog_is_the_root_not_a_cascade() -> None:
    evidence, report = _run(FIXTURES / "ecc_watchdog.log")
    (ecc,) = _gpu(report)["gpu.ecc"]
    assert ecc.values["count"] == 2  # the RuntimeError and the watchdog line quoting it
    watchdog = next(line for line in evidence.lines if "NCCL watchdog thread" in line.text)
    assert watchdog.role == "root"
    assert all(exc.role == "root" for exc in evidence.exceptions)
    assert _top(report) == "gpu-uncorrectable-ecc-error"


def test_the_old_runtime_error_39_wording_is_the_same_fault() -> None:
    _, report = _run(FIXTURES / "ecc_thc.log")
    assert "gpu.ecc" in _gpu(report)
    assert _top(report) == "gpu-uncorrectable-ecc-error"


def test_ecc_counters_count_the_volatile_block_and_show_earlier_errors() -> None:
    # The grep output before the block (lines 2-3) has no Volatile/Aggregate header: not counted.
    _, report = _run(FIXTURES / "nvidia_smi_sram_uncorrectable.log")
    (ecc,) = _gpu(report)["gpu.ecc"]
    assert ecc.values["volatile_uncorrectable"] == 1
    assert ecc.values["aggregate_uncorrectable"] == 5
    assert ecc.values["earlier_uncorrectable"] == 4
    assert ecc.arithmetic is not None
    by_label = {line.label: line for line in ecc.arithmetic.lines}
    assert by_label["Volatile SRAM Uncorrectable"].source.endswith(
        "nvidia_smi_sram_uncorrectable.log:7"
    )
    assert by_label["Aggregate SRAM Uncorrectable"].source.endswith(
        "nvidia_smi_sram_uncorrectable.log:12"
    )
    assert by_label["uncorrectable before the last reset"].formula == "Aggregate 5 - Volatile 1"


def test_correctable_errors_alone_do_not_fire_but_a_pending_remap_does() -> None:
    # 177 correctable DRAM errors, every uncorrectable counter 0, `Pending: Yes`,
    # `Remapping Failure Occurred: No`, `Pending Page Blacklist: N/A`.
    _, report = _run(FIXTURES / "nvidia_smi_remap_pending.log")
    found = _gpu(report)
    assert nvidia_smi.UNCORRECTABLE_MIN == 1
    assert "gpu.ecc" not in found
    (health,) = found["gpu.memory_health"]
    assert health.values["remap_pending"] == "Yes"
    assert "remap_failure" not in health.values
    assert "page_blacklist_pending" not in health.values
    assert health.values["smi_bus_id"] == "00000000:10:1c.0"
    assert found["gpu.xid"][0].values["immediate_action"] == "IGNORE"  # Xid 63
    assert _top(report) == "gpu-memory-repair-pending-or-failed"
    assert report.hypotheses[0].confidence != "high"  # conditional: a pending repair breaks nothing


def test_each_xid_gets_its_catalogue_meaning_and_nonfatal_nvlink_is_not_a_fault() -> None:
    evidence, report = _run(FIXTURES / "xid_memory_nvlink.log")
    found = _gpu(report)
    codes = {finding.values["xid"]: finding for finding in found["gpu.xid"]}
    assert set(codes) == {94, 149, 145, 74, 45}
    assert codes[94].values["count"] == 2 and codes[94].values["gpus"] == 2
    assert codes[45].values["family"] == "cleanup" and codes[45].category is None
    (nvlink,) = found["gpu.nvlink"]
    assert nvlink.values["xids"] == "74,149"  # the Nonfatal Xid 145 is reported, not counted
    roles = {line.line: line.role for line in evidence.lines}
    assert roles[1] == roles[2] == roles[3] == roles[5] == "root"  # 94, 94, 149 Fatal, 74
    assert roles[4] != "root"  # 145 Nonfatal
    assert roles[6] != "root"  # 45: the driver cleaning up after Xid 149
    assert {h.id for h in report.hypotheses[:2]} == {
        "gpu-nvlink-error",
        "gpu-uncorrectable-ecc-error",
    }


def test_cuda_reports_an_uncorrectable_nvlink_error() -> None:
    _, report = _run(FIXTURES / "nvlink_cuda.log")
    assert "gpu.nvlink" in _gpu(report)
    assert _top(report) == "gpu-nvlink-error"


def test_gsp_timeouts_need_a_gpu_reset() -> None:
    _, report = _run(FIXTURES / "xid119_gsp.log")
    (stopped,) = _gpu(report)["gpu.stopped"]
    assert stopped.values["gpus"] == 2 and stopped.values["xid"] == 119
    assert _top(report) == "gpu-stopped-needs-reset"


def test_xid_154_adds_the_recovery_the_driver_now_requires(tmp_path: Path) -> None:
    # The Xid 154 text is the string NVIDIA's catalogue (row 154) says the driver prints,
    # on the Xid line shape of the fixture's GPU.
    gsp = (FIXTURES / "xid119_gsp.log").read_text(encoding="utf-8")
    recovery = (
        "[Sun Apr 26 23:12:27 2026] NVRM: Xid (PCI:0001:6c:00): 154, GPU recovery action "
        "changed from 0x0 (None) to 0x2 (Node Reboot Required)\n"
    )
    log = tmp_path / "dmesg.log"
    log.write_text(gsp + recovery, encoding="utf-8")
    _, report = _run(log)
    found = _gpu(report)
    (stopped,) = found["gpu.stopped"]
    assert stopped.values["recovery_action"] == "Node Reboot Required"
    info = next(f for f in found["gpu.xid"] if f.values["xid"] == 154)
    assert info.values["family"] == "info" and info.category is None
    assert report.hypotheses[0].values.get("recovery_action") == "Node Reboot Required"


def test_an_application_xid_is_explained_but_is_not_a_node_fault(tmp_path: Path) -> None:
    # Only the three Xid 13 lines of the fixture (its Xid 109 line is a reset-class fault).
    lines = (FIXTURES / "xid_application.log").read_text(encoding="utf-8").splitlines()
    log = tmp_path / "dmesg.log"
    log.write_text("\n".join(line for line in lines if "): 13," in line) + "\n", encoding="utf-8")
    _, report = _run(log)
    found = _gpu(report)
    assert list(found) == ["gpu.xid"]
    (xid,) = found["gpu.xid"]
    assert xid.values["family"] == "application" and xid.values["count"] == 3
    assert xid.category is None
    assert not any(h.id.startswith("gpu-") for h in report.hypotheses)


def test_a_code_outside_the_bundled_rows_is_reported_by_number() -> None:
    _, report = _run(FIXTURES / "xid_unlisted.log")
    (xid,) = _gpu(report)["gpu.xid"]
    assert xid.values["xid"] == 3 and "mnemonic" not in xid.values
    assert xid.values["bus_id"] == "0000:01:00" and xid.values["host"] == "localhost"
    assert xid_row(3) is None


def test_xids_named_in_prose_and_ecc_in_a_table_header_are_quiet() -> None:
    evidence, report = _run(FIXTURES / "xid_in_prose.log")
    assert _gpu(report) == {}
    assert not any(h.id.startswith("gpu-") for h in report.hypotheses)
    assert not any(line.role == "root" and "Xid 6" in line.text for line in evidence.lines)


def test_the_reader_keeps_fault_lines_and_smi_headers_far_from_the_head_and_tail(
    tmp_path: Path,
) -> None:
    padding = "".join(f"iteration {i} done\n" for i in range(HEAD_LINES + TAIL_LINES))
    block = (FIXTURES / "nvidia_smi_remap_pending.log").read_text(encoding="utf-8")
    log = tmp_path / "node.log"
    log.write_text(padding + block + padding, encoding="utf-8")
    _, report = _run(log)
    (health,) = _gpu(report)["gpu.memory_health"]
    assert health.values["remap_pending"] == "Yes"
    assert health.values["xid"] == 63


def test_every_catalogue_row_is_cited_and_classified() -> None:
    rows = catalogue()
    assert rows[79].family == "fallen_off_bus" and rows[79].node_fault
    assert rows[48].node_fault and rows[95].node_fault and rows[74].node_fault
    assert not rows[63].node_fault  # a recorded row remap needs no action
    assert not rows[13].node_fault and not rows[45].node_fault and not rows[154].node_fault
    assert all(row.source.startswith("https://docs.nvidia.com/deploy/") for row in rows.values())


# The KB page of each family of node fault; its Xid regexes must name exactly that family's codes.
_FAMILY_PAGES = {
    "fallen_off_bus": "gpu-fallen-off-the-bus",
    "ecc": "gpu-uncorrectable-ecc-error",
    "memory_health": "gpu-memory-repair-pending-or-failed",
    "nvlink": "gpu-nvlink-error",
    "stopped": "gpu-stopped-needs-reset",
}


def test_each_pages_xid_regexes_name_the_codes_the_catalogue_files_under_its_family() -> None:
    pages = {pattern.id: pattern for pattern in load().patterns}
    rows = catalogue()
    for family, page_id in _FAMILY_PAGES.items():
        regexes = [
            re.compile(sig.regex)
            for sig in pages[page_id].signatures
            if sig.regex and "NVRM: Xid" in sig.regex
        ]
        named = {
            code
            for code in range(1, 200)
            for line in (f"NVRM: Xid (PCI:0000:3b:00): {code}, GPU event Fatal",)
            if any(regex.search(line) for regex in regexes)
        }
        assert named == {code for code, row in rows.items() if row.family == family}, page_id


def _diagnose_json(inputs: list[Path]) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-m", "trainwreck", "diagnose", *map(str, inputs), "--format", "json"],
        capture_output=True,
        text=True,
        check=True,
    )
    data: dict[str, object] = json.loads(result.stdout)
    return data


def test_a_gpu_lost_on_one_node_outranks_the_timeouts_on_the_other_ranks() -> None:
    report = _diagnose_json([MULTIRANK])
    hypotheses = report["hypotheses"]
    assert isinstance(hypotheses, list)
    ids = [h["id"] for h in hypotheses]
    assert ids[0] == "gpu-fallen-off-the-bus"
    assert "nccl-watchdog-timeout" in ids[1:]  # still offered, below the cause
    findings = report["findings"]
    assert isinstance(findings, list)
    xid = next(f for f in findings if f["id"] == "gpu.xid")
    assert xid["values"]["host"] == "node3" and xid["values"]["bus_id"] == "0000:3b:00"
    evidence, _ = _run(MULTIRANK)
    watchdog = [line for line in evidence.lines if "Watchdog caught" in line.text]
    assert len(watchdog) == 6 and {line.rank for line in watchdog} == {0, 1, 2}
    assert all(line.role == "cascade" for line in watchdog)


def test_a_user_who_says_the_job_hung_still_gets_the_lost_gpu_first() -> None:
    # Users report a lost GPU as a hang: the page is `seen_as` one, so the stated class
    # does not demote it below the timeouts.
    _, report = examine(
        [str(MULTIRANK)], symptoms="4-node training hangs, then NCCL watchdog timeouts"
    )
    assert report.context.stated is not None and report.context.stated.category == "hang"
    assert _top(report) == "gpu-fallen-off-the-bus"


def test_without_the_kernel_log_the_same_timeouts_stay_the_lead(tmp_path: Path) -> None:
    for rank in range(3):
        shutil.copy(MULTIRANK / f"rank{rank}.log", tmp_path / f"rank{rank}.log")
    report = _diagnose_json([tmp_path])
    hypotheses = report["hypotheses"]
    assert isinstance(hypotheses, list)
    assert not any(str(h["id"]).startswith("gpu-") for h in hypotheses)
    evidence, _ = _run(tmp_path)
    assert any(line.role == "root" for line in evidence.lines if "Watchdog caught" in line.text)
