"""Load, validate and resolve the rule spec (spec/<provider>/<version>.yaml) for the generator.

The code lives in the package (toolcast._spec), so that a spec folder can be loaded at run time
with the same code (toolcast.rules.load_spec_dir); this module keeps the generator's and the tests'
names, with the repository's spec/ as the default folder."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC_DIR = ROOT / "spec"
if str(ROOT / "src") not in sys.path:  # (a checkout without toolcast installed)
    sys.path.insert(0, str(ROOT / "src"))

from toolcast._spec import load as _load  # noqa: E402
from toolcast._spec.load import (  # noqa: E402,F401
    CATALOGUE,
    MERGE_DEPTH,
    MESSAGE_FIELDS,
    REQUIRED_SECTIONS,
    Document,
    Registry,
    SpecError,
    Version,
    fmt_path,
    load_yaml,
    observation_problem,
    resolve,
    validate_document,
)


def discover(spec_dir: Path = SPEC_DIR, fallback: Registry | None = None) -> dict[str, dict[str, Version]]:
    """Every rule version under spec_dir, validated against the meta-schema, by provider."""
    return _load.discover(spec_dir, fallback)


def load_meta_schema(spec_dir: Path = SPEC_DIR) -> dict:
    """The meta-schema of spec_dir (a copy of spec/ carries its own)."""
    return _load.load_meta_schema(spec_dir)
