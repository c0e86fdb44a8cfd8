"""Null paths at run time: strip the nulls strict mode forced, or fill them in (for testing)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from toolcast.model import ITEMS, NullPath, ToolcastError


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


def _strip(value: Any, trie: dict) -> Any:
    if isinstance(value, dict):
        out = None
        for key, sub in trie.items():
            if key is None or key is ITEMS or key not in value:
                continue
            current = value[key]
            if current is None:
                if None in sub:
                    if out is None:
                        out = dict(value)
                    del out[key]
                continue
            new = _strip(current, sub)
            if new is not current:
                if out is None:
                    out = dict(value)
                out[key] = new
        return value if out is None else out
    if isinstance(value, list) and ITEMS in trie:
        sub = trie[ITEMS]
        out_list = None
        for i, item in enumerate(value):
            new = _strip(item, sub)
            if new is not item:
                if out_list is None:
                    out_list = list(value)
                out_list[i] = new
        return value if out_list is None else out_list
    return value


def strip_nulls(args: Any, null_paths: Iterable[NullPath]) -> Any:
    """Remove exactly the `None` values found at the null paths, and nothing else.

    A null path is a tuple of property names and `ITEMS` (every array element); JSON-style
    lists with `None` for ITEMS are accepted too; anything else raises NullPathError (a
    ToolcastError). `args` may be any value. The input is never mutated: unchanged parts
    are shared, changed containers are copied.
    """
    trie = _trie(null_paths)
    if not trie:
        return args
    return _strip(args, trie)


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
