"""The named records the generated rule tables are made of, one NamedTuple per kind of entry."""

from __future__ import annotations

from typing import NamedTuple


class KeywordEntry(NamedTuple):
    """What the rules say about one keyword (its class resolved to the class's action and codes)."""

    cls: str
    action: str  # keep | drop | rewrite
    handler: str | None  # the rewrite or keep handler that applies to it, if any
    value: str  # the value kind a valid value has
    diagnostic: str | None
    transformation: str | None
    cite: tuple[str, ...]
    most: int | None = None  # handler at-most: the largest value kept (a larger one is dropped, lossy)


class ClassEntry(NamedTuple):
    """A keyword class: what happens to its keywords, and the codes that record it."""

    action: str
    diagnostic: str | None
    transformation: str | None


class LimitEntry(NamedTuple):
    value: int
    code: str  # the diagnostic code reported past it
    cite: tuple[str, ...]
    counts: str  # what the limit counts (see spec.schema.json, limits)


class BudgetEntry(NamedTuple):
    """A limit over a whole request (compile_tools): what it counts and which tools it applies to."""

    value: int
    code: str  # the diagnostic code of a tool past it
    counts: str  # tools | strict-tools | optional-parameters | union-parameters
    applies: str  # all (refused in every mode) | strict (sent non-strict under auto)
    cite: tuple[str, ...]


class SlotEntry(NamedTuple):
    """A schema-valued keyword: the shape of its value, and how a descent into it counts depth."""

    kind: str  # schema | list | map | schema-or-list
    depth: int | str  # levels added, or "reset"


class DiagnosticEntry(NamedTuple):
    severity: str
    outcome: str  # fixes | lossy | refuses | reports
    message: str
    docs: str
    cite: tuple[str, ...]
    status: str  # active | reserved
    pattern: str | None  # the provider-neutral pattern it reports (None: reported by no action)


class TransformationEntry(NamedTuple):
    lossy: bool
    detail: str
    status: str
    pattern: str


class RegexClassEntry(NamedTuple):
    action: str  # keep | drop (the pattern)
    diagnostic: str
    transformation: str | None


class RegexFeatureEntry(NamedTuple):
    cls: str
    cite: tuple[str, ...]


class SourceEntry(NamedTuple):
    title: str
    url: str  # an observation's: its record file in the repository (spec/observations/...)
    date: str
    evidence: str | None
    model: str | None = None  # an observation (evidence O): the model asked
    record: str | None = None  # an observation: the probe record, relative to spec/
