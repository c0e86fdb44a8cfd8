"""Discover the rule versions of a spec folder and resolve each one: the catalogue, the versions it
extends (of its own provider or of another) and its own entries merged, the catalogue's terms
filled in, then checked (toolcast._spec.checks)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolcast._spec.yamldoc import Document, SpecError, load_yaml

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
    "terms": 1,
    "wire": 2,
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
CATALOGUE = "catalogue"  # `extends: catalogue`: a provider's base starts from spec/catalogue.yaml
CATALOGUE_FILE = "catalogue.yaml"
# Terms every version that extends the catalogue (or another provider) states for itself.
OWN_TERMS = ("provider_name", "docs")
# What a version of one provider does not take from a version of another it extends.
_NOT_ACROSS = ("provider", "version", "reviewed", "summary", "default", "extends", "target")
_TERM = re.compile(r"\{([a-z_][a-z0-9_]*)\}")


def builtin_spec_dir() -> Path | None:
    """The built-in rule spec: the repository's spec/ beside this source tree (a checkout or an
    editable install), else the copy a wheel carries (setup.py's BuildPy), else None."""
    here = Path(__file__).resolve()
    for spec in (here.parents[3] / "spec", here.parent / "builtin"):
        if (spec / "spec.schema.json").is_file():
            return spec
    return None


def load_meta_schema(spec_dir: Path, name: str = "spec.schema.json") -> dict:
    """The meta-schema of spec_dir (a copy of spec/ carries its own; a folder without one is checked
    against the built-in one)."""
    file = spec_dir / name
    if not file.exists():
        builtin = builtin_spec_dir()
        if builtin is None:
            raise SpecError(file, None, "", f"no {name} here, and no built-in spec folder to take it from")
        file = builtin / name
    return json.loads(file.read_text(encoding="utf-8"))


def validate_document(doc: Document, meta: dict) -> None:
    if not isinstance(doc.data, dict):
        raise doc.error((), "a spec file must be a mapping")
    try:
        import jsonschema  # (the generator's and the tests'; the run time falls back to jsonschema-rs)
    except ImportError:
        import jsonschema_rs

        found = [(tuple(e.instance_path), e.message) for e in jsonschema_rs.Draft202012Validator(meta).iter_errors(doc.data)]
    else:
        found = [(tuple(e.path), e.message) for e in jsonschema.Draft202012Validator(meta).iter_errors(doc.data)]
    if found:
        path, message = sorted(found, key=lambda e: (list(map(str, e[0])), e[1]))[0]
        raise doc.error(path, message)


@dataclass
class Registry:
    """Every version a spec folder holds, by provider, its catalogue, and where to look for a
    version of a provider it does not hold (`fallback`: the built-in spec under a folder loaded at
    run time)."""

    spec_dir: Path
    found: dict[str, dict[str, Version]] = field(default_factory=dict)
    fallback: Registry | None = None
    lazy: bool = False  # versions are read when looked up, not discovered up front
    _catalogue: Document | None = None

    def lookup(self, provider: str, version: str) -> Version | None:
        v = self.found.get(provider, {}).get(version)
        if v is None and self.lazy:
            v = self._read(provider, version)
        if v is None and self.fallback is not None:
            return self.fallback.lookup(provider, version)
        return v

    def _read(self, provider: str, version: str) -> Version | None:
        """A version of a registry read on demand (the built-in spec under a folder loaded at run
        time: only the versions that folder extends are read)."""
        file = self.spec_dir / provider / f"{version}.yaml"
        if "/" in provider or "/" in version or not file.is_file():
            return None
        v = read_version(file, load_meta_schema(self.spec_dir), self)
        return v if (v.provider, v.version) == (provider, version) else None

    def known(self, provider: str | None = None) -> list[str]:
        """provider@version of every version it holds (of `provider`'s, where one is named), the
        fallback's after; a lazy registry's as its folder holds them (read or not)."""
        held = ({(f.parent.name, f.stem) for f in self.spec_dir.glob("*/*.yaml")} if self.lazy else
                {(p, v) for p, vs in self.found.items() for v in vs})
        here = [f"{p}@{v}" for p, v in sorted(held) if provider is None or p == provider]
        return here + (self.fallback.known(provider) if self.fallback is not None else [])

    def catalogue(self) -> Document:
        if self._catalogue is None:
            file = self.spec_dir / CATALOGUE_FILE
            if not file.exists() and self.fallback is not None:
                return self.fallback.catalogue()
            doc = load_yaml(file)
            validate_document(doc, load_meta_schema(self.spec_dir, "catalogue.schema.json"))
            self._catalogue = doc
        return self._catalogue


@dataclass
class Version:
    provider: str
    version: str
    doc: Document
    resolved: dict | None = None
    registry: Registry | None = None
    raw: dict | None = None  # merged, its terms not yet filled in (what a version extending it starts from)


def discover(spec_dir: Path, fallback: Registry | None = None) -> dict[str, dict[str, Version]]:
    """Every rule version under spec_dir, validated against the meta-schema, by provider."""
    meta = load_meta_schema(spec_dir)
    registry = Registry(spec_dir, fallback=fallback)
    for file in sorted(spec_dir.glob("*/*.yaml")):
        read_version(file, meta, registry)
    return registry.found


def read_version(file: Path, meta: dict, registry: Registry) -> Version:
    """One version file, validated, added to its registry."""
    doc = load_yaml(file)
    validate_document(doc, meta)
    data = doc.data
    if data["provider"] != file.parent.name:
        raise doc.error(("provider",), f"provider {data['provider']!r} does not match folder {file.parent.name!r}")
    if data["version"] != file.stem:
        raise doc.error(("version",), f"version {data['version']!r} does not match file name {file.stem!r}")
    v = Version(data["provider"], data["version"], doc, registry=registry)
    registry.found.setdefault(v.provider, {})[v.version] = v
    return v


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


def _merge_sections(parent: dict, data: dict) -> dict:
    out = {}
    for key in [*parent, *(k for k in data if k not in parent)]:
        if key in ("default", "extends"):
            continue
        if key in data and key in parent and key in MERGE_DEPTH:
            out[key] = _merge(parent[key], data[key], MERGE_DEPTH[key])
        elif key in data:
            out[key] = data[key]
        else:
            out[key] = parent[key]
    return out


def code_prefix(data: dict) -> str:
    """What a version's codes start with: the target's name for a family of one API of a target
    (gemini-parameters), else the provider's."""
    return data["target"]["name"] if "target" in data else data["provider"]


def raw(v: Version, stack: tuple = ()) -> dict:
    """The version merged over what it extends, its terms left as templates."""
    if v.raw is not None:
        return v.raw
    data = v.doc.data
    parent_name = data.get("extends")
    key = f"{v.provider}@{v.version}"
    if parent_name is None:
        merged = dict(data)
    elif parent_name == CATALOGUE:
        merged = _merge_sections(_from_catalogue(v), data)
        merged["extends"] = None
    else:
        provider, _, version = parent_name.rpartition("@")
        provider = provider or v.provider
        parent = v.registry.lookup(provider, version) if v.registry else None
        if f"{provider}@{version}" in stack or f"{provider}@{version}" == key:
            raise v.doc.error(("extends",), f"extends cycle through {parent_name!r}")
        if parent is None:
            known = (v.registry.known(provider) or v.registry.known()) if v.registry else []
            raise v.doc.error(("extends",), f"extends unknown version {parent_name!r}; known: {', '.join(known)}")
        if provider == v.provider and version >= v.version:
            raise v.doc.error(("extends",), f"a version may only extend an older one ({version} is not before {v.version})")
        inherited = raw(parent, (*stack, key))
        if provider != v.provider:
            inherited = _across(inherited, data, v.doc, _neutral_sources(v))
        merged = _merge_sections(inherited, data)
        merged["extends"] = parent_name
    merged["default"] = bool(data.get("default", False))
    v.raw = merged
    return merged


def _from_catalogue(v: Version) -> dict:
    """The catalogue as a provider's starting point: its sources, and its patterns under the
    version's code prefix."""
    doc = v.registry.catalogue() if v.registry else None
    if doc is None:
        raise v.doc.error(("extends",), "extends the catalogue, but no catalogue.yaml was found")
    _need_terms(v.doc, "the catalogue")
    cat = doc.data
    prefix = code_prefix(v.doc.data)
    return {
        "sources": dict(cat.get("sources", {})),
        "diagnostics": {f"{prefix}/{k}": dict(e) for k, e in cat["diagnostics"].items()},
        "transformations": {k: dict(e) for k, e in cat["transformations"].items()},
        **({"slots": dict(cat["slots"])} if "slots" in cat else {}),
    }


def _neutral_sources(v: Version) -> frozenset[str]:
    """The catalogue's sources (specifications no provider owns), when there is a catalogue."""
    try:
        doc = v.registry.catalogue() if v.registry else None
    except SpecError:
        if v.registry and not (v.registry.spec_dir / CATALOGUE_FILE).exists():
            return frozenset()
        raise
    return frozenset((doc.data.get("sources") or {}) if doc else ())


def _need_terms(doc: Document, what: str) -> None:
    terms = doc.data.get("terms") or {}
    for term in OWN_TERMS:
        if term not in terms:
            raise doc.error(("terms",), f"a version that extends {what} states its own terms.{term} "
                            "(the catalogue's messages and links are filled in with it)")


def _across(parent: dict, data: dict, doc: Document, neutral: frozenset[str]) -> dict:
    """Another provider's rules as this one's starting point: its codes renamed to this version's
    prefix, and each code's docs link and citations left for this provider to state (the other's
    would point at its documents): a code not restated here takes `terms.docs` and
    `catalogue_cite`. A code cited to provider-neutral sources only (the catalogue's: JSON Schema,
    RFC 8259, ...) keeps its link and citations."""
    _need_terms(doc, "another provider's rules")
    old, new = code_prefix(parent), code_prefix(data)

    def code(c: Any) -> Any:
        return new + c[len(old):] if isinstance(c, str) and c.startswith(old + "/") else c

    out = {k: v for k, v in parent.items() if k not in _NOT_ACROSS}
    if isinstance(out.get("wire"), dict):  # (how the probe reaches a provider: its own host, key and model)
        out["wire"] = _own_wire({k: v for k, v in out["wire"].items() if k != "probe"})
    out["diagnostics"] = {code(c): e if e.get("cite") and set(e["cite"]) <= neutral else
                          {k: x for k, x in e.items() if k not in ("docs", "cite")}
                          for c, e in parent["diagnostics"].items()}
    for section, field_name in (("limits", "code"), ("budgets", "code"), ("keyword_classes", "diagnostic"),
                                ("regex_feature_classes", "diagnostic")):
        if section in parent:
            out[section] = {k: {**e, field_name: code(e.get(field_name))} if field_name in e else e
                            for k, e in parent[section].items()}
    policy = dict(parent.get("policy", {}))
    if "always_refused" in policy:
        policy["always_refused"] = {**policy["always_refused"],
                                    "codes": [code(c) for c in policy["always_refused"]["codes"]]}
    out["policy"] = policy
    return out


def _own_wire(wire: dict) -> dict:
    """Another provider's wire section as this one's: where the other's target has an API per
    rule family (Gemini), its target-wide API names (default_api, proxy.api) may name another
    family's API, which this provider has not got: its own first API stands for them."""
    apis = [a for a, w in (wire.get("apis") or {}).items() if w is not None]
    if apis and wire.get("default_api") not in apis:
        wire["default_api"] = apis[0]
    proxy = wire.get("proxy")
    if apis and isinstance(proxy, dict) and "api" in proxy and proxy["api"] not in apis:
        wire["proxy"] = {**proxy, "api": wire["default_api"]}
    return wire


def expand_terms(raw: dict, doc: Document) -> dict:
    """The version with its terms filled in: `{provider_name}` and the other names under `terms`
    in messages, details and docs links; a code without a docs link or citations takes
    `{docs}` and `catalogue_cite`."""
    terms = raw.get("terms") or {}
    for name in terms:
        if name in MESSAGE_FIELDS:
            raise doc.error(("terms", name), f"term {name!r} is a message parameter the interpreter fills in; "
                            "name the term otherwise")

    def fill(text: str) -> str:
        return _TERM.sub(lambda m: terms.get(m.group(1), m.group(0)), text)

    out = dict(raw)
    default_cite = raw.get("catalogue_cite")
    diagnostics = {}
    for code, entry in raw.get("diagnostics", {}).items():
        e = dict(entry)
        if "docs" not in e and "docs" in terms:
            e["docs"] = "{docs}"
        if "cite" not in e and default_cite is not None:
            e["cite"] = list(default_cite)
        for f in ("message", "docs"):
            if isinstance(e.get(f), str):
                e[f] = fill(e[f])
        diagnostics[code] = e
    if "diagnostics" in raw:
        out["diagnostics"] = diagnostics
    if "transformations" in raw:
        out["transformations"] = {c: {**t, "detail": fill(t["detail"])} if isinstance(t.get("detail"), str) else t
                                  for c, t in raw["transformations"].items()}
    return out
