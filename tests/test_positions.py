"""Source positions: every key and element of any JSON or YAML document is found where its text is."""

from __future__ import annotations

import json
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from toolcast import loader

# Keys and strings with what a scanner could trip on: quotes, backslashes, brackets, colons, commas.
_TEXT = st.text(alphabet=st.sampled_from(list('ab"\\{}[]:, \n\té€😀')), max_size=6)
_SCALARS = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False, allow_infinity=False) | _TEXT
DOCS = st.recursive(_SCALARS, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(_TEXT, kids, max_size=4), max_leaves=20)


def places(value: Any, prefix: tuple = ()) -> list[tuple]:
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((*prefix, k))
            out.extend(places(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.append((*prefix, i))
            out.extend(places(v, (*prefix, i)))
    return out


def get(value: Any, tokens: tuple) -> Any:
    for t in tokens:
        value = value[t]
    return value


@settings(max_examples=200, deadline=None)
@given(DOCS, st.sampled_from([None, 0, 2, "\t"]), st.sampled_from([(", ", ": "), (",", ":")]))
def test_json_every_key_and_element_is_at_its_text(doc: Any, indent: Any, separators: tuple) -> None:
    text = json.dumps(doc, indent=indent, separators=separators, ensure_ascii=False)
    data, pos = loader._parse(text, "t.json", ".json", True)
    decoder = json.JSONDecoder()
    for tokens in places(data):
        off, followed = pos.offset(tokens)
        assert followed == len(tokens)
        parent = get(data, tokens[:-1])
        if isinstance(parent, dict):  # a key: its string starts here
            assert decoder.raw_decode(text, off)[0] == tokens[-1]
        else:  # an element: its value starts here
            assert decoder.raw_decode(text, off)[0] == get(data, tokens)
        line, col = pos.line_col(off)
        assert text.split("\n")[line - 1][col - 1] == text[off]


@settings(max_examples=100, deadline=None)
@given(st.lists(DOCS.filter(lambda d: isinstance(d, dict | list)), min_size=1, max_size=4))
def test_json_lines_positions_point_into_each_line(docs: list) -> None:
    lines = [json.dumps(d, ensure_ascii=False) for d in docs]
    text = "\n\n".join(lines) + "\n"
    data, pos = loader._parse(text, "t.jsonl", ".jsonl", True)
    decoder = json.JSONDecoder()
    for tokens in places(data):
        off, _ = pos.offset(tokens)
        parent = get(data, tokens[:-1])
        want = tokens[-1] if isinstance(parent, dict) else get(data, tokens)
        assert decoder.raw_decode(text, off)[0] == want
        assert pos.line_col(off)[0] == 2 * tokens[0] + 1


YAML_KEYS = st.text(alphabet=st.sampled_from(list("abc_-1")), min_size=1, max_size=4)
YAML_DOCS = st.recursive(st.integers(0, 99) | st.sampled_from(["x", "y z"]),
                         lambda kids: st.lists(kids, min_size=1, max_size=3) | st.dictionaries(YAML_KEYS, kids, min_size=1, max_size=3),
                         max_leaves=12).filter(lambda d: isinstance(d, dict))


@settings(max_examples=100, deadline=None)
@given(YAML_DOCS, st.booleans())
def test_yaml_every_key_is_at_its_line_and_column(doc: dict, flow: bool) -> None:
    text = yaml.safe_dump(doc, default_flow_style=flow, sort_keys=False)
    data, pos = loader._parse(text, "t.yaml", ".yaml", True)
    assert data == json.loads(json.dumps(doc))
    rows = text.split("\n")
    for tokens in places(data):
        line, col = pos.line_col(pos.offset(tokens)[0])
        parent = get(data, tokens[:-1])
        at = rows[line - 1][col - 1:]
        if isinstance(parent, dict):
            key = str(tokens[-1])
            assert at.startswith(key) or at.startswith(f"'{key}'"), (text, tokens, at)
