"""Source positions: every key and element of any JSON or YAML document is found where its text is."""

from __future__ import annotations

import json
from typing import Any

import pytest
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


def _regex_ops(parsed: Any) -> set:
    """Every opcode in a parsed regular expression (sre's tree), nested ones too."""
    ops: set = set()
    for op, av in parsed:
        ops.add(op)
        for part in av if isinstance(av, (list, tuple)) else (av,):
            if hasattr(part, "data"):  # a SubPattern
                ops |= _regex_ops(part)
            elif isinstance(part, (list, tuple)):
                for sub in part:
                    if hasattr(sub, "data"):
                        ops |= _regex_ops(sub)
    return ops


def test_no_pattern_uses_what_early_python_311_matches_wrongly() -> None:
    # Possessive quantifiers and atomic groups came in Python 3.11, and early 3.11 releases match
    # some of them wrongly: on Debian 12's 3.11.2 the key scanner returned value strings as keys,
    # and every compile with positions (the text report) ended in "internal error: KeyError".
    # toolcast supports every 3.11, so none of its patterns may use them.
    import importlib
    import pkgutil
    import re

    import toolcast

    try:
        from re import _constants as sre_constants
        from re import _parser as sre_parse
    except ImportError:  # pragma: no cover - older layouts
        import sre_constants
        import sre_parse
    banned = {sre_constants.POSSESSIVE_REPEAT, sre_constants.ATOMIC_GROUP}
    checked = 0
    for info in pkgutil.walk_packages(toolcast.__path__, "toolcast."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:  # an optional dependency (an SDK) is not installed
            continue
        for name, value in vars(module).items():
            if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                checked += 1
                used = _regex_ops(sre_parse.parse(value.pattern, value.flags)) & banned
                assert not used, f"{info.name}.{name} uses {sorted(map(str, used))}: {value.pattern!r}"
    assert checked > 10


def test_key_positions_under_the_oldest_python_311_on_the_machine() -> None:
    # Where the machine has an early 3.11 (Debian 12's python3 is 3.11.2), run the key scanner
    # there on a document whose keys and value strings alternate.
    import shutil
    import subprocess
    from pathlib import Path

    py = shutil.which("python3.11", path="/usr/bin") or shutil.which("python3", path="/usr/bin")
    if py is None:
        pytest.skip("no system python3")
    version = subprocess.run([py, "-c", "import sys; print(*sys.version_info[:3])"], capture_output=True, text=True)
    major, minor, micro = map(int, version.stdout.split())
    if (major, minor) != (3, 11) or micro >= 5:
        pytest.skip(f"{py} is {major}.{minor}.{micro}, not an early 3.11")
    src = Path(__file__).resolve().parent.parent / "src"
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); from toolcast.positions import scan_json\n"
        "t = '{\"name\": \"ok\", \"description\": \"d\", \"inputSchema\": {\"type\": \"object\", \"properties\": {}}}'\n"
        "members, root = scan_json(t, json.loads(t))\n"
        "print(sorted(t[o + 1:t.index('\"', o + 1)] for offs in members.values() for o in offs if o >= 0 and t[o] == '\"'))\n"
    )
    proc = subprocess.run([py, "-c", code, str(src)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split("\n")[0] == str(sorted(["name", "description", "inputSchema", "type", "properties"]))
