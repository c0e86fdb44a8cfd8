"""Build toolcast as plain Python, or, with TOOLCAST_COMPILE=1, with its hot modules compiled by Cython.

Compiling is opt-in at build time, as black ships its mypyc wheels: `TOOLCAST_COMPILE=1 pip
install .` (or `pip wheel .`) compiles the modules in COMPILED; without the variable, and in every
editable install, toolcast is its Python source and nothing else. The Python sources stay the one
definition of behaviour: Cython compiles them as they are (type annotations are not read as C
types), so a compiled module does what its source does, only without the interpreter loop. Beside
the walk's modules (the state of one walk, walk/state.py, and the functions over it) and a few of
their helpers, a `.pxd` file declares the state an extension type and the functions C functions:
Cython's "augmenting .pxd", which adds no code and changes no behaviour (the state's attributes
become C fields, calls between the walk's functions direct C calls). Each extension is optional: where
one fails to compile (no C compiler, no Python headers), that module installs as Python, and
with one of those bound to each other's C layout, all of them (see LINKED). `toolcast --version` and `toolcast.build_info()` say which build runs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

# The modules TOOLCAST_COMPILE=1 compiles: the one list, as paths under src/ (a path that does not
# exist fails the build). Each maps to the Cython directives it sets beyond DIRECTIVES.
COMPILED: dict[str, dict] = {
    # The public result classes: their methods stay full function objects (signatures and
    # docstrings as written); nothing in them is hot.
    "toolcast/model.py": {"binding": True, "embedsignature": False},
    "toolcast/compile.py": {},
    "toolcast/tool_input.py": {},
    # The walk: the modules a compile spends its time in. The state (state.py) is declared an
    # extension type, and the functions over it C functions, in their .pxd files (see LINKED).
    "toolcast/walk/state.py": {},
    "toolcast/walk/walker.py": {},
    "toolcast/walk/descent.py": {},
    "toolcast/walk/keywords.py": {},
    "toolcast/walk/containers.py": {},
    "toolcast/walk/plans.py": {},
    "toolcast/walk/leaves.py": {},
    "toolcast/walk/combinators.py": {},
    "toolcast/walk/refs.py": {},
    "toolcast/walk/nullpaths.py": {},
    "toolcast/walk/semantics.py": {},
    "toolcast/walk/values.py": {},
    "toolcast/walk/document.py": {},
    "toolcast/walk/dialect.py": {},
    "toolcast/walk/resources.py": {},
    "toolcast/walk/subset.py": {},
    "toolcast/walk/unlisted.py": {},
    # The run-time loop: tool_calls reads every call of a response through these (compiled,
    # 0.85-1.2x json.loads of the arguments; as Python, 1.3-1.5x). The public classes and
    # functions keep full function objects, as model.py's do.
    "toolcast/_runtime/json_limits.py": {},
    "toolcast/nulls.py": {},
    "toolcast/_runtime/loop.py": {"binding": True, "embedsignature": False},
    "toolcast/providers/openai.py": {"binding": True, "embedsignature": False},
    "toolcast/providers/anthropic.py": {"binding": True, "embedsignature": False},
    "toolcast/providers/gemini.py": {"binding": True, "embedsignature": False},
    "toolcast/_runtime/lean_calls.py": {},
    # A tool sent without strict: the copy of its original (one traversal) and the passes that make
    # it acceptable to its provider (an older dialect's document written in 2020-12 terms among them).
    "toolcast/sent_copy.py": {},
    "toolcast/sent_refs.py": {},
    "toolcast/sendable.py": {},
    "toolcast/sent_valid.py": {},
    "toolcast/sent_dialect.py": {},
}
# Modules whose .pxd cimports another's, or is cimported: compiled, each is bound to the others' C
# layout, so they are compiled all together or not at all (where one fails, the others install as
# Python too). tests/test_accel.py checks this list against the .pxd files.
LINKED = frozenset(f"toolcast/walk/{m}.py" for m in (
    "state", "plans", "document", "nullpaths", "leaves", "keywords", "refs", "combinators", "containers", "descent",
    "walker", "dialect", "resources"))
DIRECTIVES = {
    "language_level": 3,
    # Annotations document; they are not C types (a `list` annotation must not reject a tuple, as
    # plain Python would not).
    "annotation_typing": False,
    # Plain C functions rather than function objects that imitate Python's: faster calls (about a
    # tenth off mcp and large). Such a function has no __code__, so inspect.signature() reads the
    # signature from its docstring, where "clinic" puts it.
    "binding": False,
    "embedsignature": True,
    "embedsignature.format": "clinic",
}
ENV = "TOOLCAST_COMPILE"
SRC = Path(__file__).resolve().parent / "src"


def compile_requested(environ: dict | os._Environ = os.environ) -> bool:
    """Whether the build was asked to compile: TOOLCAST_COMPILE set to anything but "" or "0"."""
    return environ.get(ENV, "") not in ("", "0")


def check_listed(modules: dict[str, dict] = COMPILED) -> None:
    """Fail the build, naming them, if listed modules do not exist (checked in every build, so
    that a module renamed or moved cannot quietly drop out of the compiled one)."""
    missing = [path for path in modules if not (SRC / path).is_file()]
    if missing:
        raise SystemExit(f"setup.py: COMPILED lists modules that do not exist under src/: {', '.join(missing)}")


def _extensions(modules: dict[str, dict] = COMPILED) -> list[Extension]:
    """One optional extension per listed module, its source the .py file: Cython runs when the
    extension is built, so an editable install, which builds none, never runs it."""
    check_listed(modules)
    extensions = []
    for path, directives in modules.items():
        # No debug information: it takes most of the compile's time and most of the size.
        ext = Extension(path[: -len(".py")].replace("/", "."), [f"src/{path}"], extra_compile_args=["-g0"])
        ext.optional = True  # a module that fails to compile stays Python
        ext.cython_directives = {**DIRECTIVES, **directives}
        ext.cython_c_in_temp = True  # Cython's C goes to the build directory, not beside the source
        ext.cython_include_dirs = [str(SRC)]  # where a .pxd finds the ones it cimports
        ext.linked = path in LINKED
        extensions.append(ext)
    return extensions


class BuildExt(build_ext):
    """build_ext that compiles nothing in an editable install. Where Cython is installed,
    setuptools' build_ext is Cython's: it runs Cython on each extension's .py source first."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if self.extensions and self.editable_mode:
            # An editable install runs its source: an extension built beside it would shadow
            # every later edit of that source.
            print(f"setup.py: {ENV} is ignored by an editable install, which runs the Python source",
                  file=sys.stderr)
            self.extensions = []
        if self.extensions and not _has_cython():
            print(f"setup.py: {ENV} is set but Cython is not installed: building plain Python", file=sys.stderr)
            self.extensions = []
        if not self.parallel:
            self.parallel = os.cpu_count() or 1  # the modules compile independently
        self._built: set[str] = set()

    def build_extension(self, ext: Extension) -> None:
        super().build_extension(ext)  # (a failure of an optional one is caught and reported by the caller)
        self._built.add(ext.name)

    def run(self) -> None:
        super().run()
        linked = [ext for ext in self.extensions if getattr(ext, "linked", False)]
        failed = [ext.name for ext in linked if ext.name not in self._built]
        if failed:
            # A module of the walk runs compiled only beside the ones whose C declarations it
            # cimports: the others go too, so that the whole walk installs as Python.
            print(f"setup.py: {', '.join(failed)} did not compile: installing the walk's linked modules as Python",
                  file=sys.stderr)
            for ext in linked:
                for path in (self.get_ext_fullpath(ext.name), Path(self.build_lib, self.get_ext_filename(ext.name))):
                    Path(path).unlink(missing_ok=True)


# The rule spec a wheel carries (toolcast/_spec/builtin/): what a spec folder loaded at run time
# (`--spec DIR`, TOOLCAST_SPEC_PATH) extends across providers, e.g. `extends: openai@VERSION`. The
# repository's spec/ stays the one copy maintainers edit; a checkout reads it where it is.
SPEC = Path(__file__).resolve().parent / "spec"
SPEC_FILES = ("*.json", "*.yaml", "*/*.yaml", "observations/*")


def spec_files(spec: Path = SPEC) -> list[Path]:
    """The files of spec/ a wheel ships, relative to it (its README and the rest stay behind)."""
    return sorted({p.relative_to(spec) for pattern in SPEC_FILES for p in spec.glob(pattern) if p.is_file()})


class BuildPy(build_py):
    """build_py that also copies the rule spec into the built package (not in an editable install,
    which reads the checkout's spec/)."""

    def run(self) -> None:
        super().run()
        if self.editable_mode or not SPEC.is_dir():
            return
        target = Path(self.build_lib, "toolcast", "_spec", "builtin")
        for rel in spec_files():
            self.mkpath(str((target / rel).parent))
            self.copy_file(str(SPEC / rel), str(target / rel))


def _has_cython() -> bool:
    try:
        import Cython.Build  # noqa: F401
    except ImportError:
        return False
    return True


if __name__ == "__main__":  # as setuptools runs it; tests import the functions above
    check_listed()
    setup(ext_modules=_extensions() if compile_requested() else [], cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
