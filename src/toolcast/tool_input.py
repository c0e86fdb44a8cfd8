"""A tool as compile reads it: its shape, name and description checked, the caller's options, the target resolved, and the copy of a schema sent as it was."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from toolcast.model import InvalidToolError as InvalidToolError
from toolcast.model import not_text
from toolcast.providers import EMITTERS, PROVIDER_OF
from toolcast.rules import Rules, family, get_rules, target_of
from toolcast.walk.semantics import json_equal

StrictMode = Literal["auto", True, False]
OptionalNull = Literal["value", "omit"]
OPTIONAL_NULL = ("value", "omit")


# Deeper than this, a schema cannot even be serialised safely; it is refused in every mode.
MAX_COPY_DEPTH = 500


class _TooDeep(Exception):
    pass


def copy_json(value: Any) -> Any:
    """A deep copy of JSON-like data, refusing absurd nesting (_TooDeep beyond MAX_COPY_DEPTH): a
    dict or list subclass copied as the plain dict or list it stands for, a tuple as the list JSON
    writes for it (so what is sent holds JSON's containers only)."""
    if not isinstance(value, _CONTAINERS):
        return value
    try:
        return _copy(value, 1)
    except RecursionError:  # called from deep in someone's stack: the loop below needs none
        return _copy_iterative(value)


def _copy(value: dict | list, depth: int) -> Any:
    if type(value) is dict:
        return _copy_dict(value, depth)
    if type(value) is not list and isinstance(value, dict):
        return _copy_dict(dict(value), depth)  # a subclass, copied as the plain dict it stands for
    return _copy_list(value if type(value) is list else list(value), depth)


def _copy_dict(value: dict, depth: int) -> dict:
    # A plain dict (see _copy). Shallow-copy the container, then replace its containers: most
    # values are scalars.
    if depth > MAX_COPY_DEPTH:
        raise _TooDeep
    out = dict(value)
    for k, v in value.items():
        tv = type(v)
        if tv is dict:
            out[k] = _copy_dict(v, depth + 1)
        elif tv is list:
            out[k] = _copy_list(v, depth + 1)
        elif tv not in _SCALARS and isinstance(v, _CONTAINERS):
            out[k] = _copy(v, depth + 1)
    return out


def _copy_list(value: list, depth: int) -> list:
    # A plain list (see _copy).
    if depth > MAX_COPY_DEPTH:
        raise _TooDeep
    out = list(value)
    for i, v in enumerate(value):
        tv = type(v)
        if tv is dict:
            out[i] = _copy_dict(v, depth + 1)
        elif tv is list:
            out[i] = _copy_list(v, depth + 1)
        elif tv not in _SCALARS and isinstance(v, _CONTAINERS):
            out[i] = _copy(v, depth + 1)
    return out


_SCALARS = frozenset({str, int, float, bool, type(None)})
_CONTAINERS = (dict, list, tuple)


def _copy_iterative(value: dict | list) -> Any:
    root: Any = {} if isinstance(value, dict) else []
    stack = [(value, root, 1)]
    while stack:
        src, dst, depth = stack.pop()
        if depth > MAX_COPY_DEPTH:
            raise _TooDeep
        items = src.items() if isinstance(src, dict) else enumerate(src)
        for k, v in items:
            if isinstance(v, _CONTAINERS):
                child: Any = {} if isinstance(v, dict) else []
                stack.append((v, child, depth + 1))
            else:
                child = v
            if isinstance(dst, dict):
                dst[k] = child
            else:
                dst.append(child)
    return root


def optional_null_mode(value: Any) -> OptionalNull:
    """`value` checked as an optional_null choice (see compile_tool)."""
    if value not in OPTIONAL_NULL or not isinstance(value, str):
        raise ValueError(f"optional_null must be 'value' or 'omit', not {value!r}")
    return value


def strict_mode(value: Any) -> StrictMode:
    if value in ("auto", None):
        return "auto"
    if value is True or value == "true":
        return True
    if value is False or value == "false":
        return False
    raise ValueError(f"strict must be 'auto', true or false, not {value!r}")


def read_tool(tool: Any) -> tuple[Any, Any, Any, str]:
    """(name, description, parameters schema, shape) of an MCP, OpenAI or Anthropic tool, or of
    any shape toolcast.shapes reads (a pydantic model class, a function, a LangChain tool, ...)."""
    if type(tool) is not dict and not isinstance(tool, Mapping):
        from toolcast.shapes import as_mapping  # (imported on the first such tool only)

        tool = as_mapping(tool)
    _one_schema(tool)
    if tool.get("type") == "function" and isinstance(tool.get("function"), Mapping):
        fn = tool["function"]
        return fn.get("name"), fn.get("description"), fn.get("parameters"), "chat"
    if "inputSchema" in tool:
        return tool.get("name"), tool.get("description"), tool["inputSchema"], "mcp"
    if "input_schema" in tool:
        return tool.get("name"), tool.get("description"), tool["input_schema"], "anthropic"
    if "parameters" in tool or tool.get("type") == "function":
        return tool.get("name"), tool.get("description"), tool.get("parameters"), "openai"
    if "name" in tool and set(tool) <= {"name", "description", "title", "annotations", "outputSchema", "_meta", "icons"}:
        return tool.get("name"), tool.get("description"), None, "mcp"
    raise InvalidToolError(
        "not a tool: expected `inputSchema` (MCP), `parameters` (OpenAI), `function` (Chat) or `input_schema` (Anthropic)"
    )


# Where each tool shape keeps its schema; a tool that gives two different ones is ambiguous.
_SCHEMA_FIELDS = ("inputSchema", "input_schema", "parameters")


def _one_schema(tool: Mapping) -> None:
    """InvalidToolError when `tool` gives two different schemas (or a Chat `function` beside a
    different top-level name or schema): compiling either would silently drop the other."""
    given = [k for k in _SCHEMA_FIELDS if k in tool]
    fn = tool.get("function") if tool.get("type") == "function" else None
    if (len(given) < 2) if not isinstance(fn, Mapping) else (not given and "name" not in tool):
        return  # (one schema, or a Chat function alone: the common cases)
    if isinstance(fn, Mapping):
        for k in ("name", "parameters"):
            if k in tool and k in fn and not _same(tool[k], fn[k]):
                raise InvalidToolError(f"`{k}` and `function.{k}` differ: which to compile is ambiguous; give one", k)
        if "parameters" in fn:
            given = [k for k in given if k != "parameters"] + ["function.parameters"]
    if len(given) > 1:
        values = [fn["parameters"] if k == "function.parameters" else tool[k] for k in given]
        if not all(_same(v, values[0]) for v in values[1:]):
            raise InvalidToolError(f"`{given[0]}` and `{given[1]}` give different schemas: which to compile is "
                                   "ambiguous; give one", given[1].split(".")[-1])


def _same(a: Any, b: Any) -> bool:
    """Whether two schemas are the same JSON value (`true` is not `1`)."""
    try:
        return json_equal(a, b)
    except RecursionError:  # (nested past the guard: not shown the same)
        return False


class _Report:
    """Collects tool-level findings as the walk does: (code, base, tokens, params|note) records."""

    def __init__(self, rules: Rules, diags: list | None = None, trans: list | None = None):
        self.r = rules
        self.diags: list[tuple] = [] if diags is None else diags
        self.trans: list[tuple] = [] if trans is None else trans

    def diag(self, pattern: str, base: str, tokens: tuple = (), **params: Any) -> None:
        self.diags.append((self.r.patterns[pattern], base, tokens, tuple(params.items())))

    def change(self, pattern: str, base: str, tokens: tuple = (), note: str = "") -> None:
        self.trans.append((self.r.changes[pattern], base, tokens, note))


def check_name(name: Any, r: Rules, diags: list) -> bool:
    """Whether the provider accepts the tool name; a refusing finding is recorded when it does not."""
    codes = r.patterns
    if not isinstance(name, str) or not name:
        diags.append((codes["tool-name-missing"], "name", (), ()))
        return False
    if len(name) <= r.name_max_length and r.name_re.fullmatch(name):  # (the cap stands apart from the pattern)
        return True
    if len(name) > r.name_max_length:
        diags.append((codes["tool-name-too-long"], "name", (), (("count", len(name)), ("limit", r.name_max_length))))
        if r.name_re.fullmatch(name[: r.name_max_length]):
            return False
    diags.append((codes["tool-name-invalid-characters"], "name", (), (("name", name), ("pattern", r.name_pattern))))
    return False


def clean_description(desc: Any, rep: _Report) -> str | None:
    r = rep.r
    if desc is None or (isinstance(desc, str) and (not desc or desc.isspace())):
        rep.diag("missing-tool-description", "description")
        return desc if isinstance(desc, str) and desc else None
    if not isinstance(desc, str):
        raise InvalidToolError(f"the description must be a string, not {type(desc).__name__}", "description")
    # The common case: nothing to strip (known without a regex scan when the text is ASCII and no
    # character the rules strip is) and within every cap.
    ascii = desc.isascii()
    try:
        size = len(desc) if ascii else len(desc.encode("utf-8"))
    except UnicodeEncodeError:  # (worded as the loader words it: loader.text_only)
        raise InvalidToolError(not_text("#/description", desc), "description") from None
    if ((ascii and r.description_strip_ascii_free) or r.description_strip_re.search(desc) is None) and (
        size <= r.description_max_bytes
        and (r.description_max_chars is None or len(desc) <= r.description_max_chars)
    ):
        return desc
    cleaned, removed = r.description_strip_re.subn("", desc)
    if removed:
        rep.diag("description-invisible-characters", "description", count=removed)
        rep.change("stripped-description-characters", "description", note=f"({removed} removed)")
    # A character cap the provider enforced in some rule versions (data: description.max_chars).
    max_chars = r.description_max_chars
    if max_chars is not None and len(cleaned) > max_chars:
        rep.diag("description-over-char-limit", "description", count=len(cleaned), limit=max_chars)
        rep.change("truncated-description-to-char-limit", "description", note=f"({len(cleaned)} -> {max_chars} characters)")
        cleaned = cleaned[:max_chars]
    raw = cleaned.encode("utf-8")
    if len(raw) > r.description_max_bytes:
        # Cutting the bytes and dropping a partial trailing sequence keeps whole characters.
        cleaned = raw[: r.description_max_bytes].decode("utf-8", "ignore")
        rep.diag("description-too-long", "description", count=len(raw), limit=r.description_max_bytes)
        rep.change("truncated-description", "description", note=f"({len(raw)} -> {len(cleaned.encode('utf-8'))} bytes)")
    return cleaned


def _emitter(target: str, api: str | None) -> tuple[Any, str]:
    """(the emit module of `target` (providers.EMITTERS), `api` checked against it, or its default)."""
    emitter = EMITTERS.get(target)
    if emitter is None:
        raise ValueError(f"unknown target {target!r}; available: {', '.join(EMITTERS)}")
    if api is None:
        return emitter, emitter.DEFAULT_API
    if api not in emitter.APIS:
        raise ValueError(f"unknown api {api!r} for target {target!r}; available: {', '.join(emitter.APIS)}")
    return emitter, api


# (target, api as given, rules spec) -> resolve_target's answer: a compile of a small tool costs
# little more than this lookup would save (4% of bfcl before it).
_TARGETS: dict[tuple, tuple] = {}


def resolve_target(target: str, api: str | None, rules: str | Rules | None) -> tuple[Any, str, Rules]:
    """(the target's emit module, the API, the rules) for compile_tool's arguments; ValueError for
    an unknown target or API, or a rules spec naming another provider than the target's."""
    api_given = api
    if api is None and type(rules) is str and "@" in rules:
        # A rules spec naming a family of this target (gemini@..., gemini-parameters@...) picks its API.
        named = target_of(rules.partition("@")[0].strip())
        if named is not None and named[0] == target:
            api = named[1]
    emitter, api = _emitter(target, api)
    provider = family(target, api) or PROVIDER_OF[target]
    if type(rules) is Rules:
        return emitter, api, rules  # given tables are used as they are (a provider in the making, say)
    r = get_rules(rules, provider)
    if r.provider != provider:
        raise ValueError(f"rules {r.id} are not {provider}'s; target {target!r} (api {api!r}) compiles under {provider}@VERSION")
    if len(_TARGETS) < 64:  # (target, api, rules spec) are a handful of strings; never grow without bound
        _TARGETS[(target, api_given, rules)] = (emitter, api, r)
    return emitter, api, r
