"""Source positions of a loaded document's keys and values (JSON text or YAML nodes), found while loading."""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from json import loads as json_loads
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")


class Positions:
    """Where each member of each container of one document starts, as offsets into its text.

    `members` maps id(container) to the offsets of its members in order: a key's offset for an
    object member, the value's for an array element. The document is held, so the ids stay its
    own. Offsets become line and column (1-based, in code points) only when a place is asked for.
    """

    __slots__ = ("_doc", "_indexes", "_line_starts", "_members", "_root")

    def __init__(self, text: str, doc: Any, members: dict[int, array], root: int) -> None:
        self._doc, self._members, self._root = doc, members, root
        self._indexes: dict[int, dict] = {}  # id(object) -> {key: its member index}, built on first use
        starts = array("q", [0])
        starts.extend(m.end() for m in re.finditer("\n", text))
        self._line_starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        i = bisect_right(self._line_starts, offset) - 1
        return i + 1, offset - self._line_starts[i] + 1

    def offset(self, tokens: tuple) -> tuple[int, int]:
        """The offset of the deepest existing place along `tokens` from the document's root, and
        how many tokens were followed (fewer than given when the place is not in the source)."""
        node, off = self._doc, self._root
        for n, tok in enumerate(tokens):
            offs = self._members.get(id(node))
            if offs is None:
                return off, n
            if isinstance(node, dict):
                if not isinstance(tok, str) or tok not in node:
                    return off, n
                index = self._indexes.get(id(node))
                if index is None:
                    index = self._indexes[id(node)] = {k: i for i, k in enumerate(node)}
                i = index[tok]
                node = node[tok]
            else:
                if isinstance(tok, str) and tok.isdigit():
                    tok = int(tok)
                if not isinstance(tok, int) or isinstance(tok, bool) or not 0 <= tok < len(node):
                    return off, n
                i = tok
                node = node[tok]
            off = offs[i]
        return off, len(tokens)


# Strings (whole, so brackets inside them are not seen) and the structural characters; scalars
# between them are skipped. The text was accepted by json.loads already, so this is enough.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[{}\[\],]')


def scan_json(text: str, doc: Any, start: int = 0, end: int | None = None, members: dict | None = None) -> tuple[dict, int]:
    """Record the member offsets of `doc`, the value json.loads made of text[start:end]; returns
    (members, the root value's offset). One pass of a C tokenizer over strings and brackets: a
    key's offset is its string's, an element's the first character after `[` or `,`."""
    members = {} if members is None else members
    end = len(text) if end is None else end
    ws = _WS.match
    root = ws(text, start).end()
    if text[root:root + 1] not in ("{", "["):
        return members, root
    stack: list = []  # [container, offsets, index of the next element (lists) or None (dicts)]
    node: Any = None
    offs: Any = None
    index: Any = None
    key_next = False
    key = None
    for m in _TOKEN.finditer(text, root, end):
        pos = m.start()
        c = text[pos]
        if c == '"':
            if key_next:
                offs.append(pos)
                raw = m.group()
                key = raw[1:-1] if "\\" not in raw else json_loads(raw)
                key_next = False
            continue
        if c == ",":
            if index is None:
                key_next = True
            else:
                index += 1
                offs.append(ws(text, pos + 1).end())
            continue
        if c in "{[":
            child = doc if node is None else (node[key] if index is None else node[index])
            stack.append((node, offs, index, key))
            node, offs = child, array("q")
            members[id(child)] = offs
            if c == "{":
                index, key_next = None, True
            else:
                index = 0
                after = ws(text, pos + 1).end()
                if text[after] != "]":
                    offs.append(after)
            continue
        # } or ]
        node, offs, index, key = stack.pop()
        key_next = False
        if node is None:
            break
    return members, root


def json_positions(text: str, doc: Any) -> Positions | None:
    """Positions for one JSON document, or None when it is too deep to scan by recursion."""
    try:
        members, root = scan_json(text, doc)
    except RecursionError:
        return None
    return Positions(text, doc, members, root)


def jsonl_positions(text: str, docs: list, line_offsets: list[int]) -> Positions | None:
    """Positions for JSON Lines: `docs[i]` was read from the line starting at `line_offsets[i]`."""
    members: dict = {}
    offs = array("q")
    try:
        for doc, start in zip(docs, line_offsets, strict=True):
            _, root = scan_json(text, doc, start, None, members)
            offs.append(root)
    except RecursionError:
        return None
    members[id(docs)] = offs
    return Positions(text, docs, members, offs[0] if offs else 0)


def _yaml_members(node: Any, doc: Any, members: dict) -> None:
    stack = [(node, doc)]
    while stack:
        n, v = stack.pop()
        if isinstance(v, dict):
            # Keys were checked to be distinct strings, so node order is the dict's order.
            members[id(v)] = array("q", (k.start_mark.index for k, _ in n.value))
            stack.extend((vn, v[k]) for (_, vn), k in zip(n.value, v, strict=True))
        elif isinstance(v, list):
            members[id(v)] = array("q", (c.start_mark.index for c in n.value))
            stack.extend(zip(n.value, v, strict=True))


def yaml_positions(text: str, node: Any, doc: Any) -> Positions:
    """Positions for one YAML document from its composed node tree (each node's start_mark)."""
    members: dict = {}
    _yaml_members(node, doc, members)
    return Positions(text, doc, members, node.start_mark.index)


def yaml_stream_positions(text: str, nodes: list, docs: list) -> Positions:
    """Positions for a YAML stream of several documents, read as a list of them."""
    members: dict = {}
    for n, d in zip(nodes, docs, strict=True):
        _yaml_members(n, d, members)
    members[id(docs)] = array("q", (n.start_mark.index for n in nodes))
    return Positions(text, docs, members, nodes[0].start_mark.index if nodes else 0)


# Where a finding's base lies in each tool shape (compile.read_tool's shape names).
_SCHEMA_KEY = {"mcp": ("inputSchema",), "openai": ("parameters",), "chat": ("function", "parameters"),
               "anthropic": ("input_schema",)}


class Where:
    """One tool's place in its source document: the file, the document's positions and the
    tokens from the document's root to the tool (`bare`: the tool is a bare JSON Schema)."""

    __slots__ = ("bare", "file", "positions", "tokens", "tool")

    def __init__(self, file: str, positions: Positions, tokens: tuple, tool: Any, bare: bool = False) -> None:
        self.file, self.positions, self.tokens, self.tool, self.bare = file, positions, tokens, tool, bare

    def locate(self, base: str, tokens: tuple) -> tuple[int, int]:
        """Line and column of a finding's place (`base` "#" for the schema, else a tool field);
        a place that is not in the source (a missing keyword) gets its nearest ancestor's."""
        off, _ = self.positions.offset(self.tokens + self._base_tokens(base) + tuple(tokens))
        return self.positions.line_col(off)

    def _base_tokens(self, base: str) -> tuple:
        if self.bare:
            return () if base == "#" else (base,)
        from toolcast.compile import InvalidToolError, read_tool

        try:
            shape = read_tool(self.tool)[3]
        except InvalidToolError:
            return ()
        if base == "#":
            return _SCHEMA_KEY[shape]
        return ("function", base) if shape == "chat" else (base,)
