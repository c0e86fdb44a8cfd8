"""`toolcast diff`'s reports: text for people, one JSON document, SARIF 2.1.0 and GitHub annotations."""

from __future__ import annotations

import json
import os
from typing import IO, Any

from toolcast.tooldiff import BREAKING, KIND_WORD, Change, by_tool, counts

RULE_PREFIX = "toolcast-diff/"
SARIF_LEVEL = {BREAKING: "error", "safe": "note", "info": "note", "regressed": "error", "fixed": "note"}
GITHUB_KIND = {BREAKING: "error", "safe": "notice", "info": "notice", "regressed": "error", "fixed": "notice"}


def place(result: Any, side_name: str, tool: str, base: str, tokens: tuple) -> tuple[str | None, int | None, int | None, bool]:
    """(file, line, column, whether the file is the work tree's) of a place in one side's tool."""
    side = result.new if side_name == "new" else result.old
    item = side.items.get(tool)
    where = item.where if item is not None else None
    if where is None:
        return (None, None, None, False) if item is None else (item.source, None, None, side.in_tree)
    try:
        line, col = where.locate(base, tokens)
    except Exception:  # (a place helps the reader; it is never a reason to fail)
        line = col = None
    return where.file, line, col, side.in_tree


def _change_place(result: Any, c: Change) -> tuple:
    return place(result, c.side, c.tool, c.base, c.tokens)


def _at(file: str | None, line: int | None, col: int | None) -> str:
    if file is None:
        return ""
    return file + (f":{line}" if line else "") + (f":{col}" if line and col else "")


def reason(res: Any) -> str:
    """Why a tool is not strict: its sent-non-strict finding, else its first refusing or lossy one."""
    diags = res.diagnostics
    d = next((d for d in diags if d.code.endswith("/sent-non-strict")), None) or \
        next((d for d in diags if d.outcome == "refuses"), None) or next((d for d in diags if d.outcome == "lossy"), None)
    if d is None:
        return ""
    return d.message if d.code.endswith("/sent-non-strict") else f"{d.code} at {d.path}: {d.message}"


def _outcomes(entries: list) -> list[tuple[str, str, str]]:
    """(tool, "old → new", why) for regressions or fixes."""
    return [(name, f"{o.status} → {n.status}", reason(n) if n.status != "strict" else "") for name, o, n in entries]


def summary(result: Any) -> str:
    n = counts(result.changes)
    regressed = sum(len(t["regressed"]) for t in result.targets)
    fixed = sum(len(t["fixed"]) for t in result.targets)
    line = (f"{len(result.changes)} change(s): {n[BREAKING]} breaking, {n['safe']} safe, {n['info']} informational; "
            f"{regressed} regression(s), {fixed} fix(es) over {len(result.targets)} target(s)")
    if result.errors:
        line += f"; {len(result.errors)} input error(s)"
    return line


def write_text(out: IO[str], result: Any) -> None:
    from toolcast.render import shown_text

    w = out.write
    w(f"toolcast diff {shown_text(result.old_label)} → {shown_text(result.new_label)}\n")
    if not result.changes:
        w("no change to the tool definitions\n")
    for tool, changes in by_tool(result.changes):
        w(f"{shown_text(tool)}\n")
        for c in changes:
            at = _at(*_change_place(result, c)[:3])
            w(f"  {KIND_WORD[c.kind]:<13} {shown_text(c.path)}: {shown_text(c.message)}"
              f"{f'  ({shown_text(at)})' if at else ''}\n")
    for t in result.targets:
        head = f"{t['target']} ({t['api']}, {t['rules']})"
        if not t["regressed"] and not t["fixed"]:
            w(f"{head}: no tool regressed or was fixed\n")
            continue
        w(f"{head}: {len(t['regressed'])} regressed, {len(t['fixed'])} fixed\n")
        for word, entries in (("regressed", t["regressed"]), ("fixed", t["fixed"])):
            for name, moved, why in _outcomes(entries):
                w(f"  {word:<10} {shown_text(name)}: {moved}{f' ({shown_text(why)})' if why else ''}\n")
    for e in result.errors:
        w(f"error: {shown_text(str(e))}\n")
    if result.errors:
        w("(a tool in an input that could not be read is missing from its side: it may show as removed or added)\n")
    w(summary(result) + "\n")


def _change_dict(result: Any, c: Change) -> dict:
    file, line, col, _ = _change_place(result, c)
    return {"tool": c.tool, "kind": c.kind, "code": c.code, "path": c.path, "message": c.message,
            "side": c.side, "file": file, "line": line, "column": col}


def _outcome_dicts(result: Any, entries: list) -> list[dict]:
    out = []
    for (name, moved, why), (_, o, n) in zip(_outcomes(entries), entries, strict=True):
        file, line, col, _ = place(result, "new", name, "name", ())
        out.append({"name": name, "old": o.status, "new": n.status, "reason": why or None,
                    "file": file, "line": line, "column": col})
        del moved
    return out


def document(result: Any, fail_on: str) -> dict:
    from toolcast import __version__

    n = counts(result.changes)
    return {
        "command": "diff",
        "toolcast": __version__,
        "old": result.old_label,
        "new": result.new_label,
        "changes": [_change_dict(result, c) for c in result.changes],
        "targets": [{"target": t["target"], "api": t["api"], "rules": t["rules"],
                     "regressed": _outcome_dicts(result, t["regressed"]), "fixed": _outcome_dicts(result, t["fixed"])}
                    for t in result.targets],
        "summary": {"breaking": n[BREAKING], "safe": n["safe"], "info": n["info"],
                    "regressed": sum(len(t["regressed"]) for t in result.targets),
                    "fixed": sum(len(t["fixed"]) for t in result.targets),
                    "fail_on": fail_on, "failed": result.failed(fail_on)},
        "errors": [e.to_dict() for e in result.errors],
    }


def write_json(out: IO[str], result: Any, fail_on: str) -> None:
    out.write(json.dumps(document(result, fail_on), indent=2, ensure_ascii=False) + "\n")


def _findings(result: Any) -> list[tuple[str, str, str, str, str, tuple, dict]]:
    """Every change, regression and fix as (kind, code, tool, path, message, place, properties)."""
    rows = []
    for c in result.changes:
        rows.append((c.kind, c.code, c.tool, c.path, f"{c.tool} {c.path}: {c.message} ({KIND_WORD[c.kind]})",
                     _change_place(result, c), {"kind": c.kind, "side": c.side}))
    for t in result.targets:
        for word, entries in (("regressed", t["regressed"]), ("fixed", t["fixed"])):
            for name, moved, why in _outcomes(entries):
                rows.append((word, word, name, "name", f"{name}: {word} for {t['target']}: {moved}"
                             + (f" ({why})" if why else ""), place(result, "new", name, "name", ()),
                             {"kind": word, "target": t["target"], "api": t["api"], "rules": t["rules"]}))
    return rows


def _in_tree(e: Any) -> bool:
    """Whether an input error's file is one of the work tree (not `REV:path`, read from git)."""
    from toolcast.sarif import source_file

    file = source_file(e.source)
    return file is not None and os.path.lexists(file)


def _revision_path(file: str, result: Any) -> str | None:
    """The path, relative to the working directory, of `REV:path` (a file read at a git revision)."""
    label = result.old.label if not result.old.in_tree else None  # (the revision, as given to --git)
    if label is None or not file.startswith(label + ":"):
        return None
    return file[len(label) + 1:] or None


def sarif_log(result: Any) -> dict:
    from toolcast import __version__
    from toolcast.sarif import SCHEMA, _notification, artifact, fingerprint

    rows = _findings(result)
    codes = sorted({RULE_PREFIX + r[1] for r in rows})
    index = {c: i for i, c in enumerate(codes)}
    rules = [{"id": c, "name": "".join(w.capitalize() for w in c.split("/", 1)[1].split("-")),
              "shortDescription": {"text": c.split("/", 1)[1].replace("-", " ").capitalize()}} for c in codes]
    out = []
    for kind, code, tool, path, message, (file, line, col, in_tree), props in rows:
        rule = RULE_PREFIX + code
        logical = {"name": tool, "fullyQualifiedName": f"{tool}{path if path.startswith('#') else ''}", "kind": "function"}
        physical = None
        if file is not None and in_tree and file != "<stdin>":
            region = {"startLine": line, **({"startColumn": col} if col else {})} if line else None
            physical = {"artifactLocation": artifact(file), **({"region": region} if region else {})}
        elif file is not None:
            message += f" [{_at(file, line, col)}]"
            old_path = _revision_path(file, result)
            if old_path is not None:  # (a tool removed since REV: at the path its file had there)
                physical = {"artifactLocation": artifact(old_path), "region": {"startLine": 1}}
        # Code scanning rejects a whole log when one result's location has no physicalLocation.
        where = {"locations": [{"physicalLocation": physical, "logicalLocations": [logical]}]} if physical else {}
        out.append({"ruleId": rule, "ruleIndex": index[rule], "level": SARIF_LEVEL[kind], "message": {"text": message},
                    **where, "partialFingerprints": {"toolcastDiff/v1": fingerprint(tool, rule, path, props.get("target"))},
                    "properties": {"tool": tool, "schemaPath": path, **props}})
    invocation = {"executionSuccessful": not result.errors,
                  "toolExecutionNotifications": [_notification(e) if _in_tree(e) else
                                                 {"level": "error", "message": {"text": str(e)}} for e in result.errors]}
    driver = {"name": "toolcast", "version": __version__, "semanticVersion": __version__, "rules": rules}
    return {"$schema": SCHEMA, "version": "2.1.0",
            "runs": [{"tool": {"driver": driver}, "invocations": [invocation], "columnKind": "unicodeCodePoints",
                      "results": out}]}


def write_sarif(out: IO[str], result: Any) -> None:
    out.write(json.dumps(sarif_log(result), indent=2, ensure_ascii=False) + "\n")


def write_github(out: IO[str], result: Any) -> None:
    from toolcast.github import annotated_file, command
    from toolcast.sarif import source_file

    for kind, code, _tool, _path, message, (file, line, col, in_tree), _ in _findings(result):
        title = RULE_PREFIX + code
        shown = annotated_file(file) if file is not None and in_tree else None
        if shown is not None:
            out.write(command(GITHUB_KIND[kind], message, file=shown, line=line, col=col, title=title) + "\n")
        else:
            where = _at(file, line, col)
            out.write(command(GITHUB_KIND[kind], f"{where}: {message}" if where else message, title=title) + "\n")
    for e in result.errors:
        file = source_file(e.source) if _in_tree(e) else None
        file = annotated_file(file) if file is not None else None
        if file is None:
            out.write(command("error", str(e), title="toolcast input error") + "\n")
        else:
            out.write(command("error", e.message, file=file, line=e.line, col=e.column, title="toolcast input error") + "\n")
    out.write(summary(result) + "\n")
