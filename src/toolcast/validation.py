"""Run-time checks of a call's arguments against a tool's original schema (jsonschema-rs, imported on first use)."""

from __future__ import annotations

import json
from typing import Any

# The violations an error output names at most (the first ones by place): enough to act on.
MAX_NAMED = 5
# Characters of a value, a pattern or a subschema an error output repeats at most.
MAX_SHOWN = 80
# Characters of the validator's reason for not reading a schema an error output repeats at most.
MAX_REASON = 200


class _Unreadable:
    """What a schema the validator cannot read (a regex outside its dialect, a reference it cannot
    resolve, an unknown `$schema`, a malformed keyword) leaves: no validator, and the reason."""

    __slots__ = ("reason",)

    def __init__(self, exc: Exception) -> None:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        self.reason = first if len(first) <= MAX_REASON else first[:MAX_REASON - 3] + "..."


class ArgumentCheck:
    """A tool's schema as it means it (toolcast.enforce.meaning: the original with the compile's
    narrowings), and the formats to check, made into a validator once, on first use. The validator is jsonschema-rs (benchmarks/validators.py: the JSON-Schema-Test-Suite cases
    vendored in tests/corpus/jsts, and 100x jsonschema's speed); `$ref`s resolve inside the schema only
    (nothing is fetched); OpenAPI's `nullable: true` admits null, as toolcast reads it; a format is
    checked wherever the schema names it when it is one of `formats` (under enforce: every format the
    validator checks that the original names, dropped or kept: a kept one decides between `oneOf`
    branches as much as a dropped one), else it is an annotation."""

    __slots__ = ("_validator", "formats", "schema")

    def __init__(self, schema: Any, formats: tuple[str, ...] = ()) -> None:
        self.schema, self.formats = schema, tuple(formats)
        self._validator: Any = None

    def __repr__(self) -> str:
        return f"ArgumentCheck(formats={self.formats!r})"

    def __reduce__(self) -> tuple:
        return ArgumentCheck, (self.schema, self.formats)  # (the validator is built again where it is used)

    def ready(self) -> bool:
        """Whether the validator could be built (it is, now, if it was not)."""
        if self._validator is None:
            try:
                self._validator = _build(self.schema, self.formats)
            except Exception as exc:  # (jsonschema-rs raises its own errors, and ValueError)
                self._validator = _Unreadable(exc)
        return type(self._validator) is not _Unreadable

    def unreadable(self) -> str | None:
        """Why the validator cannot be built (the first line of its error), or None when it can."""
        return None if self.ready() else self._validator.reason

    def problems(self, arguments: Any) -> list[str]:
        """Each violation (at most MAX_NAMED, in order of place) as the words a model can act on;
        none when the validator cannot be built (see unreadable())."""
        if not self.ready():
            return []
        validator = self._validator
        if validator.is_valid(arguments):
            return []
        errors = sorted(validator.iter_errors(arguments), key=_order)
        return [_words(e) for e in errors[:MAX_NAMED]] + (
            [f"and {len(errors) - MAX_NAMED} more"] if len(errors) > MAX_NAMED else [])

    def message(self, name: str, arguments: Any) -> str | None:
        """The error output for a call to tool `name` whose `arguments` violate the schema, or whose
        schema the validator cannot read (nothing would be checked: the tool is not run), else None."""
        why = self.unreadable()
        if why is not None:
            return (f"toolcast cannot check the arguments of tool {name!r} against its schema, so the tool was "
                    f"not run: the validator cannot read the schema ({why})")
        found = self.problems(arguments)
        if not found:
            return None
        return (f"arguments for tool {name!r} were rejected and the tool was not run: " + "; ".join(found)
                + ". Correct the arguments and call the tool again.")


def _order(error: Any) -> tuple:
    return tuple(map(str, error.instance_path)), tuple(map(str, error.schema_path))


def _shown(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN - 3] + "..."


def _words(error: Any) -> str:
    """One violation: its place in the arguments and the constraint, e.g. "at `url`: must be an
    absolute URI with a scheme (format: uri), got \"not a uri\""."""
    from toolcast.formats import FORMAT_WORDS

    place = "/".join(map(str, error.instance_path))
    where = f"at `{place}`" if place else "at the top level"
    kind = type(error.kind).__name__
    got = _shown(error.instance)
    keyword = error.schema_path[-1] if error.schema_path else kind
    if kind == "Format":
        rule = error.kind.format
        what = f"must be {FORMAT_WORDS.get(rule, f'a valid {rule}')} (format: {rule}), got {got}"
    elif kind == "Pattern":
        what = f"must match the regular expression {_shown(_WRITTEN.get(error.kind.pattern, error.kind.pattern))} (pattern), got {got}"
    elif kind == "Not":
        what = f"must not match {_shown(error.kind.schema)} (not), got {got}"
    elif kind == "OneOfMultipleValid":
        what = f"matches more than one of the options; it must match exactly one (oneOf), got {got}"
    elif kind == "OneOfNotValid":
        what = f"matches none of the options (oneOf), got {got}"
    else:
        message = error.message
        what = f"{message if len(message) <= 200 else message[:197] + '...'} ({keyword})"
    return f"{where}: {what}"


def _refuse(uri: str) -> Any:
    raise ValueError(f"{uri}: toolcast resolves references inside the schema only")


def _build(schema: Any, formats: tuple[str, ...]) -> Any:
    import jsonschema_rs

    from toolcast.formats import CHECKED_FORMATS

    # Every format the validator knows is an annotation (always valid) but `formats`: those it checks.
    unchecked = {name: _anything for name in CHECKED_FORMATS - set(formats)}
    return jsonschema_rs.validator_for(_ecma_read(_nullable_read(schema)), formats=unchecked, validate_formats=True,
                                       retriever=_refuse)


# A pattern as the validator was given it -> as the schema writes it (what an error output shows).
_WRITTEN: dict[str, str] = {}


def _ecma_read(schema: Any) -> Any:
    """`schema` (a copy, where it changes) with each regex (`pattern`, a `patternProperties` name) written so that the
    validator's engine reads it as ECMA-262 does (toolcast.ecma_classes); the same object when it holds none."""
    if '"pattern' not in json.dumps(schema):
        return schema
    from toolcast.ecma_classes import as_ecma
    from toolcast.tool_input import copy_json
    from toolcast.walk.dialect import visit_schema_objects

    def rewrite(node: dict, place: Any) -> None:
        if type(node.get("pattern")) is str:
            node["pattern"] = _read_as(node["pattern"], as_ecma)
        if type(node.get("patternProperties")) is dict:
            node["patternProperties"] = {_read_as(k, as_ecma) if type(k) is str else k: v
                                         for k, v in node["patternProperties"].items()}

    copy = copy_json(schema)
    visit_schema_objects(copy, rewrite)
    return copy


def _read_as(pattern: str, as_ecma: Any) -> str:
    read = as_ecma(pattern)
    if read != pattern:
        if len(_WRITTEN) >= 4096:
            _WRITTEN.clear()
        _WRITTEN[read] = pattern
    return read


def _anything(value: Any) -> bool:
    return True


def _nullable_read(schema: Any) -> Any:
    """`schema` with OpenAPI's `nullable: true` beside a `type` written as the type union it means to
    toolcast (README, Policy: an `enum` without null still rejects null; beside a declared `$schema`
    it is no keyword); the same object when it holds none."""
    if (type(schema) is dict and "$schema" in schema) or '"nullable"' not in json.dumps(schema):
        return schema
    return _with_null(schema)


def _with_null(node: Any) -> Any:
    if type(node) is list:
        return [_with_null(x) for x in node]
    if type(node) is not dict:
        return node
    out = {k: _with_null(v) for k, v in node.items()}
    if out.get("nullable") is True:
        t = out.get("type")
        if type(t) is str and t != "null":
            out["type"] = [t, "null"]
        elif type(t) is list and "null" not in t:
            out["type"] = [*t, "null"]
    return out


# The checks made for validate=True, per exposed tool (a proxy in front of many servers included).
_BY_TOOL: dict[int, tuple[Any, ArgumentCheck]] = {}
_MAX_CACHED = 8192


def check_for(name: str, exposed: Any, checks: Any, validate: bool) -> ArgumentCheck | None:
    """The check of a call to tool `name`: its enforced check (`checks`, from a ToolsReport), else with
    `validate` one against the tool's original schema as its server listed it, else None."""
    if checks:
        found = checks.get(name)
        if found is not None:
            return found
    if not validate:
        return None
    held = _BY_TOOL.get(id(exposed))
    if held is not None and held[0] is exposed:
        return held[1]
    from toolcast.toolset import thaw

    schema = getattr(exposed, "input_schema", None)
    check = ArgumentCheck(thaw(schema) if schema is not None else {})
    if len(_BY_TOOL) >= _MAX_CACHED:
        _BY_TOOL.clear()
    _BY_TOOL[id(exposed)] = (exposed, check)
    return check
