"""`toolcast rules`: list rule versions, show one version's resolved tables, diff two (with impact)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import IO, Any

from toolcast import _tables
from toolcast.rules import Rules, get_rules

CLASS_ORDER = ("supported", "rewrite", "tier1", "tier2", "annotation", "default", "unknown")
REGEX_CLASS_ORDER = ("unsupported", "unconfirmed")


def _dump(out: IO[str], data: Any) -> None:
    out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _regex_features(r: Rules) -> dict:
    return getattr(r.module, "REGEX_FEATURES", {})


def _regex_classes(r: Rules) -> dict:
    return getattr(r.module, "REGEX_FEATURE_CLASSES", {})


def _max_chars(r: Rules) -> int | None:
    return getattr(r.module, "DESCRIPTION_MAX_CHARS", None)


def _source(r: Rules, sid: str) -> dict:
    s = r.sources[sid]
    out = {"title": s[0], "url": s[1], "date": s[2]}
    if len(s) > 3 and s[3]:
        out["evidence"] = s[3]
    return out


# -- list -----------------------------------------------------------------------------------
def version_info(r: Rules) -> dict:
    versions = _tables.VERSIONS[r.provider]
    return {
        "id": r.id,
        "provider": r.provider,
        "version": r.version,
        "default": r.version == _tables.DEFAULTS[r.provider],
        "latest": r.version == versions[-1],
        "reviewed": r.reviewed,
        "extends": r.extends,
        "sources": len(r.sources),
        "summary": r.summary,
    }


def list_versions(out: IO[str], fmt: str) -> int:
    infos = [version_info(get_rules(f"{p}@{v}")) for p, vs in sorted(_tables.VERSIONS.items()) for v in vs]
    if fmt == "json":
        _dump(out, {"providers": sorted(_tables.VERSIONS), "defaults": dict(_tables.DEFAULTS), "versions": infos})
        return 0
    out.write(f"{'version':<20} {'default':<8} {'reviewed':<11} {'extends':<11} {'sources':>7}  summary\n")
    for i in infos:
        mark = "yes" if i["default"] else ""
        summary = i["summary"] if len(i["summary"]) <= 70 else i["summary"][:67] + "..."
        out.write(f"{i['id']:<20} {mark:<8} {i['reviewed']:<11} {i['extends'] or '-':<11} {i['sources']:>7}  {summary}\n")
    out.write("\n`latest` is the newest version; --rules accepts VERSION, openai@VERSION or latest.\n")
    return 0


# -- show -----------------------------------------------------------------------------------
def resolved(r: Rules) -> dict:
    features = _regex_features(r)
    return {
        **version_info(r),
        "name": {"pattern": r.name_pattern, "max_length": r.name_max_length},
        "description": {"max_bytes": r.description_max_bytes, "max_chars": _max_chars(r)},
        "limits": {k: {"value": v[0], "code": v[1], "cite": list(v[2])} for k, v in sorted(r.limits.items())},
        "formats": {k: list(v) for k, v in sorted(r.module.FORMATS.items())},
        "keywords": {
            cls: sorted(k for k, e in r.keywords.items() if e[0] == cls)
            for cls in CLASS_ORDER
            if any(e[0] == cls for e in r.keywords.values())
        },
        "keyword_details": {
            k: {"class": e[0], "action": e[1], "handler": e[2], "value": e[3], "cite": list(e[6])}
            for k, e in sorted(r.keywords.items())
        },
        "rewrites": {k: e[2] for k, e in sorted(r.keywords.items()) if e[2]},
        "regex_feature_classes": {
            c: {"action": v[0], "diagnostic": v[1], "transformation": v[2]} for c, v in sorted(_regex_classes(r).items())
        },
        "regex_features": {f: {"class": v[0], "cite": list(v[1])} for f, v in sorted(features.items())},
        "diagnostics": {
            code: {"severity": d[0], "outcome": d[1], "status": d[5], "message": d[2], "docs": d[3], "cite": list(d[4])}
            for code, d in sorted(r.diagnostics.items())
        },
        "transformations": {
            code: {"lossy": t[0], "status": t[2], "detail": t[1]} for code, t in sorted(r.transformations.items())
        },
        "sources": {sid: _source(r, sid) for sid in sorted(r.sources)},
    }


def _cites(c: Sequence[str]) -> str:
    return "[" + ", ".join(c) + "]" if c else ""


def show(out: IO[str], version: str | None, fmt: str) -> int:
    r = get_rules(version)
    data = resolved(r)
    if fmt == "json":
        _dump(out, data)
        return 0
    w = out.write
    flags = [f for f, on in (("default", data["default"]), ("latest", data["latest"])) if on]
    w(f"{r.id}  reviewed {r.reviewed}" + (f", extends {r.extends}" if r.extends else ", standalone")
      + (f"  ({', '.join(flags)})" if flags else "") + "\n")
    w(f"  {r.summary}\n\n")
    w(f"name         {r.name_pattern} (at most {r.name_max_length} characters)\n")
    desc = f"at most {r.description_max_bytes} bytes"
    if data["description"]["max_chars"] is not None:
        desc += f" and {data['description']['max_chars']} characters"
    w(f"description  {desc}, cut on a character boundary\n\nlimits\n")
    for k, v in data["limits"].items():
        w(f"  {k:<22} {v['value']:>8}  {v['code']:<30} {_cites(v['cite'])}\n")
    w("\nformats\n")
    if not data["formats"]:
        w("  (none)\n")
    for k, c in data["formats"].items():
        w(f"  {k:<22} {_cites(c)}\n")
    w("\nkeywords\n")
    for cls, kws in data["keywords"].items():
        w(f"  {cls}\n")
        for kw in kws:
            e = data["keyword_details"][kw]
            handler = f"  ({e['handler']})" if e["handler"] else ""
            w(f"    {kw:<24}{handler:<22} {_cites(e['cite'])}\n")
    w("\nregex features in `pattern`\n")
    if not data["regex_features"]:
        w("  (none classed)\n")
    for cls in REGEX_CLASS_ORDER:
        c = data["regex_feature_classes"].get(cls)
        feats = [(f, v) for f, v in data["regex_features"].items() if v["class"] == cls]
        if not feats or c is None:
            continue
        what = "pattern dropped (lossy)" if c["action"] == "drop" else "pattern kept"
        w(f"  {cls}: {what}, {c['diagnostic']}\n")
        for f, v in feats:
            w(f"    {f:<26} {_cites(v['cite'])}\n")
    w("\ndiagnostics\n")
    for code, d in data["diagnostics"].items():
        reserved = " (reserved)" if d["status"] == "reserved" else ""
        w(f"  {code:<46} {d['severity']:<8} {d['outcome']:<8}{reserved}\n")
    w("\ntransformations\n")
    for code, t in data["transformations"].items():
        reserved = " (reserved)" if t["status"] == "reserved" else ""
        w(f"  {code:<46} {'lossy' if t['lossy'] else '':<6}{reserved}\n")
    w("\nsources\n")
    for sid, s in data["sources"].items():
        tag = f" ({s['evidence']})" if "evidence" in s else ""
        w(f"  {sid:<16} {s['date']:<10}{tag} {s['title']}\n  {'':<16} {s['url']}\n")
    return 0


# -- diff -----------------------------------------------------------------------------------
def _kw_state(r: Rules, kw: str) -> dict | None:
    e = r.keywords.get(kw)
    if e is None:
        return None
    return {"class": e[0], "action": e[1], "handler": e[2]}


def diff_rules(a: Rules, b: Rules) -> dict:
    """What changes from rule version `a` to `b`, each change with the citations behind it."""
    cited: set[str] = set()

    def cite(r: Rules, ids: Sequence[str]) -> list[str]:
        ids = [i for i in ids if i in r.sources]
        cited.update(("a:" if r is a else "b:") + i for i in ids)
        return list(ids)

    keywords = []
    for kw in sorted(set(a.keywords) | set(b.keywords)):
        sa, sb = _kw_state(a, kw), _kw_state(b, kw)
        if sa == sb:
            continue
        side, entry = (b, b.keywords[kw]) if sb is not None else (a, a.keywords[kw])
        keywords.append({"keyword": kw, "from": sa, "to": sb, "cite": cite(side, entry[6])})
    fa, fb = a.module.FORMATS, b.module.FORMATS
    formats = {
        "added": [{"format": f, "cite": cite(b, fb[f])} for f in sorted(set(fb) - set(fa))],
        "removed": [{"format": f, "cite": cite(a, fa[f])} for f in sorted(set(fa) - set(fb))],
    }
    limits = []
    for name in sorted(set(a.limits) | set(b.limits)):
        la, lb = a.limits.get(name), b.limits.get(name)
        va, vb = la and la[0], lb and lb[0]
        if va != vb or (la and lb and la[1] != lb[1]):
            side = lb or la
            limits.append({"limit": name, "from": va, "to": vb, "code": side[1],
                           "cite": cite(b if lb else a, side[2])})
    description = []
    for field, va, vb, src in (
        ("max_bytes", a.description_max_bytes, b.description_max_bytes, "DESCRIPTION_CITE"),
        ("max_chars", _max_chars(a), _max_chars(b), "DESCRIPTION_CITE"),
    ):
        if va != vb:
            description.append({"field": field, "from": va, "to": vb, "cite": cite(b, getattr(b.module, src, ()))})
    name = []
    for field, va, vb in (("pattern", a.name_pattern, b.name_pattern), ("max_length", a.name_max_length, b.name_max_length)):
        if va != vb:
            name.append({"field": field, "from": va, "to": vb, "cite": cite(b, getattr(b.module, "NAME_CITE", ()))})
    ra, rb = _regex_features(a), _regex_features(b)
    regex = []
    for f in sorted(set(ra) | set(rb)):
        ca, cb = ra.get(f, (None,))[0], rb.get(f, (None,))[0]
        if ca != cb:
            side, entry = (b, rb[f]) if cb is not None else (a, ra[f])
            regex.append({"feature": f, "from": ca, "to": cb, "cite": cite(side, entry[1])})
    classes = []
    for kind, ta, tb in (
        ("keyword", getattr(a.module, "KEYWORD_CLASSES", {}), getattr(b.module, "KEYWORD_CLASSES", {})),
        ("regex", _regex_classes(a), _regex_classes(b)),
    ):
        for c in sorted(set(ta) | set(tb)):
            if ta.get(c) != tb.get(c):
                classes.append({"kind": kind, "class": c, "from": ta.get(c), "to": tb.get(c)})
    diagnostics = []
    fields = ("severity", "outcome", "message", "docs", "cite", "status", "pattern")
    for code in sorted(set(a.diagnostics) | set(b.diagnostics)):
        da, db = a.diagnostics.get(code), b.diagnostics.get(code)
        if da == db:
            continue
        if da is None or db is None:
            d = db or da
            diagnostics.append({"code": code, "change": "added" if da is None else "removed",
                                "severity": d[0], "outcome": d[1], "cite": cite(b if db else a, d[4])})
            continue
        changed = {f: [x, y] for f, x, y in zip(fields, da, db, strict=True) if x != y and f != "cite"}
        if changed:
            diagnostics.append({"code": code, "change": "changed", "fields": changed, "cite": cite(b, db[4])})
    transformations = []
    tfields = ("lossy", "detail", "status", "pattern")
    for code in sorted(set(a.transformations) | set(b.transformations)):
        ta_, tb_ = a.transformations.get(code), b.transformations.get(code)
        if ta_ == tb_:
            continue
        if ta_ is None or tb_ is None:
            t = tb_ or ta_
            transformations.append({"code": code, "change": "added" if ta_ is None else "removed", "lossy": t[0]})
        else:
            transformations.append({"code": code, "change": "changed",
                                    "fields": {f: [x, y] for f, x, y in zip(tfields, ta_, tb_, strict=True) if x != y}})
    sources = {
        "added": sorted(set(b.sources) - set(a.sources)),
        "removed": sorted(set(a.sources) - set(b.sources)),
    }
    citations = {}
    for key in sorted(cited):
        side, sid = (a if key.startswith("a:") else b), key[2:]
        citations.setdefault(sid, _source(side, sid))
    return {
        "from": a.id,
        "to": b.id,
        "keywords": keywords,
        "formats": formats,
        "limits": limits,
        "name": name,
        "description": description,
        "regex_features": regex,
        "classes": classes,
        "diagnostics": diagnostics,
        "transformations": transformations,
        "sources": sources,
        "citations": dict(sorted(citations.items())),
    }


def _state(s: dict | None) -> str:
    if s is None:
        return "(absent)"
    return s["class"] + (f" ({s['handler']})" if s.get("handler") else "")


def render_diff(d: dict, w) -> None:
    w(f"rules diff {d['from']} -> {d['to']}\n")
    if d["keywords"]:
        w(f"\nkeywords ({len(d['keywords'])} changed)\n")
        for k in d["keywords"]:
            w(f"  {k['keyword']:<22} {_state(k['from']):<22} -> {_state(k['to']):<22} {_cites(k['cite'])}\n")
    if d["formats"]["added"] or d["formats"]["removed"]:
        w("\nformats\n")
        for f in d["formats"]["added"]:
            w(f"  + {f['format']:<20} {_cites(f['cite'])}\n")
        for f in d["formats"]["removed"]:
            w(f"  - {f['format']:<20} {_cites(f['cite'])}\n")
    if d["limits"] or d["description"] or d["name"]:
        w("\nlimits\n")
        for x in d["limits"]:
            w(f"  {x['limit']:<22} {x['from']!s:>8} -> {x['to']!s:<8} {_cites(x['cite'])}\n")
        for x in d["description"]:
            w(f"  description.{x['field']:<10} {x['from']!s:>8} -> {x['to']!s:<8} {_cites(x['cite'])}\n")
        for x in d["name"]:
            w(f"  name.{x['field']:<17} {x['from']!s} -> {x['to']!s} {_cites(x['cite'])}\n")
    if d["regex_features"]:
        w("\nregex features\n")
        for x in d["regex_features"]:
            w(f"  {x['feature']:<26} {x['from'] or '(unlisted)':<12} -> {x['to'] or '(unlisted)':<12} {_cites(x['cite'])}\n")
    if d["classes"]:
        w("\nclasses\n")
        for x in d["classes"]:
            w(f"  {x['kind']} class {x['class']}: {x['from']} -> {x['to']}\n")
    if d["diagnostics"] or d["transformations"]:
        w("\ncodes\n")
        for x in d["diagnostics"]:
            if x["change"] == "changed":
                what = "; ".join(f"{f} {v[0]!r} -> {v[1]!r}" if f == "message" else f"{f} {v[0]} -> {v[1]}"
                                 for f, v in x["fields"].items())
                w(f"  ~ {x['code']}: {what} {_cites(x['cite'])}\n")
            else:
                sign = "+" if x["change"] == "added" else "-"
                w(f"  {sign} {x['code']} ({x['severity']}, {x['outcome']}) {_cites(x['cite'])}\n")
        for x in d["transformations"]:
            if x["change"] == "changed":
                what = "; ".join(f"{f} {v[0]!r} -> {v[1]!r}" for f, v in x["fields"].items())
                w(f"  ~ {x['code']}: {what}\n")
            else:
                sign = "+" if x["change"] == "added" else "-"
                w(f"  {sign} {x['code']}{' (lossy)' if x['lossy'] else ''}\n")
    if d["sources"]["added"] or d["sources"]["removed"]:
        w("\nsources\n")
        if d["sources"]["added"]:
            w("  + " + ", ".join(d["sources"]["added"]) + "\n")
        if d["sources"]["removed"]:
            w("  - " + ", ".join(d["sources"]["removed"]) + "\n")
    if d["citations"]:
        w("\ncitations\n")
        for sid, s in d["citations"].items():
            tag = f" ({s['evidence']})" if "evidence" in s else ""
            w(f"  {sid:<16} {s['date']:<10}{tag} {s['title']}\n  {'':<16} {s['url']}\n")
    empty = not any(d[k] for k in ("keywords", "limits", "name", "description", "regex_features", "classes",
                                    "diagnostics", "transformations"))
    if empty and not any(d["formats"].values()):
        w("\n(no rule differences)\n")


# -- impact ---------------------------------------------------------------------------------
def _pairs(res: Any) -> Counter:
    return Counter((d.code, d.path) for d in res.diagnostics)


def _np(path: tuple) -> list:
    from toolcast.model import ITEMS

    return [None if step is ITEMS else step for step in path]


def impact(a: Rules, b: Rules, paths: Sequence[str], *, api: str = "responses", strict: str = "auto",
           allow_lossy: bool = False, stdin: Any = None) -> dict:
    """Compile every tool in `paths` under both versions; what changes for each."""
    from toolcast.compile import InvalidToolError, compile_tool
    from toolcast.loader import load
    from toolcast.providers import EMITTERS

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
                ra, rb = (compile_tool(item.tool, target=r.provider, api=api if api in EMITTERS[r.provider].APIS else None,
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
        "outcomes": [{"from": f, "to": t, "tools": n} for (f, t), n in sorted(transitions.items(), key=lambda x: (-x[1], x[0]))],
        "codes_added": dict(sorted(codes_added.items(), key=lambda x: (-x[1], x[0]))),
        "codes_removed": dict(sorted(codes_removed.items(), key=lambda x: (-x[1], x[0]))),
        "tools": details,
        "errors": errors,
    }


def render_impact(m: dict, w, max_details: int | None) -> None:
    c = m["counts"]
    w(f"\nimpact on {c['tools']} tool(s), {m['from']} -> {m['to']} "
      f"(api {m['options']['api']}, strict {m['options']['strict']}"
      + (", allow-lossy" if m["options"]["allow_lossy"] else "") + ")\n")
    w(f"  changed: {c['changed']}   outcome: {c['outcome_changed']}   null paths: {c['null_paths_changed']}"
      f"   diagnostics: {c['diagnostics_changed']}\n")
    for o in m["outcomes"]:
        w(f"  {o['from']:>10} -> {o['to']:<10} {o['tools']:>6}\n")
    if m["codes_added"]:
        w("  findings added:   " + ", ".join(f"{k} x{v}" for k, v in m["codes_added"].items()) + "\n")
    if m["codes_removed"]:
        w("  findings removed: " + ", ".join(f"{k} x{v}" for k, v in m["codes_removed"].items()) + "\n")
    for e in m["errors"]:
        w(f"  input error: {e}\n")
    shown = m["tools"] if max_details is None else m["tools"][:max_details]
    if shown:
        w("\nper tool\n")
    for t in shown:
        arrow = f"{t['from']} -> {t['to']}" if t["from"] != t["to"] else t["to"]
        w(f"  {t['name'] or '(unnamed)'}  [{t['source']}]  {arrow}\n")
        for p in t["null_paths_added"]:
            w(f"      + null path {json.dumps(p)}\n")
        for p in t["null_paths_removed"]:
            w(f"      - null path {json.dumps(p)}\n")
        for d in t["diagnostics_added"]:
            w(f"      + {d['code']} at {d['path']}\n")
        for d in t["diagnostics_removed"]:
            w(f"      - {d['code']} at {d['path']}\n")
    if len(shown) < len(m["tools"]):
        w(f"  ... and {len(m['tools']) - len(shown)} more tool(s); --details all or --format json lists every one\n")


def diff(out: IO[str], a_spec: str, b_spec: str, fmt: str, impact_paths: Sequence[str] | None = None, *,
         api: str = "responses", strict: str = "auto", allow_lossy: bool = False, details: str = "20",
         stdin: Any = None, rules_a: Rules | None = None, rules_b: Rules | None = None) -> int:
    a = rules_a or get_rules(a_spec)
    b = rules_b or get_rules(b_spec)
    data = diff_rules(a, b)
    if impact_paths:
        data["impact"] = impact(a, b, impact_paths, api=api, strict=strict, allow_lossy=allow_lossy, stdin=stdin)
    if fmt == "json":
        _dump(out, data)
    else:
        render_diff(data, out.write)
        if "impact" in data:
            render_impact(data["impact"], out.write, None if details == "all" else int(details))
    # Input errors were reported with the rest; like compile, they make the exit status 2.
    return 2 if data.get("impact", {}).get("errors") else 0
