"""Rule facts a test needs, read from the rules under test, never written into the test.

A test that needs "a format the rules do not take" (so a tool loses something, goes non-strict, gets
`unsupported-string-format`) asks here for one. The answer follows the rule version the compile
uses, so a maintainer who makes a format supported in a new default version (spec/README.md, the
maintainer workflow) moves these tests to another unsupported format instead of breaking them.
A test about one version's own facts names that version (`rules="openai@2026-10-17"`) instead.
"""

from __future__ import annotations

from functools import cache

import toolcast
from toolcast.formats import CHECKED_FORMATS
from toolcast.rules import Rules, get_rules

# JSON Schema 2020-12's formats (§7.3), each with a value that has it and one that does not, as the
# run-time validator checks them. Tried in this order; `uri` first, the one users meet most that
# OpenAI's guide does not list.
SAMPLES: dict[str, tuple[str, str]] = {
    "uri": ("https://example.com/a?b=1", "not a uri"),
    "iri": ("https://example.com/ä", "no scheme here"),
    "uri-template": ("https://example.com/{id}", "https://example.com/{id"),
    "json-pointer": ("/a/0", "a/0"),
    "relative-json-pointer": ("0/a", "/a"),
    "regex": ("^a+$", "(unclosed"),
    "idn-email": ("a@example.com", "not-an-email"),
    "email": ("a@example.com", "not-an-email"),
    "date-time": ("2025-01-31T12:00:00Z", "2025-01-31 noon"),
    "date": ("2025-01-31", "31/01/2025"),
    "duration": ("P3DT4H", "3 days"),
    "uuid": ("0b1c9a5e-2f3d-4c5b-8a7e-9f0d1e2c3b4a", "not-a-uuid"),
    "ipv4": ("192.0.2.1", "300.1.2.3"),
    "ipv6": ("2001:db8::1", "2001:db8:::1"),
    "hostname": ("api.example.com", "-bad-.com"),
}
assert set(SAMPLES) <= CHECKED_FORMATS


def rules_of(target: str = "openai", api: str | None = None, rules: str | None = None) -> Rules:
    """The rules a plain compile for `target`/`api` uses (the target's default version unless `rules`)."""
    probe = {"name": "t", "inputSchema": {"type": "object"}}
    return get_rules(toolcast.compile_tool(probe, target=target, api=api, rules=rules).rules)


@cache
def unsupported_format(target: str = "openai", api: str | None = None, rules: str | None = None) -> str:
    """A format those rules drop (lossy, `…/unsupported-string-format`) that the run-time validator
    checks (so `enforce=True` can enforce it), with known good and bad values in SAMPLES."""
    taken = rules_of(target, api, rules).formats
    for name in SAMPLES:
        if name not in taken:
            return name
    raise AssertionError(f"{target}/{api}: every format of rule_facts.SAMPLES is supported; add a sample of a "
                         "JSON Schema format the rules do not list")


def supported_format(target: str = "openai", api: str | None = None, rules: str | None = None) -> str:
    """A format those rules keep in a strict schema."""
    taken = rules_of(target, api, rules).formats
    name = next((n for n in SAMPLES if n in taken), None)
    assert name is not None, f"{target}/{api}: the rules take no format of rule_facts.SAMPLES"
    return name


def limit_entry(counter: str, target: str = "openai", api: str | None = None, rules: str | None = None):
    """The limit those rules put on what the walk counts as `counter` (walk.actions.COUNTERS: `properties`,
    `enum-values`, ...), a LimitEntry (value, code, cite, counts); None where they document no figure (the
    walk counts it without bound)."""
    return rules_of(target, api, rules).limit_of.get(counter)


def limit(counter: str, target: str = "openai", api: str | None = None, rules: str | None = None) -> int | None:
    """The figure of `limit_entry`, or None where the rules document none."""
    entry = limit_entry(counter, target, api, rules)
    return None if entry is None else entry.value


def unlimited_target(counter: str, targets: tuple[str, ...] = ("anthropic", "deepseek", "gemini", "mcp", "xai")) -> str:
    """The first of `targets` whose default rules document no figure for `counter`."""
    for target in targets:
        if limit(counter, target) is None:
            return target
    raise AssertionError(f"every one of {targets} now limits {counter!r}; name another target in the test")


def good_value(fmt: str) -> str:
    return SAMPLES[fmt][0]


def bad_value(fmt: str) -> str:
    return SAMPLES[fmt][1]


def lost_formats(schema: object, target: str = "openai", api: str | None = None) -> set[str]:
    """The `format` values anywhere in `schema` the rules do not take (what a compile drops as lossy)."""
    taken = rules_of(target, api).formats
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("format"), str) and node.get("type") == "string" and node["format"] not in taken:
                found.add(node["format"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(schema)
    return found


# Properties whose one constraint is a keyword a provider may not take, in the order tried.
KEYWORD_SAMPLES: dict[str, dict] = {
    "uniqueItems": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
    "minProperties": {"type": "object", "properties": {"a": {"type": "string"}}, "minProperties": 1},
    "maxProperties": {"type": "object", "properties": {"a": {"type": "string"}}, "maxProperties": 1},
    "propertyNames": {"type": "object", "properties": {"a": {"type": "string"}}, "propertyNames": {"maxLength": 3}},
}


def unsupported_keyword(target: str = "openai", api: str | None = None, rules: str | None = None) -> tuple[str, dict]:
    """A keyword those rules name unsupported (class tier1: dropped, lossy, `…/unsupported-keyword`), and a
    property schema whose one constraint it is."""
    keywords = rules_of(target, api, rules).keywords
    for name, schema in KEYWORD_SAMPLES.items():
        entry = keywords.get(name)
        if entry is not None and entry.cls == "tier1":
            return name, schema
    raise AssertionError(f"{target}/{api}: no keyword of rule_facts.KEYWORD_SAMPLES is tier1; add a sample")
