"""Before/after check for optimisations: every compile result over the corpus must stay byte-identical.

`record` compiles the corpus (bfcl, mcp, agent_tools, large, the JSON-Schema-Test-Suite schemas and
the benchmark's synthetic and inflated schemas) under every rule version of every target, each of the
target's APIs and several policies, and stores each CompileResult.to_dict() (and each openai.strict_schema outcome) as JSON text, key order
included; `check` compiles again and reports every difference.

Usage: python benchmarks/equivalence.py record [FILE]
       python benchmarks/equivalence.py check [FILE]      (exit 1 on any difference)
"""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import common

DEFAULT = common.HERE / ".equivalence" / "snapshot.jsonl.gz"
# (strict, api, allow_lossy)
POLICIES = (("auto", "responses", False), (True, "chat", False), (True, "responses", True), (False, "responses", False))
# The other targets' runs are keyed "target@version|...", so OpenAI's keys (and old snapshots) stay as they were.
OTHER_POLICIES = (("auto", False), (True, False), (True, True), (False, False))
FULL_TEXT_LIMIT = 200_000  # longer results are stored as a digest only


def inputs() -> dict[str, list]:
    import run

    sets: dict[str, list] = {}
    for source in ("bfcl", "mcp", "agent_tools"):
        with open(common.CORPUS / f"{source}.jsonl", encoding="utf-8") as fh:
            sets[source] = [
                {k: v for k, v in json.loads(line).items() if k in ("name", "description", "inputSchema")}
                for line in fh if line.strip()
            ]
    sets["large"] = common.load_set("large")
    jsts = []
    for path in sorted((common.CORPUS / "jsts").glob("*.json")):
        for i, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            jsts.append({"name": f"{path.stem}_{i}"[:64].replace("-", "_"), "description": group["description"],
                         "inputSchema": group["schema"]})
    sets["jsts"] = jsts
    sets["inflated"] = common.load_set("bfcl x100") + common.load_set("mcp x100")[::3]
    synthetic = []
    for make, sizes in ((run._width_schema, (1, 7, 60)), (run._refs_star, (3, 40)), (run._refs_chain, (5, 120)),
                        (run._deep, (3, 12, 40))):
        for n in sizes:
            synthetic.append({"name": "synthetic", "description": make.__name__, "inputSchema": make(n)})
    sets["synthetic"] = synthetic
    golden = []  # the golden tests' inputs: small, and aimed at every rule's edge
    for path in sorted((common.REPO / "tests" / "golden").glob("*/*/*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")).get("cases", []):
            if "schema" in case:
                golden.append({"name": "golden", "description": case.get("description"), "inputSchema": case["schema"]})
            if "tool" in case:
                golden.append(case["tool"])
            golden.extend(case.get("tools") or [])
    # Each golden input once, keyed by its content: a golden case added anywhere leaves the keys of
    # the others as they were (positions would renumber every case after it).
    sets["golden"] = {_digest(t): t for t in golden}
    return sets


def _digest(value: object) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def results() -> dict[str, str]:
    from toolcast import rules as rules_mod
    from toolcast.openai import strict_schema
    from toolcast.providers import EMITTERS, PROVIDER_OF

    out: dict[str, str] = {}
    sets = inputs()
    for version in rules_mod.available("openai"):
        for strict, api, lossy in POLICIES:
            _compile_sets(out, sets, f"{version}|{strict}/{api}/{lossy}", "openai", api, version, strict, lossy)
        for set_name, tools in sets.items():
            for i, t in (tools.items() if isinstance(tools, dict) else enumerate(tools)):
                if not isinstance(t, dict) or "inputSchema" not in t:
                    continue
                try:
                    schema, nulls = strict_schema(t["inputSchema"], rules=version)
                    text = json.dumps([schema, [list(map(repr, p)) for p in nulls]], ensure_ascii=False)
                except Exception as exc:
                    text = json.dumps(["raised", type(exc).__name__, str(exc), repr(getattr(exc, "path", None)),
                                       getattr(exc, "code", None)])
                out[f"{version}|strict_schema|{set_name}|{i}"] = text
        print(f"equivalence: {version} done ({len(out)} results)", file=sys.stderr, flush=True)
    for target, emitter in EMITTERS.items():
        if target == "openai":
            continue
        for api in emitter.APIS:
            provider = rules_mod.family(target, api) or PROVIDER_OF[target]  # the rules of this (target, API)
            for version in rules_mod.available(provider):
                rules = f"{provider}@{version}"
                for strict, lossy in OTHER_POLICIES:
                    key = f"{target}@{version}|{strict}/{api}/{lossy}"
                    _compile_sets(out, sets, key, target, api, rules, strict, lossy)
                print(f"equivalence: {target} {api} {rules} done ({len(out)} results)", file=sys.stderr, flush=True)
    return out


def _compile_sets(out: dict[str, str], sets: dict[str, list], prefix: str, target: str, api: str, rules: str,
                  strict: object, lossy: bool) -> None:
    """Every set compiled under one (target, api, rules, policy), each result stored under `prefix|set|i`."""
    import toolcast

    for set_name, tools in sets.items():
        if strict is False and set_name in ("inflated", "synthetic"):
            continue
        key = f"{prefix}|{set_name}"
        if set_name == "golden":  # some are not tools at all: one by one
            for i, t in tools.items():
                try:
                    r = toolcast.compile_tool(t, target=target, api=api, rules=rules, strict=strict, allow_lossy=lossy)
                    out[f"{key}|{i}"] = json.dumps(r.to_dict(), ensure_ascii=False, default=repr)
                except Exception as exc:  # recorded as an outcome
                    out[f"{key}|{i}"] = f"raised {type(exc).__name__}: {exc}"
            continue
        try:
            res = toolcast.compile_tools(tools, target=target, api=api, rules=rules, strict=strict, allow_lossy=lossy)
        except Exception as exc:  # recorded as an outcome
            out[key + "|raised"] = f"{type(exc).__name__}: {exc}"
            continue
        for i, r in enumerate(res):
            out[f"{key}|{i}"] = json.dumps(r.to_dict(), ensure_ascii=False, default=repr)


def _stored(text: str) -> str:
    if len(text) <= FULL_TEXT_LIMIT:
        return text
    return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def record(path: Path) -> int:
    t0 = time.perf_counter()
    res = results()
    path.parent.mkdir(parents=True, exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        for k, v in res.items():
            fh.write(json.dumps([k, _stored(v)], ensure_ascii=False) + "\n")
    print(f"recorded {len(res)} results in {time.perf_counter() - t0:.0f} s to {path}", file=sys.stderr)
    return 0


def check(path: Path) -> int:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        before = dict(json.loads(line) for line in fh)
    t0 = time.perf_counter()
    after = {k: _stored(v) for k, v in results().items()}
    # A result recorded and computed again that differs, or recorded and no longer computed, is a
    # difference; a result with no recorded counterpart (a rule family, version or golden input
    # added since the snapshot) is new, counted apart: there is nothing for it to stay equal to.
    diffs = [k for k in before if before[k] != after.get(k)]
    new = sorted(k for k in after if k not in before)
    by_set: dict[str, int] = {}
    for k in diffs:
        group = "|".join(k.split("|")[:3])
        by_set[group] = by_set.get(group, 0) + 1
    for group, n in sorted(by_set.items()):
        print(f"{n:6} differ in {group}")
    for k in sorted(diffs)[:10]:
        print(f"DIFF {k}\n  before: {str(before.get(k))[:600]}\n  after:  {str(after.get(k))[:600]}")
    new_by: dict[str, int] = {}
    for k in new:
        family = k.split("|")[0].split("@")[0]
        new_by[family] = new_by.get(family, 0) + 1
    if new:
        print("new results, not in the snapshot: " + ", ".join(f"{f} {n}" for f, n in sorted(new_by.items())))
    print(f"{len(before)} recorded results compared in {time.perf_counter() - t0:.0f} s: {len(diffs)} differ"
          f" ({len(new)} new results not compared)", file=sys.stderr)
    return 1 if diffs else 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("record", "check"):
        print(__doc__, file=sys.stderr)
        return 2
    path = Path(argv[1]) if len(argv) > 1 else DEFAULT
    common.require_corpus()
    return record(path) if argv[0] == "record" else check(path)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
