"""`toolcast rules`: render rule versions, one version's tables, and diffs with their impact (the data: toolcast.rules_diff)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import IO, Any

from toolcast.render import shown_text
from toolcast.rules import Rules, get_rules
from toolcast.rules_diff import REGEX_CLASS_ORDER, compare, resolved, versions


def _dump(out: IO[str], data: Any) -> None:
    out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


# -- list -----------------------------------------------------------------------------------
def list_versions(out: IO[str], fmt: str) -> int:
    data = versions()
    if fmt == "json":
        _dump(out, data)
        return 0
    # The id column fits the longest id (a rule family for one API: gemini-parameters@...).
    width = max([20, *(len(i["id"]) for i in data["versions"])])
    out.write(f"{'version':<{width}} {'default':<8} {'reviewed':<11} {'extends':<11} {'sources':>7}  summary\n")
    for i in data["versions"]:
        mark = "yes" if i["default"] else ""
        summary = i["summary"] if len(i["summary"]) <= 70 else i["summary"][:67] + "..."
        out.write(f"{i['id']:<{width}} {mark:<8} {i['reviewed']:<11} {i['extends'] or '-':<11} {i['sources']:>7}  {summary}\n")
    out.write("\n`latest` is the newest version; --rules accepts VERSION, openai@VERSION or latest.\n")
    return 0


# -- show -----------------------------------------------------------------------------------
def _cites(c: Sequence[str]) -> str:
    return "[" + ", ".join(c) + "]" if c else ""


def show(out: IO[str], version: str | None, fmt: str) -> int:
    data = resolved(get_rules(version))
    if fmt == "json":
        _dump(out, data)
        return 0
    w = out.write
    flags = [f for f, on in (("default", data["default"]), ("latest", data["latest"])) if on]
    w(f"{data['id']}  reviewed {data['reviewed']}" + (f", extends {data['extends']}" if data["extends"] else ", standalone")
      + (f"  ({', '.join(flags)})" if flags else "") + "\n")
    w(f"  {data['summary']}\n\n")
    w(f"name         {data['name']['pattern']} (at most {data['name']['max_length']} characters)\n")
    desc = f"at most {data['description']['max_bytes']} bytes"
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
def _state(s: dict | None) -> str:
    if s is None:
        return "(absent)"
    return s["class"] + (f" ({s['handler']})" if s.get("handler") else "")


def _budget(b: dict | None) -> str:
    return "(absent)" if b is None else f"{b['value']} {b['counts']} ({b['applies']}, {b['code']})"


def _policy_line(x: dict) -> str:
    a, b = x["from"], x["to"]
    if isinstance(a, list) and isinstance(b, list):  # (a list rule: what it gained and lost)
        return f"{x['rule']:<22} " + " ".join([f"+{v}" for v in b if v not in a] + [f"-{v}" for v in a if v not in b])
    return f"{x['rule']:<22} {a!s} -> {b!s}"


def _budget_line(x: dict) -> str:
    return f"{x['budget']:<22} {_budget(x['from'])} -> {_budget(x['to'])}"


def _wire_line(x: dict) -> str:
    return f"{x['field']:<22} {x['from']!s} -> {x['to']!s}"


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
    for key, title, line in (("policy", "policy", _policy_line), ("budgets", "request budgets", _budget_line),
                             ("wire", "wire", _wire_line)):
        if d[key]:
            w(f"\n{title}\n")
            for x in d[key]:
                w(f"  {line(x)} {_cites(x['cite'])}\n")
    if d["regex_features"]:
        w("\nregex features\n")
        for x in d["regex_features"]:
            w(f"  {x['feature']:<26} {x['from'] or '(unlisted)':<12} -> {x['to'] or '(unlisted)':<12} {_cites(x['cite'])}\n")
    if d["classes"]:
        w("\nclasses\n")
        for x in d["classes"]:
            w(f"  {x['kind']} class {x['class']}: {x['from']} -> {x['to']}\n")
    if d["diagnostics"] or d["transformations"]:
        _render_codes(d, w)
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
    empty = not any(d[k] for k in ("keywords", "limits", "name", "description", "policy", "budgets", "wire",
                                    "regex_features", "classes", "diagnostics", "transformations"))
    if empty and not any(d["formats"].values()):
        w("\n(no rule differences)\n")


def _render_codes(d: dict, w) -> None:
    """The codes part of a rules diff. A changed docs link is listed once per new link (with the
    number of codes), not on each code's line: across providers nearly every code changes it."""
    links: dict[str, list[str]] = {}
    lines = []
    for x in d["diagnostics"]:
        if x["change"] == "changed":
            fields = dict(x["fields"])
            if "docs" in fields:
                _old, new_link = fields.pop("docs")
                links.setdefault(new_link, []).append(x["code"])
            if fields:
                what = "; ".join(f"{f} {old!r} -> {new!r}" if f == "message" else f"{f} {old} -> {new}"
                                 for f, (old, new) in fields.items())
                lines.append(f"  ~ {x['code']}: {what} {_cites(x['cite'])}\n")
        else:
            sign = "+" if x["change"] == "added" else "-"
            lines.append(f"  {sign} {x['code']} ({x['severity']}, {x['outcome']}) {_cites(x['cite'])}\n")
    for x in d["transformations"]:
        if x["change"] == "changed":
            what = "; ".join(f"{f} {old!r} -> {new!r}" for f, (old, new) in x["fields"].items())
            lines.append(f"  ~ {x['code']}: {what}\n")
        else:
            sign = "+" if x["change"] == "added" else "-"
            lines.append(f"  {sign} {x['code']}{' (lossy)' if x['lossy'] else ''}\n")
    if lines:
        w("\ncodes\n")
        for line in lines:
            w(line)
    if links:
        w("\ndocs links\n")
        for url, codes in sorted(links.items()):
            w(f"  {len(codes)} code(s) now link to {url}: {', '.join(c.split('/', 1)[-1] for c in codes)}\n")


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
        w(f"  input error: {shown_text(e)}\n")
    shown = m["tools"] if max_details is None else m["tools"][:max_details]
    if shown:
        w("\nper tool\n")
    for t in shown:
        arrow = f"{t['from']} -> {t['to']}" if t["from"] != t["to"] else t["to"]
        # Names, sources and paths are the tools' own text: escaped as every text report escapes them.
        w(f"  {shown_text(t['name']) if t['name'] else '(unnamed)'}  [{shown_text(t['source'])}]  {arrow}\n")
        for p in t["null_paths_added"]:
            w(f"      + null path {json.dumps(p)}\n")
        for p in t["null_paths_removed"]:
            w(f"      - null path {json.dumps(p)}\n")
        for d in t["diagnostics_added"]:
            w(f"      + {d['code']} at {shown_text(d['path'])}\n")
        for d in t["diagnostics_removed"]:
            w(f"      - {d['code']} at {shown_text(d['path'])}\n")
    if len(shown) < len(m["tools"]):
        w(f"  ... and {len(m['tools']) - len(shown)} more tool(s); --details all or --format json lists every one\n")


def diff(out: IO[str], a_spec: str, b_spec: str, fmt: str, impact_paths: Sequence[str] | None = None, *,
         api: str = "responses", strict: str = "auto", allow_lossy: bool = False, details: str = "20",
         stdin: Any = None, rules_a: Rules | None = None, rules_b: Rules | None = None) -> int:
    data = compare(rules_a or a_spec, rules_b or b_spec, impact_paths, api=api, strict=strict,
                   allow_lossy=allow_lossy, stdin=stdin)
    if fmt == "json":
        _dump(out, data)
    else:
        render_diff(data, out.write)
        if "impact" in data:
            render_impact(data["impact"], out.write, None if details == "all" else int(details))
    # Input errors were reported with the rest; like compile, they make the exit status 2.
    return 2 if data.get("impact", {}).get("errors") else 0
