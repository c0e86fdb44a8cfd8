"""Hostile input: each gets a clear error or a correct result, in bounded time and memory, with no
traceback, no network access and no file written outside ``--out``.

CLI cases run `python -m toolcast.cli.main` in a subprocess with a wall-clock timeout and an
address-space limit (``resource.RLIMIT_AS``); big fixtures are generated into tmp_path.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import toolcast
from toolcast import outdir

PY = sys.executable
MEM_LIMIT = 1536 * 1024 * 1024  # 1.5 GiB of address space for one CLI run


def _limits():
    resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT, MEM_LIMIT))


def cli(*args, cwd, stdin=None, timeout=60):
    env = {k: v for k, v in os.environ.items() if k != "TOOLCAST_DEBUG"}
    return subprocess.run([PY, "-m", "toolcast.cli.main", *map(str, args)], cwd=cwd, input=stdin, capture_output=True,
                          timeout=timeout, preexec_fn=_limits, env=env)


def no_traceback(p):
    err = p.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "internal error" not in err, err[-2000:]
    return err


def tool_json(params, name="t", description="d"):
    return json.dumps({"name": name, "description": description, "inputSchema": params})


@pytest.fixture
def no_network(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("network access attempted")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)


def files_under(path: Path) -> set[str]:
    return {str(p.relative_to(path)) for p in path.rglob("*")}


# -- nesting ---------------------------------------------------------------------------------------


def _deep_json(n: int) -> str:
    return '{"type":"object","properties":{"a":' * n + '{"type":"string"}' + "}}" * n


def test_100k_nesting_file_is_a_clear_input_error(tmp_path):
    f = tmp_path / "deep.json"
    f.write_text('{"name":"t","description":"d","inputSchema":' + _deep_json(100_000) + "}")
    p = cli("compile", f, "--format", "json", cwd=tmp_path)
    err = no_traceback(p)
    assert p.returncode == 2
    out = json.loads(p.stdout)
    assert out["results"] == [] and out["errors"], out
    assert "nested too deeply" in json.dumps(out["errors"]) or "deep" in err


def test_100k_nesting_yaml_is_a_clear_input_error(tmp_path):
    f = tmp_path / "deep.yaml"
    f.write_text("name: t\ninputSchema: " + "[" * 100_000 + "]" * 100_000 + "\n")
    p = cli("compile", f, cwd=tmp_path)
    no_traceback(p)
    assert p.returncode == 2


def test_100k_nesting_via_the_api_is_refused_without_recursion_error():
    node = {"type": "string"}
    for _ in range(100_000):
        node = {"type": "object", "properties": {"a": node}}
    for strict in ("auto", True, False):
        res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": node}, strict=strict)
        assert res.status in ("refused", "non-strict")
        assert "openai/schema-too-deep" in {d.code for d in res.diagnostics}


@pytest.mark.parametrize("levels", [60, 300])  # (past the walk's guard; past the copy's depth too)
def test_a_too_deep_schema_names_a_depth_someone_set(levels):
    # Found by a fixer: a target with no depth limit of its own named the figure toolcast keeps for
    # "none" (sys.maxsize), and one that inherits OpenAI's message claimed that figure as the provider's.
    from toolcast.rules import get_rules

    node: dict = {"type": "object"}
    root = node
    for _ in range(levels):
        node["properties"] = {"a": {"type": "object"}}
        node = node["properties"]["a"]
    seen = 0
    for target in ("openai", "anthropic", "gemini", "vertex", "mcp", "deepseek", "xai", "mistral", "bedrock"):
        limit = get_rules(None, target).counted("depth").value
        for strict in ("auto", False):
            res = toolcast.compile_tool({"name": "t", "description": "d", "inputSchema": root}, target=target,
                                        strict=strict)
            for d in res.diagnostics:
                if d.code.endswith("/schema-too-deep"):
                    seen += 1
                    assert str(sys.maxsize) not in d.message, (target, strict, d.message)
                    assert ("accepts at most" in d.message) == (limit < sys.maxsize), (target, d.message)
    assert seen >= 9


def test_deeply_nested_enum_value_via_the_api_does_not_crash():
    v: list = []
    for _ in range(100_000):
        v = [v]
    res = toolcast.compile_tool({"name": "t", "description": "d",
                                 "parameters": {"type": "object", "properties": {"a": {"enum": ["x", v]}}, "required": ["a"]}})
    assert res.status in ("strict", "non-strict", "refused")


# -- size ----------------------------------------------------------------------------------------


# A 50 MB file in bounded time and memory: benchmarks/bounds.py (a wall-clock limit is no test:
# on a loaded machine it failed a suite whose code was right).


def test_file_over_the_size_cap_is_refused_unread(tmp_path):
    f = tmp_path / "huge.json"
    with f.open("wb") as fh:
        fh.truncate(65 * 1024 * 1024)  # sparse: costs no disk
    p = cli("compile", f, cwd=tmp_path)
    err = no_traceback(p)
    assert p.returncode == 2 and "MiB" in (err + p.stdout.decode())


@pytest.mark.timeout(600)  # (a hang guard, not a speed test: benchmarks/bounds.py times it)
def test_million_value_enum_is_refused():
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"a": {"type": "integer", "enum": list(range(1_000_000))}}, "required": ["a"]}})
    assert res.status == "non-strict"
    assert "openai/too-many-enum-values" in {d.code for d in res.diagnostics}


@pytest.mark.timeout(600)  # (pairwise, it ran for hours: a hang guard, not a speed test)
def test_huge_merges_and_one_of_branches_are_linear_not_pairwise():
    """allOf of two 40,000-value enums, 40,000 oneOf branches, allOf of two 40,000-name `required`
    lists: each used to compare every pair (1.6e9 comparisons, hours); now a set each."""
    n = 40_000
    from toolcast.rules import get_rules

    rules = get_rules(None)  # (the default version's limits, not pinned: a docs change moves them)
    enum_limit, property_limit = rules.limit("max_enum_values"), rules.limit("max_properties")
    assert n // 2 > enum_limit and n > property_limit, "the inputs must be past the default version's limits"

    def compile_prop(prop: dict):
        return toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
            "type": "object", "properties": {"a": prop}, "required": ["a"], "additionalProperties": False}})

    # 1.0 equals 1 (json_equal): the two enums share exactly the upper half of the first
    res = compile_prop({"allOf": [{"enum": list(range(n))}, {"enum": [float(x) for x in range(n // 2, n + n // 2)]}]})
    assert [d.message for d in res.diagnostics if d.code == "openai/too-many-enum-values"] == [
        f"The schema has {n // 2} enum values in total; OpenAI accepts at most {enum_limit}."]
    res = compile_prop({"oneOf": [{"const": f"v{i}"} for i in range(n)] + [{"const": "v0"}]})
    assert "openai/one-of-exclusive-converted" not in {d.code for d in res.diagnostics}  # v0 twice: not exclusive
    res = compile_prop({"oneOf": [{"const": f"v{i}"} for i in range(n)]})
    assert "openai/one-of-exclusive-converted" in {d.code for d in res.diagnostics}
    names = [f"p{i}" for i in range(n)]
    res = compile_prop({"allOf": [{"type": "object", "properties": {"z": {"type": "string"}}, "required": names},
                                  {"required": names[::-1] + ["extra"]}]})
    undefined = [d for d in res.diagnostics if d.code == "openai/required-property-undefined"]
    assert len(undefined) == n + 1  # every name once, in the first list's order, then the new one
    assert undefined[0].message.count("'p0'") == 1 and "'extra'" in undefined[-1].message
    # 8,000 allOf parts of 5 properties each: merged in place, not copied part after part
    parts = [{"type": "object", "properties": {f"q{i}_{j}": {"type": "string"} for j in range(5)},
              "required": [f"q{i}_0"]} for i in range(8_000)]
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {"allOf": parts}})
    assert res.status == "non-strict"  # 40,000 properties is over the limit
    assert [d.message for d in res.diagnostics if d.code == "openai/too-many-properties"] == [
        f"The schema has {n} properties in total; OpenAI accepts at most {property_limit}."]


def test_untyped_all_of_parts_are_judged_once_per_definition(monkeypatch):
    """Whether an allOf part says nothing about null (walk.semantics._neutral) is remembered per $ref:
    n definitions, each the allOf of the next named twice, cost a number of checks linear in n
    (the first version judged each level again from every level above it: n**2 / 2)."""
    from toolcast.walk import semantics

    calls = 0
    judge = semantics._neutral

    def counting(s, walk, *depth):
        nonlocal calls
        calls += 1
        return judge(s, walk, *depth)

    monkeypatch.setattr(semantics, "_neutral", counting)
    n = 150
    for last in ({"type": "string", "minLength": 1}, {"minLength": 1}):
        defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"$ref": f"#/$defs/d{i + 1}"}]} for i in range(n)}
        defs[f"d{n}"] = last
        calls = 0
        res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
            "type": "object", "properties": {"a": {"allOf": [{"type": ["string", "null"]}, {"$ref": "#/$defs/d0"}]}},
            "$defs": defs}})
        assert 0 < calls <= 6 * n, (last, calls)
        # Typed at the end, null is not a value of the original; typeless all the way down, the
        # chain takes the string-or-null type, and null stays a value.
        made_nullable = "openai/nullable-instead-of-omitted" in {d.code for d in res.diagnostics}
        assert made_nullable == ("type" in last), last


def test_million_value_enum_through_the_cli(tmp_path):
    f = tmp_path / "enum.json"
    f.write_text(tool_json({"type": "object", "properties": {"a": {"type": "string", "enum": [str(i) for i in range(1_000_000)]}}}))
    p = cli("compile", f, "--strict", "true", "--format", "json", cwd=tmp_path, timeout=120)
    no_traceback(p)
    assert p.returncode == 1
    codes = {d["code"] for d in json.loads(p.stdout)["results"][0]["diagnostics"]}
    assert "openai/too-many-enum-values" in codes


# -- references ------------------------------------------------------------------------------------


def test_http_ref_is_refused_and_never_fetched(no_network):
    for ref in ("http://127.0.0.1:9/x.json", "https://example.com/s.json#/$defs/A", "//example.com/a"):
        res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
            "type": "object", "properties": {"x": {"$ref": ref, "minimum": 1}}, "required": ["x"]}})
        # (refused in every mode: no acceptable form names a resource outside the document, issue 37)
        assert res.status == "refused" and res.tool is None, ref
        assert {"openai/external-ref", "openai/unsupported-ref-target"} & {d.code for d in res.diagnostics}
    with pytest.raises(toolcast.StrictSchemaError):
        from toolcast.openai import strict_schema

        strict_schema({"type": "object", "properties": {"x": {"$ref": "http://127.0.0.1:9/x.json"}}, "required": ["x"]})


def test_http_ref_via_cli_makes_no_connection(tmp_path):
    # A socket-blocking sitecustomize makes any connection attempt fail loudly.
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(
        "import socket\n"
        "def _no(*a, **k):\n    raise SystemExit('NETWORK ACCESS ATTEMPTED')\n"
        "socket.socket.connect = _no\nsocket.create_connection = _no\nsocket.getaddrinfo = _no\n"
    )
    f = tmp_path / "ref.json"
    f.write_text(tool_json({"type": "object", "properties": {"x": {"$ref": "http://127.0.0.1:9/x.json"}}, "required": ["x"]}))
    env = dict(os.environ, PYTHONPATH=str(site) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([PY, "-m", "toolcast.cli.main", "compile", str(f), "--format", "json"], capture_output=True, timeout=60, env=env)
    assert b"NETWORK" not in p.stderr + p.stdout
    assert json.loads(p.stdout)["results"][0]["status"] == "refused"


def test_ref_to_root_cycle_is_reported():
    """`$ref: "#"` at a property: recursion through the root is allowed when bounded."""
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"self": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}, "required": ["self"]}})
    assert res.status == "strict"


SELF_REF_CASES = {
    "root-ref-hash": {"$ref": "#"},
    "root-ref-hash-with-type": {"$ref": "#", "type": "object"},
    "all-of-self": {"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}},
    "ref-sibling-self": {"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/A", "type": "object"}}},
    "ref-annotation-self": {"$ref": "#/$defs/D0", "$defs": {"D0": {"$ref": "#/$defs/D0", "default": 1}}},
    "all-of-root-self": {"allOf": [{"$ref": "#"}], "type": "object"},
}


@pytest.mark.parametrize("schema", list(SELF_REF_CASES.values()), ids=list(SELF_REF_CASES))
def test_self_reference_is_reported_not_raised(schema):
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema})
    assert res.status in ("non-strict", "refused")


@pytest.mark.parametrize("defs", [{"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, {"A": {"$ref": "#/$defs/A"}}],
                         ids=["two", "self"])
def test_pure_ref_cycle_is_refused(defs):
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"x": {"$ref": "#/$defs/A"}}, "required": ["x"], "$defs": defs}})
    assert res.status != "strict"


@pytest.mark.parametrize("target", ["openai", "gemini", "vertex"])
def test_self_inlining_that_doubles_is_refused_in_bounded_memory(tmp_path, target):
    """A `$ref` with a sibling to an anyOf of two `$ref`s to itself: inlining it (for the sibling)
    met the same two references again, each level twice the one before, until memory ran out (a
    MemoryError, or the whole machine's memory without a limit). Now the first repeat is refused,
    with the finding the same schema gets without the sibling."""
    f = tmp_path / "doubling.json"
    f.write_text(tool_json({"type": "object", "properties": {"b": {"$ref": "#/$defs/A", "maxLength": 2}},
                            "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A"}]}}}))
    p = cli("compile", f, "--target", target, "--api", "responses" if target == "openai" else "parameters",
            "--format", "json", cwd=tmp_path)
    no_traceback(p)
    result = json.loads(p.stdout)["results"][0]
    assert result["status"] != "strict"
    codes = {d["code"] for d in result["diagnostics"]}
    assert (f"{target}/recursive-schema" if target != "openai" else "openai/infinite-recursion") in codes, codes


def _doubling_defs(n: int, branch) -> dict:
    defs = {f"D{i}": {"anyOf": [branch(f"#/$defs/D{i + 1}", 0), branch(f"#/$defs/D{i + 1}", 1)]} for i in range(n)}
    defs[f"D{n}"] = {"type": "string"}
    return {"type": "object", "properties": {"a": {"$ref": "#/$defs/D0"}}, "required": ["a"], "$defs": defs}


# Linear in size, 2**40 when followed naively: each definition refers twice to the next.
DOUBLING = {
    "inlined for a sibling": (lambda ref, i: {"$ref": ref, "minLength": 1} if i == 0 else {"$ref": ref},
                              "inlined-schema-too-large"),
    "inlined as an allOf": (lambda ref, i: {"allOf": [{"$ref": ref}], "title": str(i)}, "inlined-schema-too-large"),
    "bare (asked whether null is a value)": (lambda ref, i: {"$ref": ref, "description": str(i)}, None),
}


@pytest.mark.parametrize("case", list(DOUBLING))
def test_forty_definitions_each_naming_the_next_twice_compile_in_bounded_work(tmp_path, case):
    """Inlining such a chain writes its last definition out 2**40 times, and following each path to
    ask whether null is a value walks as many: the first is refused at toolcast's inlining cap, the
    second judges each definition once (they took minutes from 24 definitions on)."""
    branch, code = DOUBLING[case]
    f = tmp_path / "doubling.json"
    f.write_text(tool_json(_doubling_defs(40, branch)))
    p = cli("compile", f, "--format", "json", cwd=tmp_path, timeout=120)
    no_traceback(p)
    result = json.loads(p.stdout)["results"][0]
    codes = {d["code"] for d in result["diagnostics"]}
    if code is None:
        assert result["status"] == "strict", codes
    else:
        assert result["status"] != "strict" and f"openai/{code}" in codes, codes


def test_self_reference_via_cli_is_a_clear_error(tmp_path):
    f = tmp_path / "self.json"
    f.write_text(tool_json({"$ref": "#"}))
    p = cli("compile", f, cwd=tmp_path)
    no_traceback(p)
    assert p.returncode in (0, 1)
    out = p.stdout.decode()
    assert "openai/unsatisfiable-schema" in out and "refers to itself" in out


# -- encoding and parsing -----------------------------------------------------------------------------


def test_invalid_utf8_is_a_usage_error_with_a_place(tmp_path):
    f = tmp_path / "bad.json"
    f.write_bytes(b'{"name": "t", "description": "caf\xe9", "inputSchema": {"type": "object"}}')
    p = cli("compile", f, cwd=tmp_path)
    err = no_traceback(p)
    assert p.returncode == 2
    assert "UTF-8" in err + p.stdout.decode() and "0xe9" in err + p.stdout.decode()


def test_invalid_utf8_on_stdin(tmp_path):
    p = cli("check", "-", cwd=tmp_path, stdin=b"\xff\xfe{")
    no_traceback(p)
    assert p.returncode == 2


def test_yaml_alias_bomb_is_rejected_quickly(tmp_path):
    lines = ['a0: &a0 ["x","x","x","x","x","x","x","x","x"]']
    for i in range(1, 10):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    lines.append("name: t\ninputSchema: {type: object, properties: {b: {enum: *a9}}}")
    f = tmp_path / "bomb.yaml"
    f.write_text("\n".join(lines) + "\n")
    p = cli("compile", f, cwd=tmp_path, timeout=30)
    err = no_traceback(p)
    assert p.returncode == 2 and "alias" in (err + p.stdout.decode()).lower()


@pytest.mark.parametrize("suffix, text, line", [
    (".json", '{\n"name": "t",\n"name": "u",\n"inputSchema": {}}', 3),
    (".yaml", "name: t\ninputSchema: {}\nname: u\n", 3),
    (".json", '{"name": "t", "inputSchema": {"type": "object",\n "properties": {"a": {}, "a": {}}}}', 2),
])
def test_duplicate_keys_are_rejected_with_a_line(tmp_path, suffix, text, line):
    f = tmp_path / f"dup{suffix}"
    f.write_text(text)
    p = cli("compile", f, "--format", "json", cwd=tmp_path)
    no_traceback(p)
    assert p.returncode == 2
    errors = json.loads(p.stdout)["errors"]
    assert errors and "duplicate" in errors[0]["message"] and errors[0]["line"] == line


@pytest.mark.parametrize("text", [
    '{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"type": "number", "minimum": NaN}}}}',
    '{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"enum": [Infinity]}}}}',
    '{"name": "t", "inputSchema": {"type": "object", "properties": {"a": {"const": -Infinity}}}}',
])
def test_nan_and_infinity_are_rejected_on_input(tmp_path, text):
    f = tmp_path / "nan.json"
    f.write_text(text)
    p = cli("compile", f, "--format", "json", cwd=tmp_path)
    no_traceback(p)
    assert p.returncode == 2 and "not valid JSON" in p.stdout.decode()


def test_nan_in_yaml_is_rejected(tmp_path):
    f = tmp_path / "nan.yaml"
    f.write_text("name: t\ninputSchema: {type: object, properties: {a: {enum: [.nan]}}}\n")
    p = cli("compile", f, cwd=tmp_path)
    no_traceback(p)
    assert p.returncode == 2


def test_nan_minimum_via_the_api_refuses_the_tool():
    # Sent non-strict, the original would carry NaN, which is not JSON (issue 17.7).
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"a": {"type": "number", "minimum": float("nan")}}, "required": ["a"]}})
    assert res.status == "refused" and res.tool is None
    assert "openai/non-json-value" in {d.code for d in res.diagnostics}


# -- --out -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["../x", "..", "/etc/passwd", "a/b", "a\\b", "CON", "con", "NUL", "LPT1", "manifest",
                                  "-rf", ".hidden", "x" * 300, "tool\x00", "ünï"])
def test_hostile_tool_names_never_escape_out(tmp_path, name):
    out = tmp_path / "work" / "out"
    (tmp_path / "work").mkdir()
    f = tmp_path / "work" / "tools.json"
    f.write_text(json.dumps([{"name": name, "description": "d", "inputSchema": {"type": "object"}},
                             {"name": "ok", "description": "d", "inputSchema": {"type": "object"}}]))
    before = files_under(tmp_path)
    p = cli("compile", f, "--out", out, "--strict", "false", cwd=tmp_path / "work")
    no_traceback(p)
    created = files_under(tmp_path) - before
    assert created and all(c.startswith(os.path.join("work", "out")) for c in created), created
    for c in created:
        path = tmp_path / c
        if path.is_file():
            assert path.parent == out
            stem = path.stem
            assert stem.lower() not in ("con", "nul", "lpt1", "prn", "aux") and not stem.startswith((".", "-"))
            assert all(ch.isalnum() or ch in "_-" for ch in stem), stem
    manifest = json.loads((out / "manifest.json").read_text())
    assert "ok" in {t["name"] for t in manifest["tools"]}


def test_reserved_names_get_distinct_safe_files():
    names = ["CON", "con", "Con", "manifest", "ok", "OK"]
    files = outdir.file_names(names)
    assert len({f.lower() for f in files}) == len(files)
    assert all(f.endswith(".json") and f.split(".")[0].lower() not in ("con", "manifest") for f in files)


def test_interrupted_write_leaves_no_partial_file(tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    (out / "t.json").write_text("OLD\n")
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": {"type": "object"}})
    real_replace = os.replace

    def boom(src, dst):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(KeyboardInterrupt):
        outdir.write(out, [("src", res)], {"toolcast": "test"})
    monkeypatch.setattr(os, "replace", real_replace)
    assert sorted(p.name for p in out.iterdir()) == ["t.json"]
    assert (out / "t.json").read_text() == "OLD\n"


def test_killed_cli_leaves_only_whole_files(tmp_path):
    """SIGKILL a compile of many tools mid-way: every file present is complete JSON."""
    f = tmp_path / "many.jsonl"
    with f.open("w") as fh:
        for i in range(3000):
            fh.write(tool_json({"type": "object", "properties": {"q": {"type": "string"}}}, name=f"t{i}") + "\n")
    out = tmp_path / "out"
    proc = subprocess.Popen([PY, "-m", "toolcast.cli.main", "compile", str(f), "--out", str(out)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, preexec_fn=_limits)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (out.is_dir() and len(list(out.iterdir())) > 50):
        if proc.poll() is not None:
            break
        time.sleep(0.005)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    for p in out.iterdir() if out.is_dir() else []:
        if p.name.startswith(".toolcast-"):
            continue  # a temp file of the interrupted write: never a tool file
        json.loads(p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("params", [{"required": [[]]},
                                    {"type": "object", "properties": {"a": {"type": "string"}}, "required": [{}]}],
                         ids=["root-list", "dict-entry"])
def test_non_string_required_entry_is_reported(params):
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": params})
    assert res.status == "refused"  # (a keyword value no schema may have: refused in every mode, issue 37)
    assert "openai/invalid-keyword-value" in {d.code for d in res.diagnostics}


@pytest.mark.parametrize("sub", [{"anyOf": None}, {"anyOf": None, "description": "x"}, {"anyOf": {"type": "string"}},
                                 {"allOf": [{"anyOf": None}]}],
                         ids=["alone", "with-annotation", "object", "through-allOf"])
def test_an_anyof_that_is_not_a_list_is_an_invalid_value_not_a_crash(sub):
    # Found by test_fuzz: node() iterated the value after reporting it as invalid.
    res = toolcast.compile_tool({"name": "t", "description": "d",
                                 "parameters": {"type": "object", "properties": {"a": sub}, "required": ["a"]}})
    assert res.status == "refused"  # (a keyword value no schema may have: refused in every mode, issue 37)
    assert ("openai/invalid-keyword-value", "#/properties/a/anyOf") in {(d.code, d.path) for d in res.diagnostics}
