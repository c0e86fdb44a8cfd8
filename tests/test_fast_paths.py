"""The planned fast paths give exactly the general walk's result.

Plain scalar leaves, objects and arrays of a known key shape, and bare `$ref` properties are
compiled from per-rule-version plans instead of node()'s keyword dispatch (issue 6). The two
must agree on everything a result holds, in order: status, emitted tool (key order included),
null paths, every diagnostic and transformation. `Walk.fast = False` sends every node through
the general path; these tests compile the same inputs both ways.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import RULES, examples, schemas

import toolcast
from toolcast.interpret import NEST_GUARD, Walk
from toolcast.model import OPTIONAL_PAIR
from toolcast.rules import get_rules

_spec = importlib.util.spec_from_file_location(
    "corpus_report", Path(__file__).resolve().parent.parent / "tools" / "corpus_report.py")
corpus_report = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(corpus_report)
CORPUS = corpus_report.default_corpus()
VERSIONS = ("openai@2024-08-06", "openai@2026-10-17")
POLICIES = ({"strict": "auto"}, {"strict": True}, {"strict": True, "allow_lossy": True})


def both(tool: dict, **kw) -> tuple[str, str]:
    """The result's JSON (key order kept) with the fast paths on, then off."""
    fast = json.dumps(toolcast.compile_tool(tool, **kw).to_dict())
    Walk.fast = False
    try:
        slow = json.dumps(toolcast.compile_tool(tool, **kw).to_dict())
    finally:
        Walk.fast = True
    return fast, slow


def _corpus_tools() -> list[dict]:
    """Every corpus tool, read as the corpus report reads them (jsonl sets and large/)."""
    return [tool for _name, tools in corpus_report.corpus_sets(CORPUS) for tool in tools]


@pytest.mark.skipif(not (CORPUS / "mcp.jsonl").is_file(), reason="shared corpus not found")
@pytest.mark.parametrize("rules", VERSIONS)
def test_corpus_results_are_the_same_either_way(rules: str) -> None:
    differ = []
    for i, tool in enumerate(_corpus_tools()):
        for policy in POLICIES:
            fast, slow = both(tool, rules=rules, **policy)
            if fast != slow:
                differ.append((i, tool.get("name"), policy))
    assert differ == []


@given(schema=schemas(), rules=st.sampled_from(RULES), strict=st.sampled_from(["auto", True]))
@examples(150)
def test_generated_schemas_are_the_same_either_way(schema: dict, rules: str, strict) -> None:
    fast, slow = both({"name": "t", "description": "d", "parameters": schema}, rules=rules, strict=strict)
    assert fast == slow


# A definition graph for null paths: the root and definitions A, B, C, each an object with an
# optional property (a null path), a property that allows null (a legit path), a reference to
# a later definition (so the graph has no cycle and its paths are bounded), an array of one,
# an anyOf of two, or of one and an object of its own. Property names are shared, so paths
# through different definitions collide. `not` refuses the schema before its null paths are
# settled.
def _member(later: str) -> st.SearchStrategy:
    leaves = [st.just({"type": "string"}), st.just({"type": ["string", "null"]})]
    if not later:
        return st.one_of(*leaves)
    d = st.sampled_from(later).map(lambda n: f"#/$defs/{n}")
    return st.one_of(
        *leaves,
        d.map(lambda ref: {"$ref": ref}),
        d.map(lambda ref: {"type": "array", "items": {"$ref": ref}}),
        st.tuples(d, d).map(lambda refs: {"anyOf": [{"$ref": refs[0]}, {"$ref": refs[1]}]}),
        d.map(lambda ref: {"anyOf": [{"$ref": ref}, {"type": "object", "additionalProperties": False,
                                                      "properties": {"p": {"type": "string"}}}]}),
    )


@st.composite
def _ref_object(draw, later: str) -> dict:
    props = draw(st.dictionaries(st.sampled_from(["p", "q"]), _member(later), min_size=1, max_size=2))
    return {"type": "object", "properties": props, "required": draw(st.lists(st.sampled_from(sorted(props)), unique=True)),
            "additionalProperties": False}


# What blocks strict mode besides null paths: a refusal (`not`), or a lossy change (a oneOf whose
# branches overlap becomes an anyOf), which blocks it unless the policy allows lossy changes.
BLOCKERS = {"refused": {"not": {"type": "string"}},
            "lossy": {"oneOf": [{"type": "string"}, {"type": "string", "enum": ["a"]}]}}


@given(root=_ref_object("ABC"), defs=st.fixed_dictionaries({"A": _ref_object("BC"), "B": _ref_object("C"), "C": _ref_object("")}),
       blocker=st.sampled_from([None, *BLOCKERS]), policy=st.sampled_from(POLICIES), rules=st.sampled_from(RULES))
@examples(300)
def test_null_paths_behind_refs_are_judged_the_same_either_way(root: dict, defs: dict, blocker: str | None, policy: dict,
                                                               rules: str) -> None:
    """A blocked schema's null paths are not listed; an ambiguous or unbounded one is still
    reported exactly as the full listing reports it, and a lossy schema sent strict under
    allow_lossy keeps every path."""
    schema = {**root, "$defs": defs}
    if blocker:
        schema["properties"] = {**schema["properties"], "zz": BLOCKERS[blocker]}
        schema["required"] = [*schema["required"], "zz"]
    fast, slow = both({"name": "t", "description": "d", "parameters": schema}, rules=rules, **policy)
    assert fast == slow


def test_a_lossy_schema_keeps_its_null_paths_where_lossy_changes_are_allowed() -> None:
    """The lossy shortcut follows the policy: allow_lossy sends the schema strict, paths and all."""
    schema = {"type": "object", "additionalProperties": False, "required": ["a", "zz"], "properties": {
        "a": {"$ref": "#/$defs/A"}, "zz": BLOCKERS["lossy"]},
        "$defs": {"A": {"type": "object", "additionalProperties": False, "properties": {"n": {"type": "string"}}}}}
    tool = {"name": "t", "description": "d", "parameters": schema}
    allowed = toolcast.compile_tool(tool, strict=True, allow_lossy=True)
    assert allowed.status == "strict" and allowed.null_paths == (("a", "n"),)
    blocked = toolcast.compile_tool(tool)
    assert blocked.status == "non-strict" and blocked.null_paths == ()
    assert [d.code for d in blocked.diagnostics if "null" in d.code] == ["openai/nullable-instead-of-omitted"]


def test_an_ambiguous_null_path_of_a_refused_schema_is_still_reported() -> None:
    """Not vacuous: the shortcut is taken (the schema is refused elsewhere) and still finds the
    path that is null in one definition and a value in another, three references deep."""
    leaf = {"Cat": {"type": "object", "properties": {"name": {"type": "string"}}, "additionalProperties": False},
            "Dog": {"type": "object", "properties": {"name": {"type": ["string", "null"]}}, "required": ["name"],
                    "additionalProperties": False}}
    schema = {"type": "object", "additionalProperties": False, "required": ["home", "bad"], "properties": {
        "home": {"type": "array", "items": {"$ref": "#/$defs/Home"}}, "bad": {"not": {"type": "string"}}},
        "$defs": {**leaf, "Home": {"type": "object", "additionalProperties": False, "required": ["pet"],
                                   "properties": {"pet": {"anyOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}]}}}}}
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema})
    found = [d for d in res.diagnostics if d.code == "openai/ambiguous-null-path"]
    assert res.status == "non-strict" and len(found) == 1 and "home/*/pet/name" in found[0].message
    assert any(d.code == "openai/unsupported-keyword" or "not" in d.path for d in res.diagnostics)
    fast, slow = both({"name": "t", "description": "d", "parameters": schema})
    assert fast == slow


def _leafy(prop: object) -> dict:
    return {"name": "t", "description": "d",
            "parameters": {"type": "object", "properties": {"a": prop, "b": prop}, "required": ["a"]}}


# Values a planned shape must hand back to node() (it reports them), and shapes it takes itself.
EDGE_PROPS = [
    {"type": "string", "description": "plain"},
    {"type": "dict", "description": "a type name that is not one"},
    {"type": "string", "description": 5},
    {"type": "string", "enum": []},
    {"type": "string", "enum": ["a", {"b": 1}]},
    {"type": "number", "enum": [1.5, float("nan")]},
    {"type": "string", "const": "x"},
    {"type": "number", "const": 2.5},
    {"type": "string", "const": {"a": 1}},
    {"type": "string", "const": ["x"]},
    {"type": "string", "enum": "not a list"},
    {"type": "string", "format": 5},
    {"type": "string", "const": "x", "enum": ["x", "y"]},
    {"type": "string", "format": "uuid"},
    {"type": "string", "format": "not-a-format"},
    {"type": "string", "pattern": "^[a-z]+$"},
    {"type": "string", "pattern": "(?<=a)b"},
    {"type": "string", "pattern": "(unclosed"},
    {"type": "string", "default": "x", "x-extra": 1, "title": "T"},
    {"type": "integer", "minimum": 0, "maximum": "ten"},
    {"type": "null"},
    {"type": ["string", "null"]},
    {"type": "string", "nullable": True},
    {"type": "string", 5: "int key"},
    {"type": "string", "k" * 600: "long key"},
    {"type": "object", "properties": {"x": {"type": "string"}}, "$schema": "x", "description": "d"},
    {"type": "object", "properties": "not a map"},
    {"type": "object", "properties": {}, "required": [1, "x"]},
    {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": {"type": "string"}},
    {"type": "object", "items": {"type": "string"}},
    {"type": "array", "items": {"type": "integer", "enum": [1, 2]}, "minItems": 1},
    {"type": "array", "items": [{"type": "string"}]},
    {"type": "array", "properties": {}},
    {"type": "array", "required": ["a"], "items": {"type": "string"}},
    {"type": "array", "additionalProperties": False, "items": {"type": "string"}},
    {"type": "array", "items": 5},
    {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": "no"},
    {"type": "object", "properties": {"x": {"type": "string"}}, "items": 5},
    {"type": "array"},
    {"$ref": "#/$defs/D"},
    {"$ref": "#/definitions/L"},
    {"$ref": 5},
    {"$ref": "#/$defs/missing"},
    {"anyOf": [{"type": "string"}, {"type": "null"}, {"type": "integer", "enum": [1]}]},
]


@pytest.mark.parametrize("rules", VERSIONS)
@pytest.mark.parametrize("prop", EDGE_PROPS, ids=lambda p: json.dumps(p, default=str)[:60])
def test_edge_values_are_the_same_either_way(prop: dict, rules: str) -> None:
    tool = _leafy(prop)
    tool["parameters"]["$defs"] = {"D": {"type": "object", "properties": {"x": {"type": "string"}}}}
    tool["parameters"]["definitions"] = {"L": {"type": "string"}}
    for policy in POLICIES:
        fast, slow = both(tool, rules=rules, **policy)
        assert fast == slow


@pytest.mark.parametrize("levels", [NEST_GUARD - 2, NEST_GUARD - 1, NEST_GUARD, NEST_GUARD + 1])
def test_leaves_at_the_nesting_guard_are_the_same_either_way(levels: int) -> None:
    schema: dict = {"type": "string", "description": "leaf"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"p": schema, "q": {"type": "integer"}}, "required": ["p"]}
    fast, slow = both({"name": "t", "description": "d", "parameters": schema})
    assert fast == slow
    if levels > NEST_GUARD:
        assert "openai/schema-too-deep" in fast


def test_the_planned_paths_are_taken() -> None:
    """Not vacuous: compiling fills the plan caches, and the general path leaves them alone."""
    r = get_rules("openai@2026-10-17")
    walk_class = Walk(r)  # its plan caches are the rule version's
    tool = {"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"zz_leaf": {"type": "string", "description": "x", "x-zz": 1},
                                         "zz_list": {"type": "array", "items": {"type": "integer"}, "x-zy": 2}}}}
    leaf_keys, list_keys = ("type", "description", "x-zz"), ("type", "items", "x-zy")
    walk_class.leaf_plans.pop(leaf_keys, None)
    walk_class.container_plans.pop(list_keys, None)
    Walk.fast = False
    try:
        toolcast.compile_tool(tool, rules=r)
    finally:
        Walk.fast = True
    assert leaf_keys not in walk_class.leaf_plans and list_keys not in walk_class.container_plans
    toolcast.compile_tool(tool, rules=r)
    assert walk_class.leaf_plans[leaf_keys] and walk_class.container_plans[list_keys]


def test_large_key_shapes_are_not_cached() -> None:
    """A plan cache never keeps a huge key alive after the compile that saw it."""
    r = get_rules("openai@2026-10-17")
    keys = ("type", "k" * 600)
    toolcast.compile_tool(_leafy({"type": "string", "k" * 600: 1}), rules=r)
    assert keys not in Walk(r).leaf_plans


def _doubling_chain(n: int, optional: bool) -> dict:
    """Definitions D0..Dn where each refers to the next twice: 2**(k+1) places at level k."""
    defs = {f"D{i}": {"type": "object", "additionalProperties": False, "required": [] if optional else ["a", "b"],
                      "properties": {"a": {"$ref": f"#/$defs/D{i + 1}"}, "b": {"$ref": f"#/$defs/D{i + 1}"}}}
            for i in range(n)}
    defs[f"D{n}"] = {"type": "object", "properties": {"x": {"type": ["string", "null"]}}, "required": ["x"],
                     "additionalProperties": False}
    return {"type": "object", "properties": {"tree": {"$ref": "#/$defs/D0"}}, "required": ["tree"],
            "additionalProperties": False, "$defs": defs}


@pytest.mark.parametrize("refused", [False, True])
def test_null_paths_multiplied_by_refs_are_counted_not_listed(refused: bool) -> None:
    """A 3 KB schema whose $refs double at each of 40 levels has 2**41 - 2 null paths: it is
    refused with their count at once (it used to list them, which never ended)."""
    schema = _doubling_chain(40, optional=True)
    if refused:
        schema["properties"]["zz"] = {"not": {"type": "string"}}
        schema["required"].append("zz")
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema})
    found = [d for d in res.diagnostics if d.code == "openai/too-many-null-paths"]
    assert res.status == "non-strict" and res.null_paths == () and len(found) == 1
    assert f"{2 ** 41 - 2} places" in found[0].message


def test_the_null_path_guard_counts_exactly(monkeypatch) -> None:
    """The count is the listing's length: at the guard the paths are listed, one above it refused."""
    from toolcast.walk import nullpaths

    schema = _doubling_chain(6, optional=True)
    count = 2 ** 7 - 2
    monkeypatch.setattr(nullpaths, "NULL_PATHS_GUARD", count)
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema})
    assert res.status == "strict" and len(res.null_paths) == count
    monkeypatch.setattr(nullpaths, "NULL_PATHS_GUARD", count - 1)
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema})
    assert res.status == "non-strict" and not res.null_paths
    assert any(d.code == "openai/too-many-null-paths" and f"{count} places" in d.message for d in res.diagnostics)


def test_too_many_legit_paths_are_searched_not_listed() -> None:
    """2**41 places where null is a real value, next to one null path: still strict at once, and
    a null path that is also one of them is still found ambiguous."""
    schema = _doubling_chain(40, optional=False)
    schema["properties"]["opt"] = {"type": "string"}
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema})
    assert res.status == "strict" and res.null_paths == (("opt",),)
    schema = _doubling_chain(40, optional=False)
    schema["properties"]["tree"] = {"anyOf": [{"$ref": "#/$defs/D0"}, {
        "type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False}]}
    schema["$defs"]["D0"]["properties"]["a"] = {"type": ["string", "null"]}
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": schema})
    assert [d.message for d in res.diagnostics if d.code == "openai/ambiguous-null-path"] == [
        "At tree/a a null can mean either 'omitted' or a real null, depending on the `anyOf` branch; it cannot be stripped safely."]


@given(root=_ref_object("ABC"), defs=st.fixed_dictionaries({"A": _ref_object("BC"), "B": _ref_object("C"), "C": _ref_object("")}))
@examples(200)
def test_the_path_search_agrees_with_the_listing(root: dict, defs: dict) -> None:
    """What Walk._has_path answers for legit paths (used when they are too many to list) is what
    the listing holds, on definition graphs without cycles."""
    from toolcast.walk.nullpaths import _PathSearch

    walk = Walk(get_rules(None))
    walk.compile({**root, "$defs": defs})
    walk.fast = False  # the full listing, whatever the walk refused
    nulls, legit = walk._expand_null_paths()
    if not nulls or not isinstance(legit, set):
        return
    search = _PathSearch(walk, "legit", set(walk.buckets))
    for p in [*nulls, *legit, ("p",), ("q", "p", "q")]:
        assert (p in search) == (p in legit), p


def _doubling_all_of(n: int, key: str = "$defs") -> dict:
    """Definitions D0..Dn where each is the allOf of the next, twice: merged naively, 2**n merges."""
    defs = {f"D{i}": {"allOf": [{"$ref": f"#/{key}/D{i + 1}"}, {"$ref": f"#/{key}/D{i + 1}", "description": "again"}
                                if i % 2 else {"$ref": f"#/{key}/D{i + 1}"}]} for i in range(n)}
    defs[f"D{n}"] = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"],
                     "additionalProperties": False}
    return {"type": "object", "properties": {"a": {"$ref": f"#/{key}/D0"}}, "required": ["a"],
            "additionalProperties": False, key: defs}


@pytest.mark.parametrize("key", ["$defs", "definitions"])
def test_merges_grow_with_the_definitions(key: str, monkeypatch) -> None:
    """The memo of merged $refs keys a place by identity, and a merge passes one place on as one
    tuple: each level of the doubling chain costs the same number of merges, however deep (merged
    afresh, 2**n; a place rebuilt at each level would miss the memo and double them again)."""
    merge = Walk._merge
    calls = [0]

    def counted(self, *args, **kwargs):
        calls[0] += 1
        return merge(self, *args, **kwargs)

    monkeypatch.setattr(Walk, "_merge", counted)
    counts = []
    for n in (12, 24, 48):
        calls[0] = 0
        res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": _doubling_all_of(n, key)})
        assert res.status == "strict"
        assert calls[0] < 6 * n, (n, calls[0])  # checked at once: a missed memo grows as 2**n
        counts.append(calls[0])
    assert (counts[2] - counts[1]) / 24 == (counts[1] - counts[0]) / 12, counts


@pytest.mark.parametrize("key", ["$defs", "definitions"])
def test_a_definition_merged_twice_at_one_place_is_merged_once(key: str) -> None:
    """An allOf naming the same definition twice, 60 definitions deep, compiles at once (it took
    2**60 merges), with what merging each afresh gives on a smaller one (legacy
    `definitions` included, whose per-reference notes repeat)."""
    res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": _doubling_all_of(60, key)})
    assert res.status == "strict"
    assert res.tool["parameters"]["$defs"]["D0"]["properties"] == {"x": {"type": "string"}}
    fast, slow = both({"name": "t", "description": "d", "parameters": _doubling_all_of(8, key)})
    assert fast == slow


_JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, 1.0, 2.5, -1.0, float("nan")]),
              st.sampled_from(["", "a", "1", "true"])),
    lambda kids: st.one_of(st.lists(kids, max_size=2), st.dictionaries(st.sampled_from("ab"), kids, max_size=2)),
    max_leaves=4,
)


@given(a=st.lists(_JSONISH, max_size=8), b=st.lists(_JSONISH, max_size=8))
@example(a=[True, 1, 1.0, False, 0, None, "1", [1], {"a": 1.0}], b=[1, False, [1.0], {"a": 1}])
@example(a=[1, True, 0.0, "", None], b=[True, 0, None])
@examples(300)
def test_json_intersection_is_the_pairwise_one(a: list, b: list) -> None:
    """The enum merge's set-based intersection keeps what comparing every pair keeps, in order
    (1 and 1.0 are one value, true and 1 are not, NaN equals nothing)."""
    from toolcast.walk.semantics import json_equal, json_intersection

    assert json_intersection(a, b) == [x for x in a if any(json_equal(x, y) for y in b)]


@given(sets=st.lists(st.frozensets(st.integers(0, 6), max_size=3), max_size=6))
@examples(200)
def test_disjointness_by_sizes_is_the_pairwise_one(sets: list) -> None:
    from toolcast.walk.semantics import _disjoint

    n = len(sets)
    assert _disjoint(sets) == all(not (sets[i] & sets[j]) for i in range(n) for j in range(i + 1, n))


def _allows_null_plainly(s, walk, seen=frozenset()) -> bool:
    """allows_null as its docstring defines it, one rule after another (the oracle for its fast
    version): null is a value of the original schema, typeless nodes excepted."""
    if s is True:
        return True
    if not isinstance(s, dict):
        return False
    t = s.get("type")
    if t is not None and not (t == "null" or (isinstance(t, list) and "null" in t) or s.get("nullable") is True):
        return False
    if isinstance(s.get("enum"), list) and None not in s["enum"]:
        return False
    if "const" in s and s["const"] is not None:
        return False
    for kw in ("anyOf", "oneOf"):
        if isinstance(s.get(kw), list) and not any(_allows_null_plainly(b, walk, seen) for b in s[kw]):
            return False
    if isinstance(s.get("allOf"), list):
        decided = [b for b in s["allOf"] if not _says_nothing_of_null(b, walk, seen)]
        if not all(_allows_null_plainly(b, walk, seen) for b in decided):
            return False
        if not decided and t is None and not any(k in s for k in ("enum", "const", "anyOf", "oneOf", "$ref")):
            return False
    ref = s.get("$ref")
    if isinstance(ref, str):
        if ref in seen:
            return False
        if not _allows_null_plainly(_target_plainly(ref, walk), walk, seen | {ref}):
            return False
    if t is None and "$ref" not in s and not any(k in s for k in ("enum", "const", "anyOf", "oneOf", "allOf")):
        return False
    return True


def _target_plainly(ref, walk):
    """The raw schema a local $ref names, False when it names none."""
    name = next((ref[len(p):].replace("~1", "/").replace("~0", "~") for p in ("#/$defs/", "#/definitions/")
                 if ref.startswith(p)), None)
    return walk.root_raw if ref == "#" else walk.defs_raw.get(name, False) if name is not None else False


def _says_nothing_of_null(s, walk, seen) -> bool:
    """An allOf part with no type and none of the keywords allows_null reads (its allOf parts
    and its $ref's target alike): merged, it takes the other parts' type."""
    if not isinstance(s, dict) or s.get("type") is not None or any(k in s for k in ("enum", "const", "anyOf", "oneOf")):
        return False
    if "allOf" in s and not (isinstance(s["allOf"], list) and all(_says_nothing_of_null(p, walk, seen) for p in s["allOf"])):
        return False
    if "$ref" in s:
        ref = s["$ref"]
        if not isinstance(ref, str) or ref in seen:
            return False
        return _says_nothing_of_null(_target_plainly(ref, walk), walk, seen | {ref})
    return True


def _subschemas_of(x):
    if isinstance(x, dict):
        yield x
        for v in x.values():
            yield from _subschemas_of(v)
    elif isinstance(x, list):
        for v in x:
            yield from _subschemas_of(v)


NULL_EDGES = [{"type": "null"}, {"type": ["string", "null"], "enum": ["a"]}, {"type": ["string", "null"], "enum": ["a", None]},
              {"nullable": True, "type": "string"}, {"anyOf": "x"}, {"enum": 3}, {"const": None}, {"description": "d"},
              {"$ref": 3}, {"allOf": []}, {"anyOf": []}, {"oneOf": [{"type": "null"}], "type": "string"},
              {"$ref": "#/$defs/N"}, {"$ref": "#/$defs/S"}, {"$ref": "#/$defs/Loop"}, {"$ref": "#"}, {"$ref": "#/x/y"}]


@given(schema=schemas(), rules=st.sampled_from(RULES))
@examples(150)
@example(schema={"type": "object", "properties": {f"e{i}": e for i, e in enumerate(NULL_EDGES)},
                 "$defs": {"N": {"type": ["integer", "null"]}, "S": {"type": "string"},
                           "Loop": {"anyOf": [{"$ref": "#/$defs/Loop"}, {"type": "null"}]}}}, rules=RULES[-1])
def test_allows_null_agrees_with_its_plain_definition(schema: dict, rules: str) -> None:
    from toolcast.walk.semantics import allows_null

    walk = Walk(get_rules(rules))
    walk.compile(schema)  # the definitions and the raw root, as the walk reads them
    for sub in [True, False, None, *_subschemas_of(schema)]:
        assert allows_null(sub, walk) == _allows_null_plainly(sub, walk), sub


def test_a_one_of_met_again_is_judged_once_and_reported_at_each_place(monkeypatch) -> None:
    """A definition's oneOf merged in at many places (allOf of a $ref, as in schemastore's
    github-workflow) is judged exclusive once per walk; every place still has its own finding,
    with the reason, and the result equals the general path's (which judges each place)."""
    from toolcast.walk import combinators

    calls = 0
    judge = combinators.exclusive

    def counting(branches, walk):
        nonlocal calls
        calls += 1
        return judge(branches, walk)

    monkeypatch.setattr(combinators, "exclusive", counting)
    n = 40
    event = {"oneOf": [{"type": "object", "properties": {"on": {"type": "boolean"}}, "required": ["on"],
                        "additionalProperties": False}, {"type": "null"}]}
    props = {f"e{i}": {"allOf": [{"$ref": "#/definitions/event"}], "description": f"event {i}"} for i in range(n)}
    tool = {"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": props, "required": list(props), "additionalProperties": False,
        "definitions": {"event": event}}}
    fast, slow = both(tool)
    assert fast == slow
    calls = 0
    res = toolcast.compile_tool(tool)
    assert calls == 1
    found = [d for d in res.diagnostics if d.code == "openai/one-of-exclusive-converted"]
    assert [d.path for d in found] == [f"#/properties/e{i}/oneOf" for i in range(n)]
    assert {dict(d.params)["value"] for d in found} == {"their types differ"}
    assert res.status == "strict"
    # The general path judges every place afresh: the memo is what the count above measures.
    Walk.fast = False
    try:
        calls = 0
        toolcast.compile_tool(tool)
    finally:
        Walk.fast = True
    assert calls == n


# Values of the wrong kind for a keyword, to send the copiers down their hand-back branches.
_ODD_VALUES = (None, 0, 1.5, float("nan"), True, "x", "", [], ["a", 1], [{}], {}, {"a": 1}, "date-time", "^a+$", "(?=a)")


def _dict_nodes(value, out: list) -> None:
    stack = [value]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            out.append(x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)


# -- a refused schema's strict form is not kept (Walk.builds_refused) -------------------------
def _walked(schema, rules: str, builds_refused: bool) -> tuple[dict, tuple]:
    """The walk's output and everything else it records, with or without keeping a refused
    schema's strict form."""
    walk = Walk(get_rules(rules))
    walk.builds_refused = builds_refused
    try:
        out = walk.compile(schema)
    except RecursionError:  # as compile_tool reports it: what was found up to there must agree too
        out = None
    return out, (walk.diags, walk.trans, walk.null_paths, walk.refusals, walk.n_props, walk.n_chars, walk.n_enum,
                 walk.deepest)


@pytest.mark.skipif(not (CORPUS / "mcp.jsonl").is_file(), reason="shared corpus not found")
@pytest.mark.parametrize("rules", VERSIONS)
def test_a_refused_schema_is_walked_for_the_same_findings_without_its_strict_form(rules: str) -> None:
    pruned = 0
    for tool in _corpus_tools():
        schema = toolcast.compile.read_tool(tool)[2]
        full, records = _walked(schema, rules, True)
        lean, lean_records = _walked(schema, rules, False)
        assert lean_records == records, tool.get("name")
        if records[3] == 0:
            assert lean == full, tool.get("name")  # nothing refused: the strict form is built as before
        elif lean != full:
            pruned += 1
            assert len(json.dumps(lean)) < len(json.dumps(full))
    # Not vacuous: the corpus has refused schemas whose properties come after the refusal.
    assert pruned > 20


@given(schema=schemas(), rules=st.sampled_from(RULES))
@examples(200)
def test_generated_schemas_are_walked_for_the_same_findings_without_a_refused_strict_form(schema: dict, rules: str) -> None:
    assert _walked(schema, rules, False)[1] == _walked(schema, rules, True)[1]


def test_properties_after_a_refusal_are_still_checked_and_counted() -> None:
    """Everything after the refusal is still found and counted: optional properties, a false one,
    a bare $ref, dropped keywords, and more properties than the limit allows."""
    rules = "openai@2026-10-17"
    limit = get_rules(rules).limit("max_properties")
    props = {"first": {"type": "array", "items": [{"type": "string"}]}}  # tuple items: refused
    props |= {"gone": False, "ref": {"$ref": "#/$defs/D"}, "kept": {"type": "string", "default": "x"}}
    props |= {f"p{i}": {"type": "integer", "format": "int32"} for i in range(limit)}
    schema = {"type": "object", "properties": props, "required": ["first", "kept"],
              "$defs": {"D": {"type": "object", "properties": {"q": {"type": "string"}}}}}
    full, records = _walked(schema, rules, True)
    lean, lean_records = _walked(schema, rules, False)
    assert lean_records == records
    codes = [d[0] for d in lean_records[0]]
    assert "openai/tuple-items" in codes and "openai/boolean-subschema" in codes
    assert codes.count(OPTIONAL_PAIR) == limit + 2  # the p's, ref, and D's q: each optional, made nullable
    assert ("openai/default-keyword-dropped", "#", ("properties", "kept", "default"), (("keyword", "default"),)) in lean_records[0]
    assert lean_records[4] == limit + 4 and "openai/too-many-properties" in codes  # 3 + `limit` p's + D's q; `gone` is not counted
    assert len(lean_records[2]) == 0 and len(full["properties"]) == limit + 3  # refused: no null paths either way
    assert "properties" not in lean  # and the strict form was not kept
    # The counts are taken as before, from the names of the properties kept: a false property
    # named by a non-string (from Python) is left out of them either way.
    odd = {"type": "object", "properties": {"first": props["first"], 1: False, "a": {"type": "string"}}}
    assert _walked(odd, rules, False)[1] == _walked(odd, rules, True)[1]
