"""The compiled build (setup.py, TOOLCAST_COMPILE=1) and `toolcast.build_info()`: compiling is opt-in
and never happens in an editable install, a module that fails to compile installs as Python, the
compiled modules give the source's results, and no unbounded recursion is left for them to
overflow the C stack with (compiled calls do not count against Python's recursion limit)."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import textwrap
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import toolcast

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"  # the checkout's source, which no build writes into
PACKAGE = Path(toolcast.__file__).resolve().parent  # the toolcast these tests import
INFO = toolcast.build_info()

needs_build = pytest.mark.skipif(not INFO.compiled, reason="the installed toolcast is pure Python (to run: a non-editable install with TOOLCAST_COMPILE=1, as .ci/run does)")


def _setup_py():
    spec = importlib.util.spec_from_file_location("toolcast_setup", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # defines, does not build (setup() runs only as __main__)
    return module


setup_py = _setup_py()
LISTED = tuple(sorted(path[: -len(".py")].replace("/", ".") for path in setup_py.COMPILED))


def _run(code: str, *, source: bool = False, path: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run `code` in a child: with the installed toolcast, the checkout's source (`source`), or
    the package under `path`."""
    env = dict(os.environ)
    if source or path is not None:
        env["PYTHONPATH"] = str(SRC if source else path)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=env, timeout=timeout)


_WHICH = "import toolcast; print(','.join(toolcast.build_info().compiled))"


def test_the_ci_job_runs_the_build_it_asked_for():
    """.ci/run runs the suite twice and says which build each run must test: the editable
    install (the source) and a non-editable install with TOOLCAST_COMPILE=1 (every listed module
    compiled, imported from the install, not from src/)."""
    expected = os.environ.get("TOOLCAST_EXPECT_BUILD")
    if expected is None:
        pytest.skip("checked in CI only: .ci/run sets TOOLCAST_EXPECT_BUILD for each build it tests")
    assert expected in ("source", "compiled"), expected
    if expected == "source":
        assert INFO.compiled == ()
        assert PACKAGE == SRC / "toolcast"
        assert str(INFO) == f"toolcast {toolcast.__version__} (pure Python)"
    else:
        assert INFO.compiled == LISTED
        installed = {Path(sysconfig.get_path(k)).resolve() for k in ("purelib", "platlib")}
        assert PACKAGE.parent in installed and not PACKAGE.is_relative_to(SRC), PACKAGE
        assert str(INFO).startswith(f"toolcast {toolcast.__version__} (compiled with Cython: toolcast.")


def test_compiling_is_opt_in():
    for environ, asked in (({}, False), ({"TOOLCAST_COMPILE": ""}, False), ({"TOOLCAST_COMPILE": "0"}, False),
                           ({"TOOLCAST_COMPILE": "1"}, True), ({"TOOLCAST_COMPILE": "yes"}, True)):
        assert setup_py.compile_requested(environ) is asked, environ


def test_every_listed_module_exists_and_is_an_optional_extension():
    """The list in setup.py is the only one: each entry names a module that exists, and each
    becomes an extension that may fail to build."""
    setup_py.check_listed()
    extensions = setup_py._extensions()
    assert tuple(sorted(e.name for e in extensions)) == LISTED
    assert all(e.optional for e in extensions)
    assert all(e.sources == [f"src/{e.name.replace('.', '/')}.py"] for e in extensions)
    # A module with a .pxd is compiled; those whose .pxd cimports another's, and those cimported,
    # are bound to each other's C layout: compiled together or not at all.
    linked = set()
    declared = set()
    for pxd in (SRC / "toolcast").rglob("*.pxd"):
        path = pxd.relative_to(SRC).with_suffix(".py").as_posix()
        declared.add(path)
        for other in re.findall(r"^from (toolcast\.[\w.]+) cimport", pxd.read_text(), re.M):
            linked |= {path, other.replace(".", "/") + ".py"}
    assert declared <= set(setup_py.COMPILED)
    assert linked == setup_py.LINKED


def test_a_listed_module_that_does_not_exist_fails_the_build():
    with pytest.raises(SystemExit, match=r"do not exist under src/: toolcast/walk/gone\.py"):
        setup_py.check_listed({**setup_py.COMPILED, "toolcast/walk/gone.py": {}})
    with pytest.raises(SystemExit, match=r"toolcast/gone\.py"):
        setup_py._extensions({"toolcast/gone.py": {}})


def _build_ext(tmp_path: Path, extensions: list, **options: object):
    from setuptools import Distribution

    dist = Distribution({"name": "toolcast-test", "ext_modules": extensions,
                         "cmdclass": {"build_ext": setup_py.BuildExt}})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib, cmd.build_temp = str(tmp_path / "lib"), str(tmp_path / "temp")
    for name, value in options.items():
        setattr(cmd, name, value)
    cmd.ensure_finalized()
    return cmd


def test_an_editable_install_compiles_nothing(tmp_path, monkeypatch):
    """Even asked to compile, an editable install runs its source: an extension built beside the
    source would shadow every later edit of it."""
    monkeypatch.chdir(ROOT)
    assert _build_ext(tmp_path, setup_py._extensions(), editable_mode=True).extensions == []
    assert len(_build_ext(tmp_path, setup_py._extensions()).extensions) == len(LISTED)


def _extension_in(folder: Path, module: str) -> list[Path]:
    return [p for p in folder.rglob(f"{module}.*") if p.name.endswith(tuple(EXTENSION_SUFFIXES))]


def test_a_module_that_fails_to_compile_installs_as_python_and_one_that_compiles_runs_compiled(tmp_path, monkeypatch):
    """Cythonize's copies of the extensions drop the `optional` flag unless BuildExt sets it again:
    without it a failed C compile fails the install. Built here for one small module (nulls), with
    a C compiler that always fails, then with the real one; build_info() then names the module."""
    pytest.importorskip("Cython")
    if shutil.which(os.environ.get("CC", "cc")) is None:
        pytest.skip("no C compiler")
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("CC", "/bin/false")
    failed = _build_ext(tmp_path / "failed", setup_py._extensions({"toolcast/nulls.py": {}}))
    failed.run()  # warns, does not raise
    assert _extension_in(tmp_path / "failed", "nulls") == []
    assert not list(ROOT.glob("src/toolcast/*.c")), "the C must go to the build directory"
    monkeypatch.delenv("CC")
    built = _build_ext(tmp_path / "built", setup_py._extensions({"toolcast/nulls.py": {}}))
    built.run()
    (extension,) = _extension_in(tmp_path / "built" / "lib", "nulls")
    # A copy of the source package with that extension beside nulls.py runs it compiled.
    copy = tmp_path / "pkg" / "toolcast"
    shutil.copytree(SRC / "toolcast", copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(extension, copy / extension.name)
    p = _run(_WHICH + "; import importlib.machinery as m, toolcast.nulls as n;"
             " print(n.__file__.endswith(tuple(m.EXTENSION_SUFFIXES)));"
             " print(toolcast.strip_nulls({'a': None, 'b': 1}, [('a',)]))", path=tmp_path / "pkg")
    assert p.returncode == 0, p.stderr
    assert p.stdout.split("\n")[:3] == ["toolcast.nulls", "True", "{'b': 1}"]


def test_a_module_of_walks_line_that_fails_to_compile_takes_the_line_with_it(tmp_path, monkeypatch):
    """Compiled, the walk's modules call each other's C functions over the state's C layout (their
    .pxd files cimport each other's): a walk half compiled would not import. Where one of them
    fails, BuildExt removes the others it built, and the modules outside the walk stay compiled."""
    pytest.importorskip("Cython")
    if shutil.which(os.environ.get("CC", "cc")) is None:
        pytest.skip("no C compiler")
    from setuptools.errors import CompileError

    monkeypatch.chdir(ROOT)
    real = setup_py.build_ext.build_extension

    def plans_fails(self, ext):
        if ext.name == "toolcast.walk.plans":
            raise CompileError("a failure of this module alone")
        return real(self, ext)

    monkeypatch.setattr(setup_py.build_ext, "build_extension", plans_fails)
    listed = {path: {} for path in ("toolcast/walk/state.py", "toolcast/walk/plans.py", "toolcast/nulls.py")}
    cmd = _build_ext(tmp_path, setup_py._extensions(listed))
    assert sorted(e.name for e in cmd.extensions if e.linked) == ["toolcast.walk.plans", "toolcast.walk.state"]
    cmd.run()  # warns, does not raise
    assert cmd._built == {"toolcast.walk.state", "toolcast.nulls"}  # state did compile...
    assert _extension_in(tmp_path / "lib", "state") == []  # ...and was removed with plans
    assert _extension_in(tmp_path / "lib", "plans") == []
    assert len(_extension_in(tmp_path / "lib", "nulls")) == 1


@needs_build
def test_the_installed_modules_run_compiled_and_the_source_as_python():
    assert _run(_WHICH).stdout.strip() == ",".join(LISTED)
    p = _run(_WHICH + "; import toolcast.compile as c; print(c.__file__)", source=True)
    which, where = p.stdout.split("\n")[:2]
    assert which == ""
    assert where == str(SRC / "toolcast" / "compile.py")


def test_the_public_functions_keep_their_signatures_and_docstrings():
    """Compiled as plain C functions, compile_tool and compile_tools still answer
    inspect.signature() and help() as written (setup.py embeds their signatures)."""
    import inspect

    for fn, first in ((toolcast.compile_tool, "tool"), (toolcast.compile_tools, "tools")):
        params = inspect.signature(fn).parameters
        assert list(params) == [first, "target", "api", "rules", "strict", "allow_lossy", "optional_null", "enforce", "describe"]
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
def test_compiled_and_source_agree_on_the_corpus():
    """Every result on the corpus, key order included, is the same compiled and as source."""
    code = _COMPILE_ALL % {"bench": str(ROOT / "benchmarks")}
    compiled, source = _run(code), _run(code, source=True)
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
    # Compiled, the installed build; as Python, the checkout's source (once if they are the same).
    for source in (False, True) if INFO.compiled else (False,):
        p = _run(code, source=source)
        assert p.returncode == 0, (source, p.returncode, p.stderr[-2000:])
        lines = p.stdout.splitlines()
        assert len(lines) == 2
        assert all("openai/schema-too-deep" in line for line in lines), (source, lines)


def test_the_license_ships_with_the_distribution():
    """pyproject.toml declares Apache-2.0 and lists LICENSE in license-files: the installed
    distribution (wheel or editable) carries the text, as the sdist does."""
    from importlib.metadata import distributions

    # The install's own metadata (in site-packages), not an egg-info a source build left in src/.
    site = sorted({sysconfig.get_path("purelib"), sysconfig.get_path("platlib")})
    (dist,) = distributions(name="toolcast", path=site)
    assert dist.metadata["License-Expression"] == "Apache-2.0"
    assert "LICENSE" in (dist.metadata.get_all("License-File") or [])
    text = dist.read_text("licenses/LICENSE")
    assert text == (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.split()[:6] == ["Apache", "License", "Version", "2.0,", "January", "2004"]
    assert "END OF TERMS AND CONDITIONS" in text and "APPENDIX: How to apply the Apache License" in text
