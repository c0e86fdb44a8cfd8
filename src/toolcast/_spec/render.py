"""Render resolved rule versions as the Python source of the rule tables (src/toolcast/_tables/)
and docs/codes.md; tools/gen_tables.py writes them, toolcast.rules.load_spec_dir executes them."""

from __future__ import annotations

from pathlib import Path

from toolcast._spec.load import Registry, discover, resolve


def module_name(provider: str, version: str) -> str:
    return f"{provider.replace('-', '_')}_{version.replace('-', '_')}"


def _block(name: str, mapping: dict, comment: str = "") -> str:
    lines = [f"# {comment}"] if comment else []
    lines.append(f"{name} = {{")
    for key, value in mapping.items():
        lines.append(f"    {_lit(key)}: {_lit(value)},")
    lines.append("}")
    return "\n".join(lines)


class _Rec:
    """A named record in the generated source: `Type(field, ...)` (see toolcast.records)."""

    def __init__(self, type_name: str, *fields) -> None:
        self.type_name, self.fields = type_name, fields


def _lit(value) -> str:
    """A deterministic Python literal (dict keys keep spec order unless sorted by the caller)."""
    if isinstance(value, _Rec):
        return f"{value.type_name}(" + ", ".join(_lit(v) for v in value.fields) + ")"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_lit(k)}: {_lit(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(_lit(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, frozenset):
        return "frozenset({" + ", ".join(_lit(v) for v in sorted(value)) + "})" if value else "frozenset()"
    if value is None or isinstance(value, (bool, int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value)
    raise TypeError(f"cannot emit {type(value).__name__}")


def _keywords(r: dict) -> dict:
    classes = r["keyword_classes"]
    out = {}
    for kw in sorted(r["keywords"]):
        e = r["keywords"][kw]
        c = classes[e["class"]]
        out[kw] = _Rec("KeywordEntry", e["class"], c["action"], e.get("handler"), e["value"], c.get("diagnostic"),
                       c.get("transformation"), tuple(e["cite"]), *(() if e.get("max") is None else (e["max"],)))
    return out


def _catalogue(r: dict) -> tuple[dict, dict, dict, dict]:
    """(diagnostics, transformations, pattern -> code, change pattern -> transformation code)."""
    diagnostics = {
        code: _Rec("DiagnosticEntry", d["severity"], d["outcome"], d["message"], d["docs"], tuple(d["cite"]),
                   d.get("status", "active"), d.get("pattern"))
        for code, d in sorted(r["diagnostics"].items())
    }
    transformations = {
        code: _Rec("TransformationEntry", t["lossy"], t["detail"], t.get("status", "active"), t.get("pattern", code))
        for code, t in sorted(r["transformations"].items())
    }
    patterns = {d.fields[6]: code for code, d in sorted(diagnostics.items(), key=lambda e: e[1].fields[6] or "")
                if d.fields[6] is not None}
    changes = {t.fields[3]: code for code, t in sorted(transformations.items(), key=lambda e: e[1].fields[3])}
    return diagnostics, transformations, patterns, changes


def _policy_lines(policy: dict) -> list[str]:
    rules = {k: v["rule"] for k, v in sorted(policy.items()) if "rule" in v}
    cites = {k: tuple(v["cite"]) for k, v in sorted(policy.items())}
    lines = [
        "# structural rule: what the walk does (see spec.schema.json, policy)",
        f"POLICY = {_lit(rules)}",
        f"REF_SIBLINGS = {_lit(tuple(policy['ref_siblings']['keywords']))}",
        f"ALWAYS_REFUSED = {_lit(tuple(policy['always_refused']['codes']))}",
        f"POLICY_CITE = {_lit(cites)}",
    ]
    if "property_keys" in policy:  # (left out where a spec states none: those tables stay as they were)
        lines.append(f"PROPERTY_KEY_PATTERN = {_lit(policy['property_keys']['pattern'])}")
    if "enum_values" in policy:
        lines.append(f"ENUM_VALUE_TYPES = {_lit(tuple(policy['enum_values']['types']))}")
    if "sent_root_keywords" in policy:
        lines.append(f"SENT_ROOT_KEYWORDS = {_lit(tuple(policy['sent_root_keywords']['keywords']))}")
    if "keywords" in policy.get("sent_any_of", {}):
        lines.append(f"SENT_ALONE = {_lit(tuple(policy['sent_any_of']['keywords']))}")
    if "sent_keywords" in policy:
        lines.append(f"SENT_DROP = {_lit(tuple(policy['sent_keywords']['drop']))}")
    if "sent_empty" in policy:
        lines.append(f"SENT_EMPTY = {_lit(tuple(policy['sent_empty']['refuse']))}")
    return lines


def _imports(budgets: bool) -> list[str]:
    if not budgets:
        return ["from toolcast.records import (ClassEntry, DiagnosticEntry, KeywordEntry, LimitEntry, RegexClassEntry,",
                "                              RegexFeatureEntry, SlotEntry, SourceEntry, TransformationEntry)"]
    return ["from toolcast.records import (BudgetEntry, ClassEntry, DiagnosticEntry, KeywordEntry, LimitEntry,",
            "                              RegexClassEntry, RegexFeatureEntry, SlotEntry, SourceEntry, TransformationEntry)"]


def _budget_lines(r: dict) -> list[str]:
    """BUDGETS, the request limits, when the spec states any (other tables stay as they were)."""
    budgets = {k: _Rec("BudgetEntry", v["value"], v["code"], v["counts"], v["applies"], tuple(v["cite"]))
               for k, v in sorted(r.get("budgets", {}).items())}
    if not budgets:
        return []
    return [_block("BUDGETS", budgets, "request budget: BudgetEntry(value, diagnostic code, what it counts, "
                   "which tools it applies to, citations)"), ""]


def _head_lines(rel_spec: str, r: dict) -> list[str]:
    """The table's docstring, imports, identity, name and description rules."""
    provider = r["provider"]
    return [
        f'"""Rules {provider}@{r["version"]} (provider {provider}): generated by tools/gen_tables.py from {rel_spec}'
        f' — do not edit; run `python tools/gen_tables.py`."""',
        "",
        "# fmt: off",
        *_imports(bool(r.get("budgets"))),
        "",
        f"PROVIDER = {_lit(provider)}",
        *_target_lines(r),
        *([f"WIRE = {_lit(r['wire'])}"] if "wire" in r else []),
        f"VERSION = {_lit(r['version'])}",
        f"REVIEWED = {_lit(r['reviewed'])}",
        f"EXTENDS = {_lit(r.get('extends'))}",
        f"DEFAULT = {_lit(r['default'])}",
        f"SUMMARY = {_lit(' '.join(r['summary'].split()))}",
        "",
        f"NAME_PATTERN = {_lit(r['name']['pattern'])}",
        f"NAME_MAX_LENGTH = {_lit(r['name']['max_length'])}",
        f"NAME_CITE = {_lit(tuple(r['name'].get('cite', ())))}",
        f"DESCRIPTION_MAX_BYTES = {_lit(r['description']['max_bytes'])}",
        f"DESCRIPTION_MAX_CHARS = {_lit(r['description'].get('max_chars'))}",
        f"DESCRIPTION_STRIP_RANGES = {_lit(tuple(tuple(x) for x in r['description']['strip_ranges']))}",
        f"DESCRIPTION_CITE = {_lit(tuple(r['description'].get('cite', ())))}",
        "",
    ]


def render_version(rel_spec: str, r: dict) -> str:
    classes = r["keyword_classes"]
    unknown = classes["unknown"]
    limits = {k: _Rec("LimitEntry", v["value"], v["code"], tuple(v["cite"]), v["counts"])
              for k, v in sorted(r["limits"].items())}
    diagnostics, transformations, patterns, changes = _catalogue(r)
    sources = {
        # An observation (evidence O) has no URL: its record file, in the repository, is where to check it.
        sid: _Rec("SourceEntry", s["title"], s["url"], s["date"], s.get("evidence")) if "url" in s else
        _Rec("SourceEntry", s["title"], "spec/" + s["record"], s["date"], s["evidence"], s["model"], s["record"])
        for sid, s in sorted(r["sources"].items())
    }
    regex_classes = {
        k: _Rec("RegexClassEntry", v["action"], v["diagnostic"], v.get("transformation"))
        for k, v in sorted(r["regex_feature_classes"].items())
    }
    regex_features = {k: _Rec("RegexFeatureEntry", v["class"], tuple(v["cite"]))
                      for k, v in sorted(r["regex_features"].items())}
    slots = {k: _Rec("SlotEntry", v["kind"], v["depth"]) for k, v in sorted(r["slots"].items())}
    formats = {k: tuple(v) for k, v in sorted(r["formats"].items())}
    parts = [
        *_head_lines(rel_spec, r),
        *_policy_lines(r["policy"]),
        "",
        _block("LIMITS", limits, "limit name: LimitEntry(value, diagnostic code, citations, what it counts)"),
        "",
        *_budget_lines(r),
        _block("FORMATS", formats, "supported string formats: citations"),
        "",
        _block(
            "KEYWORDS",
            _keywords(r),
            "keyword: KeywordEntry(class, action, handler, value kind, diagnostic, transformation, citations)",
        ),
        "",
        f"UNKNOWN_KEYWORD = {_lit(_Rec('ClassEntry', unknown['action'], unknown.get('diagnostic'), unknown.get('transformation')))}",
        "",
        _block(
            "KEYWORD_CLASSES",
            {k: _Rec("ClassEntry", v["action"], v.get("diagnostic"), v.get("transformation"))
             for k, v in sorted(classes.items())},
            "keyword class: ClassEntry(action, diagnostic, transformation)",
        ),
        "",
        _block("SLOTS", slots, "schema-valued keyword: SlotEntry(kind, depth step)"),
        "",
        f"OUTPUT_ORDER = {_lit(tuple(r['output_order']))}",
        "",
        _block(
            "DIAGNOSTICS",
            diagnostics,
            "code: DiagnosticEntry(severity, outcome, message template, docs url, citations, status, pattern)",
        ),
        "",
        _block("TRANSFORMATIONS", transformations, "code: TransformationEntry(lossy, detail, status, change pattern)"),
        "",
        _block("PATTERNS", patterns, "pattern the walk reports: this provider's diagnostic code"),
        "",
        _block("CHANGES", changes, "change pattern the walk records: this provider's transformation code"),
        "",
        _block("REGEX_FEATURE_CLASSES", regex_classes,
               "regex feature class: RegexClassEntry(action on the pattern, diagnostic, transformation)"),
        "",
        _block("REGEX_FEATURES", regex_features, "regex feature (toolcast._regex names): RegexFeatureEntry(class, citations)"),
        "",
        _block("SOURCES", sources, "citation id: SourceEntry(title, url, date, evidence tag)"),
        "# fmt: on",
        "",
    ]
    return "\n".join(parts)


def _target_lines(r: dict) -> list[str]:
    """TARGET and API, for a rule family that names the target and API it compiles (other tables
    stay as they were: the provider is the target)."""
    target = r.get("target")
    return [] if target is None else [f"TARGET = {_lit(target['name'])}", f"API = {_lit(target['api'])}"]


def _check_wires(wires: dict, docs: dict) -> None:
    """Each target its families' wire sections make is one toolcast.providers.wire can build (its
    APIs named, its templates' placeholders known, a schema in each tool); else the error names the
    default version's file."""
    from toolcast.providers.wire import Target, WireError

    by_target: dict[str, list] = {}
    for provider, (target, _, wire) in wires.items():
        by_target.setdefault(target, []).append((provider, wire))
    for target, families in by_target.items():
        try:
            Target(target, families)
        except WireError as exc:
            raise docs[families[0][0]].error(("wire",), str(exc)) from None


def render_index(found: dict) -> str:
    versions = {p: tuple(sorted(vs)) for p, vs in sorted(found.items())}
    # (target, api) -> the rule family compiled for it, for families that name one.
    families = {}
    for provider, vs in sorted(found.items()):
        target = next(iter(vs.values())).resolved.get("target")
        if target is not None:
            families[(target["name"], target["api"])] = provider
    defaults = {}
    for provider, vs in sorted(found.items()):
        marked = [v for v, ver in vs.items() if ver.resolved["default"]]
        defaults[provider] = marked[0] if marked else max(vs)
    # family -> (target, api, wire) of its default version: what the target registry reads, so that
    # listing the targets (CLI help, `--target all`) loads no rule table.
    wires = {}
    for provider, v in sorted(defaults.items()):
        r = found[provider][v].resolved
        if "wire" in r:
            target = r.get("target")
            wires[provider] = (provider, None, r["wire"]) if target is None else (target["name"], target["api"], r["wire"])
    _check_wires(wires, {p: found[p][v].doc for p, v in defaults.items()})
    return "\n".join(
        [
            '"""Index of the generated rule tables: generated by tools/gen_tables.py — do not edit;'
            ' run `python tools/gen_tables.py`."""',
            "",
            "# fmt: off",
            f"VERSIONS = {_lit(versions)}",
            f"DEFAULTS = {_lit(defaults)}",
            f"FAMILIES = {_lit(families)}",
            f"WIRES = {_lit(wires)}",
            "# fmt: on",
            "",
            "",
            "def module_name(provider: str, version: str) -> str:",
            "    return f\"{provider.replace('-', '_')}_{version.replace('-', '_')}\"",
            "",
        ]
    )


def render_docs(found: dict) -> str:
    """docs/codes.md: every code of the default version of each provider, from the catalogue."""
    out = [
        "# Diagnostic and transformation codes",
        "",
        "Generated by `tools/gen_tables.py` from the spec's catalogue — do not edit.",
        "",
    ]
    for provider, vs in sorted(found.items()):
        default = next((v for v, ver in vs.items() if ver.resolved["default"]), max(vs))
        r = vs[default].resolved
        out += [f"## {provider}@{default}", "", "| code | severity | outcome | message | docs |", "|---|---|---|---|---|"]
        for code, d in sorted(r["diagnostics"].items()):
            status = " (reserved)" if d.get("status") == "reserved" else ""
            msg = d["message"].replace("|", "\\|")
            out.append(f"| `{code}`{status} | {d['severity']} | {d['outcome']} | {msg} | [docs]({d['docs']}) |")
        out += ["", "| transformation | lossy | detail |", "|---|---|---|"]
        for code, t in sorted(r["transformations"].items()):
            status = " (reserved)" if t.get("status") == "reserved" else ""
            out.append(f"| `{code}`{status} | {'yes' if t['lossy'] else 'no'} | {t['detail']} |")
        out.append("")
    return "\n".join(out)


def _check_targets(found: dict) -> None:
    """Each (target, API) is compiled by one rule family, which names it in every version: the
    compiler looks the family up by that pair (toolcast.rules.family), so a second claim would take
    it over, or lose it, by the order of the folders."""
    claimed: dict[tuple[str, str], str] = {}
    for provider, vs in sorted(found.items()):
        first = next(iter(vs.values()))
        target = first.resolved.get("target")
        for ver in vs.values():
            if ver.resolved.get("target") != target:
                raise ver.doc.error(("target",), f"{provider}@{ver.version} names target {ver.resolved.get('target')}, "
                                    f"but {provider}@{first.version} names {target}: a rule family compiles one target and API")
        if target is None:
            continue
        key = (target["name"], target["api"])
        if key in claimed:
            raise first.doc.error(("target",), f"target {key[0]!r} api {key[1]!r} is compiled by rule family "
                                  f"{claimed[key]!r} already: a (target, api) pair names one family")
        claimed[key] = provider


def build(spec_dir: Path, fallback: Registry | None = None) -> tuple[dict, dict[str, str]]:
    """(versions by provider, {relative output path: content}); `fallback` holds the versions of
    other providers the folder's versions may extend (the built-in spec, for a folder loaded at run time)."""
    found = discover(spec_dir, fallback)
    for provider, vs in found.items():
        defaults = [v for v in vs if vs[v].doc.data.get("default")]
        for v in vs:
            resolve(vs, v)
        if len(defaults) > 1:
            ver = vs[defaults[1]]
            raise ver.doc.error(("default",), f"more than one default version for {provider}: {', '.join(defaults)}")
    _check_targets(found)
    files: dict[str, str] = {"__init__.py": render_index(found)}
    for provider, vs in sorted(found.items()):
        for v, ver in sorted(vs.items()):
            try:
                rel = ver.doc.file.relative_to(spec_dir.parent).as_posix()
            except ValueError:
                rel = ver.doc.file.name
            files[f"{module_name(provider, v)}.py"] = render_version(rel, ver.resolved)
    return found, files


