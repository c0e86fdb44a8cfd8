"""The source layout keeps the shape the architecture promises: every module says its role, none
grows past a reviewable size, no function is a page long, and no two modules import each other."""

from __future__ import annotations

import ast
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


def _name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")


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


def _imports(path: Path, known: set[str]) -> set[str]:
    """The toolcast modules `path` imports, anywhere in it (a deferred import is still a
    dependency), leaving out its own enclosing packages, which Python imports first anyway."""
    me = _name(path)
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


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (iterative Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on.add(start)
        while work:
            v, edges = work[-1]
            w = next(edges, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_no_import_cycles() -> None:
    paths = sorted(PACKAGE.rglob("*.py"))
    known = {_name(p) for p in paths}
    graph = {_name(p): _imports(p, known) for p in paths}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_no_provider_name_in_the_walk() -> None:
    providers = ("openai", "anthropic", "gemini", "vertex", "claude", "google")
    hits = []
    for p in sorted((PACKAGE / "walk").rglob("*.py")):
        for i, line in enumerate(p.read_text(encoding="utf-8").lower().splitlines(), 1):
            hits += [f"{_rel(p)}:{i}: {name}" for name in providers if name in line]
    assert not hits, hits
