"""Golden cases: read them, build their inputs (including generated large schemas) and compile them."""

from __future__ import annotations

import contextlib
import difflib
import fcntl
import json
import os
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from golden_premises import failures as premise_failures

import toolcast
from toolcast.model import null_path_to_json
from toolcast.rules import get_rules

GOLDEN = Path(__file__).resolve().parent / "golden"
TOPICS = ("tools", "objects", "nullability", "keywords", "composition", "refs", "subschemas", "limits")


def generate(spec: dict) -> dict:
    """Large schemas described in a line, so that limit goldens stay small and readable."""
    kind, n = spec["kind"], spec["count"]
    if kind == "properties":
        return {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(n)},
                "required": [f"p{i}" for i in range(n)], "additionalProperties": False}
    if kind == "depth":
        # n levels of objects: the root is level 1.
        node: dict = {"type": "string"}
        node = {"type": "object", "properties": {"leaf": node}, "required": ["leaf"], "additionalProperties": False}
        for _ in range(n - 1):
            node = {"type": "object", "properties": {"c": node}, "required": ["c"], "additionalProperties": False}
        return node
    if kind == "enum":
        return {"type": "object", "properties": {"e": {"type": "integer", "enum": list(range(n))}},
                "required": ["e"], "additionalProperties": False}
    if kind == "large-enum":
        chars = spec["chars"]
        base, extra = divmod(chars, n)
        values = [f"{i:04d}".ljust(base + (1 if i < extra else 0), "x") for i in range(n)]
        assert sum(map(len, values)) == chars and len(set(values)) == n
        return {"type": "object", "properties": {"e": {"type": "string", "enum": values}},
                "required": ["e"], "additionalProperties": False}
    if kind == "chars":
        # property names of 100 characters each plus one name for the remainder
        names = []
        total = 0
        i = 0
        while total < n:
            size = min(100, n - total)
            name = f"{i:06d}".ljust(size, "n") if size >= 6 else "abcdefghij"[:size] + ""
            names.append(name)
            total += len(name)
            i += 1
        assert total == n and len(set(names)) == len(names)
        return {"type": "object", "properties": {k: {"type": "boolean"} for k in names},
                "required": names, "additionalProperties": False}
    raise ValueError(f"unknown generator {kind!r}")


def case_tools(case: dict) -> list:
    if "tools" in case:
        return case["tools"]
    if "tool" in case:
        return [case["tool"]]
    schema = generate(case["generate"]) if "generate" in case else case["schema"]
    return [{"name": "t", "description": "Golden case.", "parameters": schema}]


def actual(case: dict, version: str, provider: str = "openai") -> Any:
    opts = case.get("options", {})
    r = get_rules(f"{provider}@{version}")  # a rule family compiles its own target and API
    if r.api is not None:
        opts = {**opts, "api": r.api}
    results = toolcast.compile_tools(case_tools(case), target=r.target, rules=r.id, **opts)
    out = [summarise(r, keep_tool="generate" not in case) for r in results]
    return out if "tools" in case else out[0]


def summarise(r: toolcast.CompileResult, keep_tool: bool = True) -> dict:
    d = {
        "status": r.status,
        "null_paths": [null_path_to_json(p) for p in r.null_paths],
        "diagnostics": [[x.code, x.path] for x in r.diagnostics],
        "transformations": [[x.code, x.path, x.lossy] for x in r.transformations],
    }
    if keep_tool:
        d["tool"] = r.tool
    return d


def load_file(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def dumps(data: Any, indent: str = "") -> str:
    """JSON indented by two spaces, but a list of scalars (a diagnostic's code and path, a null path,
    `required`, `enum`) stays on one line when it fits, so a changed finding is a changed line."""
    flat = json.dumps(data, ensure_ascii=False)
    if not isinstance(data, (dict, list)) or not data:
        return flat
    if isinstance(data, list) and not any(isinstance(x, (dict, list)) for x in data) and len(flat) <= 100:
        return flat
    inner = indent + "  "
    if isinstance(data, list):
        items = [inner + dumps(x, inner) for x in data]
        return "[\n" + ",\n".join(items) + "\n" + indent + "]"
    items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, inner)}" for k, v in data.items()]
    return "{\n" + ",\n".join(items) + "\n" + indent + "}"


def write_file(path: Path, data: dict) -> None:
    """Whole or not at all: a worker reading the file meanwhile sees the old or the new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    part.write_text(dumps(data) + "\n", encoding="utf-8")
    os.replace(part, path)


def sent_rewrites(result) -> list:
    """The rewrites a non-strict result records as applied to its sent schema (toolcast.sendable: the
    original made acceptable to the provider), beside the rename of its field and a typed root."""
    return [t for t in result.transformations if t.applied and t.code not in
            ("renamed-input-schema-to-parameters", "inferred-type", "narrowed-root-to-object")]


def sent_original(schema):
    """The original schema as a non-strict tool is sent with it: as it was, but for a root that says no
    `type`, which gains `type: object` (README, Policy)."""
    if schema is True:
        return {"type": "object", "properties": {}}
    if isinstance(schema, dict) and "type" not in schema:
        return {"type": "object", **schema}
    return schema


# --- Storage: each topic once, every other version as its difference ------------------------------
#
# tests/golden/<family>/<version>/<topic>.json. The version a family starts from (its spec extends
# nothing) holds every case in full: input (schema | tool | tools | generate, options), premise,
# expect. A version that extends another holds only entries for what it changes, each named by the
# case's description:
#   {"description": D, "expect": {...}}         D's expectation differs here: only the fields that
#                                               differ (a list of results: {"<index>": {fields}})
#   {"description": D, "premise_not_held": [F]}  facts of D's premise this version does not have, the
#                                               expectation recorded anyway (inherited; [] clears)
#   {"description": D, "premise": [F]}           D's premise from this version on
#   {"description": D, "retired": "why"}         D stops applying from this version on
#   {"description": NEW, "schema": ..., "expect": ...}   a new case (or D's input replaced), in full
# A family whose spec extends another provider's version inherits its cases, their codes renamed to
# the family's target (openai/x -> groq/x), and states its differences the same way.

INPUT_KEYS = ("schema", "tool", "tools", "generate")
FIELDS = ("status", "null_paths", "diagnostics", "transformations", "tool")


@dataclass
class Case:
    description: str
    data: dict  # the input keys, options, premise
    expect: Any = None
    not_held: frozenset = frozenset()
    defined_at: tuple[str, str] = ("", "")  # (family, version) whose file holds the input

    @property
    def premise(self) -> list:
        return self.data.get("premise", [])


def parent(family: str, version: str) -> tuple[str, str] | None:
    """The (family, version) a rule version extends, from the generated tables (`extends`)."""
    ext = get_rules(f"{family}@{version}").extends
    if not ext:
        return None
    if "@" in ext:
        fam, _, ver = ext.partition("@")
        return fam, ver
    return family, ext


def chain(family: str, version: str) -> list[tuple[str, str]]:
    """(family, version) and every version it extends, the one it starts from last."""
    out = [(family, version)]
    while (up := parent(*out[-1])) is not None:
        out.append(up)
    return out


def target(family: str, version: str) -> str:
    return get_rules(f"{family}@{version}").target


def rename_codes(expect: Any, old: str, new: str) -> Any:
    """An expectation inherited across providers: `old/...` diagnostic codes become `new/...`."""
    if old == new or expect is None:
        return expect
    if isinstance(expect, list):
        return [rename_codes(e, old, new) for e in expect]
    out = dict(expect)
    out["diagnostics"] = [[new + c[len(old):] if c.startswith(old + "/") else c, p] for c, p in expect["diagnostics"]]
    return out


REMOVED = "$removed"  # in a difference: the keys of that object the version no longer has
EDITS = "$edits"  # in a difference: [start, end, items] replacing base[start:end] in a long list
LONG = 20  # a list longer than this changes by edits, when they are shorter than the list
_MISSING = object()


def merge(base: Any, partial: Any) -> Any:
    """An inherited expectation with a version's difference applied: objects merge key by key (the
    keys under `$removed` go), anything else is replaced; a list of results takes {"<index>": ...}."""
    if isinstance(base, list) and isinstance(partial, dict) and EDITS in partial:
        out = list(base)
        for start, end, items in reversed(partial[EDITS]):
            out[start:end] = items
        return out
    if isinstance(base, list) and isinstance(partial, dict) and all(k.isdigit() for k in partial):
        out = list(base)
        for k, fields in partial.items():
            out[int(k)] = merge(out[int(k)], fields)
        return out
    if not isinstance(base, dict) or not isinstance(partial, dict):
        return partial
    out = {k: v for k, v in base.items() if k not in partial.get(REMOVED, ())}
    for k, v in partial.items():
        if k != REMOVED:
            out[k] = merge(base[k], v) if k in base else v
    return out


def difference(base: Any, got: Any) -> Any:
    """What `got` changes from `base` ({} when nothing), in the form `merge` applies: only the keys of
    an object that differ, down to the value that changed (a list is restated whole)."""
    if isinstance(got, list) and isinstance(base, list) and base and isinstance(base[0], dict):
        if len(base) != len(got):
            return got
        return {str(i): difference(b, g) for i, (b, g) in enumerate(zip(base, got, strict=True)) if b != g}
    if isinstance(got, list) and isinstance(base, list) and len(base) > LONG:
        return _edits(base, got)
    if not isinstance(base, dict) or not isinstance(got, dict):
        return got
    out = {k: difference(base[k], v) if k in base else v for k, v in got.items() if base.get(k, _MISSING) != v}
    gone = [k for k in base if k not in got]
    if gone:
        out[REMOVED] = gone
    return out


def _edits(base: list, got: list) -> Any:
    keys = [json.dumps(x, sort_keys=True) for x in base], [json.dumps(x, sort_keys=True) for x in got]
    ops = difflib.SequenceMatcher(None, *keys, autojunk=False).get_opcodes()
    edits = [[i1, i2, got[j1:j2]] for tag, i1, i2, j1, j2 in ops if tag != "equal"]
    if not edits:
        return {}
    return {EDITS: edits} if sum(len(e[2]) + 1 for e in edits) < len(got) // 2 else got


def _apply(cases: dict, entry: dict, where: tuple[str, str], path: Path) -> None:
    d = entry["description"]
    if any(k in entry for k in INPUT_KEYS):
        data = {k: v for k, v in entry.items() if k not in ("description", "expect", "premise_not_held")}
        cases[d] = Case(d, data, entry.get("expect"), frozenset(entry.get("premise_not_held", ())), where)
        return
    if d not in cases:
        raise AssertionError(f"{path}: {d!r} changes a case no version it extends has")
    if "retired" in entry:
        del cases[d]
        return
    case = cases[d]
    if "expect" in entry:
        case.expect = merge(case.expect, entry["expect"])
    if "premise" in entry:
        case.data = {**case.data, "premise": entry["premise"]}
    if "premise_not_held" in entry:
        case.not_held = frozenset(entry["premise_not_held"])


@cache
def _read(path: Path, mtime: int) -> dict:
    return load_file(path)


def read(path: Path) -> dict | None:
    """A golden file as stored (cached while it is unchanged), or None."""
    try:
        return _read(path, path.stat().st_mtime_ns)
    except FileNotFoundError:
        return None


def resolve(family: str, version: str, topic: str) -> dict[str, Case]:
    """The cases of a topic under one version: its chain's files applied oldest first."""
    cases: dict[str, Case] = {}
    before = None
    for fam, ver in reversed(chain(family, version)):
        now = target(fam, ver)
        if before is not None and now != before:
            for c in cases.values():
                c.expect = rename_codes(c.expect, before, now)
        before = now
        path = GOLDEN / fam / ver / f"{topic}.json"
        data = read(path)
        for entry in (data or {}).get("cases", []):
            _apply(cases, entry, (fam, ver), path)
        rules = get_rules(f"{fam}@{ver}")
        for c in cases.values():  # premise_not_held lasts until a version has the whole premise again
            if c.not_held and not premise_failures(c.premise, rules):
                c.not_held = frozenset()
    return cases


def files(family: str, version: str, topic: str) -> list[Path]:
    return [GOLDEN / fam / ver / f"{topic}.json" for fam, ver in chain(family, version)]


@cache
def _resolved(family: str, version: str, topic: str, stamp: tuple) -> dict[str, Case]:
    return resolve(family, version, topic)


def resolved(family: str, version: str, topic: str) -> dict[str, Case]:
    """`resolve`, cached while the chain's files are unchanged; read it, never change it."""
    stamp = tuple(p.stat().st_mtime_ns if p.exists() else 0 for p in files(family, version, topic))
    return _resolved(family, version, topic, stamp)


@contextlib.contextmanager
def _locked():
    """One writer at a time (pytest -n runs cases of one file in several workers)."""
    with open(Path(tempfile.gettempdir()) / "toolcast-golden-update.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def record(family: str, version: str, topic: str, case: Case, got: Any, inherited: Any = None) -> None:
    """--update-goldens: store what `case` shows under one version: in full where its input is
    stored, else only what differs from what the version it extends shows (`inherited`)."""
    path = GOLDEN / family / version / f"{topic}.json"
    with _locked():
        data = load_file(path) if path.exists() else {"topic": topic, "cases": []}
        entries = data["cases"]
        entry = next((e for e in entries if e["description"] == case.description), None)
        if case.defined_at == (family, version):
            entry["expect"] = got
        else:
            diff = difference(inherited, got)
            if entry is None:
                if not diff:
                    return
                entry = {"description": case.description}
                entries.append(entry)
            if diff:
                entry["expect"] = diff
            else:
                entry.pop("expect", None)
            if set(entry) == {"description"}:
                entries.remove(entry)
        up = parent(family, version)
        order = {d: i for i, d in enumerate(resolved(*up, topic) if up else ())}
        entries.sort(key=lambda e: order.get(e["description"], len(order)))
        if entries and (not path.exists() or load_file(path) != data):
            write_file(path, data)
        elif not entries and path.exists():
            path.unlink()


def seed(family: str, version: str, source: str) -> list[Path]:
    """Start a family's goldens from another's (`source`, family@version): every topic's cases in full,
    inputs and premises without expectations (`--update-goldens` records them; review every one)."""
    fam, _, ver = source.partition("@")
    written = []
    for topic in TOPICS:
        cases = resolve(fam, ver, topic)
        path = GOLDEN / family / version / f"{topic}.json"
        if not cases or path.exists():
            continue
        write_file(path, {"topic": topic, "cases": [{"description": c.description, **c.data} for c in cases.values()]})
        written.append(path)
    return written


if __name__ == "__main__":  # python tests/golden_support.py seed FAMILY VERSION FROM_FAMILY@VERSION
    import sys

    if len(sys.argv) != 5 or sys.argv[1] != "seed":
        raise SystemExit("usage: python tests/golden_support.py seed FAMILY VERSION FROM_FAMILY@VERSION")
    for p in seed(sys.argv[2], sys.argv[3], sys.argv[4]):
        print(f"wrote {p}")
