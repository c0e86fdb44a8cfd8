"""Null paths at run time: strip the nulls strict mode forced, or fill them in (for testing)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from toolcast.model import ITEMS, NullPath, ToolcastError

#: A null path longer than this is refused: stripping and filling follow a path recursively,
#: and no value a tool receives is nested that deep (arguments: at most 100 levels).
MAX_PATH_STEPS = 200


class NullPathError(ToolcastError, TypeError):
    """``null_paths`` is not an iterable of paths, each a tuple/list of names and ITEMS/None."""


def _kind(value: Any) -> str:
    return "None" if value is None else type(value).__name__


def _trie(null_paths: Iterable[NullPath]) -> dict:
    """Paths as a trie; the key None in a node marks "a path ends here"."""
    # A string or a mapping would iterate as paths made of characters or of tool names.
    if isinstance(null_paths, (str, bytes, Mapping)) or not isinstance(null_paths, Iterable):
        raise NullPathError(f"null_paths: expected a list of null paths, got {_kind(null_paths)}")
    root: dict = {}
    for i, path in enumerate(null_paths):
        if not isinstance(path, (tuple, list)):
            raise NullPathError(
                f"null_paths[{i}]: expected a tuple or list of steps, got {_kind(path)}"
            )
        if len(path) > MAX_PATH_STEPS:
            raise NullPathError(f"null_paths[{i}]: longer than {MAX_PATH_STEPS} steps")
        node = root
        for j, step in enumerate(path):
            if step is None or step is ITEMS:
                step = ITEMS
            elif not isinstance(step, str):
                raise NullPathError(
                    f"null_paths[{i}][{j}]: expected a property name or ITEMS, got {_kind(step)}"
                )
            node = node.setdefault(step, {})
        node[None] = True
    return root


class _Node(NamedTuple):
    """A trie node made ready for stripping: what to test at a value, nothing else."""

    ends: tuple[str, ...]  # keys whose null value is removed here
    kids: tuple[tuple[str, _Node], ...]  # keys the paths go on under
    items: _Node | None  # where the paths go in every element of a list
    leaf: bool  # only ends: nothing below it to visit
    under: dict[str, _Node]  # kids by key (json_limits.plain_json strips as it copies)


def _compile(trie: dict) -> _Node | None:
    """``trie`` (from :func:`_trie`) as nodes; None when no path is in it."""
    if not trie:
        return None
    ends = tuple(k for k, sub in trie.items() if k is not None and k is not ITEMS and None in sub)
    kids = tuple(
        (k, node)
        for k, sub in trie.items()
        if k is not None and k is not ITEMS and (node := _compile_inner(sub)) is not None
    )
    items = _compile_inner(trie[ITEMS]) if ITEMS in trie else None
    return _Node(ends, kids, items, not kids and items is None, dict(kids))


def _compile_inner(sub: dict) -> _Node | None:
    # A node that only ends paths has nothing below it to visit: the parent removes its null.
    rest = {k: v for k, v in sub.items() if k is not None}
    return _compile(rest) if rest else None


def _strip(value: Any, node: _Node) -> Any:
    """``value`` without the nulls at ``node``'s paths; changed containers are copies."""
    if isinstance(value, dict):
        out = value
        for key in node.ends:
            # The sentinel 0 is not None: a missing key is left alone, as a present non-null.
            if out.get(key, 0) is None:
                if out is value:
                    out = dict(value)
                del out[key]
        for key, sub in node.kids:
            current = out.get(key)
            if current is None:
                continue
            new = _strip(current, sub)
            if new is not current:
                if out is value:
                    out = dict(value)
                out[key] = new
        return out
    if node.items is not None and isinstance(value, list):
        sub = node.items
        out_list = None
        for i, item in enumerate(value):
            new = _strip(item, sub)
            if new is not item:
                if out_list is None:
                    out_list = list(value)
                out_list[i] = new
        return value if out_list is None else out_list
    return value


def _strip_owned(value: Any, node: _Node) -> None:
    """:func:`_strip` in place, for a value the caller owns (just decoded or copied)."""
    if type(value) is dict:
        for key in node.ends:
            if value.get(key, 0) is None:
                del value[key]
        for key, sub in node.kids:
            current = value.get(key)
            if current is None:
                continue
            if sub.leaf and type(current) is dict:  # the common object of nullables, inline
                for inner in sub.ends:
                    if current.get(inner, 0) is None:
                        del current[inner]
            else:
                _strip_owned(current, sub)
    elif node.items is not None and type(value) is list:
        sub = node.items
        for item in value:
            _strip_owned(item, sub)


def strip_owned(args: Any, node: _Node | None) -> Any:
    """:func:`strip_compiled` that removes the nulls from ``args`` itself: for arguments no
    one else holds (fresh from a decoder or a copy), where copying would only cost time."""
    if node is not None:
        _strip_owned(args, node)
    return args


def compiled_paths(null_paths: Iterable[NullPath]) -> _Node | None:
    """``null_paths`` checked (NullPathError) and made ready for :func:`strip_compiled`."""
    return _compile(_trie(null_paths))


def strip_compiled(args: Any, node: _Node | None) -> Any:
    """:func:`strip_nulls` with paths from :func:`compiled_paths` (a tool's paths, once)."""
    return args if node is None else _strip(args, node)


def strip_nulls(args: Any, null_paths: Iterable[NullPath]) -> Any:
    """Remove exactly the `None` values found at the null paths, and nothing else.

    A null path is a tuple of property names and `ITEMS` (every array element); JSON-style
    lists with `None` for ITEMS are accepted too; anything else raises NullPathError (a
    ToolcastError). `args` may be any value. The input is never mutated: unchanged parts
    are shared, changed containers are copied.
    """
    return strip_compiled(args, compiled_paths(null_paths))


def _fill(value: Any, trie: dict) -> Any:
    if isinstance(value, dict):
        out = dict(value)
        for key, sub in trie.items():
            if key is None or key is ITEMS:
                continue
            if key not in out:
                if None in sub:
                    out[key] = None
            elif out[key] is not None:
                out[key] = _fill(out[key], sub)
        return out
    if isinstance(value, list) and ITEMS in trie:
        return [_fill(item, trie[ITEMS]) for item in value]
    return value


def fill_nulls(args: Any, null_paths: Iterable[NullPath], schema: Any = None) -> Any:
    """The inverse of strip_nulls: put `None` where a property at a null path was omitted.

    This is what a strict-mode model sends for arguments the original schema accepted; tests
    and simulators use it. Null paths name properties, not places: without `schema`, every
    omitted property at a null path is filled, which is what the compiled schema accepts unless an
    `anyOf` there has object branches that declare different properties (`{"a": null, "b": null}`
    fits neither of `{a}` and `{b}`). Given the compiled schema (the emitted `parameters`), the fill
    follows it: at an `anyOf`, the first branch that the filled value fits (see
    toolcast.fitting), and in an object only the properties it declares.
    """
    trie = _trie(null_paths)
    if schema is None:
        return _fill(args, trie)
    # Imported only for this use: strip_nulls and compiles never load it.
    from toolcast.fitting import Fitting

    return Fitting(schema).fill(args, trie, schema)
