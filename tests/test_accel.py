"""The compiled modules (setup.py, toolcast/_accel.py): used only when built from the source beside
them, the same results as the source, and no unbounded recursion left for them to overflow the C
stack with (compiled calls do not count against Python's recursion limit)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import toolcast
from toolcast import _accel

PACKAGE = Path(toolcast.__file__).resolve().parent
BUILT = (PACKAGE / "_built.py").exists()
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

needs_build = pytest.mark.skipif(not BUILT, reason="installed without the compiled modules")


def _run(code: str, *, pure: bool = False, path: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "TOOLCAST_PURE_PYTHON"}
    if pure:
        env["TOOLCAST_PURE_PYTHON"] = "1"
    if path is not None:
        env["PYTHONPATH"] = str(path)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=env, timeout=timeout)


_WHICH = "import toolcast._accel as a; print(','.join(a.compiled_modules()))"


def test_every_compiled_module_is_optional(monkeypatch):
    """A module that fails to compile (no C compiler, no Python headers) must leave the install
    working as Python: setuptools skips an optional extension that fails, and cythonize's copies
    of the extensions drop the flag unless setup.py sets it again."""
    pytest.importorskip("Cython")
    import importlib.util

    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location("toolcast_setup", root / "setup.py")
    setup_py = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup_py)  # defines, does not build (setup() runs only as __main__)
    monkeypatch.chdir(root)
    monkeypatch.delenv("TOOLCAST_PURE_PYTHON", raising=False)
    extensions = setup_py._extensions()
    assert sorted(e.name for e in extensions) == sorted(f"toolcast.{n}" for n in _accel.ACCELERATED)
    assert all(e.optional for e in extensions)
    assert setup_py.ACCELERATED == _accel.ACCELERATED
    monkeypatch.setenv("TOOLCAST_PURE_PYTHON", "1")
    assert setup_py._extensions() == []


def test_ci_runs_the_compiled_modules():
    """CI installs as a user does (`pip install -e`): the build must have compiled every module,
    or the speed figures in the README would not be what users get."""
    if not os.environ.get("CI"):
        pytest.skip("checked in CI, where the build is the one users get")
    assert BUILT
    assert _run(_WHICH).stdout.strip() == ",".join(_accel.ACCELERATED)


def test_only_a_set_flag_asks_for_source(monkeypatch):
    for value, pure in (("", False), ("0", False), ("1", True), ("yes", True)):
        monkeypatch.setenv("TOOLCAST_PURE_PYTHON", value)
        assert _accel.pure_requested() is pure, value
    monkeypatch.delenv("TOOLCAST_PURE_PYTHON")
    assert _accel.pure_requested() is False


@needs_build
def test_the_modules_run_compiled_unless_asked_not_to():
    assert _run(_WHICH).stdout.strip() == ",".join(_accel.ACCELERATED)
    p = _run(_WHICH + "; import toolcast.interpret as i; print(i.__file__)", pure=True)
    which, where = p.stdout.split("\n")[:2]
    assert which == ""
    assert where.endswith("interpret.py")


@needs_build
def test_an_edited_source_runs_from_source(tmp_path):
    """An extension compiled from another version of its source is not used: after an edit in an
    editable install, the module runs as its new source says until the next build."""
    copy = tmp_path / "toolcast"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.c"))
    assert _run(_WHICH, path=tmp_path).stdout.strip() == ",".join(_accel.ACCELERATED)
    with (copy / "interpret.py").open("a") as f:
        f.write("\nEDITED = True\n")
    p = _run(_WHICH + "; import toolcast.interpret as i; print(i.EDITED)", path=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == [",".join(n for n in _accel.ACCELERATED if n != "interpret"), "True"]
    # Without the build record, no extension is trusted.
    (copy / "_built.py").unlink()
    assert _run(_WHICH, path=tmp_path).stdout.strip() == ""


def test_the_public_functions_keep_their_signatures_and_docstrings():
    """Compiled as plain C functions, compile_tool and compile_tools still answer
    inspect.signature() and help() as written (setup.py embeds their signatures)."""
    import inspect

    for fn, first in ((toolcast.compile_tool, "tool"), (toolcast.compile_tools, "tools")):
        params = inspect.signature(fn).parameters
        assert list(params) == [first, "target", "api", "rules", "strict", "allow_lossy", "optional_null"]
        assert params["strict"].default == "auto" and params["strict"].kind is inspect.Parameter.KEYWORD_ONLY
        assert fn.__doc__.startswith("Compile ")
    assert list(inspect.signature(toolcast.CompileResult.to_dict).parameters) == ["self"]
    assert toolcast.CompileResult._from_records.__doc__.startswith("The compiler's constructor")


_COMPILE_ALL = """
import json, sys
sys.path.insert(0, %(bench)r)
import common, toolcast
out = []
for name in ("bfcl", "mcp", "large"):
    for tool in common.load_set(name):
        for strict in ("auto", True):
            out.append(toolcast.compile_tool(tool, strict=strict).to_dict())
print(json.dumps(out))
"""


@needs_build
@pytest.mark.skipif(not (CORPUS / "bfcl.jsonl").exists(), reason="the shared corpus is not here")
def test_compiled_and_source_agree_on_the_corpus():
    """Every result on the corpus, key order included, is the same compiled and as source."""
    code = _COMPILE_ALL % {"bench": str(Path(__file__).resolve().parents[1] / "benchmarks")}
    compiled, source = _run(code), _run(code, pure=True)
    assert compiled.returncode == 0, compiled.stderr[-2000:]
    assert source.returncode == 0, source.stderr[-2000:]
    a, b = json.loads(compiled.stdout), json.loads(source.stdout)
    assert len(a) > 7000
    assert a == b


# Each of these recursed as deep as its input once: as Python that ended in RecursionError (reported
# as openai/schema-too-deep), compiled it would overflow the C stack and kill the process. They run in
# a child process so that a crash fails the test instead of ending the run.
_HOSTILE = {
    "a chain of allOf-$ref definitions (merged, judged for null)": """
        n = 20_000
        defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}], "description": "x"} for i in range(n)}
        defs[f"d{n}"] = {"type": "string"}
        schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    """,
    "a chain of anyOf-$ref definitions (judged for null)": """
        n = 20_000
        defs = {f"d{i}": {"anyOf": [{"$ref": f"#/$defs/d{i + 1}"}, {"type": "integer"}]} for i in range(n)}
        defs[f"d{n}"] = {"type": "string"}
        schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    """,
    "anyOf nested 50,000 deep (judged for null)": """
        node = {"type": "string"}
        for _ in range(50_000):
            node = {"anyOf": [node, {"type": "integer"}]}
        schema = {"type": "object", "properties": {"a": node}}
    """,
    "allOf nested 50,000 deep (merged)": """
        node = {"type": "string"}
        for _ in range(50_000):
            node = {"allOf": [node]}
        schema = {"type": "object", "properties": {"a": node}, "required": ["a"]}
    """,
    "oneOf of consts nested 50,000 deep (compared)": """
        a, b = [], [1]
        for _ in range(50_000):
            a, b = [a], [b]
        schema = {"type": "object", "properties": {"a": {"oneOf": [{"const": a}, {"const": b}]}}, "required": ["a"]}
    """,
    "an enum and a const with values nested 50,000 deep (compared)": """
        a, b = [], []
        for _ in range(50_000):
            a, b = [a], [b]
        schema = {"type": "object", "properties": {"a": {"enum": [a, "x"], "const": b}}, "required": ["a"]}
    """,
}


@pytest.mark.parametrize("label", list(_HOSTILE))
def test_unbounded_recursion_ends_as_too_deep_not_as_a_crash(label):
    code = textwrap.dedent(_HOSTILE[label]) + textwrap.dedent("""
        import toolcast
        for strict in ("auto", True):
            r = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema}, strict=strict)
            print(r.status, sorted({d.code for d in r.diagnostics}))
    """)
    for pure in (False, True):
        p = _run(code, pure=pure)
        assert p.returncode == 0, (pure, p.returncode, p.stderr[-2000:])
        lines = p.stdout.splitlines()
        assert len(lines) == 2
        assert all("openai/schema-too-deep" in line for line in lines), (pure, lines)
