"""Probe verdicts as a SARIF 2.1.0 log and as GitHub Actions annotations (the conventions of sarif.py and github.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import IO, Any

from toolcast import __version__
from toolcast.loader import InputError

# One rule per kind of verdict worth a finding; an accepted tool with valid arguments is none.
RULES = {
    "toolcast/probe-rejected": ("error", "The provider rejected the request carrying the compiled tool."),
    "toolcast/probe-invalid-arguments": ("error", "The provider accepted the tool, but the arguments the model "
                                                  "sent are invalid against the original schema."),
    "toolcast/probe-error": ("warning", "No verdict: the request failed (authentication, model, rate limit, "
                                        "network or server)."),
    "toolcast/probe-skipped": ("note", "The tool was not sent (refused by toolcast, no key, the run's request "
                                       "cap, or a dry run)."),
    "toolcast/probe-unchecked": ("note", "The provider accepted the tool, but no arguments came back to check."),
}
_GITHUB = {"error": "error", "warning": "warning", "note": "notice"}


def rule_of(v: Any) -> str | None:
    if v.status == "rejected":
        return "toolcast/probe-rejected"
    if v.status == "error":
        return "toolcast/probe-error"
    if v.status == "skipped":
        return "toolcast/probe-skipped"
    if v.arguments_valid is False:
        return "toolcast/probe-invalid-arguments"
    return "toolcast/probe-unchecked" if v.arguments_valid is None else None


def message(v: Any) -> str:
    text = f"{v.tool or '(unnamed)'} on {v.target}/{v.api} ({v.model}): {v.status}"
    if v.kind:
        text += f", {v.kind}"
    if v.message:
        text += f": {v.message}"
    for e in v.argument_errors:
        text += f"; {e['path'] or '/'}: {e['message']}"
    return text


def log(verdicts: Sequence[Any], errors: Sequence[InputError]) -> dict:
    from toolcast.sarif import _notification, artifact, fingerprint, source_file

    codes = sorted({c for c in map(rule_of, verdicts) if c})
    index = {c: i for i, c in enumerate(codes)}
    results = []
    for v in verdicts:
        code = rule_of(v)
        if code is None:
            continue
        logical = {"name": v.tool or "(unnamed)", "fullyQualifiedName": f"{v.target}/{v.tool}", "kind": "function"}
        file = source_file(v.source)
        # (no file, standard input or an MCP server: no `locations`, as code scanning rejects a whole
        # log for one location without a physicalLocation)
        where = {"locations": [{"physicalLocation": {"artifactLocation": artifact(file)},
                                "logicalLocations": [logical]}]} if file is not None else {}
        results.append({"ruleId": code, "ruleIndex": index[code], "level": RULES[code][0],
                        "message": {"text": message(v)}, **where,
                        # (code scanning's own fingerprint would hash line 1 of the file: one per file)
                        "partialFingerprints": {"toolcastProbe/v1": fingerprint(v.tool or "", code, v.api or "", v.target)},
                        "properties": {"tool": v.tool, "target": v.target, "api": v.api, "model": v.model,
                                       "rules": v.rules, "status": v.status, "kind": v.kind}})
    rules = [{"id": c, "shortDescription": {"text": RULES[c][1]}, "defaultConfiguration": {"level": RULES[c][0]}}
             for c in codes]
    driver = {"name": "toolcast", "version": __version__, "semanticVersion": __version__, "rules": rules}
    invocation = {"executionSuccessful": not errors, "toolExecutionNotifications": [_notification(e) for e in errors]}
    from toolcast.sarif import SCHEMA

    return {"$schema": SCHEMA, "version": "2.1.0",
            "runs": [{"tool": {"driver": driver}, "invocations": [invocation], "results": results}]}


def annotations(stream: IO[str], verdicts: Sequence[Any], errors: Sequence[InputError]) -> None:
    """One workflow command per verdict worth a finding, at the tool's file where it came from one."""
    from toolcast.github import annotated_file, command
    from toolcast.sarif import source_file

    for v in verdicts:
        code = rule_of(v)
        if code is None:
            continue
        file = source_file(v.source)
        file = annotated_file(file) if file is not None else None
        stream.write(command(_GITHUB[RULES[code][0]], message(v), file=file, title=code) + "\n")
    for e in errors:
        file = source_file(e.source)
        file = annotated_file(file) if file is not None else None
        if file is None:
            stream.write(command("error", str(e), title="toolcast input error") + "\n")
        else:
            stream.write(command("error", e.message, file=file, line=e.line, col=e.column, title="toolcast input error") + "\n")
