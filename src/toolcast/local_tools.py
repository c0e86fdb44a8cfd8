"""Python functions as tools: the schema pydantic makes of a signature (as FastMCP and pydantic-ai do), the @tool decorator, and arguments converted to the parameters' types."""

from __future__ import annotations

import functools
import inspect
import json
import re
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from toolcast.model import InvalidToolError

__all__ = ["LocalTool", "local_tool", "tool"]

F = TypeVar("F", bound=Callable[..., Any])

# Where @tool records what it was told (a name, a description); nothing else is kept on the function.
_MARK = "__toolcast_tool__"


def tool(fn: F | None = None, *, name: str | None = None, description: str | None = None) -> Any:
    """Mark a function as a tool, optionally with another `name` or `description` than its own;
    as `@tool` or `@tool(name=..., description=...)`. The function is returned unchanged (it is
    called as before): the tool's schema is read from its signature, type hints, defaults and
    docstring when it is compiled or put in a ToolSet, as for any unmarked function."""

    def mark(f: F) -> F:
        if not (inspect.isfunction(f) or inspect.ismethod(f)):
            raise TypeError(f"@toolcast.tool marks a function, not {type(f).__name__}")
        setattr(f.__func__ if inspect.ismethod(f) else f, _MARK, {"name": name, "description": description})
        _READ.pop(f, None)  # (read before it was marked: read again, under its mark)
        return f

    return mark if fn is None else mark(fn)


class LocalTool:
    """A Python function as a tool: its `name`, `description` and `schema` (the parameters'
    JSON Schema, as pydantic generates it), and how a call's arguments become its arguments."""

    __slots__ = ("__weakref__", "_model", "_params", "description", "function", "is_async", "name", "schema")

    def __init__(self, function: Callable[..., Any], name: str, description: str | None,
                 schema: dict[str, Any], model: Any, params: tuple[tuple[str, str, bool], ...]):
        self.function = function
        self.name = name
        self.description = description
        self.schema = schema
        self.is_async = inspect.iscoroutinefunction(function)
        self._model = model
        self._params = params  # (parameter name, model field, positional only)

    def __repr__(self) -> str:
        return f"LocalTool({self.name!r})"

    def definition(self) -> dict[str, Any]:
        """The tool as an MCP tool dict (a fresh copy each time)."""
        import copy

        out: dict[str, Any] = {"name": self.name}
        if self.description is not None:
            out["description"] = self.description
        out["inputSchema"] = copy.deepcopy(self.schema)
        return out

    def arguments(self, given: dict[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        """`(args, kwargs)` for the function: `given` (a call's JSON arguments) validated and
        converted by pydantic to the parameters' types (a datetime, a model instance, an enum),
        defaults filled in. pydantic's ValidationError when they do not fit. Read as JSON, as they
        came (pydantic's JSON mode): a strict field takes a datetime, an enum or a tuple as JSON
        writes it, where Python mode would want the Python object."""
        validated = self._model.model_validate_json(json.dumps(given, ensure_ascii=False))
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for param, field_name, positional in self._params:
            value = getattr(validated, field_name)
            if positional:
                args.append(value)
            else:
                kwargs[param] = value
        return args, kwargs


# Functions already read (their LocalTool), dropped with the function. Bound methods are new
# objects on each attribute access: they are read again each time.
_READ: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def local_tool(fn: Callable[..., Any]) -> LocalTool:
    """The LocalTool of a function (read once per function). InvalidToolError when pydantic is
    not installed or cannot describe a parameter, or for `*args` and `**kwargs`."""
    if inspect.isfunction(fn):
        found = _READ.get(fn)
        if found is None:
            found = _READ[fn] = _read(fn)
        return found
    return _read(fn)


def _read(fn: Callable[..., Any]) -> LocalTool:
    try:
        import pydantic  # noqa: F401
    except ImportError:
        raise InvalidToolError("a Python function as a tool needs pydantic: pip install 'toolcast[pydantic]'") from None
    marked = getattr(fn, _MARK, None) or {}
    name = marked.get("name") or fn.__name__
    summary, described = parse_docstring(inspect.getdoc(fn))
    description = marked.get("description") or summary
    model, schema, params = _arguments_model(fn, name, described)
    return LocalTool(fn, name, description, schema, model, params)


def _signature(fn: Callable[..., Any], name: str) -> tuple[list[inspect.Parameter], dict[str, Any]]:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as exc:
        raise InvalidToolError(f"function {name!r}: its signature cannot be read ({exc})") from None
    try:
        import typing

        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception:  # (a name the annotations use that is not in reach: pydantic tries them as written)
        hints = {}
    params = list(signature.parameters.values())
    for p in params:
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            star = "*" if p.kind == p.VAR_POSITIONAL else "**"
            raise InvalidToolError(f"function {name!r}: a tool's parameters are named, so {star}{p.name} cannot be one")
    return params, hints


def _arguments_model(fn: Callable[..., Any], name: str, described: dict[str, str]) -> tuple[Any, dict, tuple]:
    """(pydantic model of the parameters, its JSON Schema, (parameter, field, positional) per
    parameter). Fields are named p0, p1, ... with the parameter's name as alias, so a parameter
    called `json` or `model_config` shadows nothing of BaseModel's."""
    from typing import Annotated

    from pydantic import ConfigDict, Field, create_model

    params, hints = _signature(fn, name)
    fields: dict[str, Any] = {}
    order = []
    for i, p in enumerate(params):
        annotation = hints.get(p.name, p.annotation)
        if annotation is inspect.Parameter.empty:
            annotation = Any
        extra: dict[str, Any] = {"alias": p.name}
        if p.name in described and not _has_description(annotation):
            extra["description"] = described[p.name]
        default = ... if p.default is inspect.Parameter.empty else p.default
        try:
            fields[f"p{i}"] = (Annotated[annotation, Field(**extra)], default)
        except Exception as exc:  # (typing's own refusal: a string that is no expression, a value that is no type)
            text = " ".join(str(exc).split())[:300]
            raise InvalidToolError(f"function {name!r}: parameter {p.name!r} has an annotation Python's typing "
                                   f"cannot take: {annotation!r} ({type(exc).__name__}: {text})") from None
        order.append((p.name, f"p{i}", p.kind == p.POSITIONAL_ONLY))
    try:
        model = create_model(name, __config__=ConfigDict(extra="forbid"), __module__=getattr(fn, "__module__", None)
                             or __name__, **fields)
        schema = model.model_json_schema(by_alias=True, schema_generator=_schema_generator())
    except Exception as exc:  # pydantic's errors for a type it cannot validate or describe
        text = " ".join(str(exc).split())[:300]
        raise InvalidToolError(f"function {name!r}: pydantic cannot make a schema of its parameters ({text})") from None
    for param, field_name, _ in order:
        if field_name not in model.model_fields:  # (a ClassVar: pydantic leaves it out of the model)
            raise InvalidToolError(f"function {name!r}: parameter {param!r} is annotated ClassVar, which pydantic "
                                   "leaves out of a model: it is no type of an argument")
    schema.pop("title", None)  # (the model's: the tool's name says it)
    return model, schema, tuple(order)


@functools.cache
def _schema_generator() -> type:
    from pydantic.json_schema import GenerateJsonSchema

    class ToolSchema(GenerateJsonSchema):
        """pydantic's JSON Schema without a title on each field, as pydantic-ai and FastMCP send it."""

        def field_title_should_be_set(self, schema: Any) -> bool:
            return False

    return ToolSchema


def _has_description(annotation: Any) -> bool:
    """Whether an `Annotated[..., Field(description=...)]` already describes the parameter (it
    wins over the docstring, as in pydantic-ai)."""
    for meta in getattr(annotation, "__metadata__", ()):
        if getattr(meta, "description", None) is not None:
            return True
    return False


# ---------------------------------------------------------------------- docstrings

_GOOGLE_PARAMS = re.compile(r"^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters):\s*$")
_GOOGLE_SECTION = re.compile(
    r"^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|Returns?|Yields?|Raises|"
    r"Examples?|Notes?|Attributes|See Also|Warnings?|References|Todo|Methods):\s*$")
_GOOGLE_ENTRY = re.compile(r"^(\*{0,2}[A-Za-z_][A-Za-z0-9_]*)\s*(\([^)]*\))?\s*:\s*(.*)$")
_SPHINX_FIELD = re.compile(r"^:(param|parameter|arg|argument|key|keyword|type|returns?|rtype|raises?|yields?)\b")
_SPHINX_PARAM = re.compile(r"^:(?:param|parameter|arg|argument|key|keyword)\s+(?:[^:]*\s)?([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(.*)$")
_NUMPY_RULE = re.compile(r"^-{3,}\s*$")
_NUMPY_ENTRY = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)\s*(:.*)?$")


def parse_docstring(doc: str | None) -> tuple[str | None, dict[str, str]]:
    """(the description: the text before the first section, parameter name -> its description)
    of a Google, NumPy or Sphinx style docstring (already dedented, as inspect.getdoc gives it)."""
    if not doc:
        return None, {}
    lines = doc.splitlines()
    end = len(lines)
    for i, line in enumerate(lines):
        stripped = line.strip()
        numpy = i + 1 < len(lines) and stripped and _NUMPY_RULE.match(lines[i + 1].strip())
        if _GOOGLE_SECTION.match(stripped) or _SPHINX_FIELD.match(stripped) or numpy:
            end = i
            break
    summary = "\n".join(lines[:end]).strip() or None
    params: dict[str, str] = {}
    _google(lines, params)
    _sphinx(lines, params)
    _numpy(lines, params)
    return summary, params


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _google(lines: list[str], params: dict[str, str]) -> None:
    i = 0
    while i < len(lines):
        if not _GOOGLE_PARAMS.match(lines[i].strip()):
            i += 1
            continue
        base = _indent(lines[i])
        i += 1
        current: str | None = None
        entry_indent = 0
        while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
            line = lines[i]
            entry = _GOOGLE_ENTRY.match(line.strip())
            if entry and (current is None or _indent(line) <= entry_indent):
                current, entry_indent = entry.group(1).lstrip("*"), _indent(line)
                params[current] = entry.group(3).strip()
            elif current is not None and line.strip():
                params[current] = (params[current] + "\n" + line.strip()).strip()
            i += 1


def _sphinx(lines: list[str], params: dict[str, str]) -> None:
    current: str | None = None
    for line in lines:
        stripped = line.strip()
        found = _SPHINX_PARAM.match(stripped)
        if found:
            current = found.group(1)
            params[current] = found.group(2).strip()
        elif _SPHINX_FIELD.match(stripped) or not stripped:
            current = None
        elif current is not None and _indent(line) > 0:
            params[current] = (params[current] + "\n" + stripped).strip()


def _numpy(lines: list[str], params: dict[str, str]) -> None:
    for i in range(len(lines) - 1):
        if lines[i].strip() not in ("Parameters", "Other Parameters") or not _NUMPY_RULE.match(lines[i + 1].strip()):
            continue
        base = _indent(lines[i])
        current: str | None = None
        for j in range(i + 2, len(lines)):
            line, stripped = lines[j], lines[j].strip()
            if not stripped:
                continue
            if _indent(line) <= base:
                entry = _NUMPY_ENTRY.match(stripped)
                if entry is None or (j + 1 < len(lines) and _NUMPY_RULE.match(lines[j + 1].strip())):
                    break  # the next section
                current = entry.group(1)
                params[current] = ""
            elif current is not None:
                params[current] = (params[current] + "\n" + stripped).strip()
