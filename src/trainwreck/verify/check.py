"""Check one parsed document against the schema of the framework it belongs to."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace

from trainwreck.limits import MAX_TYPO_KEYS
from trainwreck.verify.detect import (
    TRAINING_CLASSES,
    VLLM_CLASSES,
    best_training_class,
    companions,
    detect,
    top_keys,
)
from trainwreck.verify.keys import (
    DETECTED_CUTOFF,
    LENIENT_CUTOFF,
    STRICT_CUTOFF,
    deprecated_problem,
    explain_unknown,
)
from trainwreck.verify.model import ClassSchema, FieldSchema, FileReport, Problem, Schema
from trainwreck.verify.read import Document
from trainwreck.verify.sections import accelerate_targets, deepspeed_targets, keyset_class
from trainwreck.verify.values import check_value

SchemaOf = Callable[[str], Schema]
MIXED = "TrainingArguments, TRL configs, LoraConfig or vLLM EngineArgs"
Target = tuple[str, ClassSchema]  # (leaf key, the class that judges it)


def _judge(
    key: str,
    value: object,
    leaf: str,
    cls: ClassSchema,
    version_of: dict[str, str],
    history_of: Iterable[tuple[str, str]],
    strict: bool,
    from_argv: bool,
    cutoff: float,
    search: bool = True,
) -> Problem | None:
    field = cls.get(leaf)
    version = version_of.get(cls.framework, "?")
    if field is None and from_argv and leaf.startswith("no_") and cls.get(leaf[3:]):
        return None  # HfArgumentParser's --no_<flag> sets a bool field to False
    if field is None:
        found = explain_unknown(leaf, cls, version_of, history_of, strict, cutoff, search)
        return replace(found, key=key) if found else None
    problem = deprecated_problem(leaf, cls, version) or check_value(
        key,
        value,  # type: ignore[arg-type]
        field,
        from_argv,
    )
    return replace(problem, key=key) if problem else None


def _union(
    framework: str, name: str, classes: Iterable[ClassSchema], extra: set[str]
) -> ClassSchema:
    fields: dict[str, FieldSchema] = {key: FieldSchema(key) for key in extra}
    for cls in classes:
        fields.update(cls.fields)
    return ClassSchema(framework, name, fields)


def _flat_targets(document: Document, cls: ClassSchema) -> Iterator[tuple[str, str, ClassSchema]]:
    """Keys under a known dict-valued field (`model_init_kwargs.x`) are the field's own."""
    seen: set[str] = set()
    for key in document.values:
        top = key.split(".", 1)[0].replace("-", "_")
        if top not in seen:
            seen.add(top)
            yield key if "." not in key else top, top, cls


def _mixed_targets(
    document: Document, schema_of: SchemaOf
) -> Iterator[tuple[str, str, ClassSchema]]:
    """Each key judged by the first class that has it, else by the union of them all."""
    classes = [schema_of(fw).classes[n] for fw, n in TRAINING_CLASSES if n in schema_of(fw).classes]
    classes += list(schema_of("peft").classes.values())
    vllm = schema_of("vllm")
    classes += [vllm.classes[n] for n in VLLM_CLASSES if n in vllm.classes]
    union = _union("mixed", MIXED, classes, set())
    for key, top, _ in _flat_targets(document, union):
        owner = next((cls for cls in classes if cls.get(top) is not None), union)
        yield key, top, owner


def check_document(
    document: Document, schema_of: SchemaOf, forced: str | None = None
) -> FileReport:
    kind = detect(document, schema_of, forced)
    version_of: dict[str, str] = {}
    notes: list[str] = []

    def use(framework: str) -> Schema:
        schema = schema_of(framework)
        version_of[framework] = schema.version
        if schema.note and schema.note not in notes:
            notes.append(schema.note)
        return schema

    targets: list[tuple[str, str, ClassSchema]] = []
    history: list[tuple[str, str]] = []
    strict = forced is not None
    cutoff = STRICT_CUTOFF if strict else LENIENT_CUTOFF if kind == "mixed" else DETECTED_CUTOFF
    target_name: str | None = None
    if kind == "training":
        cls, _ = best_training_class(top_keys(document), schema_of, forced)
        if cls is None:
            cls = use("transformers").classes["TrainingArguments"]
        use(cls.framework)
        if cls.framework == "trl":
            use("transformers")
            history.append(("trl", cls.name))
        history.append(("transformers", "TrainingArguments"))
        judge = _union(cls.framework, cls.name, [*companions(schema_of), cls], set())
        targets = list(_flat_targets(document, judge))
        target_name = f"{cls.framework} {cls.name}"
    elif kind == "peft":
        cls = use("peft").classes["LoraConfig"]
        targets, history, target_name = (
            list(_flat_targets(document, cls)),
            [("peft", "LoraConfig")],
            "peft LoraConfig",
        )
    elif kind == "vllm":
        schema = use("vllm")
        classes = [schema.classes[n] for n in VLLM_CLASSES if n in schema.classes]
        cls = _union("vllm", "EngineArgs", classes, set(schema.key_sets.get("argparse", ())))
        targets = list(_flat_targets(document, cls))
        history, target_name = [("vllm", "EngineArgs")], "vllm EngineArgs"
    elif kind == "deepspeed":
        schema = use("deepspeed")
        targets = [
            (k, leaf, c) for k in document.values for leaf, c in deepspeed_targets(k, schema)
        ]
        history, target_name = [("deepspeed", "DeepSpeedZeroConfig")], "DeepSpeed config"
    elif kind == "accelerate":
        schema = use("accelerate")
        targets = [
            (k, leaf, c) for k in document.values for leaf, c in accelerate_targets(k, schema)
        ]
        target_name = "accelerate config"
    elif kind == "mixed":
        for framework in ("transformers", "trl", "peft", "vllm"):
            use(framework)
        targets = list(_mixed_targets(document, schema_of))
        history = [
            ("transformers", "TrainingArguments"),
            *[(fw, n) for fw, n in TRAINING_CLASSES[2:]],
        ]
        target_name = "mixed recipe (each key against every known class)"
    elif kind == "model-config":  # judged by verify/model_config.py's rules, per top-level key
        use("transformers")
        target_name = f"{document.values.get('model_type')} model config"
    problems, unsearched = _run(document, targets, version_of, history, strict, cutoff)
    if unsearched:
        notes.append(
            f"{unsearched:,} unknown keys past the first {MAX_TYPO_KEYS} were not searched for "
            "a close spelling (reported without a suggestion)"
        )
    problems += _launcher_problems(document, schema_of, use)
    return FileReport(
        document.path, kind, dict(version_of), target_name, tuple(problems), tuple(notes),
        keys_checked=len(targets) or (len(top_keys(document)) if kind == "model-config" else 0),
    )  # fmt: skip


def _run(
    document: Document,
    targets: list[tuple[str, str, ClassSchema]],
    version_of: dict[str, str],
    history: list[tuple[str, str]],
    strict: bool,
    cutoff: float,
) -> tuple[list[Problem], int]:
    """The problems of every key, and how many unknown keys went past MAX_TYPO_KEYS."""
    problems: list[Problem] = []
    from_argv = document.launcher is not None
    unknown = 0
    for key, leaf, cls in targets:
        unknown += cls.get(leaf) is None
        value = document.values.get(key)
        history_of = (
            history
            if cls.framework not in ("deepspeed", "accelerate")
            else [(cls.framework, cls.name)]
        )
        search = unknown <= MAX_TYPO_KEYS
        found = _judge(
            key, value, leaf, cls, version_of, history_of, strict, from_argv, cutoff, search
        )
        if found is not None:
            problems.append(replace(found, line=document.line_of(key)))
    return problems, max(0, unknown - MAX_TYPO_KEYS)


def _launcher_problems(
    document: Document, schema_of: SchemaOf, use: Callable[[str], Schema]
) -> list[Problem]:
    if document.launcher != "accelerate" or not document.launcher_values:
        return []
    schema = use("accelerate")
    flags = set(schema.key_sets.get("argparse", ()))
    cls = keyset_class("accelerate", "accelerate launch flags", flags, schema.origin)
    version_of = {"accelerate": schema.version}
    problems = []
    for key in document.launcher_values:
        found = _judge(key, None, key, cls, version_of, [], True, True, STRICT_CUTOFF)
        if found is not None:
            problems.append(replace(found, line=document.line_of(key)))
    return problems
