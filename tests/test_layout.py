"""The source layout keeps the shape the architecture promises: every module says its role, none
grows past a reviewable size, no function is a page long, and no two modules import each other."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "toolcast"

MAX_MODULE_LINES = 560  # "no hand-written module over ~500 lines"
MAX_FUNCTION_LINES = 80
# Data, not logic: the generated rule tables, and ECMA-262's list of property names and values.
DATA_MODULES = {"_regex/_unicode_props.py"}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_tables" not in p.relative_to(PACKAGE).parts)


def _name(path: Path, src: Path = SRC) -> str:
    return ".".join(path.relative_to(src).with_suffix("").parts).removesuffix(".__init__")


def _rel(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


@pytest.mark.parametrize("path", _modules(), ids=_rel)
def test_every_module_states_its_role(path: Path) -> None:
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert doc and doc.strip(), f"{_rel(path)} has no module docstring saying what it is for"


def test_no_hand_written_module_is_oversized() -> None:
    big = {
        _rel(p): n
        for p in _modules()
        if _rel(p) not in DATA_MODULES and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert not big, f"modules over {MAX_MODULE_LINES} lines (split them by role): {big}"


def test_no_function_is_a_page_long() -> None:
    long = []
    for p in _modules():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long.append(f"{_rel(p)}:{node.lineno} {node.name} ({n} lines)")
    assert not long, f"functions over {MAX_FUNCTION_LINES} lines: {long}"


def _imports(path: Path, known: set[str], src: Path = SRC) -> set[str]:
    """The toolcast modules `path` imports, anywhere in it (a deferred import is still a
    dependency), leaving out its own enclosing packages, which Python imports first anyway."""
    me = _name(path, src)
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{a.name}" for a in node.names} & known
            out |= subs
            if len(subs) < len(node.names):
                out.add(node.module)
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return {m for m in out & known if m != me and not me.startswith(m + ".")}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` (module -> modules it imports), or None."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        return exc.args[1]
    return None


def test_no_import_cycles() -> None:
    paths = sorted(PACKAGE.rglob("*.py"))
    known = {_name(p) for p in paths}
    graph = {_name(p): _imports(p, known) for p in paths}
    assert _cycle(graph) is None


def test_the_cycle_finder_finds_a_cycle_of_deferred_imports(tmp_path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("from pkg.b import x\n")
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    from pkg import a\n")
    (tmp_path / "pkg" / "c.py").write_text("import pkg.a\n")
    (tmp_path / "pkg" / "__init__.py").write_text("from pkg.c import y\n")  # the parent: not a cycle
    paths = sorted((tmp_path / "pkg").glob("*.py"))
    known = {_name(p, tmp_path) for p in paths}
    cycle = _cycle({_name(p, tmp_path): _imports(p, known, tmp_path) for p in paths})
    assert cycle is not None and set(cycle) == {"pkg.a", "pkg.b"}


def test_no_provider_name_in_the_walk() -> None:
    providers = ("openai", "anthropic", "gemini", "vertex", "claude", "google")
    hits = []
    for p in sorted((PACKAGE / "walk").rglob("*.py")):
        for i, line in enumerate(p.read_text(encoding="utf-8").lower().splitlines(), 1):
            hits += [f"{_rel(p)}:{i}: {name}" for name in providers if name in line]
    assert not hits, hits
