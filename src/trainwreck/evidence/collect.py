"""The evidence pipeline: every input -> one Evidence, never raising on bad input.

Each reader handles one kind of input; whatever cannot be read becomes a Gap
with a one-line reason and the rest is still read. Secrets are redacted here, as
evidence enters: each log line as it is kept, a config, listing or model config
as a whole text before it is parsed, and every file name as it is recorded
(`Candidate.name`; the path itself is only opened).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import BinaryIO

from trainwreck.curves import stores
from trainwreck.curves.readers import read_text
from trainwreck.errors import internal_error
from trainwreck.evidence import code, configs, environment, files, metrics, profiler_trace
from trainwreck.evidence._text import clean
from trainwreck.evidence.exits import parse_exits
from trainwreck.evidence.files import Candidate, MetricStore
from trainwreck.evidence.flight_recorder import DumpRefused, read_dump
from trainwreck.evidence.lines import rank_of_path, to_log_lines
from trainwreck.evidence.logs import Budget, budget_for, scan_stream
from trainwreck.evidence.matcher import Matcher, build_matcher
from trainwreck.evidence.roles import exception_roles, line_roles
from trainwreck.evidence.setup import build_setup
from trainwreck.evidence.streams import SafeStream, open_limited, read_whole, stdin_stream
from trainwreck.evidence.tracebacks import parse_exceptions
from trainwreck.limits import MAX_PATHS
from trainwreck.model import (
    CodeSnippet,
    ConfigFile,
    EnvListing,
    Evidence,
    ExceptionRecord,
    FlightDump,
    Gap,
    InputFile,
    InputKind,
    LogLine,
    MetricTable,
    ProcessExit,
    ProfilerTrace,
    Scalar,
)

STDIN = "-"
# A run directory holds a handful of scripts; past this many .py files it is a source
# tree or an environment, whose library code is not the loop that failed.
MAX_CODE_FILES = 50


@dataclass
class _Collector:
    """Accumulates what each reader found, in input order."""

    matcher: Matcher
    budget: Budget = field(default_factory=Budget)  # each log's share of the lines kept
    files: list[InputFile] = field(default_factory=list)
    lines: list[LogLine] = field(default_factory=list)
    exceptions: list[ExceptionRecord] = field(default_factory=list)
    exits: list[ProcessExit] = field(default_factory=list)
    configs: list[ConfigFile] = field(default_factory=list)
    environment: dict[str, str] = field(default_factory=dict)
    banners: dict[str, str] = field(default_factory=dict)
    model_config: dict[str, Scalar | list[Scalar]] = field(default_factory=dict)
    env_texts: list[str] = field(default_factory=list)
    listings: list[EnvListing] = field(default_factory=list)
    environment_facts: dict[str, str] = field(default_factory=dict)
    metrics: list[MetricTable] = field(default_factory=list)
    code: list[CodeSnippet] = field(default_factory=list)
    gaps: list[Gap] = field(default_factory=list)
    flight_dumps: list[FlightDump] = field(default_factory=list)
    traces: list[ProfilerTrace] = field(default_factory=list)

    def gap(self, source: str, reason: str) -> None:
        """Record what could not be read; a reason can quote the path (an OSError's does)."""
        self.gaps.append(Gap(source=clean(source), reason=clean(reason)))

    def add(self, item: Candidate | Gap, forced: InputKind | None = None) -> None:
        """Read one input; a reader's own bug costs this input, never the report."""
        try:
            self._read(item, forced)
        except Exception as error:  # the last resort of every reader: a Gap, one line
            self.gap(item.source if isinstance(item, Gap) else item.name, internal_error(error))

    def _read(self, item: Candidate | Gap, forced: InputKind | None) -> None:
        if isinstance(item, Gap):
            self.gap(item.source, item.reason)
            return
        kind = forced or item.kind
        if kind == "code" and self.code_files() >= MAX_CODE_FILES:
            self.gaps.append(Gap(source=item.path, reason=f"more than {MAX_CODE_FILES} .py files"))
            return
        if item.store is not None and kind == "metrics":
            self.read_metric_store(item, item.store)
            return
        if kind == "log":
            self.read_log(item)
            return
        if kind == "flight_recorder":
            self.read_flight_dump(item)
            return
        if kind == "profiler_trace":
            self.read_trace(item)
            return
        try:
            text, stopped = read_whole(item.path, kind, item.size_bytes, item.compressed)
        except OSError as error:
            self.gap(item.name, f"cannot read: {error.strerror or error}")
            return
        if stopped:
            self.gap(item.name, f"read stopped after {len(text)} characters: {stopped}")
        self.read_small(item, kind, text if kind == "metrics" else clean(text))
        if kind == "env" and forced is None:
            # Job logs often open with nvidia-smi or collect_env output: read the
            # errors that follow too, not only the listing.
            self.read_log(item)

    def _open(self, item: Candidate, kind: InputKind) -> SafeStream | None:
        """The file as a stream within its kind's read limit, or None with a Gap saying why."""
        try:
            return open_limited(item.path, kind, item.size_bytes, item.compressed)
        except OSError as error:
            self.gap(item.name, f"cannot read: {error.strerror}")
            return None

    def read_log(self, item: Candidate) -> None:
        stream = self._open(item, "log")
        if stream is None:
            return
        with stream.inner:
            self.scan(item.name, stream, item.size_bytes, item.compressed)

    def read_flight_dump(self, item: Candidate) -> None:
        """A rank's flight-recorder dump; one that is refused is a Gap saying why."""
        stream = self._open(item, "flight_recorder")
        if stream is None:
            return
        with stream.inner:
            data = stream.read()
        if stream.error:
            self.gap(item.name, f"read stopped after {len(data)} bytes: {stream.error}")
            return
        try:
            dump = read_dump(item.name, data)
        except DumpRefused as refused:
            self.gap(item.name, str(refused))
            return
        self.files.append(
            InputFile(path=item.name, kind="flight_recorder", size_bytes=item.size_bytes)
        )
        self.flight_dumps.append(dump)

    def read_trace(self, item: Candidate) -> None:
        """A torch.profiler trace, streamed into its per-step summary."""
        stream = self._open(item, "profiler_trace")
        if stream is None:
            return
        with stream.inner:
            trace = profiler_trace.read(item.name, stream)
        if stream.error:
            self.gap(item.name, f"read stopped after {stream.count} bytes: {stream.error}")
        self.files.append(
            InputFile(
                path=item.name,
                kind="profiler_trace",
                size_bytes=item.size_bytes,
                compressed=item.compressed,
            )
        )
        if isinstance(trace, Gap):
            self.gap(trace.source, trace.reason)
            return
        for note in trace.notes:
            self.gap(item.name, note)
        self.traces.append(trace)

    def scan(self, source: str, stream: SafeStream, size: int | None, packed: str | None) -> None:
        """Scan one log stream and parse what it kept."""
        result = scan_stream(stream, self.matcher, budget=self.budget)  # type: ignore[arg-type]
        if stream.error:
            self.gap(source, f"read stopped after {result.bytes_read} bytes: {stream.error}")
        if result.truncated:
            self.gap(source, "too many error lines; later ones skipped")
        lines = list(to_log_lines(source, result.lines, rank_of_path(source)))
        self.files.append(
            InputFile(
                path=source,
                kind="log",
                size_bytes=size,
                lines_read=result.lines_read,
                compressed=packed,
            )
        )
        self._absorb_lines(source, lines)

    def code_files(self) -> int:
        return sum(1 for item in self.files if item.kind == "code")

    def _absorb_lines(self, source: str, lines: list[LogLine]) -> None:
        self.lines.extend(lines)
        self.code.extend(code.from_lines(source, ((i.line, i.text) for i in lines), "log"))
        self.exceptions.extend(parse_exceptions(lines))
        self.exits.extend(parse_exits(lines))
        for item in lines:
            for package, version in environment.banner_versions(item.text).items():
                self.banners.setdefault(package, version)
        for line_number, command in configs.joined_commands((i.line, i.text) for i in lines):
            if configs.is_launch_line(command):
                values = configs.parse_argv(command)
                if values:
                    self.configs.append(ConfigFile(source=f"{source}:{line_number}", values=values))

    def read_small(self, item: Candidate, kind: InputKind, text: str) -> None:
        """Configs, env listings, model configs, metrics and code: small whole-file reads."""
        self.files.append(
            InputFile(
                path=item.name,
                kind=kind,
                size_bytes=item.size_bytes,
                lines_read=text.count("\n") + 1,
                compressed=item.compressed,
            )
        )
        if kind == "code":
            self.code.append(CodeSnippet(source=item.path, text=clean(text)))
        elif kind == "env":
            self.env_texts.append(text)
            packages = environment.parse_listing(text)
            self.listings.append(EnvListing(source=item.path, packages=packages))
            for package, version in packages.items():
                self.environment.setdefault(package, version)
            for key, value in environment.listing_facts(text, item.name).items():
                self.environment_facts.setdefault(key, value)
        elif kind in ("config", "model_config"):
            values = configs.parse_config_text(item.path, text)
            if values is None:
                self.gap(item.name, f"not a valid {kind} (JSON/YAML/TOML)")
            elif kind == "config":
                self.configs.append(ConfigFile(source=item.name, values=values))
            else:
                self.model_config.update(values)
        elif kind == "metrics":
            self.read_metrics(item, text)

    def read_metrics(self, item: Candidate, text: str) -> None:
        """A metric file becomes a curve table; trainer_state.json also becomes lines."""
        if item.path.endswith(".json"):
            self._absorb_lines(
                item.name, metrics.trainer_state_lines(item.name, files.load_json(text))
            )
        table = read_text(item.name, text)
        if isinstance(table, Gap):
            self.gap(table.source, table.reason)
        else:
            self.metrics.append(table)

    def read_metric_store(self, item: Candidate, store: MetricStore) -> None:
        """An MLflow run folder or database, or a TensorBoard event file: curves, no text."""
        if store == "mlflow_db":
            runs = stores.read_mlflow_db(item.path)
        elif store == "mlflow_run":
            runs = [stores.read_mlflow_run(item.path)]
        else:
            runs = [stores.read_tensorboard(item.path)]
        if isinstance(runs, Gap):
            self.gap(runs.source, runs.reason)
            return
        self.files.append(InputFile(path=item.name, kind="metrics", size_bytes=item.size_bytes))
        for run in runs:
            for gap in run.gaps:
                self.gap(gap.source, gap.reason)
            if isinstance(run.table, Gap):
                self.gap(run.table.source, run.table.reason)
                continue
            table = replace(run.table, source=clean(run.table.source))
            self.metrics.append(table)
            if run.params:  # learning rate, batch size, warmup: facts the curve checks use
                values = {key: configs.coerce(value, key) for key, value in run.params.items()}
                self.configs.append(ConfigFile(source=f"{table.source}/params", values=values))

    def read_stdin(self, stdin: BinaryIO | None) -> None:
        stream, packed, reason = stdin_stream(stdin)
        if stream is None:
            self.gap(STDIN, reason or "cannot read standard input")
            return
        try:
            self.scan(STDIN, stream, None, packed)
        except Exception as error:  # as in `add`: this input is lost, not the report
            self.gap(STDIN, internal_error(error))

    def evidence(self, symptoms: str | None) -> Evidence:
        exceptions = exception_roles(self.exceptions, self.exits, self.lines)
        lines = line_roles(self.lines, exceptions, self.exits)
        environment_all = {**self.banners, **self.environment}
        setup = build_setup(environment_all, self.configs, self.model_config, lines, self.env_texts)
        said = clean(symptoms) if symptoms else None
        return Evidence(
            files=tuple(self.files),
            lines=tuple(lines),
            exceptions=tuple(exceptions),
            exits=tuple(self.exits),
            configs=tuple(self.configs),
            environment=environment_all,
            model_config_values=self.model_config,
            setup=setup,
            symptoms=said,
            code=(*self.code, *(code.from_symptoms(said) if said else ())),
            gaps=tuple(self.gaps),
            metrics=tuple(self.metrics),
            environment_facts=self.environment_facts,
            listings=tuple(self.listings),
            flight_dumps=tuple(self.flight_dumps),
            traces=tuple(self.traces),
        )


def _within_limit(paths: Sequence[str], collector: _Collector) -> list[str]:
    """Each path once, and no more than MAX_PATHS of them (the rest is a Gap)."""
    unique = list(dict.fromkeys(paths))
    if len(unique) > MAX_PATHS:
        collector.gap(unique[MAX_PATHS], f"more than {MAX_PATHS} paths; this one and later skipped")
    return unique[:MAX_PATHS]


def collect(
    paths: Sequence[str],
    *,
    symptoms: str | None = None,
    config_files: Sequence[str] = (),
    env_files: Sequence[str] = (),
    model_config_files: Sequence[str] = (),
    stdin: BinaryIO | None = None,
    keep: Sequence[str] = (),
) -> Evidence:
    """Read every input into Evidence; unreadable inputs become Gaps, never errors.

    `keep` holds regexes (self-contained alternatives) for lines worth keeping
    besides the generic error words.
    """
    collector = _Collector(build_matcher(keep))
    found = [
        (path, [] if path == STDIN else files.discover(path))
        for path in _within_limit(paths, collector)
    ]
    logs = sum(path == STDIN for path, _ in found) + sum(
        isinstance(item, Candidate) and item.kind == "log" for _, items in found for item in items
    )
    collector.budget = budget_for(logs)  # discovered first: the logs share one budget
    for path, items in found:
        if path == STDIN:
            collector.read_stdin(stdin)
        for item in items:
            collector.add(item)
    forced: tuple[tuple[Sequence[str], InputKind], ...] = (
        (config_files, "config"),
        (env_files, "env"),
        (model_config_files, "model_config"),
    )
    for group, kind in forced:
        for path in _within_limit(group, collector):
            for item in files.discover(path):
                collector.add(item, forced=kind)
    return collector.evidence(symptoms)
