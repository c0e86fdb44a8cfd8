"""Load, validate and resolve the rule spec (spec/<provider>/<version>.yaml) for the generator."""

from __future__ import annotations

import json
import re
import string
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from spec_honoured import check_honoured

ROOT = Path(__file__).resolve().parent.parent
SPEC_DIR = ROOT / "spec"

# Placeholders a message template may use; the interpreter passes only these.
MESSAGE_FIELDS = frozenset(
    {
        "name", "pattern", "count", "limit", "value", "keyword", "format", "threshold", "expected",
        "feature", "reason", "position",
    }
)
# How deeply each section merges when a version extends another: 1 replaces whole entries,
# 2 merges the fields of each entry.
MERGE_DEPTH = {
    "sources": 1,
    "keywords": 1,
    "formats": 1,
    "slots": 1,
    "keyword_classes": 1,
    "name": 1,
    "description": 1,
    "limits": 2,
    "diagnostics": 2,
    "transformations": 2,
    "regex_feature_classes": 1,
    "regex_features": 1,
    "policy": 1,
    "budgets": 2,
}
# Sections a standalone (non-extending) version must have after resolution.
REQUIRED_SECTIONS = (
    "sources",
    "name",
    "description",
    "limits",
    "formats",
    "keyword_classes",
    "keywords",
    "slots",
    "output_order",
    "diagnostics",
    "transformations",
    "regex_feature_classes",
    "regex_features",
    "policy",
)


class SpecError(Exception):
    """A spec problem, located as file:line and a path inside the document."""

    def __init__(self, file: Path | str, line: int | None, path: str, message: str):
        self.file, self.line, self.path, self.message = str(file), line, path, message
        where = f"{self.file}:{line}" if line else self.file
        super().__init__(f"{where}: {path or '(document)'}: {message}")


@dataclass
class Document:
    """One parsed YAML file with the line of every node, keyed by its path tuple."""

    file: Path
    data: Any
    lines: dict[tuple, int] = field(default_factory=dict)

    def line(self, path: tuple) -> int | None:
        # Walk up to the nearest ancestor we know the line of.
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())

    def error(self, path: tuple, message: str) -> SpecError:
        return SpecError(self.file, self.line(path), fmt_path(path), message)


def fmt_path(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def load_yaml(file: Path) -> Document:
    """Parse YAML into plain data, rejecting duplicate keys, aliases and non-string keys."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SpecError(file, None, "", f"cannot read: {exc}") from None
    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else None
        raise SpecError(file, line, "", f"invalid YAML: {getattr(exc, 'problem', exc)}") from None
    finally:
        loader.dispose()
    doc = Document(file, None)
    seen: set[int] = set()

    def build(n: yaml.Node, path: tuple) -> Any:
        doc.lines[path] = n.start_mark.line + 1
        if isinstance(n, (yaml.MappingNode, yaml.SequenceNode)):
            # An alias shares the node object; refusing shared nodes rules out alias bombs.
            if id(n) in seen:
                raise doc.error(path, "YAML aliases are not allowed in spec files")
            seen.add(id(n))
        if isinstance(n, yaml.MappingNode):
            out: dict[str, Any] = {}
            for key_node, value_node in n.value:
                if not isinstance(key_node, yaml.ScalarNode):
                    raise doc.error(path, "mapping keys must be plain scalars")
                if key_node.tag == "tag:yaml.org,2002:merge":
                    raise doc.error(path, "YAML merge keys (<<) are not allowed in spec files")
                key = key_node.value
                if key in out:
                    doc.lines[path + (key,)] = key_node.start_mark.line + 1
                    raise doc.error(path + (key,), f"duplicate key {key!r}")
                out[key] = build(value_node, path + (key,))
                doc.lines[path + (key,)] = key_node.start_mark.line + 1
            return out
        if isinstance(n, yaml.SequenceNode):
            return [build(v, path + (i,)) for i, v in enumerate(n.value)]
        scalar_loader = yaml.SafeLoader("")
        try:
            return scalar_loader.construct_object(n)
        finally:
            scalar_loader.dispose()

    doc.data = build(node, ()) if node is not None else None
    return doc


def load_meta_schema(spec_dir: Path = SPEC_DIR) -> dict:
    """The meta-schema of spec_dir (a copy of spec/ carries its own)."""
    file = spec_dir / "spec.schema.json"
    if not file.exists():
        file = SPEC_DIR / "spec.schema.json"
    return json.loads(file.read_text(encoding="utf-8"))


def validate_document(doc: Document, meta: dict) -> None:
    if not isinstance(doc.data, dict):
        raise doc.error((), "a spec file must be a mapping")
    validator = jsonschema.Draft202012Validator(meta)
    errors = sorted(validator.iter_errors(doc.data), key=lambda e: (list(map(str, e.path)), e.message))
    if errors:
        err = errors[0]
        raise doc.error(tuple(err.path), err.message)


@dataclass
class Version:
    provider: str
    version: str
    doc: Document
    resolved: dict | None = None


def discover(spec_dir: Path = SPEC_DIR) -> dict[str, dict[str, Version]]:
    """Every rule version under spec_dir, validated against the meta-schema, by provider."""
    meta = load_meta_schema(spec_dir)
    found: dict[str, dict[str, Version]] = {}
    for file in sorted(spec_dir.glob("*/*.yaml")):
        doc = load_yaml(file)
        validate_document(doc, meta)
        data = doc.data
        if data["provider"] != file.parent.name:
            raise doc.error(("provider",), f"provider {data['provider']!r} does not match folder {file.parent.name!r}")
        if data["version"] != file.stem:
            raise doc.error(("version",), f"version {data['version']!r} does not match file name {file.stem!r}")
        found.setdefault(data["provider"], {})[data["version"]] = Version(data["provider"], data["version"], doc)
    return found


def _merge(parent: Any, child: Any, depth: int) -> Any:
    if depth == 0 or not isinstance(parent, dict) or not isinstance(child, dict):
        return child
    out = dict(parent)
    for key, value in child.items():
        if value is None:
            out.pop(key, None)
        elif key in out:
            out[key] = _merge(out[key], value, depth - 1)
        else:
            out[key] = value
    return out


def resolve(versions: dict[str, Version], name: str, _stack: tuple = ()) -> dict:
    """The fully materialised rules of one version (its ancestors merged under it)."""
    v = versions[name]
    if v.resolved is not None:
        return v.resolved
    data = v.doc.data
    parent_name = data.get("extends")
    if parent_name is None:
        resolved = {k: val for k, val in data.items()}
    else:
        if parent_name in _stack or parent_name == name:
            raise v.doc.error(("extends",), f"extends cycle through {parent_name!r}")
        if parent_name not in versions:
            raise v.doc.error(("extends",), f"extends unknown version {parent_name!r}; known: {', '.join(sorted(versions))}")
        if parent_name >= name:
            raise v.doc.error(("extends",), f"a version may only extend an older one ({parent_name} is not before {name})")
        parent = resolve(versions, parent_name, _stack + (name,))
        resolved = {}
        for key in set(parent) | set(data):
            if key in ("default", "extends"):
                continue
            if key in data and key in parent and key in MERGE_DEPTH:
                resolved[key] = _merge(parent[key], data[key], MERGE_DEPTH[key])
            elif key in data:
                resolved[key] = data[key]
            else:
                resolved[key] = parent[key]
        resolved["extends"] = parent_name
    resolved["default"] = bool(data.get("default", False))
    _check_semantics(v, resolved)
    v.resolved = resolved
    return resolved


def observation_problem(spec_dir: Path, source: dict) -> str | None:
    """Why an observation source (evidence O) does not stand, or None: its record must be a file
    under spec/observations that `toolcast probe --record` wrote, holding a verdict of the source's
    model on the source's date."""
    base = (spec_dir / "observations").resolve()
    path = (spec_dir / source["record"]).resolve()
    if base not in path.parents:
        return f"record {source['record']!r} is not a file under the spec's observations/ directory"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        return f"record {source['record']!r} cannot be read as JSON: {getattr(exc, 'strerror', None) or exc}"
    if not isinstance(doc, dict) or doc.get("toolcast_probe_record") != 1 or not isinstance(doc.get("verdicts"), list):
        return f"record {source['record']!r} is not a toolcast probe record (toolcast probe --record FILE writes one)"
    for v in doc["verdicts"]:
        if isinstance(v, dict) and source["model"] in (v.get("model"), v.get("response_model")) and v.get("date") == source["date"]:
            return None
    return f"record {source['record']!r} holds no verdict of model {source['model']!r} observed on {source['date']}"


def _check_semantics(v: Version, r: dict) -> None:
    """Cross-references the meta-schema cannot express; errors point at the child file."""
    doc = v.doc

    def fail(path: tuple, message: str) -> SpecError:
        return doc.error(path, message)

    for section in REQUIRED_SECTIONS:
        if section not in r:
            raise fail((), f"missing section {section!r} (and no version it extends provides it)")
    sources = r["sources"]
    for sid, src in sources.items():  # an observation cites a probe record kept beside the spec
        problem = observation_problem(doc.file.parent.parent, src) if src and src.get("evidence") == "O" else None
        if problem:
            raise fail(("sources", sid, "record"), problem)
    diagnostics = r["diagnostics"]
    transformations = r["transformations"]

    def check_cites(path: tuple, cites: list) -> None:
        for i, cid in enumerate(cites):
            if cid not in sources:
                raise fail(path + (i,), f"citation {cid!r} is not in sources")

    for code, entry in diagnostics.items():
        for req in ("severity", "outcome", "message", "docs", "cite"):
            if req not in entry:
                raise fail(("diagnostics", code), f"diagnostic {code!r} lacks {req!r}")
        # A rule family for one API of a target (gemini-parameters) reports under the target's codes.
        prefix = r["target"]["name"] if "target" in r else r["provider"]
        if not code.startswith(prefix + "/"):
            raise fail(("diagnostics", code), f"code {code!r} must start with {prefix + '/'!r}")
        check_cites(("diagnostics", code, "cite"), entry["cite"])
        _check_message(("diagnostics", code, "message"), entry["message"], fail)
    for code, entry in transformations.items():
        for req in ("lossy", "detail"):
            if req not in entry:
                raise fail(("transformations", code), f"transformation {code!r} lacks {req!r}")
    classes = r["keyword_classes"]
    for cname, c in classes.items():
        if c["action"] == "drop":
            if c.get("diagnostic") not in diagnostics:
                raise fail(("keyword_classes", cname, "diagnostic"), f"unknown diagnostic code {c.get('diagnostic')!r}")
            if c.get("transformation") not in transformations:
                raise fail(("keyword_classes", cname, "transformation"), f"unknown transformation code {c.get('transformation')!r}")
    if "unknown" not in classes:
        raise fail(("keyword_classes",), "class 'unknown' must be defined (it handles unlisted keywords)")
    for kw, entry in r["keywords"].items():
        if entry["class"] not in classes:
            raise fail(("keywords", kw, "class"), f"class {entry['class']!r} is not in keyword_classes")
        if entry["class"] == "rewrite" and "handler" not in entry:
            raise fail(("keywords", kw), "a rewrite keyword needs a handler")
        check_cites(("keywords", kw, "cite"), entry["cite"])
    for fmt, cites in r["formats"].items():
        check_cites(("formats", fmt), cites)
    for lname, limit in r["limits"].items():
        if limit["code"] not in diagnostics:
            raise fail(("limits", lname, "code"), f"unknown diagnostic code {limit['code']!r}")
        check_cites(("limits", lname, "cite"), limit["cite"])
    _check_regex(r, fail, check_cites)
    _check_text_rules(r, fail)
    check_honoured(r, fail, check_cites, doc.lines)
    check_cites(("name", "cite"), r["name"].get("cite", []))
    check_cites(("description", "cite"), r["description"].get("cite", []))
    for slot in r["slots"]:
        if slot not in r["keywords"]:
            raise fail(("slots", slot), f"slot {slot!r} is not a keyword")
    order = r["output_order"]
    for kw, entry in r["keywords"].items():
        if entry["class"] == "supported" and kw not in order:
            raise fail(("keywords", kw), f"supported keyword {kw!r} is missing from output_order")
    for kw in order:
        if kw not in r["keywords"]:
            raise fail(("output_order",), f"output_order names {kw!r}, which is not a keyword")


def _check_message(path: tuple, message: str, fail) -> None:
    """A message template names parameters only: `{name}` or `{name!r}` (quoted), filled in by the
    interpreter's str.format_map; never a position, an attribute or index of one, another
    conversion or a format spec, which would print Python objects or fail as the finding is read
    (a parameter may be a number or a text)."""
    try:
        fields = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(message) if f is not None]
    except ValueError as exc:
        raise fail(path, f"bad message template: {exc}") from None
    for name, spec, conv in fields:
        if not name.isidentifier():
            raise fail(path, f"placeholder {{{name}}} must be a parameter's plain name (no position, attribute "
                       f"or index); allowed: {sorted(MESSAGE_FIELDS)}")
        if spec or conv not in (None, "r", "s"):
            raise fail(path, f"placeholder {{{name}}} takes no format spec or conversion but !r and !s "
                       f"(not {'!' + conv if conv else ''}{':' + spec if spec else ''}): a parameter may be a "
                       "number or a text")
        if name not in MESSAGE_FIELDS:
            raise fail(path, f"unknown placeholder {{{name}}}; allowed: {sorted(MESSAGE_FIELDS)}")


def _check_text_rules(r: dict, fail) -> None:
    """The tool-name pattern compiles, and each range of description characters to strip is one
    (start before end), so the character class built from them (toolcast.rules) compiles."""
    try:
        re.compile(r["name"]["pattern"])
    except re.error as exc:
        raise fail(("name", "pattern"), f"not a regular expression: {exc}") from None
    for i, (lo, hi) in enumerate(r["description"]["strip_ranges"]):
        if lo > hi:
            raise fail(("description", "strip_ranges", i), f"range [{lo:#x}, {hi:#x}] is empty: it starts after "
                       "it ends (write the lower code point first)")


def _check_regex(r: dict, fail, check_cites) -> None:
    """Regex feature classes name real codes; features are the analyzer's names and classed."""
    from toolcast._regex import FEATURES  # the analyzer's public vocabulary (lark loads lazily)

    diagnostics, transformations = r["diagnostics"], r["transformations"]
    classes = r["regex_feature_classes"]
    for cname, c in classes.items():
        path = ("regex_feature_classes", cname)
        if c["diagnostic"] not in diagnostics:
            raise fail(path + ("diagnostic",), f"unknown diagnostic code {c['diagnostic']!r}")
        t = c.get("transformation")
        if c["action"] == "drop":
            if t not in transformations:
                raise fail(path + ("transformation",), f"a dropping class needs a known transformation, not {t!r}")
            if not transformations[t]["lossy"]:
                raise fail(path + ("transformation",), f"dropping a pattern is lossy, but {t!r} is not marked lossy")
        elif t is not None:
            raise fail(path + ("transformation",), "a class that keeps the pattern records no transformation")
    for feature, entry in r["regex_features"].items():
        path = ("regex_features", feature)
        if feature not in FEATURES:
            raise fail(path, f"unknown regex feature {feature!r}; known: {', '.join(sorted(FEATURES))}")
        if entry["class"] not in classes:
            raise fail(path + ("class",), f"class {entry['class']!r} is not in regex_feature_classes")
        check_cites(path + ("cite",), entry["cite"])
