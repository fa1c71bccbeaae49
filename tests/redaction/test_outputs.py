"""No planted secret reaches any output of the CLI: every report format, `--patch`,
`--script`, `env` and `check`, run as users run them on one run directory.

The directory holds every form of `redaction_battery.py` (log lines, YAML and
JSON configs, a pip freeze, file names) beside a real failure whose fix patches
the YAML, and the symptoms carry the symptom forms. Each command runs once; every
output is checked for every secret. The MCP server's answers are checked in
tests/mcp/test_mcp_redaction.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from redaction_battery import FORMS, LOG_FORMS, ORDINARY, SECRETS, SYMPTOMS, write_run
from trainwreck.cli.app import cli
from trainwreck.evidence.collect import collect

PLACEHOLDER = "<redacted:"


def _invoke(*args: str, ok: tuple[int, ...] = (0, 1)) -> tuple[str, str]:
    """stdout and stderr of one command; `env` and `check` exit 1 when they find problems."""
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code in ok, result.output
    return result.stdout, result.stderr


def _diagnose(root: Path, out: Path) -> dict[str, str]:
    outputs: dict[str, str] = {}
    for fmt in ("markdown", "json", "html"):
        extra = ("--patch", str(out / "patch"), "--script", str(out / "verify.py"))
        args = ("diagnose", str(root), "--symptoms", SYMPTOMS, "--format", fmt)
        outputs[fmt], outputs[f"{fmt} (stderr)"] = _invoke(*args, *(extra if fmt == "json" else ()))
    outputs["--patch"] = "".join(p.read_text() for p in sorted((out / "patch").iterdir()))
    outputs["--script"] = (out / "verify.py").read_text()
    return outputs


def _tools(files: dict[str, Path]) -> dict[str, str]:
    listing, log, yaml_config = str(files["env"]), str(files["log"]), str(files["yaml"])
    checked = (str(files["yaml"]), str(files["json"]), str(files["named_yaml"]))
    outputs = {}
    outputs["env"], _ = _invoke("env", "--from", listing, "--packages", "--log", log)
    outputs["env --format json"], _ = _invoke("env", "--from", listing, "--format", "json")
    outputs["check"], outputs["check (stderr)"] = _invoke("check", *checked)
    outputs["check --format json"], _ = _invoke("check", *checked, "--format", "json")
    outputs["check (a file that does not parse)"] = "".join(
        _invoke("check", yaml_config, log, ok=(2,))
    )
    return outputs


def _learned(root: Path, out: Path) -> dict[str, str]:
    """A learned incident, cause text with a planted secret included, as the store exports it."""
    store = str(out / "team.sqlite")
    cause = f"the run printed '{LOG_FORMS[0].planted}' and then failed"  # the hf token form
    _, said = _invoke(
        "learn", str(root), "--cause", cause, "--store", store, "-c", "crash", ok=(0,)
    )
    exported, _ = _invoke("cases", "export", "--store", store, ok=(0,))
    return {"learn (stderr)": said, "learned case (cases export)": exported}


@pytest.fixture(scope="module")
def run_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_run(tmp_path_factory.mktemp("run"))


@pytest.fixture(scope="module")
def outputs(run_files: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = run_files["yaml"].parent
    out = tmp_path_factory.mktemp("out")
    return {**_diagnose(root, out), **_tools(run_files), **_learned(root, out)}


OUTPUTS = (
    *("markdown", "json", "html", "json (stderr)", "--patch", "--script"),
    *("env", "env --format json", "check", "check (stderr)", "check --format json"),
    "check (a file that does not parse)",
    *("learn (stderr)", "learned case (cases export)"),
)


@pytest.mark.parametrize("name", OUTPUTS)
def test_no_planted_secret_reaches_the_output(outputs: dict[str, str], name: str) -> None:
    assert [secret for secret in SECRETS if secret in outputs[name]] == []


def test_the_secrets_were_read_and_replaced_not_dropped(outputs: dict[str, str]) -> None:
    # Each output shows placeholders where the planted text reached it: the evidence
    # lines, the patched YAML and its diff, the listing's URLs, the checked configs.
    for name in (
        *("markdown", "json", "html", "--patch", "env", "env --format json", "check"),
        "learned case (cases export)",
    ):
        assert PLACEHOLDER in outputs[name].replace("&lt;", "<"), name
    assert "<redacted:password>" in outputs["--patch"]  # the YAML's password, in the copy
    assert "bf16: true" in outputs["--patch"]  # and the fix is still applied
    assert "secrets in your files are <redacted:...> placeholders" in outputs["json (stderr)"]
    assert "acme-utils" in outputs["env"] and "alice:<redacted:url-password>@" in outputs["env"]


def test_evidence_holds_no_secret_and_every_ordinary_line(run_files: dict[str, Path]) -> None:
    evidence = collect([str(run_files["yaml"].parent)], symptoms=SYMPTOMS)
    dumped = evidence.model_dump_json()
    assert [secret for secret in SECRETS if secret in dumped] == []
    texts = {line.text for line in evidence.lines}
    assert [line for line in ORDINARY if line not in texts] == []
    # Every log form was kept and redacted in place (a key's body line by line).
    redacted_lines = [text for text in texts if PLACEHOLDER in text]
    assert len(redacted_lines) >= len(LOG_FORMS)
    assert {form.name for form in FORMS} >= {"token in a log's name", "YAML numeric password"}
    assert any(PLACEHOLDER in item.path for item in evidence.files)
    config = next(c.values for c in evidence.configs if c.source.endswith("config.yaml"))
    assert config["password"] == "<redacted:password>"
    assert config["wandb.api_key"] == "<redacted:credential>"
