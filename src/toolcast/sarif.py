"""`--format sarif`: findings as one SARIF 2.1.0 log, for code-scanning services."""

from __future__ import annotations

import functools
import hashlib
import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from toolcast import __version__
from toolcast._output.jsonout import Lazy
from toolcast.loader import InputError
from toolcast.model import CompileResult

SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
HANDLED = {"fixes": "fixed", "lossy": "lossy", "refuses": "blocks strict mode", "reports": "note"}


def fingerprint(tool: str, code: str, path: str, target: str | None = None) -> str:
    """Stable across runs and line moves: the same identity a baseline matches on (and, in a run
    of several targets, the target)."""
    text = f"{tool}\0{code}\0{path}" + (f"\0{target}" if target is not None else "")
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def artifact(file: str) -> dict:
    """A relative path stays relative to the checkout (%SRCROOT%), as code scanning expects."""
    p = Path(file)
    if p.is_absolute():
        return {"uri": p.as_uri()}
    # A URI reference (RFC 3986), as as_uri() writes an absolute one: `a b%#?é.json` percent-encoded,
    # or a reader takes `#` and `?` for a fragment and a query and looks for another file. From the
    # name's bytes, as as_uri() does: a byte that is not UTF-8 (0xE9) is %E9, the file's own name.
    from urllib.parse import quote

    return {"uri": quote(os.fsencode(p.as_posix()), safe="/"), "uriBaseId": "%SRCROOT%"}


@functools.lru_cache(maxsize=256)
def _artifact_of(file: str) -> tuple:
    """artifact(file)'s items: a report names the same few files once per finding."""
    return tuple(artifact(file).items())


# What the loader adds to a file's name for one tool in it (`FILE#tools[3]`, `FILE#[3]`).
_TOOL_IN_FILE = re.compile(r"#(?:tools)?\[\d+\]\Z")


def source_file(source: str) -> str | None:
    """The file an input error's source names (None: standard input, an MCP server, or the empty
    PATH the loader names `""`). A `#` anywhere but in the loader's `#tools[3]` or `#[3]` is the
    file name's own (`c#d.json`)."""
    if source.startswith("mcp:"):
        return None
    found = _TOOL_IN_FILE.search(source)
    file = source[:found.start()] if found and not os.path.lexists(source) else source
    return None if file == "<stdin>" or (file == '""' and not os.path.lexists(file)) else file


def mcp_origin(source: str) -> str | None:
    """The server command of a tool listed from an MCP server (its source is `mcp:COMMAND#...`)."""
    if not source.startswith("mcp:"):
        return None
    return source[4:].rpartition("#")[0] or source[4:]


def location(source: str, result: CompileResult, where: Any, diag: Any) -> dict | None:
    """A SARIF location: a file region when the tool came from a file. None for a tool read from
    standard input or an MCP server: it has no file, and code scanning rejects a whole log when one
    result's location has no `physicalLocation` (a result without `locations` is accepted)."""
    if where is None or where.file == "<stdin>":  # (no URI to point at)
        return None
    logical = {"name": result.name or "(unnamed)", "fullyQualifiedName": f"{result.name or '(unnamed)'}{diag.path}",
               "kind": "function"}
    line, col = where.locate(diag.base, diag.tokens)
    return {"physicalLocation": {"artifactLocation": dict(_artifact_of(where.file)),
                                 "region": {"startLine": line, "startColumn": col}},
            "logicalLocations": [logical]}


def origin(source: str) -> str:
    """Where a tool with no file came from, for a result's properties: `<stdin>` or `mcp:COMMAND`."""
    server = mcp_origin(source)
    return "<stdin>" if server is None else f"mcp:{server}"


def log(
    results: Sequence[tuple[str, CompileResult]],
    places: Sequence[Any],
    errors: Sequence[InputError],
    *,
    known: set | None = None,
    targets: Sequence[str] | None = None,
    lazy: bool = False,
) -> dict:
    """The SARIF log of one run: one rule per code found, one result per finding (with its
    baselineState when a baseline was given) and the input errors as tool notifications.
    `targets` (a run of several targets): each result's target, in its message, its properties
    and its fingerprint. `lazy`: "results" is a _jsonout.Lazy list, each result made as it is
    written (_jsonout.write_json), never all held at once."""
    entries: dict[str, tuple] = {}
    for _, r in results:
        for d in r.diagnostics:
            entries.setdefault(d.code, d.entry)
    codes = sorted(entries)
    index = {c: i for i, c in enumerate(codes)}
    rules = [_rule(c, entries[c]) for c in codes]
    made = _results(results, places, index, known, targets)
    out: Any = Lazy(made) if lazy else list(made)
    invocation = {"executionSuccessful": not errors,
                  "toolExecutionNotifications": [_notification(e) for e in errors]}
    driver = {"name": "toolcast", "version": __version__, "semanticVersion": __version__, "rules": rules}
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "invocations": [invocation], "columnKind": "unicodeCodePoints",
                  "results": out}],
    }


def _results(results: Sequence[tuple[str, CompileResult]], places: Sequence[Any], index: dict[str, int],
             known: set | None, targets: Sequence[str] | None) -> Iterator[dict]:
    """One SARIF result per finding, in order."""
    from toolcast.baseline import key

    for i, ((source, r), where) in enumerate(zip(results, places, strict=True)):
        target = targets[i] if targets is not None else None
        for d in r.diagnostics:
            # A fix that is not in what was sent (a non-strict tool's original schema) is not "fixed".
            handled = HANDLED.get(d.outcome, d.outcome) if d.applied else "not applied"
            loc = location(source, r, where, d)
            res = {
                "ruleId": d.code,
                "ruleIndex": index[d.code],
                "level": LEVEL[d.severity],
                "message": {"text": f"{r.name or '(unnamed)'} {d.path}: {d.message} ({handled}; the tool compiles {r.status})"},
                **({"locations": [loc]} if loc is not None else {}),
                "partialFingerprints": {"toolcastFinding/v1": fingerprint(*key(r, d))},
                "properties": {"tool": r.name, "schemaPath": d.path, "outcome": d.outcome, "status": r.status,
                               **({"origin": origin(source)} if loc is None else {})},
            }
            if target is not None:
                res["message"]["text"] = f"[{target}] {res['message']['text']}"
                res["properties"]["target"] = target
                res["partialFingerprints"]["toolcastFinding/v1"] = fingerprint(*key(r, d), target)
            if known is not None:
                res["baselineState"] = "unchanged" if key(r, d) in known else "new"
            yield res


def _rule(code: str, entry: tuple) -> dict:
    severity, outcome, template, docs = entry[0], entry[1], entry[2], entry[3]
    short = code.split("/", 1)[-1].replace("-", " ")
    return {
        "id": code,
        "name": "".join(w.capitalize() for w in code.split("/", 1)[-1].split("-")),
        "shortDescription": {"text": short[:1].upper() + short[1:]},
        "fullDescription": {"text": template},
        "helpUri": docs,
        "help": {"text": f"{template} See {docs}"},
        "defaultConfiguration": {"level": LEVEL[severity]},
        "properties": {"outcome": outcome},
    }


def _notification(e: InputError) -> dict:
    n: dict = {"level": "error", "message": {"text": e.message}}
    file = source_file(e.source)
    if file is not None:
        region = {"startLine": e.line, **({"startColumn": e.column} if e.column else {})} if e.line else None
        phys: dict = {"artifactLocation": artifact(file)}
        if region:
            phys["region"] = region
        n["locations"] = [{"physicalLocation": phys}]
    else:
        n["message"]["text"] = f"{e.source}: {e.message}"
    return n
