"""Policy pattern_match `whole-string` (xAI: "`^`/`$` implicit (whole-string match)", `.` matching
newlines) and sent_nullable `type-union`: a pattern is written so that the provider's whole-string
reading accepts what JSON Schema's search accepts, in the strict form and in the form sent without
strict; OpenAPI's `nullable` in the form sent without strict becomes the type union xAI reads."""

from __future__ import annotations

import random
import re

import pytest
from oracles import more as more_oracle

import toolcast


def _tool(schema: dict) -> dict:
    return {"name": "t", "description": "d", "inputSchema": schema}


def _params(res) -> dict:
    return res.tool["function"]["parameters"]


def _changes(res, code: str) -> list[tuple[str, bool]]:
    return [(t.path, t.lossy) for t in res.transformations if t.code == code]


F7 = {"type": "object", "properties": {"title": {"type": "string", "pattern": "^[A-Z]"},
                                       "code": {"type": "string", "pattern": "[0-9]{3}"}},
      "required": ["title", "code"]}


def test_xai_strict_form_pads_unanchored_patterns_exactly() -> None:
    # red-team s13i F7: sent as written, xAI read `^[A-Z]` as one capital letter and `[0-9]{3}` as
    # exactly three digits; {"title": "Hello", "code": "A-123-B"} was valid and never producible.
    res = toolcast.compile_tool(_tool(F7), target="xai")
    assert res.status == "strict" and not res.lossy
    props = _params(res)["properties"]
    assert props["title"]["pattern"] == "^[A-Z].*" and props["code"]["pattern"] == ".*[0-9]{3}.*"
    assert _changes(res, "padded-unanchored-pattern") == [
        ("#/properties/title/pattern", False), ("#/properties/code/pattern", False)]
    assert more_oracle.violations(res.tool, "xai", res.status, None) == []


@pytest.mark.parametrize("wrap", [
    lambda s: s,  # a plain property
    lambda s: {"anyOf": [s, {"type": "integer"}]},
    lambda s: {"allOf": [s]},
    lambda s: {"type": "array", "items": s},
    lambda s: {"$ref": "#/$defs/d"},
])
def test_every_place_a_pattern_stands_is_padded(wrap) -> None:
    leaf = {"type": "string", "pattern": "ab", "description": "x"}
    schema = {"type": "object", "properties": {"p": wrap(leaf)}, "required": ["p"], "$defs": {"d": leaf}}
    res = toolcast.compile_tool(_tool(schema), target="xai")
    assert res.status == "strict"
    assert ".*ab.*" in str(_params(res)) and "'ab'" not in str(_params(res))
    assert _changes(res, "padded-unanchored-pattern")


@pytest.mark.parametrize("pattern,written", [
    ("^[a-z]+$", "^[a-z]+$"),  # anchored both sides: as written
    ("", ".*"),
    ("^a", "^a.*"), ("a$", ".*a$"), ("a", ".*a.*"),
    ("yes|no$", ".*(?:yes|no$).*"),  # a top-level alternation: grouped, then padded
    ("^a$|^b$", "^a$|^b$"), ("^a|^b", "(?:^a|^b).*"), ("a|b^", ".*(?:a|b^).*"),
    ("(a|b)$", ".*(a|b)$"),  # an alternation inside a group is no top-level one
    (r"a\$", r".*a\$.*"), (r"a\\$", r".*a\\$"),  # an escaped `$` is a character; an escaped backslash is not
    ("a[$]", ".*a[$].*"), ("[]]$", ".*[]]$"), ("[|]", ".*[|].*"),  # in a class `$` and `|` are characters
    ("(a$)", ".*(a$).*"), ("a$|b", ".*(?:a$|b).*"),  # a `$` that does not end the pattern
])
def test_whole_string_form(pattern: str, written: str) -> None:
    from toolcast.walk.regex import whole_string

    assert whole_string(pattern) == written


def _search(pattern: str, s: str) -> bool:  # ECMA-262's reading, no `.` generated: `$` only at the very end
    return re.search(pattern.replace("$", r"\Z"), s) is not None


def _whole(pattern: str, s: str) -> bool:  # the provider's: the whole string, `.` matching newlines
    return re.fullmatch(pattern.replace("$", r"\Z"), s, re.DOTALL) is not None


def test_whole_string_reading_accepts_what_search_accepts() -> None:
    from toolcast.walk.regex import whole_string

    atoms = ["a", "b", "[ab]", "(a|b)", "(?:ab|^b)", "(a$)", "\n", "a*", "b?", "(ab)+", "^", "$", "|"]
    strings = [""] + ["".join(t) for n in range(1, 5) for t in _words("ab\n", n)]
    rng = random.Random(7)
    tried = 0
    while tried < 400:
        pattern = "".join(rng.choice(atoms) for _ in range(rng.randint(1, 5)))
        try:
            re.compile(pattern)
        except re.error:
            continue
        tried += 1
        written = whole_string(pattern)
        for s in strings:
            assert _search(pattern, s) == _whole(written, s), (pattern, written, s)


def _words(alphabet: str, n: int):
    if n == 0:
        yield ""
        return
    for w in _words(alphabet, n - 1):
        for c in alphabet:
            yield w + c


def test_xai_sent_form_pads_patterns_and_writes_nullable_as_a_type_union() -> None:
    schema = {"type": "object", "properties": {
        "n": {"type": "string", "nullable": True},
        "m": {"type": ["integer", "string"], "nullable": True},
        "already": {"type": ["string", "null"], "nullable": True},
        "untyped": {"nullable": True, "description": "no type: nullable adds nothing"},
        "off": {"type": "string", "nullable": False},
        "p": {"type": "string", "pattern": "ab|cd"},
        "bad": {"type": "string", "pattern": "(unclosed"},
        "look": {"type": "string", "pattern": "a(?=b)"}}}
    res = toolcast.compile_tool(_tool(schema), target="xai", strict=False)
    props = _params(res)["properties"]
    assert props["n"] == {"type": ["string", "null"]}
    assert props["m"] == {"type": ["integer", "string", "null"]}
    assert props["already"] == {"type": ["string", "null"], "nullable": True}
    assert props["untyped"]["nullable"] is True and props["off"]["nullable"] is False
    assert props["p"]["pattern"] == ".*(?:ab|cd).*"
    assert props["bad"]["pattern"] == "(unclosed"  # (not ECMA-262: left as it is)
    assert props["look"]["pattern"] == ".*a(?=b).*"  # (best-effort there, but padded exactly too)
    assert _changes(res, "converted-nullable-to-type-union") == [
        ("#/properties/n/nullable", False), ("#/properties/m/nullable", False)]
    assert _changes(res, "padded-unanchored-pattern") == [
        ("#/properties/p/pattern", False), ("#/properties/look/pattern", False)]
    assert schema["properties"]["n"] == {"type": "string", "nullable": True}  # (the caller's is unchanged)


def test_a_declared_dialect_has_no_nullable_to_convert() -> None:
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
              "properties": {"n": {"type": "string", "nullable": True}}}
    res = toolcast.compile_tool(_tool(schema), target="xai", strict=False)
    assert _params(res)["properties"]["n"] == {"type": "string", "nullable": True}
    assert not _changes(res, "converted-nullable-to-type-union")


@pytest.mark.parametrize("target", ["openai", "anthropic", "deepseek", "mistral", "mcp", "gemini"])
def test_targets_that_search_send_patterns_as_written(target: str) -> None:
    for strict in (None, False):
        options = {} if strict is None else {"strict": strict}
        res = toolcast.compile_tool(_tool(F7), target=target, **options)
        assert not _changes(res, "padded-unanchored-pattern"), (target, strict)
        if res.tool is not None and "[0-9]" in str(res.tool):
            assert ".*[0-9]{3}.*" not in str(res.tool), (target, strict)
