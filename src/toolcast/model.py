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


class CompileResult:
    """What compiling one tool produced: its outcome, the emitted tool and the full account.

    Read-only. The compiler records its findings as plain (code, place, parameters) records;
    the Diagnostic and Transformation objects are built from them, once, when first read.
    """

    __slots__ = ("_api", "_diagnostics", "_name", "_null_paths", "_records", "_rules", "_status", "_tool",
                 "_transformations")

    def __init__(
        self,
        name: str,
        status: Status,
        tool: dict | None,
        null_paths: tuple[NullPath, ...],
        diagnostics: tuple[Diagnostic, ...],
        transformations: tuple[Transformation, ...],
        rules: str,
        api: str,
    ) -> None:
        self._name, self._status, self._tool, self._null_paths = name, status, tool, null_paths
        self._diagnostics, self._transformations = tuple(diagnostics), tuple(transformations)
        self._rules, self._api, self._records = rules, api, None

    @classmethod
    def _from_records(cls, name: str, status: Status, tool: dict | None, null_paths: tuple, diags: list,
                      trans: list, rules: Any, api: str) -> CompileResult:
        """The compiler's constructor: `diags` holds (code, base, tokens, params), `trans` (code, base,
        tokens, note) records, in report order, repeats included (the first of each is kept)."""
        self = object.__new__(cls)
        self._name, self._status, self._tool, self._null_paths = name, status, tool, null_paths
        self._diagnostics = self._transformations = None
        self._rules, self._api, self._records = rules.id, api, (rules, diags, trans)
        return self

    # Read-only views of the fields (a property without a setter refuses assignment).
    name = property(lambda self: self._name, doc="The tool's name ('' when it has none).")
    status = property(lambda self: self._status, doc="'strict', 'non-strict' or 'refused'.")
    tool = property(lambda self: self._tool, doc="The emitted tool in the API's shape, None when refused.")
    null_paths = property(lambda self: self._null_paths, doc="Where strict mode forced nulls (see strip_nulls).")
    rules = property(lambda self: self._rules, doc="The rule version used, `provider@VERSION`.")
    api = property(lambda self: self._api, doc="'responses' or 'chat'.")

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        if self._diagnostics is None:
            rules, diags, _ = self._records
            entries = rules.diagnostics
            self._diagnostics = tuple(_dedupe([Diagnostic(c, b, t, p, entries[c]) for c, b, t, p in diags], diags))
        return self._diagnostics

    @property
    def transformations(self) -> tuple[Transformation, ...]:
        if self._transformations is None:
            rules, _, trans = self._records
            entries = rules.transformations
            self._transformations = tuple(_dedupe([Transformation(c, b, t, n, entries[c]) for c, b, t, n in trans],
                                                  trans))
        return self._transformations

    @property
    def lossy(self) -> bool:
        if self._transformations is None:
            entries = self._records[0].transformations
            return any(entries[rec[0]][0] for rec in self._records[2])
        return any(t.lossy for t in self._transformations)

    @property
    def refused(self) -> bool:
        return self.status == "refused"

    def _key(self) -> tuple:
        return (self.name, self.status, self.tool, self.null_paths, self.diagnostics, self.transformations,
                self.rules, self.api)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CompileResult):
            return NotImplemented
        return self._key() == other._key()

    __hash__ = None  # type: ignore[assignment]  # holds the emitted tool, a dict

    def __repr__(self) -> str:
        return (f"CompileResult(name={self.name!r}, status={self.status!r}, tool={self.tool!r}, "
                f"null_paths={self.null_paths!r}, diagnostics={self.diagnostics!r}, "
                f"transformations={self.transformations!r}, rules={self.rules!r}, api={self.api!r})")

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "status": self.status,
            "tool": self.tool,
            "null_paths": [null_path_to_json(p) for p in self.null_paths],
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "transformations": [t.to_dict() for t in self.transformations],
        }


def _dedupe(items: list, keys: list) -> list:
    """`items` without repeats (first wins); `keys[i]` is item i's raw fields (code, base, tokens,
    params or note), which determine its equality without formatting a JSON pointer. Unhashable
    parameters fall back to the objects' own equality."""
    if len(items) < 2:
        return items
    try:
        if len(set(keys)) == len(keys):
            return items  # the common case: nothing repeats
        seen: set = set()
        out = []
        for key, item in zip(keys, items, strict=True):
            if key not in seen:
                seen.add(key)
                out.append(item)
        return out
    except TypeError:
        seen, out = set(), []
        for item in items:
            if item not in seen:
                seen.add(item)
                out.append(item)
        return out


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
