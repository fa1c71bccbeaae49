"""The tools' bodies: call the library, return Markdown for the agent plus structured data.

Nothing here imports the MCP SDK, so the answers can be built and tested
without it; `server.py` wraps each function as a tool. Bad arguments raise
`ToolInputError` (or another TrainwreckError) with one line for the agent.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from trainwreck.cases import load_memory, similar
from trainwreck.cases.local import default_path, read
from trainwreck.cases.match import bundled_records
from trainwreck.cases.records import CASE_PREFIX
from trainwreck.errors import TrainwreckError
from trainwreck.kb import load, priors
from trainwreck.kb.page import to_markdown as page_markdown
from trainwreck.kb.search import search
from trainwreck.mcp_server.hypotheses import RULED_OUT_FACTOR, rank
from trainwreck.mcp_server.inputs import (
    MAX_ID_CHARS,
    Policy,
    ToolInputError,
    log_stream,
    text_argument,
)
from trainwreck.memory import Serving, Training, estimate
from trainwreck.memory import render as memory_render
from trainwreck.memory.budget import LORA_DEFAULT_TARGETS
from trainwreck.memory.gpus import parse_gpus
from trainwreck.model import Diagnosis, Evidence, RunContext
from trainwreck.pipeline import diagnose
from trainwreck.report import to_json, to_markdown
from trainwreck.verify import render as verify_render
from trainwreck.verify.defaults import framework_default
from trainwreck.verify.read import read_text
from trainwreck.verify.run import check_documents
from trainwreck.verify.schema import schema_for
from trainwreck.verify.snapshots import FRAMEWORKS

SEARCH_LIMIT = 8
CASE_LIMIT = 5  # confirmed threads listed beside the pages


@dataclass(frozen=True)
class Answer:
    """What a tool returns: Markdown an agent can quote, and the same facts as data."""

    markdown: str
    data: dict[str, Any]


def diagnose_failure(
    policy: Policy,
    symptoms: str | None = None,
    logs: str | None = None,
    paths: Sequence[str] | None = None,
) -> Answer:
    """The CLI's diagnosis of the same evidence: its `--full` Markdown (an agent reads every
    section, not one screen) and its `--format json`."""
    diagnosis = _diagnose(policy, symptoms, logs, paths)
    return Answer(to_markdown(diagnosis), json.loads(to_json(diagnosis)))


def _diagnose(
    policy: Policy, symptoms: str | None, logs: str | None, paths: Sequence[str] | None
) -> Diagnosis:

    symptoms = text_argument("symptoms", symptoms)
    stream = log_stream(logs)
    inputs = policy.paths(paths)
    if stream is None and not inputs and not symptoms:
        raise ToolInputError("nothing to diagnose: give symptoms, logs or paths")
    return diagnose(["-", *inputs] if stream else inputs, symptoms=symptoms, stdin=stream)


def search_knowledge(query: str, context: str | None = None) -> Answer:
    """Pages ranked by relevance, then confirmed real failures whose errors resemble the query."""
    text = " ".join(
        filter(None, (text_argument("query", query), text_argument("context", context)))
    )
    hits = search(load(), text, SEARCH_LIMIT)
    lines = [f"Knowledge-base pages for {query!r}, best first:", ""] if hits else []
    pages = []
    for number, hit in enumerate(hits, 1):
        page = hit.pattern
        where = f"[kb:{page.id}] ({page.category}, relevance {hit.score:.2f})"
        lines.append(f"{number}. **{page.title}** {where}")
        lines.append(f"   {' '.join(page.root_cause.split())}")
        lines += [f"   - [source]({c.url}): {' '.join(c.detail.split())}" for c in page.citations]
        pages.append(
            {
                "id": page.id,
                "page": f"kb:{page.id}",
                "title": page.title,
                "category": page.category,
                "score": hit.score,
                "root_cause": page.root_cause.strip(),
                "facts": [{"url": c.url, "establishes": c.detail.strip()} for c in page.citations],
            }
        )
    cases = _similar_cases(text)
    if cases:
        lines += ["", "Confirmed real failures with similar errors (the case memory):", ""]
        lines += [
            f"- [case:{c['id']}] ({c['category']}, similarity {c['similarity']:.2f}, "
            f"{c['store']}) {c['cause']} [source]({c['source']})"
            for c in cases
        ]
    if not lines:
        return Answer(
            f"No knowledge-base page or confirmed case matches {query!r}.",
            {"query": text, "pages": [], "cases": []},
        )
    lines += ["", "Call get_page with an id (kb:<id> or case:<id>) to open it in full."]
    return Answer("\n".join(lines), {"query": text, "pages": pages, "cases": cases})


def _similar_cases(text: str) -> list[dict[str, Any]]:

    memory = load_memory(read(default_path()))
    found = similar(memory, Evidence(symptoms=text), RunContext(), CASE_LIMIT, specific=False)
    return [case.model_dump(mode="json", exclude={"matched"}) for case in found]


def get_page(page_id: str) -> Answer:
    """One page in full, as `trainwreck kb show` prints it, or one confirmed case."""
    wanted = (text_argument("page_id", page_id, MAX_ID_CHARS) or "").strip()
    if wanted.startswith(CASE_PREFIX):
        return _case(wanted.removeprefix(CASE_PREFIX))
    pattern = load().get(wanted)
    if pattern is None:
        raise ToolInputError(f"no knowledge-base page {wanted!r}; find ids with search_knowledge")
    return Answer(page_markdown(pattern), pattern.model_dump(mode="json"))


def _case(case_id: str) -> Answer:
    """A case-memory record: its evidence lines, confirmed cause, fix and sources."""
    stores = (("bundled", bundled_records()), ("local", read(default_path())))
    for store, records in stores:
        for record in records:
            if record.id == case_id:
                links = " ".join(f"[source]({u})" for u in (record.source, record.fix_url) if u)
                evidence = "\n".join(f"    {line}" for line in record.evidence.splitlines())
                text = (
                    f"# case:{record.id} ({record.category}, {store} store)\n\n"
                    f"**Cause** (confirmed by: {record.confirmed_by}): {record.cause} {links}\n\n"
                    + (f"**Fix:** {record.fix}\n\n" if record.fix else "")
                    + f"**Evidence lines:**\n\n{evidence}\n"
                )
                return Answer(text, {**record.model_dump(mode="json"), "store": store})
    raise ToolInputError(f"no case {case_id!r}; find ids with search_knowledge")


def query_priors(query: str, framework_versions: Mapping[str, str] | None = None) -> Answer:
    """Cited starting values for the knobs the question names, and the user's defaults."""
    question, rows = priors.query(text_argument("query", query) or "")
    if not rows:
        raise ToolInputError(
            f"no prior matches {query!r}; name a knob (learning rate, warmup, LoRA rank/alpha/"
            "dropout/target modules, Adam betas/epsilon, grad clipping, weight decay, batch size, "
            "vLLM gpu_memory_utilization/max_num_seqs/max_model_len) and the method"
        )
    versions = dict(framework_versions or {})
    keys = dict.fromkeys(row.key for row in rows if row.key)
    defaults = [found for key in keys if (found := framework_default(key, versions))]
    lines = ["| knob | setting | value | what the source establishes |", "|---|---|---|---|"]
    for row in rows:
        setting = ", ".join(filter(None, (row.method, row.model_size, row.precision)))
        lines.append(
            f"| {row.knob} | {setting} | {row.value} | "
            f"{' '.join(row.establishes.split())} [source]({row.source}) |"
        )
    if defaults:
        lines += ["", "Defaults in your framework version (from the bundled schema snapshots):"]
        for found in defaults:
            note = f"; {found.note}" if found.note else ""
            value = (
                "unset (`None`: filled in at run time)"
                if found.value is None
                else f"`{found.value!r}`"
            )
            lines.append(
                f"- `{found.key}` = {value} in {found.version} [source]({found.source}){note}"
            )
    data = {
        "question": {
            "knobs": list(question.knobs),
            "method": question.method,
            "model_size_b": question.size,
            "precision": question.precision,
        },
        "priors": [row.model_dump(mode="json") for row in rows],
        "defaults": [
            {
                "key": d.key,
                "version": d.version,
                "default": d.value,
                "origin": d.origin,
                "source": d.source,
                "note": d.note,
            }
            for d in defaults
        ],
    }
    return Answer("\n".join(lines) + "\n", data)


def check_config(config: str, framework: str | None = None, version: str | None = None) -> Answer:
    """`trainwreck check` on config text: every key against the user's framework version."""
    text = text_argument("config", config) or ""
    name = framework.split(":", 1)[0] if framework else None
    if name is not None and name not in FRAMEWORKS:
        raise ToolInputError(f"framework {framework!r}: use one of {', '.join(FRAMEWORKS)}")
    if version and name is None:
        raise ToolInputError("version needs framework: say which framework it is the version of")
    # The parser picks JSON by name and YAML or a launch command otherwise.
    label = "config.json" if text.lstrip().startswith("{") else "config"
    reports = check_documents(
        [read_text(label, text)], framework, {name: version} if name and version else {}
    )
    sources = {p.source for r in reports for p in r.problems if p.source}
    for report in reports:  # the class the keys were checked against ("transformers X")
        target = (report.target or "").rsplit(" ", 1)[-1]
        for checked, used in report.frameworks.items():
            owner = schema_for(checked, {checked: used}).classes.get(target)
            sources.update([owner.source] if owner and owner.source else [])
    markdown = verify_render.as_markdown(reports)
    if sources:
        links = " ".join(f"[source]({url})" for url in sorted(sources))
        markdown += f"\nSchemas checked against: {links}\n"
    return Answer(markdown, json.loads(verify_render.as_json(reports)))


def estimate_memory(policy: Policy, model: str, settings: Mapping[str, Any]) -> Answer:
    """`trainwreck memory`: the per-GPU budget, line by line, with each input's origin."""
    # os.path.exists, not Path.exists: a name past NAME_MAX raises ENAMETOOLONG there
    if os.path.exists(os.path.expanduser(model)) or model.startswith(("/", ".", "~")):
        model = policy.path(model)
    given = {k: v for k, v in settings.items() if v is not None}
    origins = {k: f"{k}={v!r} (tool argument)" for k, v in given.items()}
    gpus_text = given.pop("gpus", None)
    count, gpu = parse_gpus(str(gpus_text)) if gpus_text else (1, None)
    if given.pop("serve", False):
        serving_keys = ("max_model_len", "gpu_memory_utilization", "dtype", "tensor_parallel")
        run: Training | Serving = Serving(
            **{k: given[k] for k in serving_keys if k in given}, origins=origins
        )
    else:
        for name in ("max_model_len", "gpu_memory_utilization", "tensor_parallel"):
            given.pop(name, None)
        targets = tuple(given.pop("lora_targets", None) or LORA_DEFAULT_TARGETS)
        run = Training(gpus=count, lora_targets=targets, origins=origins, **given)
    result = estimate(model, run, gpu, count)
    return Answer(memory_render.markdown(result), json.loads(memory_render.as_json(result)))


def one_line(exc: TrainwreckError) -> str:
    """The first line of an error, which is all an agent needs to correct a call."""
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def propose_hypothesis(
    policy: Policy,
    current_status: str,
    recent_experiments: Sequence[str] | None = None,
    logs: str | None = None,
) -> Answer:
    """Ranked hypotheses with their discriminating checks, demoted by experiments already run."""
    experiments = [text_argument("recent_experiments", e) or "" for e in recent_experiments or ()]
    diagnosis = _diagnose(policy, current_status, logs, None)
    ranked = rank(diagnosis, experiments)
    if not ranked:
        return Answer(
            "No hypothesis: nothing in the status or logs matches the knowledge base. "
            "Add the traceback or the log lines around the failure.",
            {"hypotheses": []},
        )
    lines = ["Hypotheses, best first (near-ties: cheapest check first):", ""]
    rows = []
    for number, item in enumerate(ranked, 1):
        h = item.hypothesis
        page = f" [kb:{h.id}]" if h.grounded else " [no KB]"
        lines.append(f"{number}. **{h.title}**{page}: score {item.score:.2f}, {h.confidence}")
        lines.append(f"   - check ({h.discriminator_cost}): {' '.join(h.discriminator.split())}")
        if item.ruled_out_by:
            lines.append(
                f"   - demoted (score x{RULED_OUT_FACTOR}): tried without success: "
                + "; ".join(repr(e) for e in item.ruled_out_by)
            )
        lines += [f"   - [source]({c.url})" for c in h.citations if c.url][:3]
        rows.append(
            {
                "id": h.id,
                "title": h.title,
                "page": f"kb:{h.id}" if h.grounded else None,
                "score": item.score,
                "engine_score": h.score,
                "confidence": h.confidence,
                "check": h.discriminator,
                "check_cost": h.discriminator_cost,
                "ruled_out_by": list(item.ruled_out_by),
                "citations": [c.model_dump(mode="json") for c in h.citations],
            }
        )
    return Answer("\n".join(lines) + "\n", {"hypotheses": rows})
