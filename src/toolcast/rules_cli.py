"""`toolcast rules`: list rule versions and show one version's resolved tables."""

from __future__ import annotations

import json
from typing import IO

from toolcast import _tables
from toolcast.rules import Rules, get_rules

CLASS_ORDER = ("supported", "rewrite", "tier1", "tier2", "annotation", "default", "unknown")


def version_info(r: Rules) -> dict:
    return {
        "id": r.id,
        "provider": r.provider,
        "version": r.version,
        "default": r.version == _tables.DEFAULTS[r.provider],
        "reviewed": r.reviewed,
        "extends": r.extends,
        "sources": len(r.sources),
        "summary": r.summary,
    }


def list_versions(out: IO[str], fmt: str) -> int:
    infos = [version_info(get_rules(f"{p}@{v}")) for p, vs in sorted(_tables.VERSIONS.items()) for v in vs]
    if fmt == "json":
        out.write(json.dumps({"versions": infos}, indent=2) + "\n")
        return 0
    out.write(f"{'version':<22} {'default':<8} {'reviewed':<11} {'extends':<11} sources\n")
    for i in infos:
        out.write(f"{i['id']:<22} {'yes' if i['default'] else '':<8} {i['reviewed']:<11} {i['extends'] or '-':<11} {i['sources']}\n")
    return 0


def resolved(r: Rules) -> dict:
    return {
        **version_info(r),
        "name": {"pattern": r.name_pattern, "max_length": r.name_max_length},
        "description": {"max_bytes": r.description_max_bytes},
        "limits": {k: v[0] for k, v in sorted(r.limits.items())},
        "formats": sorted(r.formats),
        "keywords": {
            cls: sorted(k for k, e in r.keywords.items() if e[0] == cls)
            for cls in CLASS_ORDER
            if any(e[0] == cls for e in r.keywords.values())
        },
        "rewrites": {k: e[2] for k, e in sorted(r.keywords.items()) if e[2]},
        "diagnostics": {
            code: {"severity": d[0], "outcome": d[1], "status": d[5], "message": d[2], "docs": d[3], "cite": list(d[4])}
            for code, d in sorted(r.diagnostics.items())
        },
        "transformations": {code: {"lossy": t[0], "status": t[2], "detail": t[1]} for code, t in sorted(r.transformations.items())},
        "sources": {sid: {"title": s[0], "url": s[1], "date": s[2]} for sid, s in sorted(r.sources.items())},
    }


def show(out: IO[str], version: str | None, fmt: str) -> int:
    r = get_rules(version)
    data = resolved(r)
    if fmt == "json":
        out.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
        return 0
    w = out.write
    w(f"{r.id}  reviewed {r.reviewed}" + (f", extends {r.extends}" if r.extends else "") + ("  (default)" if data["default"] else "") + "\n")
    w(f"  {r.summary}\n\n")
    w(f"name: {r.name_pattern}    description: at most {r.description_max_bytes} bytes\n")
    w("limits: " + ", ".join(f"{k}={v}" for k, v in data["limits"].items()) + "\n")
    w("formats: " + ", ".join(data["formats"]) + "\n\nkeywords:\n")
    for cls, kws in data["keywords"].items():
        w(f"  {cls:<11} " + ", ".join(kws) + "\n")
    w("\ndiagnostics:\n")
    for code, d in data["diagnostics"].items():
        reserved = " (reserved)" if d["status"] == "reserved" else ""
        w(f"  {code:<46} {d['severity']:<8} {d['outcome']:<8}{reserved}\n")
    w("\nsources:\n")
    for sid, s in data["sources"].items():
        w(f"  {sid:<16} {s['date']}  {s['title']}\n      {s['url']}\n")
    return 0
