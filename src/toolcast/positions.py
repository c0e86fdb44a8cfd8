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
    object member, the value's for an array element (from JSON text, the elements that are not
    containers are found when first asked for). The document and its text are held, so the ids
    stay its own. Offsets become line and column (1-based, in code points) only when asked for.
    """

    __slots__ = ("_doc", "_indexes", "_line_starts", "_members", "_memo", "_root", "_text")

    def __init__(self, text: str, doc: Any, members: dict[int, array], root: int) -> None:
        self._doc, self._members, self._root, self._text = doc, members, root, text
        self._indexes: dict[int, dict] = {}  # id(object) -> {key: its member index}, built on first use
        self._memo: dict[tuple, tuple[int, int]] = {}  # tokens -> offset(tokens): findings share places
        starts = array("q", [0])
        starts.extend(m.end() for m in re.finditer("\n", text))
        self._line_starts = starts

    def line_col(self, offset: int) -> tuple[int, int]:
        i = bisect_right(self._line_starts, offset) - 1
        return i + 1, offset - self._line_starts[i] + 1

    def offset(self, tokens: tuple) -> tuple[int, int]:
        """The offset of the deepest existing place along `tokens` from the document's root, and
        how many tokens were followed (fewer than given when the place is not in the source)."""
        found = self._memo.get(tokens)  # tokens are keys and indexes of a loaded document
        if found is None:
            found = self._memo[tokens] = self._walk(tokens)
        return found

    def _walk(self, tokens: tuple) -> tuple[int, int]:
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
                if offs[i] == _UNSEEN:
                    _find_elements(self._text, offs, i)
            off = offs[i]
        return off, len(tokens)


_STRING = r'"[^"\\]*(?:\\.[^"\\]*)*"'  # (unambiguous: each character is a plain one or an escape)
# One match per key or bracket: whatever lies between (scalars, commas, strings that are values,
# not keys) is consumed inside the match, in C. The text was accepted by json.loads already, so a
# string is a key exactly when a colon follows it. A run of other characters is taken whole, as an
# atomic group would take it, by the lookahead-and-backreference idiom: possessive quantifiers
# (Python 3.11's) match wrongly in early 3.11 releases (Debian 12's 3.11.2 returned value strings
# as keys), and a plain `+` inside `*` could backtrack without end.
_STRUCTURE = re.compile(r'(?:(?=(?P<run>[^"{}\[\]]+))(?P=run)|' + _STRING + r'(?!\s*:))*(?P<tok>' + _STRING
                        + r'|[{}\[\]])')
# Strings, brackets and commas: the elements of one array, found when one is asked for.
_TOKEN = re.compile(_STRING + r'|[{}\[\],]')
_UNSEEN = -1  # an array element that is not an object or array: found on demand


def scan_json(text: str, doc: Any, start: int = 0, end: int | None = None, members: dict | None = None) -> tuple[dict, int]:
    """Record the member offsets of `doc`, the value json.loads made of text[start:end]; returns
    (members, the root value's offset). One pass over the keys and brackets: a key's offset is
    its string's; an array's elements that are objects or arrays get their bracket's, the others
    _UNSEEN, and the array's own `[` is kept after its elements for Positions to find them."""
    members = {} if members is None else members
    end = len(text) if end is None else end
    root = _WS.match(text, start).end()
    if text[root:root + 1] not in ("{", "["):
        return members, root
    stack: list = []
    node: Any = None  # the container being read; None before the root
    offs: Any = None
    key: Any = None
    kids: Any = None  # in an array: the indexes of its elements that are containers, and a cursor
    # Up to the root's closing bracket: past it only whitespace is left, where a match would fail
    # and be tried again at every position.
    end = max(text.rfind("}", root, end), text.rfind("]", root, end)) + 1
    for m in _STRUCTURE.finditer(text, root, end):
        pos = m.start("tok")
        c = text[pos]
        if c == '"':
            offs.append(pos)
            raw = m.group("tok")
            key = raw[1:-1] if "\\" not in raw else json_loads(raw)
            continue
        if c == "{" or c == "[":
            if node is None:
                child = doc
            elif kids is None:
                child = node[key]
            else:
                i = kids[0][kids[1]]
                kids[1] += 1
                offs[i] = pos
                child = node[i]
            stack.append((node, offs, key, kids))
            node = child
            if c == "{":
                offs, kids = array("q"), None
            else:
                offs = array("q", [_UNSEEN]) * len(child)
                offs.append(pos)
                kids = [[i for i, v in enumerate(child) if isinstance(v, (dict, list))], 0]
            members[id(child)] = offs
            continue
        node, offs, key, kids = stack.pop()  # } or ]
        if node is None:
            break
    return members, root


def _find_elements(text: str, offs: array, upto: int) -> None:
    """Fill in the offsets of an array's elements up to `upto` from its `[` (kept last in offs)."""
    i = 0
    depth = 0
    first = _WS.match(text, offs[-1] + 1).end()
    offs[0] = first
    for m in _TOKEN.finditer(text, first):
        c = text[m.start()]
        if c == "{" or c == "[":
            depth += 1
        elif c == "}" or c == "]":
            depth -= 1
            if depth < 0:
                return
        elif c == "," and depth == 0:
            i += 1
            offs[i] = _WS.match(text, m.start() + 1).end()
            if i >= upto:
                return


def json_positions(text: str, doc: Any) -> Positions | None:
    """Positions for one JSON document, or None when it is too deep to scan by recursion."""
    try:
        members, root = scan_json(text, doc)
    except RecursionError:
        return None
    return Positions(text, doc, members, root)


class _Skipped:
    """The stand-in for a line of JSON Lines that is not JSON (its error is reported apart)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "SKIPPED"


SKIPPED = _Skipped()


def jsonl_positions(text: str, docs: list, line_offsets: list[int]) -> Positions | None:
    """Positions for JSON Lines: `docs[i]` was read from the line starting at `line_offsets[i]`
    (SKIPPED for a line that was not JSON)."""
    members: dict = {}
    offs = array("q")
    try:
        for doc, start in zip(docs, line_offsets, strict=True):
            if doc is SKIPPED:
                offs.append(start)
                continue
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

    __slots__ = ("_bases", "bare", "file", "positions", "tokens", "tool")

    def __init__(self, file: str, positions: Positions, tokens: tuple, tool: Any, bare: bool = False) -> None:
        self.file, self.positions, self.tokens, self.tool, self.bare = file, positions, tokens, tool, bare
        self._bases: dict | None = None  # base -> tokens from the document's root, on first use

    def locate(self, base: str, tokens: tuple) -> tuple[int, int]:
        """Line and column of a finding's place (`base` "#" for the schema, else a tool field);
        a place that is not in the source (a missing keyword) gets its nearest ancestor's."""
        bases = self._bases
        if bases is None:
            bases = self._bases = {}
        prefix = bases.get(base)
        if prefix is None:
            prefix = bases[base] = self.tokens + self._base_tokens(base)
        off, _ = self.positions.offset(prefix + tuple(tokens))
        return self.positions.line_col(off)

    def _base_tokens(self, base: str) -> tuple:
        if self.bare:
            return () if base == "#" else (base,)
        from toolcast.model import InvalidToolError
        from toolcast.tool_input import read_tool

        try:
            shape = read_tool(self.tool)[3]
        except InvalidToolError:
            return ()
        if base == "#":
            return _SCHEMA_KEY[shape]
        return ("function", base) if shape == "chat" else (base,)
