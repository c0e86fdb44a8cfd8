"""How tools/refresh_corpus.py turns upstream files into tests/corpus files (BFCL docs, VS Code tools, YAML)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

GORILLA = "ShishirPatil/gorilla:berkeley-function-call-leaderboard/bfcl_eval/data/"
# The question files whose entries carry inline function docs (tests/corpus/SOURCES.md §1).
BFCL_CATEGORIES = ("simple_python", "simple_java", "simple_javascript", "multiple", "parallel", "parallel_multiple",
                   "irrelevance", "live_simple", "live_multiple", "live_parallel", "live_parallel_multiple",
                   "live_relevance", "live_irrelevance")
# BFCL's type names -> JSON Schema (None: the type is removed, the node is unconstrained).
BFCL_TYPES = {"dict": "object", "HashMap": "object", "Hashtable": "object", "float": "number", "double": "number",
              "tuple": "array", "Array": "array", "ArrayList": "array", "list": "array", "Queue": "array",
              "Stack": "array", "String": "string", "char": "string", "Boolean": "boolean", "bool": "boolean",
              "long": "integer", "byte": "integer", "short": "integer", "Bigint": "integer", "any": None, "Any": None,
              "": None}
VSCODE_TOOLS = "microsoft/vscode-copilot-chat:package.json#/contributes/languageModelTools"


class RefreshError(Exception):
    """A checkout lacks a file the corpus takes from it, or holds one it cannot read (the message names it)."""


def jsonl(records: list[dict]) -> bytes:
    # The corpus writes one record a line with json.dumps' defaults, non-ASCII kept as it is.
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")


def yaml_json(path: Path) -> bytes:
    """A YAML document as JSON (indent 2, a final newline)."""
    import yaml  # only this conversion needs it

    try:
        doc = yaml.safe_load(path.read_bytes())
    except yaml.YAMLError as exc:
        raise RefreshError(f"{path}: not valid YAML: {exc}") from None
    return (json.dumps(doc, indent=2) + "\n").encode("utf-8")


def vscode_tools(path: Path) -> bytes:
    """The languageModelTools contributions that have an inputSchema, described as the model sees them."""
    try:
        tools = json.loads(path.read_bytes())["contributes"]["languageModelTools"]
    except (ValueError, KeyError, TypeError) as exc:
        raise RefreshError(f"{path}: no contributes.languageModelTools list ({type(exc).__name__}: {exc})") from None
    if not isinstance(tools, list):
        raise RefreshError(f"{path}: contributes.languageModelTools is not a list")
    out = []
    for i, tool in enumerate(tools):
        if not isinstance(tool, dict) or "name" not in tool:
            raise RefreshError(f"{path}: contributes.languageModelTools[{i}] has no name")
        if "inputSchema" not in tool:
            continue  # nothing to compile
        rec = {"name": tool["name"], "description": tool.get("modelDescription"), "inputSchema": tool["inputSchema"],
               "source": VSCODE_TOOLS, "server": "vscode-copilot-chat (VS Code languageModelTools contribution)"}
        if "toolReferenceName" in tool:
            rec["toolReferenceName"] = tool["toolReferenceName"]
        out.append(rec)
    return jsonl(out)


def _pointer_token(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def bfcl_schema(node: object, ptr: str, renamed: dict[str, str]) -> object:
    """A BFCL parameter schema with JSON Schema types; each renamed type but `dict` goes in `renamed`."""
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key == "type" and isinstance(value, str) and value in BFCL_TYPES:
            if value != "dict":  # almost every object is a dict: recording those would say nothing
                renamed[ptr] = value
            if BFCL_TYPES[value] is not None:
                out[key] = BFCL_TYPES[value]
        elif key == "properties" and isinstance(value, dict):
            out[key] = {n: bfcl_schema(s, f"{ptr}/properties/{_pointer_token(n)}", renamed) for n, s in value.items()}
        elif key in ("items", "additionalProperties", "not") and isinstance(value, dict):
            out[key] = bfcl_schema(value, f"{ptr}/{key}", renamed)
        elif key in ("items", "anyOf", "oneOf", "allOf", "prefixItems") and isinstance(value, list):
            out[key] = [bfcl_schema(s, f"{ptr}/{key}/{i}", renamed) for i, s in enumerate(value)]
        else:  # default and enum values (and everything else) stay as they are
            out[key] = value
    return out


def _lines(path: Path) -> Iterator[dict]:
    if not path.is_file():
        raise RefreshError(f"no file {path}")
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                yield json.loads(line)
            except ValueError as exc:
                raise RefreshError(f"{path}:{n}: not JSON ({exc})") from None


def _bfcl_docs(data: Path) -> Iterator[tuple[dict, Path, str | None]]:
    """(function doc, file, entry id) in the order the corpus reads them (the first occurrence wins)."""
    question = data / "unused_datasets" / "question"
    entry_files = [data / f"BFCL_v4_{c}.json" for c in sorted(BFCL_CATEGORIES)]
    unused = sorted([*question.glob("BFCL_v4_exec_*.json"), question / "BFCL_v4_rest.json", question / "BFCL_v4_sql.json"])
    for f in entry_files:
        for entry in _lines(f):
            fns = entry.get("function")
            for fn in fns if isinstance(fns, list) else [fns]:
                yield fn, f, entry.get("id")
    for f in sorted((data / "multi_turn_func_doc").glob("*.json")):
        for fn in _lines(f):
            yield fn, f, None
    for f in unused:
        for entry in _lines(f):
            fns = entry.get("function")
            for fn in fns if isinstance(fns, list) else [fns]:
                yield fn, f, entry.get("id")


def bfcl(data: Path) -> bytes:
    """bfcl.jsonl from a checkout's bfcl_eval/data folder: converted, de-duplicated on (name, schema)."""
    seen: set[tuple] = set()
    out = []
    for fn, f, ref in _bfcl_docs(data):
        if not isinstance(fn, dict):
            raise RefreshError(f"{f}: a function doc is not an object: {str(fn)[:80]}")
        renamed: dict[str, str] = {}
        schema = bfcl_schema(fn.get("parameters"), "", renamed)
        key = (fn.get("name"), json.dumps(schema, sort_keys=True, separators=(",", ":")))
        if key in seen:
            continue
        seen.add(key)
        rec = {"name": fn.get("name"), "description": fn.get("description"), "inputSchema": schema,
               "source": GORILLA + f.relative_to(data).as_posix()}
        if ref is not None:
            rec["ref"] = ref
        if renamed:
            rec["bfcl_original_types"] = renamed
        out.append(rec)
    return jsonl(out)


CONVERTERS = {"yaml-json": yaml_json, "vscode-tools": vscode_tools, "bfcl": bfcl}
