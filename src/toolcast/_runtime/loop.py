"""The run-time loop's provider-neutral parts: reading SDK objects, compiling a ToolSet, decoding calls."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from toolcast._runtime.call_order import placed as _placed
from toolcast._runtime.json_limits import JsonLimitError, loads_bounded, plain_json
from toolcast._runtime.suggest import MAX_SUGGESTED
from toolcast._runtime.suggest import unknown_tool_message as unknown_tool_message
from toolcast.model import ToolcastError
from toolcast.nulls import NullPathError, _strip_owned
from toolcast.walk.semantics import json_equal

if TYPE_CHECKING:
    from toolcast.toolset import ToolSet

#: Arguments (and structured results) nested deeper are refused: decoding, stripping and
#: serialising them recursively would hit Python's recursion limit, and no tool needs it.
MAX_JSON_DEPTH = 100
#: Arguments longer than this (UTF-8) are refused; the largest model outputs are far smaller.
#: Arguments that arrive decoded are measured as compact JSON text.
MAX_ARGUMENTS_BYTES = 4 * 1024 * 1024


def _is_object(obj: Any) -> bool:
    """A JSON object: a mapping, or an SDK (pydantic) object, which is read field by field."""
    if type(obj) is dict:  # the common case, before the slower ABC check
        return True
    if isinstance(obj, Mapping):
        return True
    return callable(getattr(obj, "model_dump", None)) and not isinstance(obj, (str, bytes))


def _has(obj: Any, name: str) -> bool:
    if type(obj) is dict or isinstance(obj, Mapping):  # (a dict before the slower ABC check)
        return name in obj
    try:
        getattr(obj, name)
    except Exception:  # pydantic raises AttributeError; a broken object anything
        return False
    return True


def _field(obj: Any, *names: str) -> Any:
    """The first of ``names`` that ``obj`` (a mapping or an SDK object) holds other than None, else
    None (either spelling may stand as null beside the other).

    SDK objects are read by attribute rather than dumped: a dump walks (and warns about) the
    whole object, while the loop needs a few fields; wire names and Python names both work.
    """
    if type(obj) is dict:  # the common case, before the slower ABC check
        for name in names:
            value = obj.get(name)
            if value is not None:
                return value
        return None
    if len(names) > 1 and not isinstance(obj, Mapping):
        names = _declared_first(type(obj), names)
    for name in names:
        if isinstance(obj, Mapping):
            value = obj.get(name)
        else:
            try:
                value = getattr(obj, name)
            except Exception:
                continue
        if value is not None:
            return value
    return None


def _declared_first(cls: type, names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` with a pydantic model's declared fields first, and without a property that stands
    for one of them: FastMCP, once imported, gives the MCP SDK's models properties for their old
    camelCase names (`structuredContent` for `structured_content`) that warn when read."""
    declared = getattr(cls, "model_fields", None)
    if not declared or names[0] in declared or not any(n in declared for n in names):
        return names
    return tuple(n for n in names if n in declared) + tuple(
        n for n in names if n not in declared and not isinstance(getattr(cls, n, None), property))


def _kind(value: Any) -> str:
    return "None" if value is None else type(value).__name__


class ResponseShapeError(ToolcastError, TypeError):
    """A model response, or the part of it at ``path``, is not a shape :func:`tool_calls` reads.

    The message names the place and what was expected there, e.g.
    ``response.choices[0].message.tool_calls: expected a list, got int``.
    """

    def __init__(self, path: str, expected: str, got: Any) -> None:
        super().__init__(f"{path}: expected {expected}, got {_kind(got)}")
        self.path = path
        self.expected = expected


class StrictIssue(NamedTuple):
    """Why a tool was sent non-strict (``fallbacks``) or left out (``excluded``)."""

    name: str
    reason: str
    codes: tuple[str, ...]


@dataclass(frozen=True)
class ToolsReport:
    """What :func:`tools` decided per tool.

    ``null_paths`` has an entry for every tool sent with ``"strict": true`` (possibly an
    empty tuple); pass it to :func:`tool_calls`. ``fallbacks`` lists tools sent non-strict
    because ``strict="auto"`` could not make them strict; ``excluded`` lists tools left out
    of the list (refused by the compiler: under ``strict=True`` anything not strict-ready,
    in every mode a name that cannot be sent, or past the request budget); given this report,
    :func:`tool_calls` rejects a call to one of them ("not offered in this request").
    ``results`` keeps every ``CompileResult``.
    ``checks`` (``tools(..., enforce=True)``): per tool sent strict with enforced constraints,
    the check :func:`tool_calls` runs on each call's arguments (toolcast.validation).
    """

    null_paths: Mapping[str, tuple[tuple[Any, ...], ...]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    fallbacks: tuple[StrictIssue, ...] = ()
    excluded: tuple[StrictIssue, ...] = ()
    results: Mapping[str, Any] = field(
        default_factory=lambda: MappingProxyType({}), repr=False, compare=False
    )
    checks: Mapping[str, Any] = field(
        default_factory=lambda: MappingProxyType({}), repr=False, compare=False
    )


def _normalize_strict(strict: Any) -> Literal["auto"] | bool:
    if strict is True or strict == "true":
        return True
    if strict is False or strict == "false":
        return False
    if strict == "auto":
        return "auto"
    raise ValueError(f"strict must be 'auto', True or False, got {strict!r}")


def _issue(name: str, result: Any) -> StrictIssue:
    """Summarize why a tool is not strict: the blocking findings and the lossy changes."""
    diagnostics = tuple(getattr(result, "diagnostics", ()) or ())
    blocking = [d for d in diagnostics if getattr(d, "outcome", None) == "refuses"]
    lossy = [t for t in getattr(result, "transformations", ()) or () if getattr(t, "lossy", False)]
    codes = tuple(dict.fromkeys([str(d.code) for d in blocking] + [str(t.code) for t in lossy]))
    # The compiler already words the fallback reason; reuse it so CLI and report agree.
    summary = next((d for d in diagnostics if str(d.code).endswith("/sent-non-strict")), None)
    if summary is not None:
        reason = str(summary.message)
    elif blocking:
        reason = "; ".join(f"{d.code} at {d.path or '#'}: {d.message}" for d in blocking)
    elif lossy:
        reason = "lossy changes: " + ", ".join(f"{t.code} at {t.path or '#'}" for t in lossy)
    else:
        reason = f"compiler status {getattr(result, 'status', '?')!r}"
    return StrictIssue(name, reason, codes)


def left_out(null_paths: Any) -> frozenset[str]:
    """The names of the tools a ToolsReport says were left out of the request (none for a mapping)."""
    if not isinstance(null_paths, ToolsReport) or not null_paths.excluded:
        return frozenset()
    return frozenset(issue.name for issue in null_paths.excluded)


_JSON_KIND = {list: "an array", str: "a string", bool: "a boolean", type(None): "null"}


class CutArguments(NamedTuple):
    """The arguments of a call the response marks as not whole (a Responses item whose status is
    ``in_progress`` or ``incomplete``: streamed, or cut off at ``max_output_tokens``; a Chat call
    left empty at ``finish_reason: "length"``; the ``tool_use`` a Claude message cut off at
    ``max_tokens`` ends with): whatever they hold, the call is not run. ``why`` says what marks it."""

    why: str


def whole_arguments(arguments: Any) -> bool:
    """Whether a call's arguments in a response cut off at its length limit are whole: not empty,
    and JSON text that ends (text cut part-way is no JSON; decoded arguments count as whole)."""
    if arguments is None or (isinstance(arguments, str) and not arguments.strip()):
        return False
    if not isinstance(arguments, str):
        return True
    try:
        loads_bounded(arguments, MAX_JSON_DEPTH, MAX_ARGUMENTS_BYTES)
    except json.JSONDecodeError:
        return False
    except JsonLimitError:  # (whole but over a limit: refused as such when the call is read)
        pass
    return True


def _empty_for(name: str, exposed: Any) -> str | None:
    """Why a call to ``exposed`` with no arguments at all ("" or null, as a zero-argument call is
    sent) is refused: its schema requires properties (a call cut off before its arguments were
    written looks the same); else None."""
    schema = getattr(exposed, "input_schema", None)
    required = schema.get("required") if isinstance(schema, Mapping) else None
    if not isinstance(required, (list, tuple)) or not required:
        return None
    named = ", ".join(repr(r) for r in required[:5]) + (", ..." if len(required) > 5 else "")
    return (f"arguments for tool {name!r} are empty, but it requires {named}: the call was not run. "
            "Call the tool again with its arguments.")


def decode_arguments(name: str, args: Any) -> tuple[dict[str, Any] | None, str | None]:
    """``(arguments, None)``, or ``(None, why)`` for arguments the tool must not receive."""
    if type(args) is str:  # the common case first: a model's JSON text
        try:
            value = loads_bounded(args, MAX_JSON_DEPTH, MAX_ARGUMENTS_BYTES)  # (keywords cost a lookup each)
        except (json.JSONDecodeError, JsonLimitError) as exc:
            # Zero-argument calls arrive as "" from some models and servers.
            return ({}, None) if not args.strip() else (None, _decode_problem(name, exc))
        if type(value) is dict:
            return value, None
        return None, f"arguments for tool {name!r} must be a JSON object, got {_json_kind(value)}"
    if args is None:  # a zero-argument call, as some models and servers send it
        return {}, None
    if type(args) is dict or isinstance(args, Mapping):
        try:  # already decoded (by a caller or a proxy): copy it, checked as JSON
            return plain_json(args, MAX_JSON_DEPTH, MAX_ARGUMENTS_BYTES), None
        except JsonLimitError as exc:
            if str(exc).startswith("is larger"):  # worded as for the same arguments sent as text
                return None, _decode_problem(name, exc)
            return None, f"arguments for tool {name!r} are not usable JSON: the value {exc}"
    if type(args) is CutArguments:
        return None, (f"the call to tool {name!r} is not complete ({args.why}); it was not run. "
                      "Call the tool again with all its arguments.")
    if not isinstance(args, str):
        return None, f"arguments for tool {name!r} must be a JSON object string, got {_kind(args)}"
    return decode_arguments(name, str.__str__(args))  # a str subclass: the text it holds


def _json_kind(value: Any) -> str:
    return _JSON_KIND.get(type(value), "a number")


def _decode_problem(name: str, exc: ValueError) -> str:
    where = f"arguments for tool {name!r}"
    if isinstance(exc, json.JSONDecodeError):
        # Some of json's messages end in "at" already ("Invalid control character at").
        what = exc.msg.removesuffix(" at")
        return f"{where} are not valid JSON ({what} at line {exc.lineno} column {exc.colno})"
    reason = str(exc)
    if reason.startswith(("is larger", "is nested")):
        return f"{where} are refused: the JSON text {reason}"
    return f"{where} are not valid JSON: the JSON text {reason}"


# Past a thousand tools (a proxy in front of many servers) the cache must still hold them all.
@functools.lru_cache(maxsize=8192)
def _cached_node(paths: tuple[Any, ...]) -> Any:
    from toolcast.nulls import compiled_paths

    return compiled_paths(paths)


def null_node(paths: Any) -> Any:
    """A tool's null paths made ready for stripping (None: nothing to strip); NullPathError
    when they are not null paths."""
    if not paths:
        return None
    try:
        # A tool's paths are the same on every call: compile them once (paths given as
        # lists are not hashable and are compiled each time). The result is only ever read.
        return _cached_node(paths)
    except TypeError:
        from toolcast.nulls import compiled_paths

        return compiled_paths(paths)


def strip_call_nulls(name: str, arguments: dict[str, Any], null_paths: Any) -> dict[str, Any]:
    """``arguments`` without the nulls at tool ``name``'s null paths (a mapping or a ToolsReport)."""
    from toolcast.nulls import strip_compiled  # the core helper, imported lazily

    node = null_node(null_paths.get(name) if null_paths else None)
    return arguments if node is None else strip_compiled(arguments, node)


def check_null_paths(null_paths: Any) -> Mapping[str, Any]:
    """The null paths mapping of ``null_paths`` (a mapping, a ToolsReport or None), checked."""
    if isinstance(null_paths, ToolsReport):
        null_paths = null_paths.null_paths
    paths_by_tool = null_paths or {}
    # (A dict or a ToolsReport's mapping proxy matches before the slower ABC check.)
    if not isinstance(paths_by_tool, (dict, MappingProxyType, Mapping)):
        raise NullPathError(
            "null_paths: expected a mapping of tool name to null paths, or a ToolsReport, "
            f"got {_kind(paths_by_tool)}"
        )
    return paths_by_tool


class RawCall(NamedTuple):
    """A tool call as a response holds it, before the toolset is asked about it: its id (""
    when it has none), the name the model called, the arguments as given, and (OpenAI) the
    API it came in. The readers' fast paths build plain tuples of these four fields (cheaper
    than this NamedTuple, and a response of many calls builds one per call), so the loop
    reads them by position."""

    call_id: str
    name: str
    arguments: Any
    api: str = ""


# object.__new__, looked up once: `object.__new__(cls)` looks the attribute up on every call.
new_object = object.__new__


@dataclass(frozen=True)
class ToolCall:
    """A model's call to a tool of the ToolSet, with decoded and null-stripped arguments.

    Each target's module has its own subclass, whose ``output`` shapes a result as that
    provider's answer to the call.
    """

    call_id: str
    name: str
    server: str
    tool: str
    arguments: dict[str, Any] = field(hash=False)

    # A call to a local Python function holds its LocalTool here (set by tool_calls, not a field:
    # a server's call is as it was); execute_tool_calls calls it instead of a session.
    local = None

    def __eq__(self, other: object) -> bool:
        # Arguments compare as JSON does: `true` is not `1` (Python's == says it is); 1 is 1.0.
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine, theirs = self.__dict__, other.__dict__
        return mine.keys() == theirs.keys() and all(
            json_equal(v, theirs[k]) if k == "arguments" else v == theirs[k] for k, v in mine.items())

    @classmethod
    def _of(cls, raw: RawCall, names: tuple[str, str, str], arguments: dict[str, Any]) -> ToolCall:
        """The call ``raw`` made to the tool ``names`` stands for (:func:`tool_names`). Built
        without the frozen ``__init__`` (one ``object.__setattr__`` per field), which was a fifth
        of what a call costs to read."""
        call = new_object(cls)
        fields = call.__dict__  # item by item: cheaper than update() with keywords
        fields["call_id"] = raw[0]
        fields["name"], fields["server"], fields["tool"] = names
        fields["arguments"] = arguments
        return call


def tool_names(exposed: Any) -> tuple[str, str, str]:
    """An exposed tool's (name, server, tool), the fields its calls carry: read_calls reads them
    once per tool a response calls, not once per call."""
    return exposed.name, exposed.server, exposed.tool


_UNSET = object()


def read_calls(
    raws: Any,
    toolset: ToolSet,
    null_paths: Any,
    make_call: Callable[[RawCall, Any, dict[str, Any]], Any],
    reject: Callable[[RawCall, str], Any],
    validate: bool = False,
) -> tuple[list[Any], list[Any]]:
    """``(calls, rejected)`` from :class:`RawCall` s (or tuples of their fields), any provider.

    An unknown tool, a tool ``null_paths`` (a ToolsReport) lists as left out of the request, or
    arguments that are not a JSON object become ``reject(raw, message)``;
    the others ``make_call(raw, tool_names(exposed_tool), arguments)``, nulls stripped at null
    paths only.
    Arguments that break a tool's enforced constraints (``null_paths`` a ToolsReport of
    ``tools(..., enforce=True)``), or with ``validate`` its original schema, are rejected too.
    """
    paths_by_tool = check_null_paths(null_paths)
    checks = getattr(null_paths, "checks", None) if isinstance(null_paths, ToolsReport) else None
    excluded = left_out(null_paths)  # (called by a hallucination, an injection, an old turn: not run)
    # Per name called: the exposed tool and its null paths compiled, looked up once a response;
    # per name refused, its error output (the "Did you mean" search once).
    known: dict[str, tuple[Any, Any]] = {}
    refused: dict[str, str] = {}
    calls: list[Any] = []
    rejected: list[Any] = []
    for raw in raws:
        name, given = raw[1], raw[2]
        tool = known.get(name)
        if tool is None:
            exposed = toolset.get(name)
            if exposed is None or (excluded and name in excluded):
                message = refused.get(name)
                if message is None:
                    message = refused[name] = unknown_tool_message(name, toolset, excluded, len(refused) < MAX_SUGGESTED)
                rejected.append(_placed(reject(RawCall._make(raw), message), len(calls)))
                continue
            tool = known[name] = (tool_names(exposed), null_node(paths_by_tool.get(name)), getattr(exposed, "local", None),
                                  _check_for(name, exposed, checks, validate) if checks or validate else None)
        arguments, nulls = None, tool[1]
        if type(given) is str:  # a model's JSON text (the common case): an object is taken as it decodes
            try:
                arguments = loads_bounded(given, MAX_JSON_DEPTH, MAX_ARGUMENTS_BYTES)
            except ValueError:  # (bad JSON or over a limit: decode_arguments below words it)
                arguments = None
        elif type(given) is dict:  # decoded by the SDK (Anthropic, Gemini): a copy, checked as JSON
            try:  # (the copy leaves out the nulls at the null paths: no strip after it)
                arguments, nulls = plain_json(given, MAX_JSON_DEPTH, MAX_ARGUMENTS_BYTES, nulls), None
            except JsonLimitError:  # (decode_arguments below words it)
                arguments = None
        if type(arguments) is not dict:  # anything else: decode_arguments decides, and words a problem
            arguments, problem = decode_arguments(name, given)
            if arguments is not None and (given is None or (isinstance(given, str) and not given.strip())):
                # ("" or null: no arguments at all, which the tool may need)
                problem = _empty_for(name, toolset.get(name))
            if arguments is None or problem is not None:
                rejected.append(_placed(reject(RawCall._make(raw), problem or "invalid arguments"), len(calls)))
                continue
            nulls = tool[1]
        # The arguments are fresh (decoded or copied): the nulls go from them in place. (No
        # search for "null" in the text first: on a long text it costs more than the strip.)
        if nulls is not None:
            _strip_owned(arguments, nulls)
        if tool[3] is not None:  # enforced constraints, or validate: checked once the nulls are gone
            problem = tool[3].message(name, arguments)
            if problem is not None:
                rejected.append(_placed(reject(RawCall._make(raw), problem), len(calls)))
                continue
        call = make_call(raw, tool[0], arguments)
        if tool[2] is not None:  # a local function's call carries it to execute_tool_calls
            call.__dict__["local"] = tool[2]
        calls.append(call)
    return calls, rejected


def _check_for(name: str, exposed: Any, checks: Any, validate: bool) -> Any:
    from toolcast.validation import check_for  # (the validator only once a call is checked)

    return check_for(name, exposed, checks, validate)


def string_field(obj: Any, name: str, path: str, *aliases: str) -> str:
    """``obj.name`` (or an alias) as a string; absent or null is ""; anything else an error."""
    value = _field(obj, name, *aliases)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ResponseShapeError(f"{path}.{name}", "a string", value)
    return value


def list_field(obj: Any, name: str, path: str) -> list[Any]:
    """``obj.name`` as a list; null or absent is an empty list, anything else an error."""
    value = _field(obj, name)
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        raise ResponseShapeError(f"{path}.{name}", "a list", value)
    return list(value)


def provider_tools(
    target: str,
    toolset: ToolSet,
    *,
    strict: Literal["auto", "true", "false"] | bool = "auto",
    rules: str | None = None,
    allow_lossy: bool = False,
    budgets: bool = False,
    **options: Any,
) -> tuple[list[dict[str, Any]], ToolsReport]:
    """Compile every tool of ``toolset`` for ``target`` under its exposed name.

    Returns the compiled tools in toolset order and a :class:`ToolsReport`; ``options``
    go to ``compile_tool`` (the ``api``, say). With ``budgets``, the toolset is one
    request: the provider's request budgets are applied across it (``compile_tools``).
    """
    from toolcast import compile_tool  # the compiler core imports lazily: keeps cycles out

    mode = _normalize_strict(strict)
    emitted: list[dict[str, Any]] = []
    null_paths: dict[str, tuple[tuple[Any, ...], ...]] = {}
    fallbacks: list[StrictIssue] = []
    excluded: list[StrictIssue] = []
    results: dict[str, Any] = {}
    tools = [exposed.to_tool() for exposed in toolset.tools]
    if budgets:
        from toolcast import compile_tools

        compiled = compile_tools(
            tools, target=target, rules=rules, strict=mode, allow_lossy=allow_lossy, **options
        )
    else:
        compiled = tuple(
            compile_tool(
                tool, target=target, rules=rules, strict=mode, allow_lossy=allow_lossy, **options
            )
            for tool in tools
        )
    for exposed, result in zip(toolset.tools, compiled, strict=True):
        results[exposed.name] = result
        if result.status == "refused" or result.tool is None:
            excluded.append(_issue(exposed.name, result))
            continue
        emitted.append(result.tool)
        if result.status == "strict":
            null_paths[exposed.name] = tuple(tuple(p) for p in result.null_paths)
        elif mode == "auto":
            fallbacks.append(_issue(exposed.name, result))
    report = ToolsReport(
        null_paths=MappingProxyType(null_paths),
        fallbacks=tuple(fallbacks),
        excluded=tuple(excluded),
        results=MappingProxyType(results),
        checks=MappingProxyType(_enforced_checks(results) if options.get("enforce") else {}),
    )
    return emitted, report


def _enforced_checks(results: dict[str, Any]) -> dict[str, Any]:
    """Per tool sent strict with constraints enforced at run time, the check of its calls."""
    from toolcast.enforce import argument_check

    found = {name: argument_check(res) for name, res in results.items() if res.status == "strict"}
    return {name: check for name, check in found.items() if check is not None}
