"""Build toolcast; the walk's modules are also compiled to C by Cython where that works.

The Python sources stay the one definition of behaviour. Cython compiles them as they are (type
annotations are not read as C types), so a compiled module does exactly what its source does,
only without the interpreter loop. Each compiled module is optional: with no C compiler, or with
TOOLCAST_PURE_PYTHON=1 set at install, toolcast installs as plain Python. At import,
`toolcast/_accel.py` uses a compiled module only when it was built from the source beside it.
"""

from __future__ import annotations

import os
import zlib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# The modules the compile path spends its time in (keep in step with toolcast/_accel.py).
ACCELERATED = ("model", "schema_ops", "interpret", "compile")
HERE = Path(__file__).resolve().parent
SRC = HERE / "src" / "toolcast"
RECORD = "_built.py"


def _source_crc(name: str) -> int:
    return zlib.crc32((SRC / f"{name}.py").read_bytes())


class BuildExt(build_ext):
    """build_ext that records, beside the extensions, which source each was compiled from."""

    def finalize_options(self) -> None:
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1  # the modules compile independently

    def run(self) -> None:
        self._built: dict[str, int] = {}
        super().run()
        if not self.extensions:
            return
        out_dir = Path(self.get_ext_fullpath(self.extensions[0].name)).parent
        out_dir.mkdir(parents=True, exist_ok=True)
        lines = "".join(f"    {name!r}: {crc},\n" for name, crc in sorted(self._built.items()))
        text = (
            '"""Written by setup.py when it compiled these modules: the crc32 of the source each was\n'
            'compiled from (toolcast/_accel.py uses an extension only while its source is unchanged)."""\n\n'
            f"SOURCES = {{\n{lines}}}\n"
        )
        tmp = out_dir / (RECORD + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out_dir / RECORD)

    def build_extension(self, ext: Extension) -> None:
        crc = _source_crc(ext.name.rsplit(".", 1)[1])  # read before compiling: what was compiled
        super().build_extension(ext)  # an optional extension that fails raises here, unrecorded
        self._built[ext.name.rsplit(".", 1)[1]] = crc


def _extensions() -> list:
    if os.environ.get("TOOLCAST_PURE_PYTHON", "") not in ("", "0"):  # as toolcast._accel.pure_requested
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:  # a build without Cython: plain Python
        return []
    compiled = []
    for name in ACCELERATED:
        directives = {
            "language_level": 3,
            # Annotations document; they are not C types (a `list` annotation must not reject a
            # tuple, as plain Python would not).
            "annotation_typing": False,
            # Plain C functions rather than function objects that imitate Python's: faster calls
            # (about a tenth off mcp and large). Such a function has no __code__, so
            # inspect.signature() reads the signature from its docstring, where "clinic" puts it.
            "binding": False,
            "embedsignature": True,
            "embedsignature.format": "clinic",
        }
        if name == "model":
            # The public result classes: their methods stay full function objects (signatures and
            # docstrings as written); nothing in them is hot.
            directives.update({"binding": True, "embedsignature": False})
        # No debug information: it takes most of the compile's time and most of the size.
        extension = Extension(f"toolcast.{name}", [f"src/toolcast/{name}.py"], extra_compile_args=["-g0"])
        compiled += cythonize([extension], quiet=True, compiler_directives=directives)
    for ext in compiled:
        ext.optional = True  # cythonize's copies drop it: a module that fails to compile stays Python
    return compiled


if __name__ == "__main__":  # as setuptools runs it; tests import the functions above
    setup(ext_modules=_extensions(), cmdclass={"build_ext": BuildExt})
