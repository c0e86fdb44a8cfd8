"""Read tool files (JSON, JSON Lines, YAML, stdin) into tools, with errors that name file and place."""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any

from toolcast import positions as _positions
from toolcast._input.json_text import JsonTextError, _line_col, json_lines_shaped, loads_strict

# Far beyond any real tool file, and small enough to read without strain.
MAX_BYTES = 64 * 1024 * 1024
TOO_LARGE = f"larger than {MAX_BYTES // (1024 * 1024)} MiB; not read"


def read_bounded(path: str) -> bytes:
    """The bytes of the file at `path`, read to at most MAX_BYTES + 1 (more than MAX_BYTES: too large,
    TOO_LARGE), so that /dev/zero or a huge file is never read whole; OSError as open() raises it."""
    with open(path, "rb") as fh:
        return fh.read(MAX_BYTES + 1)


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
    """One tool as read, with where it came from (file plus index or line), its place in the
    file when positions were asked for, and whether it was read as a bare JSON Schema."""

    __slots__ = ("bare", "source", "tool", "where")
    _fields = ("source", "tool", "where", "bare")
    source: str
    tool: Any
    where: Any  # positions.Where | None
    bare: bool

    def __init__(self, source: str, tool: Any, where: Any = None, bare: bool = False) -> None:
        object.__setattr__(self, "source", source)
        object.__setattr__(self, "tool", tool)
        # Only when given: most items have neither, and a file of thousands makes as many items.
        if where is not None:
            object.__setattr__(self, "where", where)
        if bare:
            object.__setattr__(self, "bare", bare)

    def place(self, field: str | None = None) -> tuple[int | None, int | None]:
        """Line and column of this tool (of its `field`, when named), where known."""
        where = self.where
        if where is None:
            return None, None
        try:
            if field is not None:
                return where.locate(field, ())
            return where.positions.line_col(where.positions.offset(where.tokens)[0])
        except Exception:  # (a place is a help to the reader, never a reason to fail)
            return None, None

    def __getattr__(self, name: str) -> Any:  # an unset optional field reads as its default
        if name == "where":
            return None
        if name == "bare":
            return False
        raise AttributeError(name)


def parse_json(text: str, source: str, line_offset: int = 0) -> Any:
    """json.loads that rejects duplicate keys, NaN/Infinity (spelt, or a literal that overflows a
    float), numbers past Python's digit limit and absurd nesting, with a place (toolcast._input.json_text)."""
    try:
        return loads_strict(text, line_offset)
    except JsonTextError as exc:
        raise _ParseError(InputError(source, f"invalid JSON: {exc}", exc.line, exc.column)) from None


class _ParseError(Exception):
    def __init__(self, error: InputError):
        self.error = error


def _mark_place(text: str, mark: Any) -> tuple:
    """(line, column) of a YAML mark, lines ending at \n as everywhere else: PyYAML's own line
    count (YAML 1.1) also ends one at U+0085, U+2028, U+2029 and a lone \r, which may stand in a string."""
    return () if mark is None else _line_col(text, mark.index)


def _parse_yaml(text: str, source: str, positions: bool = False) -> tuple[Any, Any]:
    """YAML into JSON values only: (the document, or a list of a stream's documents; positions)."""
    try:
        import yaml
    except ImportError:  # pragma: no cover - pyyaml is optional at run time
        raise _ParseError(InputError(source, "reading YAML needs PyYAML (pip install 'toolcast[yaml]')")) from None
    from toolcast._input.yaml_text import YamlProblem, yaml_loader

    loader = None
    try:
        loader = yaml_loader()(text)  # its reader rejects unprintable characters here already
        nodes = []
        while loader.check_node():
            nodes.append(loader.get_node())
        docs = [loader.construct_document(n) for n in nodes]
    except YamlProblem as exc:
        raise _ParseError(InputError(source, exc.message, *_mark_place(text, exc.mark))) from None
    except yaml.reader.ReaderError as exc:  # (an unprintable character: its place is an offset in the text)
        raise _ParseError(InputError(source, f"invalid YAML: unacceptable character #x{exc.character:04x}: {exc.reason}",
                                     *_line_col(text, exc.position))) from None
    except yaml.YAMLError as exc:
        problem = getattr(exc, "problem", None) or str(exc)
        raise _ParseError(InputError(source, f"invalid YAML: {problem}", *_mark_place(text, getattr(exc, "problem_mark", None)))) from None
    except RecursionError:
        mark = loader.get_mark() if loader is not None else None  # (where the reader stopped: as deep as it went)
        raise _ParseError(InputError(source, "invalid YAML: nested too deeply to be a tool definition", *_mark_place(text, mark))) from None
    finally:
        if loader is not None:
            loader.dispose()
    if len(docs) == 1:
        return docs[0], (_positions.yaml_positions(text, nodes[0], docs[0]) if positions else None)
    kept = [(n, d) for n, d in zip(nodes, docs, strict=True) if d is not None]
    data = [d for _, d in kept]
    return data, (_positions.yaml_stream_positions(text, [n for n, _ in kept], data) if positions else None)


def _parse_jsonl(text: str, source: str, positions: bool = False, errors: list | None = None) -> tuple[list, Any]:
    """The lines' documents (and their positions). With `errors`, a line that is not JSON is
    noted there and stands as positions.SKIPPED, so the other lines are still read.

    Lines end at \n (or \r\n) only: U+2028, U+2029 and U+0085, which str.splitlines also breaks
    at, may stand inside a JSON string. A line is parsed without its end, so that an error at the
    end of a line cut short is placed there, not at the start of the next."""
    out: list = []
    starts = []
    offset = 0
    for i, line in enumerate(text.split("\n"), 1):
        begin, offset = offset, offset + len(line) + 1
        line = line[:-1] if line.endswith("\r") else line
        if not line.strip(" \t\r"):  # (JSON's whitespace: any other character is an error of its line)
            continue
        try:
            out.append(parse_json(line, source, line_offset=i - 1))
        except _ParseError as exc:
            if errors is None:
                raise
            errors.append(exc.error)
            out.append(_positions.SKIPPED)
        starts.append(begin)
    return out, (_positions.jsonl_positions(text, out, starts) if positions else None)


def parse_yaml(text: str, source: str) -> Any:
    """YAML into JSON values only (a stream of several documents becomes their list)."""
    return _parse_yaml(text, source)[0]


def parse_jsonl(text: str, source: str) -> list:
    return _parse_jsonl(text, source)[0]


def parse(text: str, source: str, suffix: str) -> Any:
    """Parse by extension; unknown extensions (and stdin) try JSON, JSON Lines, then YAML."""
    return _parse(text, source, suffix)[0]


def decode(data: bytes, source: str) -> str:
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    try:
        return data[bom:].decode("utf-8") if bom else data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # The column counts the characters before the byte (not its offset); the offset counts the BOM.
        at = bom + exc.start
        before = data[bom:at].decode("utf-8")
        line, col = _line_col(before, len(before))
        raise _ParseError(InputError(source, f"not UTF-8 text (byte 0x{data[at]:02x} at offset {at})", line, col)) from None


def _json(text: str, source: str, positions: bool) -> tuple[Any, Any]:
    doc = parse_json(text, source)
    return doc, (_positions.json_positions(text, doc) if positions else None)


def _parse(text: str, source: str, suffix: str, positions: bool = False, errors: list | None = None) -> tuple[Any, Any]:
    """Parse by extension; unknown extensions (and stdin) try JSON, JSON Lines, then YAML, and a
    `.json` file that is not one JSON document but JSON Lines by shape is read as JSON Lines.
    Returns the document and, when asked for, its positions (None when not asked for); with
    `errors`, a JSON Lines file's bad lines are noted there and the others read."""
    if suffix in (".yaml", ".yml"):
        return _parse_yaml(text, source, positions)
    if suffix in (".jsonl", ".ndjson"):
        return _parse_jsonl(text, source, positions, errors)
    try:
        return _json(text, source, positions)
    except _ParseError as first:
        if json_lines_shaped(text):  # (a JSON Lines file named .json, or on stdin)
            return _parse_jsonl(text, source, positions, errors)
        if "Extra data" in first.error.message:
            e = first.error
            first = _ParseError(InputError(e.source, f"{e.message} (a second JSON value: a tool file holds one, or "
                                                     "one per line as JSON Lines)", e.line, e.column))
        stripped = text.lstrip()
        if suffix == ".json" or stripped[:1] in ("{", "[", ""):
            raise first from None
        try:
            return _parse_yaml(text, source, positions)
        except _ParseError:
            raise first from None


# The shapes a tool comes in (compile.read_tool), and what marks a bare JSON Schema instead.
_TOOL_KEYS = ("inputSchema", "parameters", "input_schema", "function")
_NO_TOOLS = object()  # (tools_of: the document holds no `tools`)
_SCHEMA_KEYS = frozenset({"type", "properties", "$schema", "$ref", "$defs", "definitions", "anyOf", "oneOf", "allOf"})


def is_bare_schema(data: Any) -> bool:
    """A JSON Schema on its own: an object with schema keywords, no tool field and no name."""
    return (isinstance(data, dict) and "name" not in data and not any(k in data for k in _TOOL_KEYS)
            and not _SCHEMA_KEYS.isdisjoint(data))


def tools_of(data: Any, source: str, positions: Any = None, name: str | None = None) -> tuple[list[Item], list[InputError]]:
    """The tools in a parsed document: one tool, a list, `{"tools": [...]}`, a JSON-RPC result,
    or a bare JSON Schema, named `name` (default: the file's stem)."""
    file = source
    prefix: tuple = ()
    if isinstance(data, dict) and isinstance(data.get("result"), dict) and "tools" in data["result"]:
        data, prefix = data["result"], ("result",)
    key = next((k for k in _TOOL_KEYS if k in data), None) if isinstance(data, dict) and "tools" in data else _NO_TOOLS
    if key is not _NO_TOOLS and (key is None) != isinstance(data["tools"], list):
        # `tools` not a list, or a tool and a list of tools at once (reading either would silently
        # drop the other); a tool with some other `tools` field is read as a tool.
        line = col = None
        if positions is not None:
            line, col = positions.line_col(positions.offset((*prefix, "tools"))[0])
        why = "`tools` must be a list" if key is None else f"holds both a tool (`{key}`) and a `tools` list; give one or the other"
        return [], [InputError(source, why, line, col)]
    if key is None:
        tools = data["tools"]
        if positions is None:
            return [Item(f"{source}#tools[{i}]", t) for i, t in enumerate(tools)], []
        return [_item(f"{source}#tools[{i}]", t, file, positions, (*prefix, "tools", i)) for i, t in enumerate(tools)], []
    if isinstance(data, list):
        if positions is None:
            return [Item(f"{source}#[{i}]", t) for i, t in enumerate(data) if t is not _positions.SKIPPED], []
        return [_item(f"{source}#[{i}]", t, file, positions, (i,)) for i, t in enumerate(data)
                if t is not _positions.SKIPPED], []
    if is_bare_schema(data):
        stem = name or (Path(source).stem if source != "<stdin>" else None)
        if not stem:
            return [], [InputError(source, "a bare JSON Schema read from stdin has no file name to name it after; give --name")]
        tool = {"name": stem, "inputSchema": data}
        if isinstance(data.get("description"), str):
            tool = {"name": stem, "description": data["description"], "inputSchema": data}
        return [_item(source, tool, file, positions, (), bare=True)], []
    if isinstance(data, dict):
        return [_item(source, data, file, positions, ())], []
    return [], [InputError(source, f"expected a tool, a list of tools or {{\"tools\": [...]}}, not {type(data).__name__}")]


def _item(source: str, tool: Any, file: str, positions: Any, tokens: tuple, bare: bool = False) -> Item:
    if positions is None:
        return Item(source, tool, None, bare)
    return Item(source, tool, _positions.Where(file, positions, tokens, tool, bare), bare)


# What a directory PATH contributes: files with these extensions, found recursively.
TOOL_SUFFIXES = (".json", ".jsonl", ".ndjson", ".yaml", ".yml")


OUT_DIR_SKIPPED = "it holds the manifest.json of an --out directory (toolcast's output, not tool definitions)"


def tool_files(root: Path, skip: tuple[Path, ...] = (), problems: list | None = None,
               passed: list | None = None) -> list[Path]:
    """The tool files under a directory, in sorted order: every file with a known extension,
    skipping hidden files and directories (a name starting with "."), symlinked directories,
    the files and directories in `skip` (the run's --out and baseline files) and any directory
    holding a manifest.json that toolcast wrote (an --out directory of another run).

    What cannot be read is not skipped in silence: a directory that cannot be listed, and a
    tool-named entry that is not a regular file (a FIFO would block the run), are appended to
    `problems` as (path, why); a directory skipped as another run's --out, to `passed` as (path, why)."""
    skipped = {_real(p) for p in skip}
    found: list[Path] = []

    def unlisted(exc: OSError) -> None:
        if problems is not None:
            problems.append((Path(exc.filename) if exc.filename else root, f"cannot read the directory: {exc.strerror or exc}"))

    for here, dirs, files in os.walk(root, onerror=unlisted):
        base = Path(here)
        if _real(base) in skipped or _is_out_dir(base):
            if passed is not None and _real(base) not in skipped:
                passed.append((base, OUT_DIR_SKIPPED))
            if base == root:
                return []
            dirs[:] = []
            continue
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not os.path.islink(base / d))
        for f in files:
            if f.startswith(".") or Path(f).suffix.lower() not in TOOL_SUFFIXES:
                continue
            path = base / f
            if skipped and _real(path) in skipped:
                continue
            if not os.path.isfile(path):  # (follows a symlink: a link to a tool file is read)
                if problems is not None:
                    problems.append((path, "not a regular file; not read"))
                continue
            found.append(path)
    return sorted(found, key=lambda p: p.relative_to(root).parts)


def _real(path: Path) -> Path:
    """The path resolved; a symlink loop (loop.json -> loop.json) stays as it is, made absolute
    (Path.resolve raises RuntimeError for one on Python 3.11 and 3.12, which was an internal error)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _is_out_dir(path: Path) -> bool:
    """Whether the directory holds a manifest.json that toolcast wrote. Only a regular file is
    opened (opening a FIFO waits for a writer: the scan hung), and without waiting, in case one
    took its place since (then it is not read)."""
    manifest = path / "manifest.json"
    try:
        if not stat.S_ISREG(os.stat(manifest).st_mode):
            return False
        fd = os.open(manifest, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(fd, "rb") as fh:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return False
            data = json.loads(fh.read(MAX_BYTES))
    except (OSError, ValueError, RecursionError):  # (not JSON, or nested too deeply: not toolcast's)
        return False
    return isinstance(data, dict) and "toolcast" in data and isinstance(data.get("tools"), list)


def named(path: str, base: str | None) -> str:
    """How a file is named in reports and the manifest: as given, or with `base` (the directory of
    the pyproject.toml in force) relative to that directory, wherever the run started."""
    if base is None:
        return path
    try:
        lexical = os.path.relpath(os.path.abspath(path), base)
        if not lexical.startswith(os.pardir) and _same_dir(os.path.join(base, lexical), path):
            return lexical  # (a folder under `base` that is a symlink keeps its name there)
        # The directories as they are on disk: a `$PWD` reached through a symlink, or `link/..`,
        # names the file the run reads (abspath folds `..` by the text)
        head, tail = os.path.split(path.rstrip(os.sep) or path)
        full = os.path.realpath(path) if tail in ("", os.curdir, os.pardir) else os.path.join(os.path.realpath(head or os.curdir), tail)
        return os.path.relpath(full, os.path.realpath(base))
    except ValueError:  # (another drive)
        return os.path.abspath(path)


def _same_dir(one: str, other: str) -> bool:
    """Whether files `one` and `other` are in the same directory on disk."""
    try:
        return os.path.samefile(os.path.dirname(one) or os.curdir, os.path.dirname(other.rstrip(os.sep) or other) or os.curdir)
    except (OSError, ValueError):
        return False


def load(path: str, stdin: Any = None, *, positions: bool = False, name: str | None = None,
         skip: tuple[Path, ...] = (), passed: list | None = None,
         base: str | None = None) -> tuple[list[Item], list[InputError]]:
    """All tools in one PATH argument ("-" is standard input, a directory is read as
    `tool_files` lists); never raises for bad input. With `positions`, each item knows where
    its pieces are in the file (Item.where); `name` names a bare JSON Schema; `passed` gets the
    (path, why) of each directory under PATH skipped as another run's --out; `base`: files are
    named relative to it (`named`)."""
    if not path:  # (Path("") is the working directory: an unset "$SRC" would read all of it)
        return [], [InputError('""', "is empty; give a file, a directory or - for standard input")]
    # (os.path.isdir: Path.is_dir raises for a name too long or a parent that cannot be searched,
    # which stopped every PATH; such a path's error is open()'s, below)
    if path != "-" and os.path.isdir(path):
        problems: list[tuple[Path, str]] = []
        seen: list[tuple[Path, str]] = []
        files = tool_files(Path(path), skip, problems, seen)
        errors: list[InputError] = [InputError(named(str(p), base), why) for p, why in problems]
        if not files and seen and seen[0][0] == Path(path):
            return [], errors or [InputError(named(path, base), "holds the manifest.json of an --out directory (toolcast's output, "
                                             "not tool definitions), so nothing in it is read; give the tools' directory")]
        if passed is not None:
            passed.extend((named(str(p), base), why) for p, why in seen)
        if not files:
            return [], errors or [InputError(named(path, base), f"a directory with no tool files ({', '.join(TOOL_SUFFIXES)}) in it")]
        items: list[Item] = []
        for f in files:
            got, errs = load(str(f), positions=positions, name=name, base=base)
            items.extend(got)
            errors.extend(errs)
        return items, errors
    if path == "-":
        source, suffix = "<stdin>", ""
        stream = stdin if stdin is not None else sys.stdin.buffer
        data = stream.read(MAX_BYTES + 1)
        if isinstance(data, str):
            data = data.encode("utf-8")
    else:
        source, suffix = named(path, base), Path(path).suffix.lower()
        try:
            data = read_bounded(path)
        except OSError as exc:
            return [], [InputError(source, f"cannot read: {exc.strerror or exc}")]
    return load_bytes(data, source, suffix, positions=positions, name=name)


def load_bytes(data: bytes, source: str, suffix: str = "", *, positions: bool = False,
               name: str | None = None) -> tuple[list[Item], list[InputError]]:
    """The tools in one file's bytes (`source` names it in errors and items; `suffix` chooses the
    parser as a file's extension does): what `load` does once a file is read, for bytes read
    elsewhere (a file at a git revision); never raises for bad input."""
    if len(data) > MAX_BYTES:
        return [], [InputError(source, TOO_LARGE)]
    bad_lines: list[InputError] = []
    try:
        text = decode(data, source)
        parsed, where = _parse(text, source, suffix, positions, bad_lines)
    except _ParseError as exc:
        return [], [exc.error]
    items, errors = tools_of(parsed, source, where, name)
    errors[:0] = bad_lines
    if not items and not errors:
        # (an empty file, a YAML file of comments, `[]`: nothing is skipped silently)
        errors.append(InputError(source, "holds no tool"))
    if _SURROGATE_ESCAPE.search(text):  # (only an escape makes an unpaired surrogate: the text is UTF-8)
        items, bad = text_only(items)
        errors.extend(bad)
    return items, errors


# A JSON (\uD800-\uDFFF) or YAML (\U0000D800) escape of a UTF-16 surrogate, paired or not: a text
# without one (most, even those with other \u escapes) holds no unpaired surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]|\\U0000[dD][89a-fA-F]")


def text_only(items: list[Item]) -> tuple[list[Item], list[InputError]]:
    """The items whose strings are all text, and an input error for each other one: JSON's
    `\\ud800` escape can spell an unpaired UTF-16 surrogate, which is not a character, and which no
    UTF-8 output (a report, an --out file, a request) can hold. One such tool never stops the rest."""
    kept: list[Item] = []
    errors: list[InputError] = []
    for item in items:
        place = _unpaired_surrogate(item.tool)
        if place is None:
            kept.append(item)
        else:
            from toolcast.model import not_text, pointer

            tokens, bad = place
            where = pointer("#", tokens).encode("utf-8", "backslashreplace").decode("utf-8")  # (shown as its escape)
            errors.append(InputError(item.source, not_text(where, bad)))
    return kept, errors


def _unpaired_surrogate(value: Any) -> tuple[tuple, str] | None:
    """(the place, the string) of the first key or string in `value` that UTF-8 cannot encode."""
    stack: list[tuple[Any, tuple]] = [(value, ())]
    while stack:
        v, at = stack.pop()
        if isinstance(v, str):
            if not _encodable(v):
                return at, v
        elif isinstance(v, dict):
            for k, x in v.items():
                if isinstance(k, str) and not _encodable(k):
                    return at + (k,), k
                stack.append((x, at + (k,)))
        elif isinstance(v, list):
            stack.extend((x, at + (i,)) for i, x in enumerate(v))
    return None


def _encodable(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
