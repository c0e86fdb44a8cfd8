"""A target's wire shapes as data (the spec's `wire:` section): the one emit path every target takes.

A `wire:` section names, per API, the tool's envelope as a JSON template (`$name`, `$description`,
`$schema`, `$strict`), the request's tools value (`$tools`), where a response keeps its tool calls
and the shape of a tool result (`$id`, `$name`, `$text`, `$error`, and where `parts` says how a
result's text and image parts are written, `$content` and `$media`); toolcast.providers.loop reads
the last two. A placeholder ending in `?` leaves its field out when the value is empty (``""``,
``[]``), false or None (`strict: $strict?`: only `strict: true` is sent). A Target is built once per target from the
`wire` of each of its rule families (a target with an API per family, Gemini's, joins them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["Target", "WireError", "fill"]


class WireError(ValueError):
    """A `wire:` section that cannot be used (names the target and the place)."""


# A compiled template: ("const", value) | ("slot", name, optional) | ("dict", ((key, node), ...)) |
# ("list", (node, ...)). Built once per target; filling one costs a few dict operations.
def _compile(template: Any) -> tuple:
    if isinstance(template, str) and template.startswith("$"):
        optional = template.endswith("?")
        return ("slot", template[1:-1] if optional else template[1:], optional)
    if isinstance(template, Mapping):
        return ("dict", tuple((k, _compile(v)) for k, v in template.items()))
    if isinstance(template, (list, tuple)):
        return ("list", tuple(_compile(v) for v in template))
    return ("const", template)


_LEFT_OUT = object()


def _fill(node: tuple, values: Mapping[str, Any]) -> Any:
    kind = node[0]
    if kind == "slot":
        value = values.get(node[1])
        if node[2] and (value is None or value is False or value == "" or value == []):
            return _LEFT_OUT
        return value
    if kind == "dict":
        out = {}
        for key, sub in node[1]:
            value = _fill(sub, values)
            if value is not _LEFT_OUT:
                out[key] = value
        return out
    if kind == "list":
        return [v for v in (_fill(sub, values) for sub in node[1]) if v is not _LEFT_OUT]
    value = node[1]
    return _copy(value) if isinstance(value, (dict, list)) else value


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def fill(template: Any, values: Mapping[str, Any]) -> Any:
    """`template` (a wire template as the spec writes it) with its placeholders filled from `values`."""
    value = _fill(_compile(template), values)
    return None if value is _LEFT_OUT else value


# The placeholders a tool envelope may use, and the argument of the generated emit function each is.
_TOOL_SLOTS = {"name": "name", "description": "description", "schema": "parameters", "strict": "strict"}
_SCALAR = (str, int, float, bool, type(None))


def _emitter(nodes: dict[str, tuple], where: str, owner: Any = None) -> Any:
    """A function (name, description, parameters, strict, api) -> the filled template of `api`,
    generated from the compiled templates as straight-line code, one branch per API: as fast as a
    hand-written emit (a tool is emitted per compile). Keys, API names and scalar constants enter the
    source as repr() literals, slots as fixed argument names; anything else is rejected, so the
    spec's data never becomes code. The source is written (and a bad template refused) now; it is
    compiled on the first emit (listing the targets, as the CLI's help does, compiles none), and
    then stands as `owner.emit` (no extra call per tool after the first)."""
    lines = ["def emit(name, description, parameters, strict, api):",
             "    description_ = '' if description is None else description"]
    consts: dict[str, Any] = {"_copy": _copy}
    counter = [0]

    def put(target: str, optional: str | None) -> str:
        if optional is None:
            return f"        {target}"
        return f"        if {optional} is not None and {optional} is not False and {optional} != '': {target}"

    def value(sub: tuple, api: str) -> tuple[str, str | None]:
        """(expression, the optional slot's expression or None), emitting setup lines."""
        if sub[0] == "slot":
            if sub[1] not in _TOOL_SLOTS:
                raise WireError(f"{where}.{api}.tool: unknown placeholder ${sub[1]} "
                                f"(a tool takes ${', $'.join(_TOOL_SLOTS)})")
            expr = _TOOL_SLOTS[sub[1]]
            if sub[1] == "description" and not sub[2]:
                expr = "description_"  # (required: "" when the tool has none)
            return expr, (expr if sub[2] else None)
        if sub[0] == "const":
            if isinstance(sub[1], _SCALAR) and not isinstance(sub[1], float):
                return repr(sub[1]), None
            counter[0] += 1
            consts[f"_c{counter[0]}"] = sub[1]
            return f"_copy(_c{counter[0]})", None
        counter[0] += 1
        var = f"v{counter[0]}"
        # The entries up to the first optional one are written as one display ({...} or [...]), the
        # rest one statement each (in the template's order: the display's come first).
        head: list[str] = []
        rest: list[str] = []
        for key, child in (sub[1] if sub[0] == "dict" else ((None, c) for c in sub[1])):
            if sub[0] == "dict" and not isinstance(key, str):
                raise WireError(f"{where}.{api}.tool: a template's keys are strings, not {key!r}")
            expr, optional = value(child, api)
            if optional is None and not rest:
                head.append(f"{key!r}: {expr}" if sub[0] == "dict" else expr)
            else:
                rest.append(put(f"{var}[{key!r}] = {expr}" if sub[0] == "dict" else f"{var}.append({expr})", optional))
        lines.append(f"        {var} = {{{', '.join(head)}}}" if sub[0] == "dict" else f"        {var} = [{', '.join(head)}]")
        lines.extend(rest)
        return var, None

    for api, node in nodes.items():
        lines.append(f"    if api == {api!r}:")
        expr, _ = value(node, api)
        lines.append(f"        return {expr}")
    lines.append("    raise KeyError(api)")
    if not any("description_" in line for line in lines[2:]):
        del lines[1]  # (no template writes a required description)
    made: list = []

    def emit(name: Any, description: Any, parameters: Any, strict: Any, api: str) -> Any:
        if not made:
            namespace = dict(consts)
            exec(compile("\n".join(lines), f"<wire {where}>", "exec"), namespace)  # (what may enter: see the docstring)
            made.append(namespace["emit"])
            if owner is not None:
                owner.emit = made[0]
        return made[0](name, description, parameters, strict, api)

    return emit


def _slot_path(node: tuple, name: str) -> tuple | None:
    """The keys leading to placeholder `name` in a compiled template (None: not in it)."""
    if node[0] == "slot":
        return () if node[1] == name else None
    if node[0] == "dict":
        for key, sub in node[1]:
            found = _slot_path(sub, name)
            if found is not None:
                return (key, *found)
    return None


# The placeholders each template the run-time loop fills may use (docs: spec/README.md, `wire`).
_RESULT = frozenset({"id", "name", "text", "error", "content", "media"})
_LOOP_SLOTS = {"result": _RESULT, "error_result": _RESULT, "parts.text": frozenset({"text"}),
               "parts.image": frozenset({"mime", "data", "data_url", "format", "bytes"})}


def _slots(node: tuple) -> set[str]:
    """The placeholder names of a compiled template."""
    if node[0] == "slot":
        return {node[1]}
    if node[0] in ("dict", "list"):
        return set().union(*(_slots(sub) for sub in (node[1] if node[0] == "list" else (c for _, c in node[1]))))
    return set()


class Target:
    """One target's wire shapes: what compile emits (APIS, DEFAULT_API, NATIVE_SHAPES, emit,
    schema_of, request_tools), what the proxy lists under (proxy_api, marks_non_strict), how the
    probe reaches it (probe) and what the loop reads and writes (wire: API -> its section)."""

    def __init__(self, name: str, wires: list[tuple[str, Mapping[str, Any]]]) -> None:
        """`wires`: (rule family, its `wire` section) for each family of the target; the target-wide
        fields (default_api, native_inputs, tools, proxy) must agree between them."""
        self.name = name
        first_family, first = wires[0]
        for family, wire in wires[1:]:
            for key in ("default_api", "native_inputs", "tools", "proxy", "probe"):
                if wire.get(key) != first.get(key):
                    raise WireError(f"target {name!r}: wire.{key} differs between rule families "
                                    f"{first_family} and {family}")
        apis: dict[str, Mapping[str, Any]] = {}
        for family, wire in wires:
            for key in ("default_api", "apis"):
                if key not in wire:
                    raise WireError(f"target {name!r}: rule family {family} states no wire.{key} (nor does a version it extends)")
            apis.update(wire["apis"])
        default = first["default_api"]
        if default not in apis:
            raise WireError(f"target {name!r}: wire.default_api {default!r} is none of its APIs ({', '.join(apis)})")
        self.DEFAULT_API: str = default
        self.APIS: tuple[str, ...] = (default, *(a for a in apis if a != default))
        self.NATIVE_SHAPES: tuple[str, ...] = tuple(first.get("native_inputs", ()))
        self.wire: dict[str, Mapping[str, Any]] = {a: apis[a] for a in self.APIS}
        proxy = first.get("proxy") or {}
        self.proxy_api: str = proxy.get("api", default)
        if self.proxy_api not in apis:
            raise WireError(f"target {name!r}: wire.proxy.api {self.proxy_api!r} is none of its APIs")
        self.marks_non_strict: bool = bool(proxy.get("mark_non_strict", False))
        # How `toolcast probe` reaches the target (sdk, model, key_env, base_url); None: it cannot.
        self.probe: Mapping[str, Any] | None = first.get("probe")
        self._tools = _compile(first["tools"]) if "tools" in first else None
        self._tool = {a: _compile(w["tool"]) for a, w in self.wire.items()}
        # (an instance attribute: compile calls it per tool, without a method's extra frame)
        self.emit = _emitter(self._tool, f"{name}.wire.apis", self)
        # Where each API's tool keeps its schema (schema_of), most specific first.
        paths = []
        for api, node in self._tool.items():
            path = _slot_path(node, "schema")
            if path is None:
                raise WireError(f"target {name!r}: wire.apis.{api}.tool has no $schema")
            paths.append(path)
        self._schema_paths = tuple(sorted(set(paths), key=len, reverse=True))
        for api, section in self.wire.items():  # (the loop's templates: a name it never fills would send null)
            for key, known in _LOOP_SLOTS.items():
                place, template = key.split("."), section
                for step in place:
                    template = template.get(step) if isinstance(template, Mapping) else None
                unknown = sorted(_slots(_compile(template)) - known) if template is not None else ()
                if unknown:
                    raise WireError(f"target {name!r}: wire.apis.{api}.{key}: unknown placeholder ${unknown[0]} "
                                    f"(it takes ${', $'.join(sorted(known))})")
        if self._tools is not None and _slots(self._tools) - {"tools"}:
            raise WireError(f"target {name!r}: wire.tools: unknown placeholder ${min(_slots(self._tools) - {'tools'})} "
                            "(it takes $tools)")

    def schema_of(self, tool: dict) -> Any:
        """The parameters schema of a tool this target emitted (in any of its APIs)."""
        for path in self._schema_paths:
            node: Any = tool
            for key in path:
                if not isinstance(node, Mapping) or key not in node:
                    break
                node = node[key]
            else:
                return node
        raise KeyError(f"not a {self.name} tool: no schema at any of its APIs' places")

    def request_tools(self, tools: list[dict]) -> Any:
        """The request's `tools` value for these emitted tools ([] when there are none)."""
        if self._tools is None or not tools:
            return list(tools)
        return _fill(self._tools, {"tools": list(tools)})

    def __repr__(self) -> str:
        return f"<Target {self.name} apis={self.APIS}>"
