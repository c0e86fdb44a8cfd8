"""Every common tool shape in: pydantic models, Python functions, LangChain, pydantic-ai, FastMCP and google.genai tools, each read as a plain MCP tool dict without importing its library."""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from toolcast.model import InvalidToolError

#: What compile_tool, compile_tools, compile_request and ToolSet.build take (the error for
#: anything else repeats it).
ACCEPTED = (
    "a tool dict (MCP `inputSchema`, OpenAI `parameters` or Chat `function`, Anthropic "
    "`input_schema`: the SDKs' ToolParam, FunctionToolParam, ChatCompletionToolParam and "
    "pydantic_function_tool output are such dicts), an SDK tool object (mcp.types.Tool), "
    "a pydantic model class, a Python function or method (sync or async, "
    "@toolcast.tool or not), a LangChain tool, a pydantic-ai Tool, a FastMCP tool, or a "
    "google.genai FunctionDeclaration"
)


def _has_class(cls: type, module_prefix: str, name: str) -> bool:
    """Whether `cls` or one of its bases is the class `name` of a module under `module_prefix`
    (checked by name: the library need not be imported, and never is here)."""
    for base in getattr(cls, "__mro__", ()):
        if base.__name__ == name and (base.__module__ or "").startswith(module_prefix):
            return True
    return False


def is_model_class(obj: Any) -> bool:
    """A pydantic model class (not an instance)."""
    return isinstance(obj, type) and _has_class(obj, "pydantic.", "BaseModel")


def is_function(obj: Any) -> bool:
    """A plain Python function or method, sync or async (a lambda, a bound method, a
    staticmethod's function); not a class, not a LangChain or FastMCP tool object."""
    return inspect.isfunction(obj) or inspect.ismethod(obj)


def shape_of(obj: Any) -> str | None:
    """Which known non-dict shape `obj` is: "model", "function", "langchain", "pydantic-ai",
    "fastmcp", "genai", or None (a dict, an SDK object read by its dump, or no tool)."""
    if isinstance(obj, type):
        return "model" if is_model_class(obj) else None
    if is_function(obj):
        return "function"
    cls = type(obj)
    if _has_class(cls, "langchain_core.", "BaseTool"):
        return "langchain"
    if _has_class(cls, "pydantic_ai.", "Tool"):
        return "pydantic-ai"
    if _has_class(cls, "fastmcp.", "Tool"):
        return "fastmcp"
    if _has_class(cls, "google.genai.", "FunctionDeclaration"):
        return "genai"
    return None


def mcp_tool(obj: Any) -> dict[str, Any] | None:
    """The MCP tool dict (name, description, inputSchema) of a known non-dict shape (see
    shape_of); None for anything else. InvalidToolError when it is such a shape but cannot be
    read (a function pydantic cannot describe, pydantic missing)."""
    shape = shape_of(obj)
    if shape is None:
        return None
    if shape == "function":
        from toolcast.local_tools import local_tool

        return local_tool(obj).definition()
    return _READERS[shape](obj)


def _tool(name: Any, description: Any, schema: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name}
    if description is not None:
        out["description"] = description
    out["inputSchema"] = schema
    return out


def _model(cls: type) -> dict[str, Any]:
    # As pydantic sends it (openai's pydantic_function_tool does the same): the class name, the
    # schema pydantic generates (its root description is the class docstring, cleaned by pydantic).
    schema = cls.model_json_schema()  # type: ignore[attr-defined]
    return _tool(cls.__name__, schema.get("description"), schema)


def _langchain(tool: Any) -> dict[str, Any]:
    # What LangChain itself sends: its own conversion to an OpenAI tool (titles dropped, the
    # tool's description and argument schema, injected arguments left out).
    from langchain_core.utils.function_calling import convert_to_openai_tool

    fn = convert_to_openai_tool(tool)["function"]
    return _tool(fn.get("name"), fn.get("description"), fn.get("parameters", {"type": "object", "properties": {}}))


def _pydantic_ai(tool: Any) -> dict[str, Any]:
    # The ToolDefinition pydantic-ai sends to a model.
    definition = tool.tool_def
    return _tool(definition.name, definition.description, definition.parameters_json_schema)


def _fastmcp(tool: Any) -> dict[str, Any]:
    # What FastMCP lists for the tool (its `parameters` are the listing's inputSchema).
    return _tool(tool.name, tool.description, tool.parameters)


def _genai(decl: Any) -> dict[str, Any]:
    """A google.genai FunctionDeclaration: `parameters_json_schema` as it is, or `parameters`
    (the OpenAPI Schema subset as genai objects) as the JSON Schema it stands for."""
    name, description = decl.name, decl.description
    given = decl.parameters_json_schema
    params = decl.parameters
    if given is not None and params is not None:
        raise InvalidToolError("the FunctionDeclaration gives both `parameters` and `parameters_json_schema`: "
                               "which to compile is ambiguous; give one", "parameters")
    if given is not None:
        return _tool(name, description, given)
    if params is None:
        return _tool(name, description, {"type": "object", "properties": {}})
    return _tool(name, description, genai_schema(params.model_dump(mode="json", by_alias=True, exclude_none=True)))


# genai's Schema field (by its alias) -> the JSON Schema keyword it is.
_GENAI_RENAMED = {"defs": "$defs", "ref": "$ref"}
_GENAI_SCHEMA_MAPS = frozenset({"properties", "defs"})
_GENAI_SCHEMA_LISTS = frozenset({"anyOf"})
_GENAI_SCHEMAS = frozenset({"items", "additionalProperties"})


def genai_schema(dumped: Any) -> Any:
    """A genai Schema's JSON dump as JSON Schema: its `Type` enum values (`OBJECT`, `STRING`) as
    JSON Schema's type names, `defs`/`ref` as `$defs`/`$ref` (its references point at `#/defs/`);
    every other field (`nullable`, `propertyOrdering`, ...) kept for the compiler to read."""
    if not isinstance(dumped, dict):
        return dumped
    out: dict[str, Any] = {}
    for key, value in dumped.items():
        if key == "type":
            if value == "TYPE_UNSPECIFIED":
                continue
            value = value.lower() if isinstance(value, str) else value
        elif key == "ref" and isinstance(value, str) and value.startswith("#/defs/"):
            value = "#/$defs/" + value[len("#/defs/"):]
        elif key in _GENAI_SCHEMA_MAPS and isinstance(value, dict):
            value = {k: genai_schema(v) for k, v in value.items()}
        elif key in _GENAI_SCHEMA_LISTS and isinstance(value, list):
            value = [genai_schema(v) for v in value]
        elif key in _GENAI_SCHEMAS:
            value = genai_schema(value)
        out[_GENAI_RENAMED.get(key, key)] = value
    return out


_READERS = {
    "model": _model,
    "langchain": _langchain,
    "pydantic-ai": _pydantic_ai,
    "fastmcp": _fastmcp,
    "genai": _genai,
}


def described(obj: Any) -> str:
    """What `obj` is, for an error message: its type's full name, and a short repr of a value."""
    if isinstance(obj, type):
        return f"the class {obj.__module__}.{obj.__qualname__}"
    cls = type(obj)
    name = cls.__qualname__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__qualname__}"
    if isinstance(obj, (str, bytes, int, float, bool, list, tuple)) or obj is None:
        try:
            shown = repr(obj)
        except Exception:
            return name
        return f"{name} {shown[:60]}{'...' if len(shown) > 60 else ''}"
    return name


def not_a_tool(obj: Any) -> InvalidToolError:
    """The error for a value that is no tool in any shape toolcast reads."""
    return InvalidToolError(f"not a tool: got {described(obj)}; toolcast accepts {ACCEPTED}")


def as_mapping(obj: Any) -> Mapping:
    """`obj` read as a tool mapping: a known shape as its MCP tool dict, an SDK object by its
    dump; InvalidToolError naming what was given and what is accepted for anything else."""
    found = mcp_tool(obj)
    if found is not None:
        return found
    dump = getattr(obj, "model_dump", None)
    if callable(dump) and not isinstance(obj, type):
        # The official SDKs' pydantic objects (mcp.types.Tool, and any other with a tool's fields).
        dumped = dump(by_alias=True, exclude_none=True)
        if isinstance(dumped, Mapping) and ("name" in dumped or "function" in dumped):
            return dumped
    raise not_a_tool(obj)
