"""Every common tool shape in (toolcast.shapes): each compiles for every target exactly as the dict it
stands for, pydantic shapes with the schema pydantic itself produces, and anything else is refused
with an error that names what was given and what is accepted."""

from __future__ import annotations

import datetime
import enum
import json
import subprocess
import sys
from typing import Annotated, Literal

import pytest
from pydantic import BaseModel, Field

import toolcast
from toolcast.openai import WholeToolError, strict_schema
from toolcast.toolset import ToolSet, thaw

# (target, api) for every target and API toolcast compiles for.
TARGETS = [("openai", "responses"), ("openai", "chat"), ("anthropic", None), ("gemini", "parameters"),
           ("gemini", "json-schema"), ("vertex", "parameters"), ("vertex", "json-schema")]


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Address(BaseModel):
    """A postal address."""

    street: str
    zip: str | None = None


class Contact(BaseModel):
    """A person to write to."""

    name: str = Field(description="full name")
    email: str | None = None
    address: Address | None = None
    tags: list[str] = []


def book(when: datetime.datetime, color: Color, where: Address, tags: list[str] = [],  # noqa: B006
         mode: Literal["a", "b"] = "a", n: Annotated[int, Field(ge=1, description="how many")] = 1,
         json: str = "x") -> str:
    """Book a slot.

    Args:
        when: the start
        color: a colour
            of the slot
        n: overridden by the Field's description
    """
    return "ok"


async def lookup(query: str, limit: int = 10) -> list[str]:
    """Look something up.

    :param query: what to look for
    :param limit: at most this many
    """
    return []


class Shop:
    def refund(self, order_id: str, amount: float | None = None) -> str:
        """Refund an order.

        Parameters
        ----------
        order_id : str
            the order
        amount : float, optional
            part of it
        """
        return "done"


class Opaque:
    """A parameter type pydantic has no schema for."""


def _same(tool, equivalent) -> None:
    """`tool` compiles for every target exactly as `equivalent` (a dict) does."""
    for target, api in TARGETS:
        got = toolcast.compile_tool(tool, target=target, api=api).to_dict()
        want = toolcast.compile_tool(equivalent, target=target, api=api).to_dict()
        assert got == want, (target, api)


def _same_sent(tool, equivalent) -> None:
    """As _same, for a tool in another dict shape: all but the note that the schema's field was renamed."""
    def sent(given, target, api):
        out = toolcast.compile_tool(given, target=target, api=api).to_dict()
        out["transformations"] = [t for t in out["transformations"] if not t["code"].startswith("renamed-")]
        return out

    for target, api in TARGETS:
        assert sent(tool, target, api) == sent(equivalent, target, api), (target, api)


def _mcp(name, description, schema) -> dict:
    return {"name": name, "description": description, "inputSchema": schema}


# --------------------------------------------------------------------------- pydantic models


def test_a_pydantic_model_class_is_its_name_docstring_and_pydantics_own_schema():
    _same(Contact, _mcp("Contact", "A person to write to.", Contact.model_json_schema()))
    res = toolcast.compile_tool(Contact, target="openai", strict=False)
    assert res.name == "Contact" and res.tool["description"] == "A person to write to."
    assert res.tool["parameters"] == Contact.model_json_schema()  # sent non-strict: pydantic's schema as it is
    assert toolcast.compile_tool(Contact).status == "strict"


def test_a_model_class_without_a_docstring_has_no_description():
    class Bare(BaseModel):
        x: int

    res = toolcast.compile_tool(Bare)
    assert res.name == "Bare" and "description" not in Bare.model_json_schema()
    _same(Bare, {"name": "Bare", "inputSchema": Bare.model_json_schema()})


# --------------------------------------------------------------------------- functions


def _pydantic_ai_schema(fn) -> dict:
    from pydantic_ai import Tool

    return Tool(fn).function_schema.json_schema


def _fastmcp_schema(fn) -> dict:
    from fastmcp.tools import Tool

    return Tool.from_function(fn).parameters


def _without_def_titles(schema: dict) -> dict:
    out = json.loads(json.dumps(schema))
    for d in out.get("$defs", {}).values():
        d.pop("title", None)
    return out


@pytest.mark.parametrize("fn", [book, lookup, Shop().refund], ids=["google", "async-sphinx", "method-numpy"])
def test_a_function_schema_is_pydantics_as_pydantic_ai_and_fastmcp_make_it(fn):
    from toolcast.local_tools import local_tool

    definition = local_tool(fn).definition()
    assert definition["inputSchema"] == _pydantic_ai_schema(fn)
    # FastMCP prunes the titles pydantic gives the models in $defs; the rest is the same.
    assert _without_def_titles(definition["inputSchema"]) == _without_def_titles(_fastmcp_schema(fn))
    assert definition["name"] == fn.__name__
    _same(fn, definition)


def test_a_function_reads_signature_hints_defaults_annotated_fields_and_docstring():
    from toolcast.local_tools import local_tool

    d = local_tool(book).definition()
    props = d["inputSchema"]["properties"]
    assert d["description"] == "Book a slot."
    assert props["when"] == {"description": "the start", "format": "date-time", "type": "string"}
    assert props["color"] == {"$ref": "#/$defs/Color", "description": "a colour\nof the slot"}
    assert props["n"] == {"default": 1, "description": "how many", "minimum": 1, "type": "integer"}
    assert props["json"] == {"default": "x", "type": "string"}  # (a parameter named as a BaseModel method)
    assert d["inputSchema"]["required"] == ["when", "color", "where"]
    assert d["inputSchema"]["additionalProperties"] is False
    assert local_tool(Shop().refund).definition()["inputSchema"]["properties"]["amount"]["description"] == "part of it"
    assert local_tool(lookup).definition()["inputSchema"]["properties"]["limit"]["description"] == "at most this many"


def test_the_decorator_records_a_name_and_description_and_returns_the_function():
    @toolcast.tool
    def plain(x: int) -> int:
        """Plain."""
        return x + 1

    @toolcast.tool(name="renamed", description="Said otherwise.")
    def other(x: int) -> int:
        """Ignored."""
        return x * 2

    assert plain(1) == 2 and other(2) == 4  # still the functions they were
    assert toolcast.compile_tool(plain).name == "plain"
    res = toolcast.compile_tool(other, target="anthropic")
    assert (res.name, res.tool["description"]) == ("renamed", "Said otherwise.")
    ts, _ = ToolSet.build([plain, other])
    assert ts.names == ("plain", "renamed")
    with pytest.raises(TypeError, match="marks a function"):
        toolcast.tool(Contact)


# --------------------------------------------------------------------------- other libraries' tools


def test_a_langchain_tool_compiles_as_langchain_sends_it():
    from langchain_core.tools import tool as lc_tool
    from langchain_core.utils.function_calling import convert_to_openai_tool

    @lc_tool
    def add(a: int, b: Annotated[int, "the second"] = 2) -> int:
        """Add two numbers."""
        return a + b

    sent = convert_to_openai_tool(add)["function"]  # (read as the MCP tool it stands for)
    _same(add, _mcp(sent["name"], sent["description"], sent["parameters"]))
    assert toolcast.compile_tool(add).tool["parameters"]["properties"]["b"]["description"] == "the second"


def test_a_pydantic_ai_tool_compiles_as_its_tool_definition():
    from pydantic_ai import Tool

    t = Tool(book, name="book_slot")
    d = t.tool_def
    _same(t, _mcp(d.name, d.description, d.parameters_json_schema))
    assert toolcast.compile_tool(t).name == "book_slot"


def test_a_fastmcp_tool_compiles_as_fastmcp_lists_it():
    from fastmcp.tools import Tool

    t = Tool.from_function(lookup)
    listed = t.to_mcp_tool().model_dump(by_alias=True, exclude_none=True)
    _same(t, listed)
    assert toolcast.compile_tool(t).name == "lookup"


# The JSON Schema a genai Schema stands for (its Type values are OpenAPI's upper-case names).
GENAI_EQUIVALENT = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "where", "nullable": True},
        "days": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
        "unit": {"type": "string", "enum": ["c", "f"]},
        "home": {"$ref": "#/$defs/Place"},
    },
    "required": ["city"],
    "propertyOrdering": ["city", "days", "unit", "home"],
    "$defs": {"Place": {"type": "object", "properties": {"name": {"type": "string"}}}},
}


def test_a_genai_declaration_with_parameters_reads_its_enum_types_as_json_schema():
    from google.genai import types as gt

    params = gt.Schema(
        type=gt.Type.OBJECT,
        properties={"city": gt.Schema(type="STRING", description="where", nullable=True),
                    "days": gt.Schema(type=gt.Type.ARRAY, items=gt.Schema(type=gt.Type.INTEGER), min_items=1),
                    "unit": gt.Schema(type=gt.Type.STRING, enum=["c", "f"]),
                    "home": gt.Schema(ref="#/defs/Place")},
        required=["city"], property_ordering=["city", "days", "unit", "home"],
        defs={"Place": gt.Schema(type="OBJECT", properties={"name": gt.Schema(type="STRING")})})
    decl = gt.FunctionDeclaration(name="forecast", description="Weather.", parameters=params)
    _same(decl, _mcp("forecast", "Weather.", GENAI_EQUIVALENT))
    res = toolcast.compile_tool(decl, target="gemini")
    assert res.status != "refused" and res.tool["parameters"]["type"] == "OBJECT"


def test_a_genai_declaration_with_a_json_schema_and_without_parameters():
    from google.genai import types as gt

    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    decl = gt.FunctionDeclaration(name="search", description="Search.", parameters_json_schema=schema)
    _same(decl, _mcp("search", "Search.", schema))
    empty = gt.FunctionDeclaration(name="now", description="The time.")
    _same(empty, _mcp("now", "The time.", {"type": "object", "properties": {}}))
    both = gt.FunctionDeclaration(name="x", parameters=gt.Schema(type="OBJECT"), parameters_json_schema=schema)
    with pytest.raises(toolcast.InvalidToolError, match="both `parameters` and `parameters_json_schema`"):
        toolcast.compile_tool(both)


def test_sdk_params_and_objects():
    import openai
    from anthropic.types import ToolParam
    from mcp import types as mt
    from openai.types.chat import ChatCompletionToolParam
    from openai.types.responses import FunctionToolParam

    schema = Contact.model_json_schema()
    anthropic_tool: ToolParam = {"name": "contact", "description": "d", "input_schema": schema}
    responses_tool: FunctionToolParam = {"type": "function", "name": "contact", "description": "d",
                                         "parameters": schema, "strict": False}
    chat_tool: ChatCompletionToolParam = {"type": "function", "function": {
        "name": "contact", "description": "d", "parameters": schema}}
    for given in (anthropic_tool, responses_tool, chat_tool):
        _same_sent(given, _mcp("contact", "d", schema))
    _same(mt.Tool(name="contact", description="d", input_schema=schema), _mcp("contact", "d", schema))
    helper = openai.pydantic_function_tool(Contact)
    _same_sent(helper, _mcp("Contact", "A person to write to.", helper["function"]["parameters"]))


# --------------------------------------------------------------------------- ToolSet.build and errors


def test_toolset_build_takes_every_shape_as_an_mcp_tool():
    from langchain_core.tools import tool as lc_tool

    @lc_tool
    def echo(text: str) -> str:
        """Echo."""
        return text

    ts, report = ToolSet.build({"shapes": [Contact, echo, lookup]})
    assert not report and ts.names == ("shapes__Contact", "shapes__echo", "shapes__lookup")
    assert thaw(ts["shapes__Contact"].input_schema) == Contact.model_json_schema()
    assert ts["shapes__lookup"].local is not None and ts["shapes__Contact"].local is None


@pytest.mark.parametrize("given, shown", [
    (42, "got int 42"), ("weather", "got str 'weather'"), ([1], "got list [1]"),
    (object(), "got object"), (Color, "got the class test_shapes.Color"), (datetime.date.today, "got builtin_function_or_method"),
])
def test_anything_else_is_refused_naming_what_was_given_and_what_is_accepted(given, shown):
    with pytest.raises(toolcast.InvalidToolError) as caught:
        toolcast.compile_tool(given)
    message = str(caught.value)
    assert shown in message
    for accepted in ("pydantic model class", "Python function", "LangChain tool", "pydantic-ai Tool",
                     "FastMCP tool", "google.genai FunctionDeclaration", "mcp.types.Tool", "`inputSchema`"):
        assert accepted in message
    with pytest.raises(toolcast.InvalidToolError, match="not a tool: got"):
        toolcast.compile_tools([{"name": "ok", "inputSchema": {"type": "object"}}, given])


def test_functions_pydantic_cannot_describe_are_refused_by_name():
    def star(*items: int) -> None: ...

    def kw(**options: str) -> None: ...

    def opaque(thing: Opaque) -> None: ...

    with pytest.raises(toolcast.InvalidToolError, match=r"'star'.*\*items"):
        toolcast.compile_tool(star)
    with pytest.raises(toolcast.InvalidToolError, match=r"'kw'.*\*\*options"):
        ToolSet.build([kw])
    with pytest.raises(toolcast.InvalidToolError, match="'opaque': pydantic cannot make a schema"):
        toolcast.compile_tool(opaque)


@pytest.mark.parametrize("tool, field", [
    ({"name": "t", "inputSchema": {"type": "object"}}, "inputSchema"),
    ({"name": "t", "input_schema": {"type": "object"}}, "input_schema"),
    ({"type": "function", "name": "t", "parameters": {"type": "object"}}, "parameters"),
    ({"type": "function", "function": {"name": "t", "parameters": {"type": "object"}}}, "function"),
    ({"name": "t", "parametersJsonSchema": {"type": "object"}}, "parametersJsonSchema"),
])
def test_strict_schema_refuses_a_whole_tool(tool, field):
    with pytest.raises(WholeToolError, match=f"whole tool .*`{field}`.*compile_tool") as caught:
        strict_schema(tool)
    assert isinstance(caught.value, toolcast.ToolcastError) and isinstance(caught.value, TypeError)
    out, _ = strict_schema({"type": "object", "properties": {"name": {"type": "string"}}})  # a schema still is one
    assert out["required"] == ["name"]


def test_import_toolcast_imports_no_tool_library():
    code = ("import sys, toolcast; toolcast.compile_tool({'name': 'a', 'inputSchema': {'type': 'object'}}); "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'pydantic', 'pydantic_core', 'langchain_core', "
            "'pydantic_ai', 'fastmcp', 'google', 'mcp', 'mcp_types', 'openai', 'anthropic'}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
