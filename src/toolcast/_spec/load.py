"""The spec as the generator and the run time read it: discover a folder's versions and resolve
each (toolcast._spec.resolve merges, toolcast._spec.checks checks)."""

from __future__ import annotations

from toolcast._spec.checks import check_semantics, observation_problem
from toolcast._spec.resolve import (
    CATALOGUE,
    MERGE_DEPTH,
    MESSAGE_FIELDS,
    REQUIRED_SECTIONS,
    Registry,
    Version,
    builtin_spec_dir,
    discover,
    expand_terms,
    load_meta_schema,
    raw,
    validate_document,
)
from toolcast._spec.yamldoc import Document, SpecError, fmt_path, load_yaml

__all__ = [
    "CATALOGUE", "MERGE_DEPTH", "MESSAGE_FIELDS", "REQUIRED_SECTIONS", "Document", "Registry", "SpecError", "Version",
    "builtin_spec_dir", "discover", "fmt_path", "load_meta_schema", "load_yaml", "observation_problem", "resolve",
    "validate_document",
]


def resolve(versions: dict[str, Version], name: str, _stack: tuple = ()) -> dict:
    """The fully materialised rules of one version (the catalogue and its ancestors merged under it,
    the catalogue's terms filled in), checked."""
    v = versions[name]
    if v.resolved is not None:
        return v.resolved
    resolved = expand_terms(raw(v, _stack), v.doc)
    check_semantics(v, resolved)
    v.resolved = resolved
    return resolved


