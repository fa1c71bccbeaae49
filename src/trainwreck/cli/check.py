"""`trainwreck check`: config files against the schema of the framework version they run on."""

from __future__ import annotations

import sys

import click

from trainwreck.cli.output import emit, markdown_or_json
from trainwreck.errors import UsageError
from trainwreck.redact import redact
from trainwreck.verify import check_files
from trainwreck.verify.render import as_json, as_markdown, problem_count


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option(
    "--framework",
    metavar="NAME",
    help="Check every file as this framework: transformers, trl (or trl:DPOConfig), peft, "
    "accelerate, deepspeed, vllm. Default: detected per file.",
)
@click.option(
    "--version",
    "version_texts",
    multiple=True,
    metavar="[NAME=]X.Y.Z",
    help="The framework version to check against (bare X.Y.Z needs --framework). Repeatable. "
    "Default: the installed version, else the newest snapshot.",
)
@markdown_or_json
@click.option(
    "--live/--no-live",
    default=True,
    show_default=True,
    help="Read the installed framework's classes when it is the version checked.",
)
def check(
    files: tuple[str, ...],
    framework: str | None,
    version_texts: tuple[str, ...],
    fmt: str,
    live: bool,
) -> None:
    """Check config FILES against the schema of your framework version.

    FILES: TrainingArguments / TRL / PEFT / vLLM configs (JSON, YAML, TOML), DeepSpeed
    JSON, Accelerate YAML, mixed recipes (LLaMA-Factory, axolotl), or a launch command
    (`python train.py --key value ...`). Files checked together are also checked
    against each other (world size, ZeRO-3 with device_map, LoRA targets vs a config.json).

    \b
    Exit status: 0 no errors (warnings may be printed), 1 errors found,
    2 a file could not be parsed (one line per file on stderr; the others are checked).
    \b
    Examples:
      trainwreck check train.yaml ds_config.json
      trainwreck check args.json --framework transformers --version 4.46.0
      trainwreck check recipe.yaml --version transformers=4.52.4 --version trl=0.19.1
    """
    versions: dict[str, str] = {}
    for text in version_texts:
        name, sep, number = text.rpartition("=")
        if not sep and not framework:
            raise UsageError(f"--version {text}: give NAME={text} or use --framework")
        versions[name if sep else str(framework).split(":", 1)[0]] = number
    reports = check_files(files, framework, versions, use_live=live)
    emit(as_json(reports) if fmt == "json" else as_markdown(reports), None, fmt == "markdown")
    unreadable = [r for r in reports if r.error]
    for report in unreadable:
        click.echo(f"trainwreck: error: {redact(report.error or '')}", err=True)
    sys.exit(2 if unreadable else 1 if problem_count(reports) else 0)
