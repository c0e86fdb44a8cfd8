"""A spec folder loaded at run time (toolcast.rules.load_spec_dir, TOOLCAST_SPEC_PATH, `--spec
DIR`): its versions resolved and checked as tools/gen_tables.py does, over the built-in spec for the
versions they extend, and their tables rendered and executed in memory."""

from __future__ import annotations

import types
from pathlib import Path

from toolcast._spec.load import Registry, SpecError, builtin_spec_dir
from toolcast._spec.render import build, module_name

_BUILTIN: list[Registry] = []  # the built-in spec's registry, read once (only its raw versions are used)


def _builtin_registry(spec_dir: Path) -> Registry | None:
    builtin = builtin_spec_dir()
    if builtin is None or builtin.resolve() == spec_dir.resolve():
        return None
    if not _BUILTIN:
        _BUILTIN.append(Registry(builtin, lazy=True))
    return _BUILTIN[0]


def load(spec_dir: Path) -> tuple[types.ModuleType, dict[tuple[str, str], types.ModuleType]]:
    """(the folder's index: VERSIONS, DEFAULTS, FAMILIES; {(provider, version): its table module})."""
    spec_dir = Path(spec_dir)
    if not spec_dir.is_dir():
        raise SpecError(spec_dir, None, "", "not a folder (a spec folder holds <provider>/<version>.yaml files)")
    found, files = build(spec_dir, _builtin_registry(spec_dir))
    if not found:
        raise SpecError(spec_dir, None, "", "holds no <provider>/<version>.yaml file")
    index = _execute("toolcast._tables._loaded", files["__init__.py"])
    modules = {}
    for provider, vs in found.items():
        for version in vs:
            name = module_name(provider, version)
            modules[(provider, version)] = _execute(f"toolcast._tables._loaded.{name}", files[f"{name}.py"])
    return index, modules


def _execute(name: str, source: str) -> types.ModuleType:
    module = types.ModuleType(name)
    exec(compile(source, f"<{name}>", "exec"), module.__dict__)  # literals the generator wrote
    return module
