"""Read tool files (JSON, JSON Lines, YAML, stdin) into tools, with errors that name file and place."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

# Far beyond any real tool file, and small enough to read without strain.
MAX_BYTES = 64 * 1024 * 1024


class _Frozen:
    """A small immutable record: fields set once in __init__, compared and hashed by value
    (a dataclass would import `inspect` and cost every CLI start-up a few milliseconds)."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()  # in the constructor's order

    def _values(self) -> tuple:
        return tuple(getattr(self, k) for k in self._fields)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._values() == other._values()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={getattr(self, k)!r}' for k in self._fields)})"


class InputError(_Frozen):
    """A problem with an input: where it is and what is wrong."""

    __slots__ = ("column", "line", "message", "source")
    _fields = ("source", "message", "line", "column")
    source: str
    message: str
    line: int | None
    column: int | None

    def __init__(self, source: str, message: str, line: int | None = None, column: int | None = None) -> None:
        for k, v in (("source", source), ("message", message), ("line", line), ("column", column)):
            object.__setattr__(self, k, v)

    def __str__(self) -> str:
        where = self.source
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"

    def to_dict(self) -> dict:
        return {"source": self.source, "line": self.line, "column": self.column, "message": self.message}


class Item(_Frozen):
    """One tool as read, with where it came from (file plus index or line)."""

    __slots__ = ("source", "tool")
    _fields = ("source", "tool")
    source: str
    tool: Any

    def __init__(self, source: str, tool: Any) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "tool", tool)


class _Duplicate(ValueError):
    def __init__(self, key: str):
        self.key = key
        super().__init__(f"duplicate key {key!r}")


def _pairs(pairs: list) -> dict:
    out: dict = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(key)
        out[key] = value
    return out


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _finite_float(text: str) -> float:
    # Python reads a literal beyond a double's range (1e400, valid JSON) as infinity, which would
    # then be written out as `Infinity`, not JSON: a number the input never held.
    value = float(text)
    if value in (math.inf, -math.inf):
        raise ValueError(f"the number {text[:40]} is beyond the range of a 64-bit float")
    return value


def _line_col(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def parse_json(text: str, source: str, line_offset: int = 0) -> Any:
    """json.loads that rejects duplicate keys, NaN/Infinity (spelt, or a literal that overflows a
    float) and absurd nesting with a place."""
    try:
        return json.loads(text, object_pairs_hook=_pairs, parse_constant=_no_constants,
                          parse_float=_finite_float)
    except json.JSONDecodeError as exc:
        raise _ParseError(InputError(source, f"invalid JSON: {exc.msg}", exc.lineno + line_offset, exc.colno)) from None
    except _Duplicate as exc:
        raise _ParseError(InputError(source, f"invalid JSON: {exc} (a key may appear once per object)", _dup_line(text, exc, line_offset))) from None
    except ValueError as exc:
        raise _ParseError(InputError(source, f"invalid JSON: {exc}")) from None
    except RecursionError:
        raise _ParseError(InputError(source, "invalid JSON: nested too deeply to be a tool definition")) from None


def _dup_line(text: str, exc: _Duplicate, line_offset: int) -> int | None:
    # The hook does not know where it is; the key's last spelling is a fair pointer.
    needle = json.dumps(exc.key, ensure_ascii=False)
    pos = text.rfind(needle + ":")
    if pos < 0:
        pos = text.rfind(needle)
    return None if pos < 0 else _line_col(text, pos)[0] + line_offset


class _ParseError(Exception):
    def __init__(self, error: InputError):
        self.error = error


def parse_yaml(text: str, source: str) -> Any:
    try:
        import yaml
    except ImportError:  # pragma: no cover - pyyaml is optional at run time
        raise _ParseError(InputError(source, "reading YAML needs PyYAML (pip install 'toolcast[yaml]')")) from None

    class Loader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            # Aliases could expand exponentially when walked; tool files have no need of them.
            if self.check_event(yaml.AliasEvent):
                mark = self.peek_event().start_mark
                raise _ParseError(InputError(source, "YAML aliases (*name) are not supported in tool files", mark.line + 1, mark.column + 1))
            return super().compose_node(parent, index)

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen = set()
            for key_node, _ in node.value:
                key = self.construct_object(key_node, deep=True)
                if not isinstance(key, str):
                    m = key_node.start_mark
                    raise _ParseError(InputError(source, f"invalid YAML: mapping key {key!r} is not a string", m.line + 1, m.column + 1))
                if key in seen:
                    m = key_node.start_mark
                    raise _ParseError(InputError(source, f"invalid YAML: duplicate key {key!r}", m.line + 1, m.column + 1))
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    try:
        docs = list(yaml.load_all(text, Loader=Loader))
    except _ParseError:
        raise
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise _ParseError(InputError(source, f"invalid YAML: {problem}", mark.line + 1 if mark else None, mark.column + 1 if mark else None)) from None
    except RecursionError:
        raise _ParseError(InputError(source, "invalid YAML: nested too deeply to be a tool definition")) from None
    _check_floats(docs, source)
    if len(docs) == 1:
        return docs[0]
    return [d for d in docs if d is not None]


def _check_floats(value: Any, source: str) -> None:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
            raise _ParseError(InputError(source, "invalid YAML: NaN and infinite numbers are not JSON values"))
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)


def parse_jsonl(text: str, source: str) -> list:
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        out.append(parse_json(line, source, line_offset=i - 1))
    return out


def decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line, col = _line_col(data[: exc.start].decode("utf-8", "replace"), exc.start)
        raise _ParseError(InputError(source, f"not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})", line, col)) from None


def parse(text: str, source: str, suffix: str) -> Any:
    """Parse by extension; unknown extensions (and stdin) try JSON, JSON Lines, then YAML."""
    if suffix in (".yaml", ".yml"):
        return parse_yaml(text, source)
    if suffix in (".jsonl", ".ndjson"):
        return parse_jsonl(text, source)
    try:
        return parse_json(text, source)
    except _ParseError as first:
        if "Extra data" in first.error.message:
            try:
                return parse_jsonl(text, source)
            except _ParseError:
                raise first from None
        if suffix == ".json":
            raise
        stripped = text.lstrip()
        if stripped[:1] in ("{", "[", ""):
            raise
        try:
            return parse_yaml(text, source)
        except _ParseError:
            raise first from None


def tools_of(data: Any, source: str) -> tuple[list[Item], list[InputError]]:
    """The tools in a parsed document: one tool, a list, `{"tools": [...]}` or a JSON-RPC result."""
    if isinstance(data, dict) and isinstance(data.get("result"), dict) and "tools" in data["result"]:
        data = data["result"]
    if isinstance(data, dict) and "tools" in data and not any(k in data for k in ("inputSchema", "parameters", "input_schema", "function")):
        tools = data["tools"]
        if not isinstance(tools, list):
            return [], [InputError(source, "`tools` must be a list")]
        return [Item(f"{source}#tools[{i}]", t) for i, t in enumerate(tools)], []
    if isinstance(data, list):
        return [Item(f"{source}#[{i}]", t) for i, t in enumerate(data)], []
    if isinstance(data, dict):
        return [Item(source, data)], []
    return [], [InputError(source, f"expected a tool, a list of tools or {{\"tools\": [...]}}, not {type(data).__name__}")]


def load(path: str, stdin: Any = None) -> tuple[list[Item], list[InputError]]:
    """All tools in one PATH argument ("-" is standard input); never raises for bad input."""
    if path == "-":
        source, suffix = "<stdin>", ""
        stream = stdin if stdin is not None else sys.stdin.buffer
        data = stream.read(MAX_BYTES + 1)
        if isinstance(data, str):
            data = data.encode("utf-8")
    else:
        p = Path(path)
        source, suffix = path, p.suffix.lower()
        try:
            if p.is_dir():
                return [], [InputError(source, "is a directory; pass the tool files inside it")]
            with p.open("rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            return [], [InputError(source, f"cannot read: {exc.strerror or exc}")]
    if len(data) > MAX_BYTES:
        return [], [InputError(source, f"larger than {MAX_BYTES // (1024 * 1024)} MiB; not read")]
    try:
        text = decode(data, source)
        parsed = parse(text, source, suffix)
    except _ParseError as exc:
        return [], [exc.error]
    return tools_of(parsed, source)
