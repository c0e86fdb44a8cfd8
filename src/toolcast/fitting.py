"""fill_nulls guided by a compiled schema: which anyOf branch a value fits, and the nulls filled by that branch."""

from __future__ import annotations

import re
from typing import Any

from toolcast.model import ITEMS

# The JSON type of a Python value (bool before int: True is no number in JSON).
_TYPE_OF = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (dict, "object"),
            (list, "array"), (type(None), "null"))
# Nesting followed at most (a compiled schema's $refs recurse only as deep as the value does).
_GUARD = 1000


def _json_type(v: Any) -> str:
    for py, name in _TYPE_OF:
        if isinstance(v, py):
            return "integer" if name == "number" and v.is_integer() else name
    return "?"


def _json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON has it: `true` is not `1`, `1` is `1.0`."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(_json_equal, a, b))
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    return type(a) is type(b) and a == b


class Fitting:
    """Reads values against one compiled (strict-mode) schema: the keywords strict mode sends."""

    def __init__(self, root: Any) -> None:
        self.root = root

    def deref(self, s: Any, depth: int = 0) -> Any:
        """`s` with its local `$ref` followed (the compiled form keeps annotations only beside one)."""
        while isinstance(s, dict) and isinstance(s.get("$ref"), str) and depth < _GUARD:
            ref = s["$ref"]
            if ref == "#":
                s = self.root
            elif ref.startswith("#/$defs/") and isinstance(self.root, dict):
                name = ref[len("#/$defs/"):].replace("~1", "/").replace("~0", "~")
                s = self.root.get("$defs", {}).get(name, False)
            else:
                return False
            depth += 1
        return s

    def fill(self, value: Any, trie: dict, s: Any, depth: int = 0) -> Any:
        """`value` with None at the omitted properties of `trie` (a nulls._trie) that schema `s` declares."""
        s = self.deref(s)
        if not isinstance(s, dict) or depth > _GUARD:
            return value
        if isinstance(s.get("anyOf"), list):
            for b in s["anyOf"]:
                candidate = self.fill(value, trie, b, depth + 1)
                if self.fits(candidate, b, depth + 1):
                    return candidate
            return value  # no branch fits, filled or not: nothing the model could send
        if isinstance(value, dict):
            props = s.get("properties")
            if not isinstance(props, dict):
                return value
            out = dict(value)
            for key, sub in trie.items():
                if key is None or key is ITEMS or key not in props:
                    continue  # a property of another branch, or none of this object
                if key not in out:
                    if None in sub:
                        out[key] = None
                elif out[key] is not None:
                    out[key] = self.fill(out[key], sub, props[key], depth + 1)
            return out
        if isinstance(value, list) and ITEMS in trie and "items" in s:
            return [self.fill(v, trie[ITEMS], s["items"], depth + 1) for v in value]
        return value

    def fits(self, value: Any, s: Any, depth: int = 0) -> bool:
        """Whether `value` is valid under compiled schema `s` (`format` read as an annotation)."""
        s = self.deref(s)
        if s is True or s == {}:
            return True
        if not isinstance(s, dict) or depth > _GUARD:
            return False
        if isinstance(s.get("anyOf"), list) and not any(self.fits(value, b, depth + 1) for b in s["anyOf"]):
            return False
        if "enum" in s and not any(_json_equal(value, e) for e in s["enum"]):
            return False
        if "const" in s and not _json_equal(value, s["const"]):
            return False
        t = s.get("type")
        if t is not None:
            vt = _json_type(value)
            types = [t] if isinstance(t, str) else t
            if vt not in types and not (vt == "integer" and "number" in types):
                return False
        return self._fits_kind(value, s, depth)

    def _fits_kind(self, value: Any, s: dict, depth: int) -> bool:
        """The keywords of `s` that apply to the value's own type."""
        if isinstance(value, dict):
            props = s.get("properties", {})
            if s.get("additionalProperties") is False and not value.keys() <= props.keys():
                return False
            if any(k not in value for k in s.get("required", ())):
                return False
            return all(self.fits(v, props[k], depth + 1) for k, v in value.items() if k in props)
        if isinstance(value, list):
            n = len(value)
            if n < s.get("minItems", 0) or ("maxItems" in s and n > s["maxItems"]):
                return False
            return "items" not in s or all(self.fits(v, s["items"], depth + 1) for v in value)
        if isinstance(value, str):
            n = len(value)
            if n < s.get("minLength", 0) or ("maxLength" in s and n > s["maxLength"]):
                return False
            return "pattern" not in s or _search(s["pattern"], value)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return _in_bounds(value, s)
        return True


def _in_bounds(v: float, s: dict) -> bool:
    if ("minimum" in s and v < s["minimum"]) or ("maximum" in s and v > s["maximum"]):
        return False
    if ("exclusiveMinimum" in s and v <= s["exclusiveMinimum"]) or ("exclusiveMaximum" in s and v >= s["exclusiveMaximum"]):
        return False
    m = s.get("multipleOf")
    return not m or _multiple_of(v, m)


def _multiple_of(v: float, m: float) -> bool:
    """Whether `v` is a multiple of `m` (exact for integers; a quotient beyond a float, as 10**400 / 3,
    is decided exactly)."""
    if isinstance(v, int) and isinstance(m, int):
        return v % m == 0
    try:
        return float(v / m).is_integer()
    except OverflowError:
        from fractions import Fraction

        return (Fraction(v) / Fraction(m)).denominator == 1


def _search(pattern: str, text: str) -> bool:
    """ECMA-262 `pattern` read by Python's re (the strict subset's patterns mean the same there);
    a pattern re cannot read is not held against the value."""
    try:
        return re.search(pattern, text) is not None
    except re.error:
        return True
