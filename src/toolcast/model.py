"""Result types: diagnostics, transformations, compile results, the ITEMS sentinel and errors."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal["strict", "non-strict", "refused"]


class _Items:
    """Null-path step meaning "every element of the array here" (JSON: null)."""

    __slots__ = ()
    _instance: _Items | None = None

    def __new__(cls) -> _Items:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ITEMS"

    def __reduce__(self) -> str:
        return "ITEMS"

    def __copy__(self) -> _Items:
        return self

    def __deepcopy__(self, memo: dict) -> _Items:
        return self


ITEMS = _Items()
PathStep = str | _Items
NullPath = tuple[PathStep, ...]


class cached_property:
    """functools.cached_property without its per-instance lock (Python 3.11 takes one per read).

    Computed on first read and stored in the instance: paths and messages cost nothing unread.
    """

    def __init__(self, fn: Any) -> None:
        self.fn = fn
        self.name = fn.__name__
        self.__doc__ = fn.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, cls: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


def pointer(base: str, tokens: tuple) -> str:
    """`#/properties/a~1b` style location; base is "#" for the schema, else a tool field."""
    if not tokens:
        return base
    parts = [str(t).replace("~", "~0").replace("/", "~1") for t in tokens]
    return base + "/" + "/".join(parts)


@dataclass(frozen=True, eq=False)
class Diagnostic:
    """One finding: a stable code at a place, with the catalogue's severity, outcome and message."""

    code: str
    base: str
    tokens: tuple
    params: tuple[tuple[str, Any], ...]
    entry: tuple = field(repr=False)  # (severity, outcome, template, docs, cites, status)

    @cached_property
    def path(self) -> str:
        return pointer(self.base, self.tokens)

    @property
    def severity(self) -> str:
        return self.entry[0]

    @property
    def outcome(self) -> str:
        return self.entry[1]

    @property
    def docs_url(self) -> str:
        return self.entry[3]

    @cached_property
    def message(self) -> str:
        # Formatted only when someone reads it: most compiles never print their messages.
        return self.entry[2].format_map(_Params(self.params))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Diagnostic):
            return NotImplemented
        return (self.code, self.path, self.params) == (other.code, other.path, other.params)

    def __hash__(self) -> int:
        return hash((self.code, self.path))

    def __repr__(self) -> str:
        return f"Diagnostic({self.code!r}, {self.path!r})"

    def to_dict(self) -> dict:
        return {
            "code": self.code,
            "severity": self.severity,
            "outcome": self.outcome,
            "path": self.path,
            "message": self.message,
            "docs_url": self.docs_url,
        }


class _Params(dict):
    def __init__(self, pairs: tuple) -> None:
        super().__init__(pairs)

    def __missing__(self, key: str) -> str:
        return "?"


@dataclass(frozen=True, eq=False)
class Transformation:
    """One change made to the schema: a stable code at a place; lossy when it widens."""

    code: str
    base: str
    tokens: tuple
    note: str
    entry: tuple = field(repr=False)  # (lossy, detail, status)

    @cached_property
    def path(self) -> str:
        return pointer(self.base, self.tokens)

    @property
    def lossy(self) -> bool:
        return self.entry[0]

    @property
    def detail(self) -> str:
        return f"{self.entry[1]} {self.note}" if self.note else self.entry[1]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transformation):
            return NotImplemented
        return (self.code, self.path, self.note) == (other.code, other.path, other.note)

    def __hash__(self) -> int:
        return hash((self.code, self.path))

    def __repr__(self) -> str:
        return f"Transformation({self.code!r}, {self.path!r})"

    def to_dict(self) -> dict:
        return {"code": self.code, "path": self.path, "detail": self.detail, "lossy": self.lossy}


def null_path_to_json(path: NullPath) -> list:
    return [None if step is ITEMS else step for step in path]


def null_path_from_json(steps: list) -> NullPath:
    return tuple(ITEMS if step is None else step for step in steps)


@dataclass(frozen=True)
class CompileResult:
    """What compiling one tool produced: its outcome, the emitted tool and the full account."""

    name: str
    status: Status
    tool: dict | None
    null_paths: tuple[NullPath, ...]
    diagnostics: tuple[Diagnostic, ...]
    transformations: tuple[Transformation, ...]
    rules: str
    api: str

    @property
    def lossy(self) -> bool:
        return any(t.lossy for t in self.transformations)

    @property
    def refused(self) -> bool:
        return self.status == "refused"

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "status": self.status,
            "tool": self.tool,
            "null_paths": [null_path_to_json(p) for p in self.null_paths],
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "transformations": [t.to_dict() for t in self.transformations],
        }


class ToolcastError(Exception):
    """Base class of toolcast's own errors."""


class UnknownRulesError(ToolcastError, ValueError):
    """A rule version that does not exist; the message lists the available ones."""


class StrictSchemaError(ToolcastError, ValueError):
    """A schema cannot be made strict without refusal or loss.

    `path` is the JSON-pointer location of the first blocking finding, `keyword_or_limit` the
    keyword or limit name involved, `code` its diagnostic code; `diagnostics` holds them all.
    """

    def __init__(self, path: str, keyword_or_limit: str, code: str, message: str, diagnostics: tuple = ()):
        self.path, self.keyword_or_limit, self.code = path, keyword_or_limit, code
        self.diagnostics = diagnostics
        super().__init__(f"{path}: {message} [{code}]")
