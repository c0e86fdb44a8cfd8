"""The walk's plans, memos and guards: plans are taken and bounded, memos keep exponential cases
linear, the null-path guards count instead of listing, and the fast helpers equal their plain
definitions."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from strategies import RULES, examples, schemas

import toolcast
from toolcast.model import OPTIONAL_PAIR
from toolcast.rules import get_rules
from toolcast.walk import Walk, walk_schema


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


def _leafy(prop: object) -> dict:
    return {"name": "t", "description": "d",
            "parameters": {"type": "object", "properties": {"a": prop, "b": prop}, "required": ["a"]}}


def test_the_planned_paths_are_taken() -> None:
    """Not vacuous: compiling fills the rule version's plan cache with each new key shape, a scalar
    leaf's plan holding its copy and an array's its container copies."""
    r = get_rules("openai@2026-10-17")
    plans = Walk(r).node_plans  # the rule version's cache
    tool = {"name": "t", "description": "d", "parameters": {
        "type": "object", "properties": {"zz_leaf": {"type": "string", "description": "x", "x-zz": 1},
                                         "zz_list": {"type": "array", "items": {"type": "integer"}, "x-zy": 2}}}}
    leaf_keys, list_keys = ("type", "description", "x-zz"), ("type", "items", "x-zy")
    plans.pop(leaf_keys, None)
    plans.pop(list_keys, None)
    toolcast.compile_tool(tool, rules=r)
    assert plans[leaf_keys].leaf is not None and plans[list_keys].array is not None
    assert plans[list_keys].leaf is None  # `items` is no scalar leaf's keyword


def test_large_key_shapes_are_not_cached() -> None:
    """A plan cache never keeps a huge key alive after the compile that saw it."""
    r = get_rules("openai@2026-10-17")
    keys = ("type", "k" * 600)
    toolcast.compile_tool(_leafy({"type": "string", "k" * 600: 1}), rules=r)
    assert keys not in Walk(r).node_plans


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
    """What nullpaths._has_path answers for legit paths (used when they are too many to list) is what
    the listing holds, on definition graphs without cycles."""
    from toolcast.walk.nullpaths import _expand_null_paths, _PathSearch

    walk = Walk(get_rules(None))
    walk_schema(walk, {**root, "$defs": defs})
    walk.refusals = 0  # the full listing, whatever the walk refused
    nulls, legit = _expand_null_paths(walk)
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
    from toolcast.walk import combinators

    calls = [0]
    plain = combinators.no_dependents

    def counted(part):  # read once per part merged (a Python function: patched in both builds)
        calls[0] += 1
        return plain(part)

    monkeypatch.setattr(combinators, "no_dependents", counted)
    counts = []
    for n in (12, 24, 48):
        calls[0] = 0
        res = toolcast.compile_tool({"name": "t", "description": "d", "parameters": _doubling_all_of(n, key)})
        assert res.status == "strict"
        assert calls[0] < 12 * n, (n, calls[0])  # parts merged, checked at once: a missed memo grows as 2**n
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
    walk_schema(walk, schema)  # the definitions and the raw root, as the walk reads them
    for sub in [True, False, None, *_subschemas_of(schema)]:
        assert allows_null(sub, walk) == _allows_null_plainly(sub, walk), sub


def test_a_one_of_met_again_is_judged_once_per_place_and_reported_at_each(monkeypatch) -> None:
    """A definition's oneOf merged in at many places (allOf of a $ref, as in schemastore's
    github-workflow) is judged exclusive once at each place it is walked (no memo keyed by the
    list's identity: a judgement reads the branches' top level only); every place has its own
    finding, with the reason."""
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
    res = toolcast.compile_tool(tool)
    assert calls == n
    found = [d for d in res.diagnostics if d.code == "openai/one-of-exclusive-converted"]
    assert [d.path for d in found] == [f"#/properties/e{i}/oneOf" for i in range(n)]
    assert {dict(d.params)["value"] for d in found} == {"their types differ"}
    assert res.status == "strict"


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
    walk = Walk(get_rules(rules))
    out = walk_schema(walk, schema)
    codes = [d[0] for d in walk.diags]
    assert "openai/tuple-items" in codes and "openai/boolean-subschema" in codes
    assert codes.count(OPTIONAL_PAIR) == limit + 2  # the p's, ref, and D's q: each optional, made nullable
    assert ("openai/default-keyword-dropped", "#", ("properties", "kept", "default"), (("keyword", "default"),)) in walk.diags
    assert walk.n_props == limit + 4 and "openai/too-many-properties" in codes  # 3 + `limit` p's + D's q; `gone` is not counted
    assert walk.null_paths == () and len(out["properties"]) == limit + 3  # refused: no null paths
