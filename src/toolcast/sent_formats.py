"""The `format`s of the metaschema a provider validates the form sent without strict against, where
it asserts them (policy sent_metaschema_formats asserted): jsonschema's `check_schema` does since
4.17, and the draft-07 and 2020-12 metaschemas give `pattern` and every `patternProperties` name
`format: regex`, which it checks by compiling the value with Python's `re`. A value `re` cannot
compile (an ECMA-262 named group `(?<n>...)`, `\\p{L}`, `\\cJ`, `[\\d-z]`...) makes the request invalid."""

from __future__ import annotations

import re
from typing import Any

from toolcast.walk.dialect import schema_nodes
from toolcast.walk.values import remember

_COMPILES: dict[str, bool] = {}  # (values.remember's bounded memo: a document repeats its patterns)


def _compiles(pattern: str) -> bool:
    """Whether Python's `re` compiles `pattern`."""
    known = _COMPILES.get(pattern)
    if known is None:
        try:
            re.compile(pattern)
            known = True
        except (re.error, RecursionError, OverflowError, ValueError):
            known = False
        remember(_COMPILES, pattern, known)
    return known


def regex_places(schema: Any) -> list[tuple[tuple, str, Any, str]]:
    """(place, keyword, value, what it should be) for each `pattern` value and `patternProperties`
    name in `schema`'s schema objects (every slot, those the metaschema does not descend into too:
    the reading that refuses rather than sends what may be rejected) that Python's `re` does not
    compile, as sent_valid.invalid_places gives them."""
    found = []
    expected = "a regular expression Python's re compiles (the metaschema's format: regex, asserted)"
    for place, node in schema_nodes(schema):
        p = node.get("pattern")
        if type(p) is str and not _compiles(p):
            found.append((place + ("pattern",), "pattern", p, expected))
        pp = node.get("patternProperties")
        if type(pp) is dict:
            found.extend((place + ("patternProperties", name), "patternProperties", name, expected)
                         for name in pp if type(name) is str and not _compiles(name))
    return found
