"""Rule versions as data: what each version holds, what changes between two, and what that changes for a set of tools."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from toolcast import rules as _registry
from toolcast.model import ToolcastError
from toolcast.rules import Rules, get_rules

CLASS_ORDER = ("supported", "rewrite", "tier1", "tier2", "annotation", "default", "unknown")
REGEX_CLASS_ORDER = ("unsupported", "unconfirmed")


# -- table access ----------------------------------------------------------------------------
# The only functions here that know how an entry of the generated tables is laid out (the named
# records of toolcast.records, which tools/gen_tables.py writes). Everything below reads the
# tables through them.
def _keyword(e: Any) -> dict:
    """A KEYWORDS entry: its class, action, rewrite handler (with its figure: `at-most 2048`), value
    check and citations."""
    handler = e.handler if e.most is None else f"{e.handler} {e.most}"
    return {"class": e.cls, "action": e.action, "handler": handler, "value": e.value, "cite": e.cite}


def _limit(v: Any) -> dict:
    """A LIMITS entry: the value, the code reported past it and its citations."""
    return {"value": v.value, "code": v.code, "cite": v.cite}


def _diagnostic(d: Any) -> dict:
    """A DIAGNOSTICS entry, its fields in the order a diff lists changed fields."""
    return {"severity": d.severity, "outcome": d.outcome, "message": d.message, "docs": d.docs, "cite": d.cite,
            "status": d.status, "pattern": d.pattern}


def _transformation(t: Any) -> dict:
    """A TRANSFORMATIONS entry, its fields in the order a diff lists changed fields."""
    return {"lossy": t.lossy, "detail": t.detail, "status": t.status, "pattern": t.pattern}


def _regex_feature(v: Any) -> dict:
    """A REGEX_FEATURES entry: the feature's class and its citations."""
    return {"class": v.cls, "cite": v.cite}


def _regex_class(v: Any) -> dict:
    """A REGEX_FEATURE_CLASSES entry: what the class does to a pattern and the codes it reports."""
    return {"action": v.action, "diagnostic": v.diagnostic, "transformation": v.transformation}


def _class_entry(v: Any) -> tuple | None:
    """A KEYWORD_CLASSES or REGEX_FEATURE_CLASSES entry as a plain tuple (diffs show it whole)."""
    return None if v is None else tuple(v)


def _source(r: Rules, sid: str) -> dict:
    """A SOURCES entry: title, url, date and, where the spec gives it, the kind of evidence."""
    s = r.sources[sid]
    out = {"title": s.title, "url": s.url, "date": s.date}
    if s.evidence:
        out["evidence"] = s.evidence
    if getattr(s, "record", None):  # an observation (evidence O): the model asked and its probe record
        out["model"], out["record"] = s.model, s.record
    return out


def _regex_features(r: Rules) -> dict:
    return getattr(r.module, "REGEX_FEATURES", {})


def _regex_classes(r: Rules) -> dict:
    return getattr(r.module, "REGEX_FEATURE_CLASSES", {})


def _keyword_classes(r: Rules) -> dict:
    return getattr(r.module, "KEYWORD_CLASSES", {})


def _formats(r: Rules) -> dict:
    """FORMATS: each supported `format` with its citations."""
    return r.module.FORMATS


def _max_chars(r: Rules) -> int | None:
    return getattr(r.module, "DESCRIPTION_MAX_CHARS", None)


def _module_cite(r: Rules, name: str) -> tuple:
    return tuple(getattr(r.module, name, ()))


# -- list and show ---------------------------------------------------------------------------
def version_info(r: Rules) -> dict:
    """One version's summary: id, provider, version, whether it is the default and the latest,
    the review date, the version it extends (or None), its number of sources and its summary."""
    versions = _registry.available(r.provider)
    return {
        "id": r.id,
        "provider": r.provider,
        "version": r.version,
        "default": r.version == _registry.default_version(r.provider),
        "latest": r.version == versions[-1],
        "reviewed": r.reviewed,
        "extends": r.extends,
        "sources": len(r.sources),
        "summary": r.summary,
    }


def versions() -> dict:
    """Every provider and rule version: `providers`, `defaults` (provider -> version) and
    `versions` (a `version_info` each, oldest first per provider)."""
    providers = _registry.providers()
    infos = [version_info(get_rules(f"{p}@{v}")) for p in providers for v in _registry.available(p)]
    return {"providers": list(providers), "defaults": {p: _registry.default_version(p) for p in providers},
            "versions": infos}


def resolved(r: Rules | str) -> dict:
    """One version's resolved tables (what `extends` inherits included), as JSON-ready data:
    name and description rules, limits, formats, keywords by class and in detail, rewrites,
    regex feature classes and features, the diagnostic and transformation catalogues, sources.
    `r`: the Rules, or a version as `--rules` takes it ("openai@2026-10-17", "2024-08-06", "latest")."""
    r = r if isinstance(r, Rules) else get_rules(r)
    keywords = {k: _keyword(e) for k, e in sorted(r.keywords.items())}
    limits = {k: _limit(e) for k, e in sorted(r.limits.items())}
    features = {f: _regex_feature(e) for f, e in sorted(_regex_features(r).items())}
    diagnostics = {c: _diagnostic(e) for c, e in sorted(r.diagnostics.items())}
    transformations = {c: _transformation(e) for c, e in sorted(r.transformations.items())}
    return {
        **version_info(r),
        "name": {"pattern": r.name_pattern, "max_length": r.name_max_length},
        "description": {"max_bytes": r.description_max_bytes, "max_chars": _max_chars(r)},
        "limits": {k: {"value": v["value"], "code": v["code"], "cite": list(v["cite"])} for k, v in limits.items()},
        "formats": {k: list(c) for k, c in sorted(_formats(r).items())},
        "keywords": {
            cls: sorted(k for k, e in keywords.items() if e["class"] == cls)
            for cls in CLASS_ORDER
            if any(e["class"] == cls for e in keywords.values())
        },
        "keyword_details": {
            k: {"class": e["class"], "action": e["action"], "handler": e["handler"], "value": e["value"],
                "cite": list(e["cite"])}
            for k, e in keywords.items()
        },
        "rewrites": {k: e["handler"] for k, e in keywords.items() if e["handler"]},
        "regex_feature_classes": {c: _regex_class(v) for c, v in sorted(_regex_classes(r).items())},
        "regex_features": {f: {"class": v["class"], "cite": list(v["cite"])} for f, v in features.items()},
        "diagnostics": {
            code: {"severity": d["severity"], "outcome": d["outcome"], "status": d["status"], "message": d["message"],
                   "docs": d["docs"], "cite": list(d["cite"])}
            for code, d in diagnostics.items()
        },
        "transformations": {
            code: {"lossy": t["lossy"], "status": t["status"], "detail": t["detail"]} for code, t in transformations.items()
        },
        "sources": {sid: _source(r, sid) for sid in sorted(r.sources)},
    }


# -- diff ------------------------------------------------------------------------------------
def _kw_state(r: Rules, kw: str) -> dict | None:
    e = r.keywords.get(kw)
    if e is None:
        return None
    k = _keyword(e)
    return {"class": k["class"], "action": k["action"], "handler": k["handler"]}


def _changes(a: dict, b: dict) -> dict:
    """The keys of two catalogue entries (as the accessors give them) whose values differ."""
    return {f: [a[f], b[f]] for f in a if a[f] != b[f]}


def diff_rules(a: Rules | str, b: Rules | str) -> dict:
    """What changes from rule version `a` to `b` (each Rules, or a version as resolved takes it),
    each change with the citations behind it.

    JSON-ready: `from`, `to`, then lists of changed `keywords` (class, action, handler),
    `formats` (added, removed), `limits`, `name`, `description`, `policy` (structural rules),
    `budgets` (request budgets), `wire` (the wire shapes), `regex_features`, `classes`,
    `diagnostics` and `transformations` (added, removed or changed fields), `sources` (added,
    removed ids) and `citations` (every source a change cites, by id).
    """
    a = a if isinstance(a, Rules) else get_rules(a)
    b = b if isinstance(b, Rules) else get_rules(b)
    cited: set[str] = set()

    def cite(r: Rules, ids: Sequence[str]) -> list[str]:
        ids = [i for i in ids if i in r.sources]
        cited.update(("a:" if r is a else "b:") + i for i in ids)
        return list(ids)

    renamed = _renamer(a, b)
    keywords = []
    for kw in sorted(set(a.keywords) | set(b.keywords)):
        sa, sb = _kw_state(a, kw), _kw_state(b, kw)
        if sa == sb:
            continue
        side, entry = (b, b.keywords[kw]) if sb is not None else (a, a.keywords[kw])
        keywords.append({"keyword": kw, "from": sa, "to": sb, "cite": cite(side, _keyword(entry)["cite"])})
    fa, fb = _formats(a), _formats(b)
    formats = {
        "added": [{"format": f, "cite": cite(b, fb[f])} for f in sorted(set(fb) - set(fa))],
        "removed": [{"format": f, "cite": cite(a, fa[f])} for f in sorted(set(fa) - set(fb))],
    }
    limits = []
    for name in sorted(set(a.limits) | set(b.limits)):
        la, lb = (_limit(r.limits[name]) if name in r.limits else None for r in (a, b))
        va, vb = la and la["value"], lb and lb["value"]
        if va != vb or (la and lb and renamed(la["code"]) != lb["code"]):
            side = lb or la
            limits.append({"limit": name, "from": va, "to": vb, "code": side["code"],
                           "cite": cite(b if lb else a, side["cite"])})
    description = []
    for field, va, vb in (
        ("max_bytes", a.description_max_bytes, b.description_max_bytes),
        ("max_chars", _max_chars(a), _max_chars(b)),
    ):
        if va != vb:
            description.append({"field": field, "from": va, "to": vb, "cite": cite(b, _module_cite(b, "DESCRIPTION_CITE"))})
    name = []
    for field, va, vb in (("pattern", a.name_pattern, b.name_pattern), ("max_length", a.name_max_length, b.name_max_length)):
        if va != vb:
            name.append({"field": field, "from": va, "to": vb, "cite": cite(b, _module_cite(b, "NAME_CITE"))})
    catalogues = _diff_catalogues(a, b, cite, renamed)
    structure = _diff_structure(a, b, cite, renamed)
    citations: dict[str, dict] = {}
    for key in sorted(cited):  # "a:" sorts first: a source both cite is shown as `a` has it
        citations.setdefault(key[2:], _source(a if key.startswith("a:") else b, key[2:]))
    return {
        "from": a.id,
        "to": b.id,
        "keywords": keywords,
        "formats": formats,
        "limits": limits,
        "name": name,
        "description": description,
        **structure,
        **catalogues,
        "sources": {
            "added": sorted(set(b.sources) - set(a.sources)),
            "removed": sorted(set(a.sources) - set(b.sources)),
        },
        "citations": dict(sorted(citations.items())),
    }


def _policy(r: Rules, renamed: Any = None) -> dict:
    """A version's policy as values to compare: each structural rule, and the lists some rules hold
    (codes under the other side's prefix where `renamed` is given)."""
    out: dict[str, Any] = dict(r.policy)
    out["ref_siblings"] = sorted(r.ref_siblings)
    out["always_refused"] = sorted(renamed(c) if renamed else c for c in r.always_refused)
    if r.policy.get("sent_any_of") == "alone":
        out["sent_any_of_keywords"] = sorted(r.sent_alone)
    for name, value in (("sent_root_keywords", r.sent_root_keywords), ("sent_keywords", r.sent_drop),
                        ("sent_empty", r.sent_empty), ("property_keys", r.property_key_pattern),
                        ("enum_values", r.enum_types)):
        if value:
            out[name] = sorted(value) if isinstance(value, (tuple, list, set, frozenset)) else value
    return out


def _diff_structure(a: Rules, b: Rules, cite: Any, renamed: Any) -> dict:
    """The part of `diff_rules` about the policy (structural rules: what the walk does, and what the
    form sent without strict must satisfy), the request budgets and the wire shapes."""
    pa, pb = _policy(a, renamed), _policy(b)
    policy = []
    cites_a, cites_b = (getattr(r.module, "POLICY_CITE", {}) for r in (a, b))
    for name in sorted(set(pa) | set(pb)):
        if pa.get(name) != pb.get(name):
            side, cites = (b, cites_b) if name in pb else (a, cites_a)
            policy.append({"rule": name, "from": pa.get(name), "to": pb.get(name), "cite": cite(side, cites.get(name, ()))})
    budgets = []
    for name in sorted(set(a.budgets) | set(b.budgets)):
        ea, eb = a.budgets.get(name), b.budgets.get(name)
        fa = ea and {"value": ea.value, "code": renamed(ea.code), "counts": ea.counts, "applies": ea.applies}
        fb = eb and {"value": eb.value, "code": eb.code, "counts": eb.counts, "applies": eb.applies}
        if fa != fb:
            budgets.append({"budget": name, "from": fa, "to": fb, "cite": cite(b if eb else a, (eb or ea).cite)})
    wire = []
    wa, wb = ({k: v for k, v in (r.wire or {}).items() if k != "probe"} for r in (a, b))
    for key in sorted(set(wa) | set(wb)):
        if key == "apis":
            apis_a, apis_b = wa.get("apis") or {}, wb.get("apis") or {}
            for api in sorted(set(apis_a) | set(apis_b)):
                if apis_a.get(api) != apis_b.get(api):
                    side, entry = (b, apis_b[api]) if api in apis_b else (a, apis_a[api])
                    wire.append({"field": f"apis.{api}", "from": "(absent)" if api not in apis_a else "(as stated)",
                                 "to": "(absent)" if api not in apis_b else "(as stated)",
                                 "cite": cite(side, (entry or {}).get("cite", ()))})
        elif wa.get(key) != wb.get(key):
            wire.append({"field": key, "from": wa.get(key), "to": wb.get(key), "cite": []})
    return {"policy": policy, "budgets": budgets, "wire": wire}


def _renamer(a: Rules, b: Rules) -> Any:
    """A code of `a` as `b` names the same pattern: across providers (or targets) the codes differ
    by their prefix only (`openai/x`, `anthropic/x`: spec/catalogue.yaml's key), so the diff compares
    them under `b`'s prefix and shows what else differs."""
    if a.target == b.target:
        return lambda code: code
    old, new = a.target + "/", b.target + "/"
    return lambda code: new + code[len(old):] if isinstance(code, str) and code.startswith(old) else code


def _diff_catalogues(a: Rules, b: Rules, cite: Any, renamed: Any) -> dict:
    """The part of `diff_rules` about regex features, classes and the two code catalogues (the codes
    of `a` under `b`'s prefix, see _renamer)."""
    ra, rb = _regex_features(a), _regex_features(b)
    regex = []
    for f in sorted(set(ra) | set(rb)):
        ca, cb = (_regex_feature(r[f])["class"] if f in r else None for r in (ra, rb))
        if ca != cb:
            side, entry = (b, rb[f]) if cb is not None else (a, ra[f])
            regex.append({"feature": f, "from": ca, "to": cb, "cite": cite(side, _regex_feature(entry)["cite"])})
    classes = []
    for kind, ta, tb in (("keyword", _keyword_classes(a), _keyword_classes(b)),
                         ("regex", _regex_classes(a), _regex_classes(b))):
        for c in sorted(set(ta) | set(tb)):
            ea, eb = _class_entry(ta.get(c)), _class_entry(tb.get(c))
            ea = ea and tuple(renamed(x) for x in ea)
            if ea != eb:
                classes.append({"kind": kind, "class": c, "from": ea, "to": eb})
    diagnostics = []
    a_diagnostics = {renamed(code): d for code, d in a.diagnostics.items()}
    a_code = {renamed(code): code for code in a.diagnostics}  # (a code only `a` has is shown as `a` names it)
    for code in sorted(set(a_diagnostics) | set(b.diagnostics)):
        da, db = (_diagnostic(ds[code]) if code in ds else None for ds in (a_diagnostics, b.diagnostics))
        if da == db:
            continue
        if da is None or db is None:
            d = db or da
            diagnostics.append({"code": code if da is None else a_code[code], "change": "added" if da is None else "removed",
                                "severity": d["severity"], "outcome": d["outcome"], "cite": cite(b if db else a, d["cite"])})
            continue
        changed = {f: v for f, v in _changes(da, db).items() if f != "cite"}
        if changed:
            diagnostics.append({"code": code, "change": "changed", "fields": changed, "cite": cite(b, db["cite"])})
    transformations = []
    for code in sorted(set(a.transformations) | set(b.transformations)):
        ta_, tb_ = (_transformation(r.transformations[code]) if code in r.transformations else None for r in (a, b))
        if ta_ == tb_:
            continue
        if ta_ is None or tb_ is None:
            t = tb_ or ta_
            transformations.append({"code": code, "change": "added" if ta_ is None else "removed", "lossy": t["lossy"]})
        else:
            transformations.append({"code": code, "change": "changed", "fields": _changes(ta_, tb_)})
    return {"regex_features": regex, "classes": classes, "diagnostics": diagnostics, "transformations": transformations}


# -- impact ----------------------------------------------------------------------------------
def _pairs(res: Any) -> Counter:
    return Counter((d.code, d.path) for d in res.diagnostics)


def _commonest_first(counts: Counter) -> list[tuple[Any, int]]:
    """A counter's (key, count) pairs, the highest count first, equal counts by key."""

    def order(item: tuple[Any, int]) -> tuple:
        key, n = item
        return (-n, key)

    return sorted(counts.items(), key=order)


def _np(path: tuple) -> list:
    from toolcast.model import ITEMS

    return [None if step is ITEMS else step for step in path]


def _require_compilable(a: Rules, b: Rules, emitters: dict) -> None:
    """ToolcastError unless both rules compile to a target toolcast emits (a provider's rules may be
    written before its emitter: they diff, but nothing compiles under them)."""
    for r in (a, b):
        if r.target not in emitters:
            raise ToolcastError(f"rules {r.id} name target {r.target!r}, which toolcast cannot compile to "
                                f"(targets: {', '.join(emitters)}), so --impact cannot compile tools under them; "
                                "a family for one API of a target names it (`target: {name, api}` in its spec)")


def impact(a: Rules, b: Rules, paths: Sequence[str], *, api: str = "responses", strict: str = "auto",
           allow_lossy: bool = False, stdin: Any = None) -> dict:
    """Compile every tool in `paths` (files as `toolcast compile` reads them, `-` for `stdin`)
    under both versions with the same options, and report what changes: `counts` (tools,
    changed, outcome_changed, null_paths_changed, diagnostics_changed), `outcomes` (status
    transitions, commonest first), `codes_added`/`codes_removed` (code -> count), `tools` (one
    entry per changed tool: its outcomes, null paths and (code, path) findings added and
    removed) and `errors` (input errors, as text). An input error never stops the other tools; rules
    whose target toolcast cannot compile to (a provider without an emitter yet) raise ToolcastError
    before any tool is read."""
    from toolcast.compile import compile_tool
    from toolcast.loader import load
    from toolcast.model import InvalidToolError
    from toolcast.providers import EMITTERS

    _require_compilable(a, b, EMITTERS)
    tools = 0
    errors: list[str] = []
    transitions: Counter = Counter()
    codes_added: Counter = Counter()
    codes_removed: Counter = Counter()
    details = []
    n_null = n_diag = 0
    for path in paths:
        items, errs = load(path, stdin=stdin)
        errors.extend(str(e) for e in errs)
        for item in items:
            try:
                # Each side under its own provider's target (rules diff works across providers).
                ra, rb = (compile_tool(item.tool, target=r.target, api=r.api or (api if api in EMITTERS[r.target].APIS else None),
                                       rules=r, strict=strict, allow_lossy=allow_lossy) for r in (a, b))
            except InvalidToolError as exc:
                errors.append(f"{item.source}: {exc}")
                continue
            tools += 1
            pa, pb = _pairs(ra), _pairs(rb)
            added, removed = pb - pa, pa - pb
            na, nb = set(ra.null_paths), set(rb.null_paths)
            outcome_changed = ra.status != rb.status
            if not (outcome_changed or added or removed or na != nb):
                continue
            if outcome_changed:
                transitions[(ra.status, rb.status)] += 1
            if na != nb:
                n_null += 1
            if added or removed:
                n_diag += 1
            codes_added.update(c for c, _ in added.elements())
            codes_removed.update(c for c, _ in removed.elements())
            details.append({
                "source": item.source,
                "name": rb.name,
                "from": ra.status,
                "to": rb.status,
                "null_paths_added": [_np(p) for p in rb.null_paths if p not in na],
                "null_paths_removed": [_np(p) for p in ra.null_paths if p not in nb],
                "diagnostics_added": [{"code": c, "path": p} for c, p in sorted(added.elements())],
                "diagnostics_removed": [{"code": c, "path": p} for c, p in sorted(removed.elements())],
            })
    return {
        "from": a.id,
        "to": b.id,
        "options": {"api": api, "strict": strict, "allow_lossy": allow_lossy},
        "counts": {
            "tools": tools,
            "changed": len(details),
            "outcome_changed": sum(transitions.values()),
            "null_paths_changed": n_null,
            "diagnostics_changed": n_diag,
        },
        "outcomes": [{"from": f, "to": t, "tools": n} for (f, t), n in _commonest_first(transitions)],
        "codes_added": dict(_commonest_first(codes_added)),
        "codes_removed": dict(_commonest_first(codes_removed)),
        "tools": details,
        "errors": errors,
    }


def compare(a: Rules | str | None, b: Rules | str | None, impact_paths: Sequence[str] | None = None, *,
            api: str = "responses", strict: str = "auto", allow_lossy: bool = False, stdin: Any = None) -> dict:
    """`diff_rules(a, b)`, plus its `impact` on the tools in `impact_paths` when any are given
    (under the key "impact"). `a` and `b` are `Rules` or what `--rules` accepts (VERSION,
    provider@VERSION, latest; None for the default); an unknown one raises UnknownRulesError."""
    ra = a if isinstance(a, Rules) else get_rules(a)
    rb = b if isinstance(b, Rules) else get_rules(b)
    data = diff_rules(ra, rb)
    if impact_paths:
        data["impact"] = impact(ra, rb, impact_paths, api=api, strict=strict, allow_lossy=allow_lossy, stdin=stdin)
    return data
