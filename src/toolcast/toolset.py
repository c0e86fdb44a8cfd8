"""A set of tools from several MCP servers and local Python functions, exposed under collision-free
names valid for a target (its rules' tool-name pattern and length)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal

from toolcast._runtime.json_limits import nests_past

__all__ = [
    "MAX_NAME_LENGTH",
    "SEPARATOR",
    "DroppedTool",
    "ExposedTool",
    "NameRule",
    "NamingReport",
    "Rename",
    "ToolSet",
    "freeze",
    "sanitize",
    "thaw",
]

#: The default target's name length (kept for callers that read it; each target's own length is
#: its rules' ``name.max_length``, see NameRule).
MAX_NAME_LENGTH = 64
#: Joins the server prefix and the tool name in an exposed name.
SEPARATOR = "__"

_HASH_LENGTH = 8
_HEX = "0123456789abcdef"

RenameReason = Literal["sanitized", "truncated", "collision"]


def freeze(value: Any) -> Any:
    """Return a deep read-only copy of JSON-like data: mappings become proxies, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """Return a fresh mutable copy of data made by :func:`freeze` (or any JSON-like data)."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [thaw(v) for v in value]
    return value


def _tool_to_dict(tool: Any) -> dict[str, Any] | None:
    """Turn an MCP tool (plain dict or the ``mcp`` SDK's pydantic ``Tool``) into a plain dict;
    None for a value that is no tool at all (a string, a number, null)."""
    if isinstance(tool, Mapping):
        return dict(tool)
    from toolcast.shapes import mcp_tool

    known = mcp_tool(tool)  # a pydantic model class, a LangChain tool, ... (shapes.shape_of)
    if known is not None:
        return known
    dump = getattr(tool, "model_dump", None)
    if callable(dump) and not isinstance(tool, type):
        # by_alias gives the wire names (inputSchema, not input_schema).
        return dict(dump(by_alias=True, exclude_none=True, mode="json"))
    name = getattr(tool, "name", None)
    if name is None:
        return None
    out: dict[str, Any] = {"name": name}
    description = getattr(tool, "description", None)
    if description is not None:
        out["description"] = description
    schema = getattr(tool, "inputSchema", None)
    if schema is None:
        schema = getattr(tool, "input_schema", None)
    if schema is not None:
        out["inputSchema"] = schema
    return out


def _tool_list(tools: Any) -> list[Any]:
    """Accept a list of tools, a ``tools/list`` result dict, or the SDK's ``ListToolsResult``."""
    if isinstance(tools, Mapping):
        if "tools" in tools and "name" not in tools:
            return list(tools["tools"])
        raise TypeError("expected a list of tools or a tools/list result")
    listed = getattr(tools, "tools", None)
    if listed is not None and not isinstance(tools, (str, bytes)):
        return list(listed)
    if isinstance(tools, (str, bytes)):
        raise TypeError("expected a list of tools, got a string")
    return list(tools)


class NameRule:
    """A target's tool-name rule, read from its rules (``name.pattern``, ``name.max_length``).

    Which characters a name may hold is asked of the pattern itself: a character may start a name
    when the pattern matches it alone, and stand anywhere else when it matches after a character
    that may start one (the form of every rule in the spec: ``^[...]{1,N}$`` or ``^[...][...]{0,N}$``).
    """

    __slots__ = ("_first", "_rest", "_seed", "max_length", "pattern", "regex")

    def __init__(self, pattern: str, max_length: int) -> None:
        self.pattern, self.max_length, self.regex = pattern, max_length, re.compile(pattern)
        self._first: dict[str, bool] = {}
        self._rest: dict[str, bool] = {}
        self._seed = "_" if self.regex.fullmatch("_") else "a"
        if not (self.regex.fullmatch(self._seed) and all(self.allowed(c) for c in "_" + _HEX)):
            raise ValueError(f"tool-name pattern {pattern!r}: '_' and hex digits must be allowed in a name")

    @classmethod
    def of(cls, target: str = "openai", api: str | None = None, rules: Any = None) -> NameRule:
        """The name rule of `target` (`api`, `rules` as compile_tool takes them)."""
        from toolcast.tool_input import resolve_target

        r = resolve_target(target, api, rules)[2]
        return cls(r.name_pattern, r.name_max_length)

    def allowed(self, char: str, first: bool = False) -> bool:
        """Whether `char` may stand in a name (at its start, when `first`)."""
        seen = self._first if first else self._rest
        ok = seen.get(char)
        if ok is None:
            ok = seen[char] = bool(self.regex.fullmatch(char if first else self._seed + char))
        return ok

    def sanitize(self, text: str, start: bool = True) -> str:
        """`text` with every character the rule does not allow (there) replaced by ``_``; `start`:
        whether `text` begins the name."""
        return "".join(
            c if self.allowed(c, start and i == 0) else "_" for i, c in enumerate(text)
        )

    def fits(self, name: str) -> bool:
        return len(name) <= self.max_length and self.regex.fullmatch(name) is not None

    def __eq__(self, other: object) -> bool:
        if isinstance(other, NameRule):
            return (self.pattern, self.max_length) == (other.pattern, other.max_length)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.pattern, self.max_length))

    def __repr__(self) -> str:
        return f"NameRule({self.pattern!r}, {self.max_length})"


def sanitize(text: str, rule: NameRule | None = None) -> str:
    """Replace every character `rule` (default: the default target's) does not allow in a tool name
    with ``_``."""
    return (rule or NameRule.of()).sanitize(text)


def _digest(server: str, tool: str, salt: int = 0) -> str:
    # Hash the *original* names so two tools that sanitize alike still hash apart. A lone
    # surrogate (a "\ud800" escape in a listing) has no UTF-8 form: surrogatepass still gives
    # it bytes of its own, and leaves every other name's hash as it was.
    key = f"{server}/{tool}" if salt == 0 else f"{server}/{tool}#{salt}"
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:_HASH_LENGTH]


def _with_hash(base: str, digest: str, max_length: int) -> str:
    keep = max_length - _HASH_LENGTH - 1
    return f"{base[:keep]}_{digest}"


@dataclass(frozen=True)
class ExposedTool:
    """One tool as the model sees it (``name``) and as its server knows it (``server``, ``tool``)."""

    name: str
    server: str
    tool: str
    prefix: str
    description: str | None
    input_schema: Mapping[str, Any] = field(repr=False)
    definition: Mapping[str, Any] = field(repr=False)
    #: A local Python function's LocalTool (toolcast.local_tools): execute_tool_calls calls it in
    #: this process; None for a server's tool.
    local: Any = field(default=None, repr=False, compare=False)

    def to_tool(self) -> dict[str, Any]:
        """A fresh, mutable MCP tool dict carrying the *exposed* name, ready for ``compile_tool``."""
        out = thaw(self.definition)
        out["name"] = self.name
        return out

    def original(self) -> dict[str, Any]:
        """A fresh, mutable copy of the tool exactly as its server listed it."""
        return thaw(self.definition)


@dataclass(frozen=True)
class Rename:
    """An exposed name that differs from the plain ``<prefix>__<tool>`` join, and why."""

    server: str
    tool: str
    requested: str
    exposed: str
    reasons: tuple[RenameReason, ...]


@dataclass(frozen=True)
class DroppedTool:
    """A listed tool that could not be exposed at all."""

    server: str
    tool: str | None
    reason: str


@dataclass(frozen=True)
class NamingReport:
    """Every rename made while building a :class:`ToolSet`, and every tool left out."""

    renames: tuple[Rename, ...] = ()
    dropped: tuple[DroppedTool, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.renames or self.dropped)

    def lines(self) -> list[str]:
        """One human-readable line per rename or drop, in the order of the report."""
        out = [
            f"{r.server}/{r.tool}: exposed as {r.exposed!r} ({', '.join(r.reasons)})"
            for r in self.renames
        ]
        # (a tool with no usable name shows as "s/(unnamed)", never "s/None": red team s13h note)
        out += [f"{d.server}/{d.tool if d.tool is not None else '(unnamed)'}: dropped ({d.reason})"
                for d in self.dropped]
        return out


@dataclass(frozen=True)
class _Candidate:
    index: int
    server: str
    prefix: str
    tool: str
    definition: dict[str, Any]
    requested: str
    base: str
    reasons: tuple[RenameReason, ...]
    local: Any = None


class ToolSet(Mapping[str, ExposedTool]):
    """An immutable, ordered mapping from exposed name to :class:`ExposedTool`.

    Iteration yields exposed names in input order: servers in the order given, each
    server's tools in its listing order (that order reaches the model). Every name fits
    `name_rule` (default: the default target's), :attr:`name_rule`.
    """

    __slots__ = ("_by_original", "_rule", "_tools")

    def __init__(self, tools: Iterable[ExposedTool] = (), *, name_rule: NameRule | None = None) -> None:
        ordered: dict[str, ExposedTool] = {}
        by_original: dict[tuple[str, str], ExposedTool] = {}
        rule = name_rule or NameRule.of()
        object.__setattr__(self, "_rule", rule)
        for tool in tools:
            if not rule.fits(tool.name):
                raise ValueError(f"invalid exposed name {tool.name!r}")
            if tool.name in ordered:
                raise ValueError(f"duplicate exposed name {tool.name!r}")
            ordered[tool.name] = tool
            by_original[(tool.server, tool.tool)] = tool
        object.__setattr__(self, "_tools", MappingProxyType(ordered))
        object.__setattr__(self, "_by_original", MappingProxyType(by_original))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("ToolSet is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("ToolSet is immutable")

    def __getitem__(self, name: str) -> ExposedTool:
        return self._tools[name]

    def get(self, name: str, default: Any = None) -> Any:
        # Mapping's get goes through __getitem__ and a KeyError; tool_calls asks once per call.
        return self._tools.get(name, default)

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def __repr__(self) -> str:
        return f"ToolSet({list(self._tools)!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ToolSet):
            return list(self._tools.items()) == list(other._tools.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    @property
    def name_rule(self) -> NameRule:
        """The rule every exposed name fits."""
        return self._rule

    @property
    def names(self) -> tuple[str, ...]:
        """Exposed names, in order."""
        return tuple(self._tools)

    @property
    def tools(self) -> tuple[ExposedTool, ...]:
        """Exposed tools, in order."""
        return tuple(self._tools.values())

    @property
    def servers(self) -> tuple[str, ...]:
        """Server prefixes as given to :meth:`build`, in first-seen order."""
        return tuple(dict.fromkeys(t.server for t in self._tools.values()))

    def lookup(self, server: str, tool: str) -> ExposedTool | None:
        """The exposed tool for a server's original tool name, if any."""
        return self._by_original.get((server, tool))

    @classmethod
    def build(
        cls,
        servers: Mapping[str, Any] | Iterable[tuple[str, Any]],
        *,
        target: str = "openai",
        api: str | None = None,
        rules: Any = None,
    ) -> tuple[ToolSet, NamingReport]:
        """Expose every server's tools as ``<prefix>__<tool>``, renaming where `target`'s tool-name
        rule requires (`target`, `api`, `rules` as compile_tool takes them: the rule is that of the
        rules the tools will be compiled under, :class:`NameRule`).

        ``servers`` maps a server prefix to its tools (a list of MCP tool dicts or SDK
        ``Tool`` objects, or a ``tools/list`` result). An empty prefix exposes bare tool
        names. The prefix given here is kept on each tool (``ExposedTool.server``) for
        dispatch; the model sees the sanitized one.

        Naming rules, in order:

        1. characters the rule does not allow in prefix and tool name become ``_`` (``sanitized``);
        2. a name longer than the rule's length (64 for OpenAI) keeps its first length - 9
           characters, then ``_`` and 8 hex digits of sha256 of ``"<prefix>/<tool>"`` (``truncated``);
        3. when two tools want the same name, the winner keeps it and every other one gets
           the hash suffix of rule 2 (``collision``). Winners are decided in a fixed order
           that does not depend on input order: tools whose name needed no change first,
           then by (prefix, tool name) in code-point order.

        A tool listed twice by the same server, without a string name, or that is no tool at
        all (a string, a number, null) is dropped and reported, because a call could not say
        which one was meant; the other tools are exposed as usual.

        Beside MCP tools, a server's list takes every shape ``compile_tool`` reads (a pydantic
        model class, a LangChain tool, ...), and local Python functions (``@toolcast.tool`` or
        not), which ``execute_tool_calls`` calls in this process (``ExposedTool.local``). A
        list of tools and functions, or of ``(prefix, tools)`` pairs with tools beside them,
        puts those tools under the empty prefix: ``ToolSet.build([get_weather, refund])``.
        """
        rule = NameRule.of(target, api, rules)
        pairs = list(servers.items()) if isinstance(servers, Mapping) else _pairs(list(servers))
        candidates, dropped = _candidates(pairs, rule)
        decided = _decide(candidates, rule.max_length)
        exposed: list[ExposedTool] = []
        renames: list[Rename] = []
        for cand in candidates:
            name, reasons = decided[cand.index]
            if not rule.fits(name):  # (a rule of another form than NameRule reads)
                dropped.append(DroppedTool(cand.server, cand.tool, f"no name fits {rule.pattern}"))
                continue
            description = cand.definition.get("description")
            schema = cand.definition.get("inputSchema")
            exposed.append(
                ExposedTool(
                    name=name,
                    server=cand.server,
                    tool=cand.tool,
                    prefix=cand.prefix,
                    description=description if isinstance(description, str) else None,
                    input_schema=freeze(schema if isinstance(schema, Mapping) else {}),
                    definition=freeze(cand.definition),
                    local=cand.local,
                )
            )
            if reasons:
                renames.append(Rename(cand.server, cand.tool, cand.requested, name, reasons))
        return cls(exposed, name_rule=rule), NamingReport(tuple(renames), tuple(dropped))


def _pairs(items: list[Any]) -> list[tuple[Any, Any]]:
    """``(prefix, tools)`` pairs from a list of pairs, tools (under the empty prefix, where the
    first of them stands) or both."""
    pairs: list[tuple[Any, Any]] = []
    loose: list[Any] | None = None
    for item in items:
        if isinstance(item, tuple) and len(item) == 2:  # (no tool shape is a tuple)
            pairs.append(item)
        elif loose is None:
            loose = [item]
            pairs.append(("", loose))
        else:
            loose.append(item)
    return pairs


#: How deeply a tool's definition may nest (the tool itself is level 1): past it the tool is dropped
#: and reported. The MCP SDK reads no message nested much deeper (its JSON reader stops at about 200
#: levels), and a copy, a compile or a listing of such a schema would exhaust Python's recursion.
MAX_DEFINITION_DEPTH = 200


def _candidates(pairs: list[tuple[Any, Any]], rule: NameRule) -> tuple[list[_Candidate], list[DroppedTool]]:
    """Every server's tools with the name each asks for; the ones that cannot be exposed."""
    seen_servers: set[str] = set()
    dropped: list[DroppedTool] = []
    candidates: list[_Candidate] = []
    for server, tools in pairs:
        if not isinstance(server, str):
            raise TypeError(f"server prefix must be a string, got {type(server).__name__}")
        if server in seen_servers:
            raise ValueError(f"server prefix {server!r} given twice")
        seen_servers.add(server)
        prefix = rule.sanitize(server)
        seen_tools: set[str] = set()
        for raw in _tool_list(tools):
            local = _local(raw)
            definition = local.definition() if local is not None else _tool_to_dict(raw)
            if definition is None:
                dropped.append(DroppedTool(server, None, f"not a tool: {type(raw).__name__}"))
                continue
            tool = definition.get("name")
            if not isinstance(tool, str) or not tool:
                dropped.append(DroppedTool(server, None, "missing or empty tool name"))
                continue
            if tool in seen_tools:
                dropped.append(DroppedTool(server, tool, "listed twice by the same server"))
                continue
            if nests_past(definition, MAX_DEFINITION_DEPTH):
                dropped.append(DroppedTool(server, tool, f"its definition nests more than {MAX_DEFINITION_DEPTH} levels deep"))
                continue
            seen_tools.add(tool)
            requested = f"{server}{SEPARATOR}{tool}" if server else tool
            reasons: list[RenameReason] = []
            base = f"{prefix}{SEPARATOR}{rule.sanitize(tool, False)}" if server else rule.sanitize(tool)
            if base != requested:
                reasons.append("sanitized")
            if len(base) > rule.max_length:
                reasons.append("truncated")
            candidates.append(
                _Candidate(
                    len(candidates),
                    server,
                    prefix,
                    tool,
                    definition,
                    requested,
                    base,
                    tuple(reasons),
                    local,
                )
            )
    return candidates, dropped


def _local(tool: Any) -> Any:
    """The LocalTool of a Python function (toolcast.local_tools), None for any other tool."""
    from toolcast.shapes import is_function

    if not is_function(tool):
        return None
    from toolcast.local_tools import local_tool

    return local_tool(tool)


def _decide(candidates: list[_Candidate], max_length: int) -> dict[int, tuple[str, tuple[RenameReason, ...]]]:
    """Each candidate's exposed name and why it differs from the one asked for."""
    # Decide names in an order independent of how servers listed their tools, so a
    # server reordering its listing never moves a name from one tool to another.
    decided: dict[int, tuple[str, tuple[RenameReason, ...]]] = {}
    taken: set[str] = set()
    for cand in sorted(candidates, key=lambda c: (bool(c.reasons), c.server, c.tool)):
        reasons = cand.reasons
        if "truncated" in reasons:
            name = _with_hash(cand.base, _digest(cand.server, cand.tool), max_length)
        else:
            name = cand.base
        salt = 0
        while name in taken:
            if "collision" not in reasons:
                reasons = (*reasons, "collision")
            # The salt only matters when two hashes (or a literal name) coincide.
            name = _with_hash(cand.base, _digest(cand.server, cand.tool, salt), max_length)
            salt += 1
        taken.add(name)
        decided[cand.index] = (name, reasons)
    return decided
