"""Result types: diagnostics, transformations, compile results, the ITEMS sentinel and errors."""

from __future__ import annotations

from operator import attrgetter
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


def pointer(base: str, tokens: tuple) -> str:
    """`#/properties/a~1b` style location; base is "#" for the schema, else a tool field."""
    if not tokens:
        return base
    parts = [str(t).replace("~", "~0").replace("/", "~1") for t in tokens]
    return base + "/" + "/".join(parts)


class _Finding:
    """What a diagnostic and a transformation share: a stable code at a place, from the tables."""

    __slots__ = ("_base", "_code", "_entry", "_path", "_tokens")

    code = property(attrgetter("_code"), doc="The stable code, e.g. `strict-optional-property` under its provider's prefix.")
    base = property(attrgetter("_base"), doc='"#" for the schema, else the tool field the finding is about.')
    tokens = property(attrgetter("_tokens"), doc="The place below `base`, as keys and indexes.")
    entry = property(attrgetter("_entry"), doc="The catalogue entry from the rule tables.")

    @property
    def path(self) -> str:
        """The place as a JSON pointer, formatted on first read."""
        if self._path is None:
            self._path = pointer(self._base, self._tokens)
        return self._path

    def __hash__(self) -> int:
        return hash((self._code, self.path))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._code!r}, {self.path!r})"


class Diagnostic(_Finding):
    """One finding: a stable code at a place, with the catalogue's severity, outcome and message.

    Read-only (its fields are properties without setters). The JSON pointer and the message are
    formatted on first read: most compiles never print them.
    """

    __slots__ = ("_message", "_params", "_unsent")

    def __init__(self, code: str, base: str, tokens: tuple, params: tuple[tuple[str, Any], ...], entry: tuple,
                 unsent: bool = False):
        # entry: (severity, outcome, template, docs, cites, status) from the rule tables; `unsent`:
        # the finding is about a form of the schema that was not sent (see CompileResult)
        self._code, self._base, self._tokens, self._params, self._entry = code, base, tokens, params, entry
        self._path = self._message = None
        self._unsent = unsent

    params = property(attrgetter("_params"), doc="The message's parameters, as (name, value) pairs.")

    @property
    def severity(self) -> str:
        return self._entry[0]

    @property
    def outcome(self) -> str:
        return self._entry[1]

    @property
    def docs_url(self) -> str:
        return self._entry[3]

    @property
    def applied(self) -> bool:
        """False for a change (a fix, lossy or not) that is not in what was sent: a non-strict tool
        sends its original schema, a refused one nothing. True for every other finding."""
        return not (self._unsent and self._entry[1] in _CHANGING)

    @property
    def message(self) -> str:
        if self._message is None:
            self._message = self._entry[2].format_map(_Params(self._params))
        return self._message

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Diagnostic):
            return NotImplemented
        return (self._code, self.path, self._params) == (other._code, other.path, other._params)

    __hash__ = _Finding.__hash__

    def to_dict(self) -> dict:
        d = {
            "code": self._code,
            "severity": self._entry[0],
            "outcome": self._entry[1],
            "path": self.path,
            "message": self.message,
            "docs_url": self._entry[3],
        }
        if not self.applied:
            d["applied"] = False  # only then: the findings of what was sent keep their bytes
        return d

    def _as_unsent(self) -> Diagnostic:
        return Diagnostic(self._code, self._base, self._tokens, self._params, self._entry, True)


# The outcomes of findings that say the schema was changed.
_CHANGING = frozenset({"fixes", "lossy"})


class _Params(dict):
    def __init__(self, pairs: tuple) -> None:
        super().__init__(pairs)

    def __missing__(self, key: str) -> str:
        return "?"


class Transformation(_Finding):
    """One change made to the schema: a stable code at a place; lossy when it widens. Read-only."""

    __slots__ = ("_note", "_unsent")

    def __init__(self, code: str, base: str, tokens: tuple, note: str, entry: tuple, unsent: bool = False):
        # entry: (lossy, detail, status) from the rule tables; `unsent`: made to a form of the
        # schema that was not sent (see CompileResult)
        self._code, self._base, self._tokens, self._note, self._entry = code, base, tokens, note, entry
        self._path = None
        self._unsent = unsent

    applied = property(lambda self: not self._unsent, doc="Whether the change is in what was sent.")

    note = property(attrgetter("_note"), doc="What this occurrence adds to the catalogue's detail ('' if nothing).")

    @property
    def lossy(self) -> bool:
        return self._entry[0]

    @property
    def detail(self) -> str:
        return f"{self._entry[1]} {self._note}" if self._note else self._entry[1]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Transformation):
            return NotImplemented
        return (self._code, self.path, self._note) == (other._code, other.path, other._note)

    __hash__ = _Finding.__hash__

    def to_dict(self) -> dict:
        d = {"code": self._code, "path": self.path, "detail": self.detail, "lossy": self._entry[0]}
        if self._unsent:
            d["applied"] = False
        return d

    def _as_unsent(self) -> Transformation:
        return Transformation(self._code, self._base, self._tokens, self._note, self._entry, True)


def unsent(findings: tuple, sent: tuple = ()) -> tuple:
    """`findings` marked as about a form of the schema that was not sent (a result whose outcome a
    request decided after its compile), but for those found in `sent`, the findings of what was."""
    kept = set(sent)
    return tuple(f if f in kept else f._as_unsent() for f in findings)


def null_path_to_json(path: NullPath) -> list:
    return [None if step is ITEMS else step for step in path]


def null_path_from_json(steps: list) -> NullPath:
    return tuple(ITEMS if step is None else step for step in steps)


class CompileResult:
    """What compiling one tool produced: its outcome, the emitted tool and the full account.

    Read-only. The compiler records its findings as plain (code, place, parameters) records;
    the Diagnostic and Transformation objects are built from them, once, when first read.
    """

    __slots__ = ("_api", "_diagnostics", "_enforcement", "_name", "_null_paths", "_records", "_rules", "_status",
                 "_tool", "_transformations", "_unsent")

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
        self._rules, self._api, self._records, self._unsent = rules, api, None, None
        self._enforcement = None

    @classmethod
    def _from_records(cls, name: str, status: Status, tool: dict | None, null_paths: tuple, diags: list,
                      trans: list, rules: Any, api: str, unsent: tuple[int, int] | None = None) -> CompileResult:
        """The compiler's constructor: `diags` holds (code, base, tokens, params), `trans` (code, base,
        tokens, note) records, in report order, repeats included (the first of each is kept). With
        `unsent` (n_diags, n_trans), the records from those indexes on are about a form of the
        schema that was not sent (a non-strict tool's compiled schema; everything of a refused one)."""
        self = object.__new__(cls)
        # (one statement per field: a multiple assignment builds and unpacks a tuple per result)
        self._name = name
        self._status = status
        self._tool = tool
        self._null_paths = null_paths
        self._diagnostics = self._transformations = self._enforcement = None
        self._rules = rules.id
        self._api = api
        self._records = (rules, diags, trans)
        self._unsent = unsent
        return self

    # Read-only views of the fields (a property without a setter refuses assignment).
    name = property(lambda self: self._name, doc="The tool's name ('' when it has none).")
    status = property(lambda self: self._status, doc="'strict', 'non-strict' or 'refused'.")
    tool = property(lambda self: self._tool, doc="The emitted tool in the API's shape, None when refused.")
    null_paths = property(lambda self: self._null_paths, doc="Where strict mode forced nulls (see strip_nulls).")
    rules = property(lambda self: self._rules, doc="The rule version used, `provider@VERSION`.")
    api = property(lambda self: self._api, doc="'responses' or 'chat'.")

    @property
    def enforced(self) -> tuple:
        """The constraints the sent schema cannot carry and the run time checks on each call
        (compile with enforce=True): toolcast.enforce.Enforced (path, constraint, code) each."""
        return self._enforcement[0] if self._enforcement is not None else ()

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        if self._diagnostics is None:
            rules, diags, trans = self._records
            entries = rules.diagnostics
            records, exact = _unique_records(_resolved(diags, trans, rules.optional_codes))
            if self._unsent is None:
                found = [Diagnostic(c, b, t, p, entries[c]) for c, b, t, p in records]
            else:
                # The records before the cut are the tool's own (name, description: no pair to
                # expand, so the cut holds after expansion) and come first, so repeats removed
                # after them leave it in place.
                cut = self._unsent[0]
                found = [Diagnostic(c, b, t, p, entries[c], i >= cut) for i, (c, b, t, p) in enumerate(records)]
            if self._enforcement is not None:
                found = [_as_enforced(d) if (d._base, d._tokens) in self._enforcement[1] else d for d in found]
            self._diagnostics = tuple(found) if exact else _unique(found)
        return self._diagnostics

    @property
    def transformations(self) -> tuple[Transformation, ...]:
        if self._transformations is None:
            rules, _, trans = self._records
            entries = rules.transformations
            records, exact = _unique_records(trans)
            cut = len(records) if self._unsent is None else self._unsent[1]
            found = [Transformation(c, b, t, n, entries[c], i >= cut) for i, (c, b, t, n) in enumerate(records)]
            self._transformations = tuple(found) if exact else _unique(found)
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

    def __reduce__(self) -> tuple:
        # Pickled and copied with its findings built: the records refer to the rule tables' module.
        args = (self._name, self._status, self._tool, self._null_paths, self.diagnostics, self.transformations,
                self._rules, self._api)
        return (CompileResult, args) if self._enforcement is None else (CompileResult, args, self._enforcement)

    def __setstate__(self, state: tuple) -> None:
        self._enforcement = state  # (enforce: what the run time checks, see __reduce__)

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
        d = {
            "name": self.name,
            "status": self.status,
            "tool": self.tool,
            "null_paths": [null_path_to_json(p) for p in self.null_paths],
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "transformations": [t.to_dict() for t in self.transformations],
        }
        if self._enforcement is not None:  # only then: every other result keeps its bytes
            d["enforced"] = [e.to_dict() for e in self._enforcement[0]]
        return d


def _as_enforced(d: Diagnostic) -> Diagnostic:
    """`d`, a lossy finding whose loss the run time checks, with the outcome `enforced` (severity info)."""
    entry = d._entry
    if entry[1] != "lossy":
        return d
    return Diagnostic(d._code, d._base, d._tokens, d._params, ("info", "enforced", *entry[2:]), d._unsent)


def _unique_records(records: list) -> tuple[Any, bool]:
    """(the records without repeats, first wins; True) — a record's fields decide its finding's
    equality without formatting a JSON pointer — or (all of them; False) when one holds an
    unhashable parameter, for _unique to sort out."""
    if len(records) < 2:
        return records, True
    try:
        return dict.fromkeys(records), True
    except TypeError:
        return records, False


def _unique(items: list) -> tuple:
    """`items` without repeats by their own equality (first wins): the repeats _unique_records
    could not remove because a parameter is unhashable (findings hash by code and place)."""
    seen: set = set()
    out = []
    for item in items:
        if item not in seen:
            seen.add(item)
            out.append(item)
    return tuple(out)


class Deferred:
    """A finding's parameters that the compiler computes only when the finding is first read:
    fn(diags, trans, *args), given the result's own record lists, must give the (name, value)
    pairs. It holds no reference to those lists (that would be a reference cycle: the list holds
    the finding that holds it, and would wait for the cycle collector to be freed)."""

    __slots__ = ("_args", "_fn")

    def __init__(self, fn: Any, *args: Any) -> None:
        self._fn, self._args = fn, args

    def __call__(self, diags: list, trans: list) -> tuple:
        return self._fn(diags, trans, *self._args)


# An optional property made nullable has two diagnostics at one place, both naming it: the walk
# records them as one (OPTIONAL_PAIR, base, tokens, ()) record, `tokens` ending in the name. The
# two codes are the rules' (Rules.optional_codes); this name is no code.
OPTIONAL_PAIR = "+optional-property-made-nullable"


def expanded(records: list, pair_codes: tuple[str, str]) -> list:
    """Diagnostic records with each OPTIONAL_PAIR record replaced by its two diagnostics (`pair_codes`)."""
    if not any(rec[0] == OPTIONAL_PAIR for rec in records):
        return records
    out = []
    opt, null = pair_codes
    for rec in records:
        if rec[0] == OPTIONAL_PAIR:
            _, base, tokens, _ = rec
            named = (("name", tokens[-1]),)
            out.append((opt, base, tokens, named))
            out.append((null, base, tokens, named))
        else:
            out.append(rec)
    return out


def _resolved(records: list, trans: list, pair_codes: tuple[str, str]) -> list:
    """Diagnostic records expanded, with their Deferred parameters computed (from `records` as
    recorded and the transformation records `trans`)."""
    out = expanded(records, pair_codes)
    if not any(type(rec[3]) is Deferred for rec in out):
        return out
    return [(c, b, t, p(records, trans) if type(p) is Deferred else p) for c, b, t, p in out]


class ToolcastError(Exception):
    """Base class of toolcast's own errors."""


class UnknownRulesError(ToolcastError, ValueError):
    """A rule version that does not exist; the message lists the available ones."""


class InvalidToolError(ToolcastError, ValueError):
    """The value is not a tool definition in any shape toolcast reads; `field` names the tool
    field at fault, when it is one (a report points at it). (Defined here, beside the other
    errors, so that toolcast.shapes raises it without importing tool_input, which imports it.)"""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.field = field


def quoted_around_surrogate(text: str) -> str:
    """`text` quoted for a message about its first unpaired UTF-16 surrogate: the 20 characters on
    each side of it, escaped as repr escapes them."""
    at = next((i for i, c in enumerate(text) if "\ud800" <= c <= "\udfff"), 0)
    start = max(0, at - 20)
    return "'" + ("..." if start else "") + repr(text[start:at + 20])[1:-1] + ("..." if at + 20 < len(text) else "") + "'"


def not_text(where: str, text: str) -> str:
    """The error for a string holding an unpaired UTF-16 surrogate (which is not a character, and which
    no UTF-8 output can hold), at `where`."""
    return (f"{where}: {quoted_around_surrogate(text)} holds an unpaired UTF-16 surrogate, which is not text "
            "(no UTF-8 output can hold it); not read")


class StrictSchemaError(ToolcastError, ValueError):
    """A schema cannot be made strict without refusal or loss.

    `path` is the JSON-pointer location of the first blocking finding, `keyword_or_limit` the
    keyword or limit name involved, `code` its diagnostic code; `diagnostics` holds them all.
    """

    def __init__(self, path: str, keyword_or_limit: str, code: str, message: str, diagnostics: tuple = ()):
        self.path, self.keyword_or_limit, self.code = path, keyword_or_limit, code
        self.diagnostics = diagnostics
        super().__init__(f"{path}: {message} [{code}]")
