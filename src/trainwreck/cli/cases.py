"""`trainwreck learn` and `trainwreck cases`: the team's case store from the command line.

Thin shells over `trainwreck.cases`: a resolved incident goes in with its cause
and fix, and `diagnose` finds it for the next run that fails the same way.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import click

from trainwreck import context
from trainwreck.cases import load_memory, similar
from trainwreck.cases.learn import learned_record
from trainwreck.cases.local import add, default_path, read
from trainwreck.cases.match import bundled_records
from trainwreck.cases.records import CaseRecord, dump_records, read_records
from trainwreck.cli.output import emit
from trainwreck.errors import UsageError
from trainwreck.evidence.collect import collect
from trainwreck.limits import MAX_CONFIG_BYTES, special_file
from trainwreck.model import CATEGORIES, Evidence, RunContext
from trainwreck.redact import redact_data

STORE_HELP = "The team's case store (default: $TRAINWRECK_CASES or the user data directory)."
SEARCH_LIMIT = 10


def _store(path: str | None) -> Path:
    return Path(path).expanduser() if path else default_path()


@click.command()
@click.argument("paths", nargs=-1)
@click.option("--cause", required=True, help="The confirmed cause, in a sentence or two.")
@click.option("--fix", help="What fixed it.")
@click.option("--link", help="Where it was resolved: an issue, a PR, an incident URL.")
@click.option("--symptoms", "-s", help="What was seen, in words.")
@click.option("--category", "-c", help="The failure class (oom, crash, hang, ...).")
@click.option("--store", "store_path", metavar="FILE", help=STORE_HELP)
def learn(
    paths: tuple[str, ...],
    cause: str,
    fix: str | None,
    link: str | None,
    symptoms: str | None,
    category: str | None,
    store_path: str | None,
) -> None:
    """Store a resolved failure from PATHS (logs, a run directory) so diagnose finds it again.

    \b
    Example:
      trainwreck learn train.log --cause "NCCL_P2P_DISABLE was unset on the new nodes" \\
        --fix "export NCCL_P2P_DISABLE=1 in the job template" --link https://jira/INC-12
    """
    if category is not None and category not in CATEGORIES:
        raise UsageError(f"--category must be one of: {', '.join(CATEGORIES)}")
    if not paths and not symptoms:
        raise UsageError("nothing to learn from: give a log file or a run directory")
    evidence = collect(paths, symptoms=symptoms)
    record = learned_record(
        evidence,
        context.build(evidence),
        cause=cause,
        fix=fix,
        link=link,
        category=category,
    )
    path = _store(store_path)
    add(path, [record])
    click.echo(f"trainwreck: learned {record.id} ({record.category}) into {path}", err=True)


@click.group()
def cases() -> None:
    """Search, count, export and import confirmed failures (the case memory)."""


@cases.command("search")
@click.argument("text", nargs=-1, required=True)
@click.option("--store", "store_path", metavar="FILE", help=STORE_HELP)
@click.option("--limit", "-n", default=SEARCH_LIMIT, show_default=True)
def cases_search(text: tuple[str, ...], store_path: str | None, limit: int) -> None:
    """Confirmed failures whose error lines resemble TEXT (an error message)."""
    memory = load_memory(read(_store(store_path)))
    query = Evidence(symptoms=" ".join(text))
    found = similar(memory, query, RunContext(), limit, specific=False)
    if not found:
        click.echo("No confirmed failure resembles that text.")
    for case in found:
        click.echo(
            f"{case.similarity:.2f}  {case.id}  [{case.category}, {case.store}]  {case.source}"
        )
        click.echo(f"      {case.cause}")


def _stats(records: list[CaseRecord]) -> dict[str, object]:
    return {"total": len(records), "by_class": dict(Counter(r.category for r in records))}


@cases.command("stats")
@click.option("--store", "store_path", metavar="FILE", help=STORE_HELP)
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text")
def cases_stats(store_path: str | None, fmt: str) -> None:
    """How many records each store holds, per failure class."""
    path = _store(store_path)
    stats = {
        "bundled": _stats(list(bundled_records())),
        "local": {**_stats(read(path)), "path": str(path)},
    }
    if fmt == "json":
        click.echo(json.dumps(stats, indent=2))
        return
    for name, store in stats.items():
        classes = ", ".join(f"{k} {v}" for k, v in sorted(store["by_class"].items()))  # type: ignore[attr-defined]
        click.echo(f"{name}: {store['total']} records ({classes or 'none'})")


@cases.command("export")
@click.argument("output", default="-")
@click.option("--store", "store_path", metavar="FILE", help=STORE_HELP)
def cases_export(output: str, store_path: str | None) -> None:
    """Write the local store as JSONL to OUTPUT (default: stdout)."""
    text = "".join(dump_records(read(_store(store_path))))
    emit(text, None if output == "-" else output)


@cases.command("import")
@click.argument("source")
@click.option("--store", "store_path", metavar="FILE", help=STORE_HELP)
def cases_import(source: str, store_path: str | None) -> None:
    """Add the records of a JSONL file (from `cases export`) to the local store."""
    path_in = Path(source)
    if why := special_file(source):
        raise UsageError(f"{source}: {why}")
    try:
        if path_in.stat().st_size > MAX_CONFIG_BYTES:
            raise UsageError(f"{source}: over {MAX_CONFIG_BYTES // 2**20} MiB; not imported")
        records = read_records(path_in)
    except OSError as exc:
        raise UsageError(f"cannot read {source}: {exc.strerror}") from None
    clean = [type(r).model_validate(redact_data(r.model_dump())) for r in records]
    path = _store(store_path)
    count = add(path, clean)
    click.echo(f"trainwreck: imported {count} record(s) into {path}", err=True)
