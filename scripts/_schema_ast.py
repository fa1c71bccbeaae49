"""Read config classes out of Python source with `ast` (nothing is imported or run).

A module yields its classes (dataclass and pydantic fields, with the help text
in `metadata`, a `Field(...)` description or the string right after a field),
its enums and `Literal` aliases (the allowed values of a field typed with them),
and optional key sets: `x_config["key"] = ...` assignments, argparse flags and
`NAME = "key"` constants.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

HELP_CHARS = 300
_DEPRECATED = re.compile(r"deprecat", re.IGNORECASE)
_REPLACED = re.compile(
    r"(?:[Uu]se|in favou?r of|renamed to|replaced by)\s+`{0,2}-{0,2}([A-Za-z_][\w.-]*)`{0,2}"
)
_KEY = re.compile(r"[a-z][a-z0-9_]*")
_SKIP_TYPES = ("ClassVar", "InitVar[")


@dataclass
class FieldInfo:
    name: str
    type: str
    default: Any = None
    has_default: bool = False
    default_expr: str | None = None
    help: str | None = None
    choices: list[Any] | None = None
    aliases: list[str] = field(default_factory=list)
    deprecated: bool = False
    replaced_by: str | None = None

    def as_json(self, declared_in: str | None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        if self.has_default:
            out["default"] = self.default
        if self.default_expr is not None:
            out["default_expr"] = self.default_expr
        for name in ("help", "choices", "replaced_by"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.aliases:
            out["aliases"] = self.aliases
        if self.deprecated:
            out["deprecated"] = True
        if declared_in:
            out["declared_in"] = declared_in
        return out


@dataclass
class ClassInfo:
    name: str
    file: str
    bases: list[str]
    fields: dict[str, FieldInfo]

    def merged(self, pool: dict[str, ClassInfo], seen: frozenset[str] = frozenset()) -> dict:  # type: ignore[type-arg]
        """Fields of the bases found in `pool` first, then this class's own."""
        out: dict[str, tuple[FieldInfo, str]] = {}
        for base in self.bases:
            if base in pool and base not in seen and base != self.name:
                out.update(pool[base].merged(pool, seen | {self.name}))
        out.update({name: (info, self.name) for name, info in self.fields.items()})
        return out

    def resolve(
        self, pool: dict[str, ClassInfo], choices: dict[str, list[Any]], extends: dict[str, str]
    ) -> dict[str, Any]:
        fields = self.merged(pool)
        external = sorted({extends[b] for b in self._all_bases(pool) if b in extends})
        body: dict[str, Any] = {}
        for name, (info, owner) in fields.items():
            _fill_from_reference(info, pool)
            if info.choices is None:
                info.choices = _choices_for(info.type, choices)
            body[name] = info.as_json(owner if owner != self.name else None)
        return {"file": self.file, "bases": self.bases, "extends": external, "fields": body}

    def _all_bases(self, pool: dict[str, ClassInfo]) -> set[str]:
        found = set(self.bases)
        for base in self.bases:
            if base in pool and base != self.name:
                found |= pool[base]._all_bases(pool)
        return found


@dataclass
class Harvest:
    classes: dict[str, ClassInfo] = field(default_factory=dict)
    choices: dict[str, list[Any]] = field(default_factory=dict)
    keys: dict[str, set[str]] = field(default_factory=dict)


def _parse(text: str) -> ast.Module | None:
    """Parse; PEP 695 `type X = ...` lines become plain assignments for older Pythons."""
    for attempt in (text, re.sub(r"^type (\w+)(\[[^\]]*\])? =", r"\1 =", text, flags=re.M)):
        try:
            return ast.parse(attempt)
        except SyntaxError:
            continue
    return None


def _literal(node: ast.expr | None) -> tuple[bool, Any]:
    """(True, value) when the node is a JSON-able literal; pp_int(x) counts as int."""
    if node is None:
        return False, None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "pp_int":
        ok, value = _literal(node.args[0] if node.args else None)
        return (ok and isinstance(value, int | float)), int(value) if ok else None
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False, None
    return _jsonable(value)


def _jsonable(value: Any) -> tuple[bool, Any]:
    if isinstance(value, tuple | list):
        items = [_jsonable(v) for v in value]
        return all(ok for ok, _ in items), [v for _, v in items]
    if isinstance(value, dict):
        pairs = {str(k): _jsonable(v) for k, v in value.items()}
        return all(ok for ok, _ in pairs.values()), {k: v for k, (_, v) in pairs.items()}
    if isinstance(value, float) and value != value:
        return False, None
    return isinstance(value, str | int | float | bool | type(None)), value


def _text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    collapsed = " ".join(value.split())
    return collapsed[:HELP_CHARS] + ("..." if len(collapsed) > HELP_CHARS else "")


def _kwargs(call: ast.Call) -> dict[str, ast.expr]:
    return {kw.arg: kw.value for kw in call.keywords if kw.arg}


def _call_name(node: ast.expr) -> str:
    if isinstance(node, ast.Call):
        func = node.func
        return func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    return ""


def _field(name: str, annotation: ast.expr, value: ast.expr | None) -> FieldInfo | None:
    type_text = ast.unparse(annotation)
    if type_text.startswith(_SKIP_TYPES) or "ClassVar" in type_text:
        return None
    info = FieldInfo(name, type_text)
    if value is None:
        return info
    if _call_name(value) in {"field", "Field"}:
        assert isinstance(value, ast.Call)
        return _from_call(info, value)
    info.has_default, info.default = _literal(value)
    if not info.has_default:
        info.default_expr = ast.unparse(value)
    return info


def _from_call(info: FieldInfo, call: ast.Call) -> FieldInfo | None:
    kwargs = _kwargs(call)
    init = kwargs.get("init")
    if isinstance(init, ast.Constant) and init.value is False:
        return None
    default = kwargs.get("default", call.args[0] if call.args else None)
    factory = kwargs.get("default_factory")
    if default is not None:
        info.has_default, info.default = _literal(default)
        if not info.has_default and ast.unparse(default) not in {"...", "MISSING"}:
            info.default_expr = ast.unparse(default)
    elif factory is not None:
        info.default_expr = f"{ast.unparse(factory)}()"
    alias = kwargs.get("alias")
    if isinstance(alias, ast.Constant) and isinstance(alias.value, str):
        info.aliases.append(alias.value)
    extra: dict[str, Any] = {}
    for key in ("metadata", "json_schema_extra"):
        ok, value = _literal(kwargs.get(key)) if key in kwargs else (False, None)
        if not ok and key in kwargs and isinstance(kwargs[key], ast.Dict):
            value = _partial_dict(kwargs[key])  # type: ignore[arg-type]
            ok = True
        if ok and isinstance(value, dict):
            extra.update(value)
    for key in ("deprecated", "new_param", "description"):
        if key in kwargs:
            extra.setdefault(key, _literal(kwargs[key])[1])
    info.help = _text(extra.get("help") or extra.get("description"))
    if isinstance(extra.get("choices"), list):
        info.choices = extra["choices"]
    if extra.get("deprecated") is True:
        info.deprecated = True
    if isinstance(extra.get("new_param"), str):
        info.replaced_by = extra["new_param"]
    return info


def _partial_dict(node: ast.Dict) -> dict[str, Any]:
    """The literal entries of a dict display whose other entries are code (lambdas)."""
    out: dict[str, Any] = {}
    for key, value in zip(node.keys, node.values, strict=True):
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            ok, literal = _literal(value)
            if ok:
                out[key.value] = literal
    return out


def _note_deprecation(info: FieldInfo) -> None:
    if info.help and _DEPRECATED.search(info.help):
        info.deprecated = True
        match = _REPLACED.search(info.help)
        if match and info.replaced_by is None and match.group(1) != info.name:
            info.replaced_by = match.group(1).replace("-", "_").strip(".")


def _class(node: ast.ClassDef, path: str) -> ClassInfo:
    fields: dict[str, FieldInfo] = {}
    last: FieldInfo | None = None
    for statement in node.body:
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            last = _field(statement.target.id, statement.annotation, statement.value)
            if last is not None:
                fields[last.name] = last
            continue
        is_doc = isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
        if is_doc and last is not None and last.help is None:
            last.help = _text(statement.value.value)  # type: ignore[attr-defined]
        last = None
    for info in fields.values():
        _note_deprecation(info)
    bases = [ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases]
    return ClassInfo(node.name, path, bases, fields)


def _enum_values(node: ast.ClassDef) -> list[Any] | None:
    if not any("Enum" in ast.unparse(base) for base in node.bases):
        return None
    values = []
    for statement in node.body:
        constant = isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Constant)
        if constant and statement.value.value not in values:  # type: ignore[attr-defined]
            values.append(statement.value.value)  # type: ignore[attr-defined]
    return values or None


def _literal_alias(node: ast.stmt) -> tuple[str, list[Any]] | None:
    target = getattr(node, "target", None) or (getattr(node, "targets", None) or [None])[0]
    value = getattr(node, "value", None)
    if not isinstance(target, ast.Name) or not isinstance(value, ast.Subscript):
        return None
    if ast.unparse(value.value).rsplit(".", 1)[-1] != "Literal":
        return None
    items = value.slice.elts if isinstance(value.slice, ast.Tuple) else [value.slice]
    literals = [_literal(item) for item in items]
    if not all(ok for ok, _ in literals):
        return None
    return target.id, [v for _, v in literals]


def harvest_module(text: str, path: str, kinds: tuple[str, ...] = ()) -> Harvest | None:
    tree = _parse(text)
    if tree is None:
        return None
    out = Harvest()
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            out.classes[node.name] = _class(node, path)
            values = _enum_values(node)
            if values is not None:
                out.choices[node.name] = values
        alias = _literal_alias(node)
        if alias:
            out.choices[alias[0]] = alias[1]
    for kind in kinds:
        out.keys.update(_KEY_HARVESTERS[kind](tree, path))
    return out


def _choices_for(type_text: str, choices: dict[str, list[Any]]) -> list[Any] | None:
    """Allowed values of a field typed with an enum or Literal (not a list of them)."""
    if re.search(r"\b(list|List|dict|Dict|tuple|Tuple|Sequence)\b", type_text):
        return None
    literal = re.search(r"Literal\[(.*)\]", type_text)
    if literal:
        try:
            value = ast.literal_eval(f"[{literal.group(1)}]")
        except (ValueError, SyntaxError):
            return None
        return list(value)
    names = [n for n in re.findall(r"\b\w+\b", type_text) if n in choices]
    return list(choices[names[0]]) if len(names) == 1 else None


def _fill_from_reference(info: FieldInfo, pool: dict[str, ClassInfo]) -> None:
    """`x: int = ModelConfig.x`: take the default, help and type from that class."""
    match = re.fullmatch(r"(\w+)\.(\w+)", info.default_expr or "")
    if not match or match.group(1) not in pool:
        return
    target = pool[match.group(1)].fields.get(match.group(2))
    if target is None:
        return
    if target.has_default:
        info.has_default, info.default, info.default_expr = True, target.default, None
    info.help = info.help or target.help
    info.choices = info.choices or target.choices


def _subscripts(tree: ast.Module, path: str) -> dict[str, set[str]]:
    """`fsdp_config["fsdp_x"] = ...` -> {"fsdp_config": {"fsdp_x"}}."""
    out: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if (
                    isinstance(target, ast.Subscript)
                    and isinstance(target.value, ast.Name)
                    and target.value.id.endswith("_config")
                    and isinstance(target.slice, ast.Constant)
                    and isinstance(target.slice.value, str)
                ):
                    out.setdefault(target.value.id, set()).add(target.slice.value)
    return out


def _argparse(tree: ast.Module, path: str) -> dict[str, set[str]]:
    """Long flags of `add_argument("--flag", ...)`, written with underscores."""
    flags: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _call_name(node) == "add_argument":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and str(arg.value).startswith("--"):
                    flags.add(str(arg.value)[2:].replace("-", "_"))
    return {"argparse": flags} if flags else {}


def _constants(tree: ast.Module, path: str) -> dict[str, set[str]]:
    """`TRAIN_BATCH_SIZE = "train_batch_size"` and `d.get("key")` literals."""
    keys: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            value = node.value.value
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            if isinstance(value, str) and names and names[0].isupper() and _KEY.fullmatch(value):
                keys.add(value)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                target = getattr(item, "target", None)
                named = isinstance(item, ast.AnnAssign) and isinstance(target, ast.Name)
                if named and _KEY.fullmatch(target.id):  # type: ignore[union-attr]
                    keys.add(target.id)  # type: ignore[union-attr]
        elif isinstance(node, ast.Call) and _call_name(node) == "get" and node.args:
            first = node.args[0]
            if isinstance(first, ast.Constant) and isinstance(first.value, str):
                keys.update(_KEY.findall(first.value)[:1] if _KEY.fullmatch(first.value) else [])
    return {"constants": keys} if keys else {}


_KEY_HARVESTERS = {"subscripts": _subscripts, "argparse": _argparse, "constants": _constants}
