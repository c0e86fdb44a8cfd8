"""Compile tools: a tool's name, description and schema walked under the rules, then its status, emitted form and findings."""

from __future__ import annotations

from collections.abc import Iterable
from gc import disable as gc_disable
from gc import enable as gc_enable
from gc import isenabled as gc_isenabled
from operator import itemgetter
from typing import Any

from toolcast.budgets import Budget, Request, alone, refused, strict_budgets
from toolcast.model import (
    CompileResult,
    Deferred,
    Diagnostic,
    Status,
    expanded,
    pointer,
)
from toolcast.rules import Rules
from toolcast.sendable import numeric_bounds, object_root, property_names, sendable
from toolcast.sent_copy import looked_copy
from toolcast.sent_formats import regex_places
from toolcast.sent_valid import invalid_places
from toolcast.tool_input import (
    _TARGETS,
    MAX_COPY_DEPTH,
    OptionalNull,
    StrictMode,
    _Report,
    _TooDeep,
    check_name,
    clean_description,
    copy_json,
    optional_null_mode,
    read_tool,
    resolve_target,
    strict_mode,
)
from toolcast.walk import Walk, budget, walk_schema, without_cycle_gc
from toolcast.walk.dialect import dialect_of
from toolcast.walk.values import NEST_GUARD, depth_limit, describe, non_json
from toolcast.walk.walker import root_not_object

_first = itemgetter(0)


# Root properties beyond which compile_tool pauses the cycle collector (see
# walk.without_cycle_gc); a schema with definitions is compiled with it paused at any size.
PAUSE_GC_PROPERTIES = 32


def chosen_walk(r: Rules, optional_null: OptionalNull) -> Walk:
    """A Walk for `r` with the caller's optional_null choice. "omit" strips an optional property's
    null where null was already a real value: lossy (reported so), but a loss the caller chose, so it
    does not keep the tool from going strict."""
    walk = Walk(r)
    if optional_null == "omit":
        walk.optional_null = "omit"
        walk.lossy_codes = walk.lossy_codes - {r.changes["stripped-explicit-null"]}
    return walk


def _reason(diags: list, trans: list, first_diag: int, first_trans: int, refusing: frozenset,
            lossy_codes: frozenset, pair_codes: tuple[str, str]) -> tuple:
    """The parameters of the `sent-non-strict` diagnostic: why the tool cannot go strict, its schema's first
    refusal, else its first lossy change (the schema's findings start at `first_diag` and
    `first_trans` in the result's records). Formatted when the finding is first read (Deferred)."""
    diags = expanded(diags[first_diag:], pair_codes)
    trans = trans[first_trans:]
    n_refusing = sum(map(refusing.__contains__, map(_first, diags)))
    if n_refusing:
        code, base, tokens, _ = next(d for d in diags if d[0] in refusing)
        more = f" and {n_refusing - 1} more" if n_refusing > 1 else ""
        return (("value", f"refuse it ({code} at {pointer(base, tokens)}{more})"),)
    lossy = [t for t in trans if t[0] in lossy_codes]
    code, base, tokens, _ = lossy[0]
    more = f" and {len(lossy) - 1} more" if len(lossy) > 1 else ""
    return (("value", f"accept values the original rejects ({code} at {pointer(base, tokens)}{more})"),)


def compile_tool(
    tool: Any,
    *,
    target: str = "openai",
    api: str | None = None,
    rules: str | Rules | None = None,
    strict: StrictMode | str = "auto",
    allow_lossy: bool = False,
    optional_null: OptionalNull = "value",
    enforce: bool = False, describe: bool = True,
) -> CompileResult:
    """Compile one tool (MCP `inputSchema`, OpenAI `parameters` or Anthropic `input_schema`) for
    `target` (openai, anthropic, gemini, vertex) and its `api` (None: the target's default:
    OpenAI `responses` or `chat`; Anthropic `messages`; Gemini and Vertex `parameters`, the
    OpenAPI Schema subset, or `json-schema`, i.e. parametersJsonSchema), under `rules` of the
    target's provider (None: its default).

    `optional_null` decides an optional property that already accepts null, where the rules make
    every property required: "value" (default) sends it required, so the handler receives the
    model's null where it would have been left out (reported on each such property); "omit" gives
    it a null path too, so strip_nulls removes that null and an explicit null can no longer reach
    the handler (reported as a lossy change, which this choice accepts). `enforce`, `describe`: see
    _walk_enforcing (a loss the run time checks on the arguments does not keep the tool from strict).

    Never mutates its input. Raises InvalidToolError only when the value is not a tool at
    all; everything about the tool itself is reported in the result. A large schema (with
    definitions, or more than PAUSE_GC_PROPERTIES root properties) is compiled with Python's
    cycle collector paused; it is on again when this returns or raises.
    """
    resolved = _TARGETS.get((target, api, rules)) if type(rules) is not Rules else None
    emitter, api, r = resolved if resolved is not None else resolve_target(target, api, rules)
    mode = "auto" if strict == "auto" else strict_mode(strict)
    if optional_null != "value":
        optional_null = optional_null_mode(optional_null)
    if (type(tool) is dict and "inputSchema" in tool and "function" not in tool and "parameters" not in tool
            and "input_schema" not in tool):  # read_tool's common case
        name, description, schema, shape = tool.get("name"), tool.get("description"), tool["inputSchema"], "mcp"
    else:
        name, description, schema, shape = read_tool(tool)
    # A large compile allocates enough for the cycle collector to run, and re-scan the caller's
    # heap, several times: it runs with the collector paused (as in walk.without_cycle_gc;
    # inline here, where a call would cost a small tool more than the pause saves it).
    paused = type(schema) is dict and ("$defs" in schema or "definitions" in schema or (
        type(props := schema.get("properties")) is dict and len(props) > PAUSE_GC_PROPERTIES)) and gc_isenabled()
    if paused:
        gc_disable()
    walk = enforcement = None
    held_gc = False  # (a first walk's pause, where the schema was walked twice)
    try:
        diags: list[tuple] = []  # the tool's own findings, then the schema's (records, see _Report)
        trans: list[tuple] = []
        if type(name) is str and 0 < len(name) <= r.name_max_length and r.name_re.fullmatch(name) is not None:
            name_ok = True  # check_name's common case, inline
        else:
            name_ok = check_name(name, r, diags)
        if not (type(description) is str and description.isascii() and 0 < len(description) <= r.description_ascii_max
                and not description.isspace()):
            # Else: plain text within every cap, kept as it is.
            description = clean_description(description, _Report(r, diags, trans))
        if shape not in emitter.NATIVE_SHAPES:
            trans.append(r.tool_records[0])
        if type(schema) is dict and ("nullable" in schema or "anyOf" in schema or "oneOf" in schema
                                     or type(schema.get("type")) is list or "$ref" in schema):
            schema = object_root(schema, r, trans)  # (in every form: a tool's arguments are an object)
        if mode is False and r.sends_original:
            status = _unwalked(schema, r, diags)
            compiled = None
        elif enforce:
            walk, compiled, status, schema, held_gc, enforcement = _walk_enforcing(
                schema, r, mode, allow_lossy, optional_null, diags, trans, enforce, describe)
        else:  # (_walk_enforcing's answer without enforce, without its call)
            walk, compiled, status, schema, held_gc = _walk_tool(schema, r, mode, allow_lossy, optional_null, diags, trans,
                                                                 name_ok and mode == "auto")
        if not name_ok:
            status = "refused"
        res = _result(name, description, schema, status, compiled, walk, diags, trans, r, emitter, api, enforcement)
        return res if res._status != "strict" or not strict_budgets(r) else _alone(tool, res, r, emitter, mode, target, api)
    finally:
        if paused or held_gc or (walk is not None and walk.gc_paused):
            gc_enable()


def _alone(tool: Any, res: CompileResult, r: Rules, emitter: Any, mode: Any, target: str, api: str) -> CompileResult:
    """`res` (strict, under rules with a budget of strict tools: compile_tool asks that first), but
    that a tool past a budget of strict tools on its own is never sent strict, in any request
    (budgets.alone)."""
    return alone(tool, res, r, emitter, mode, _non_strict_compiler(target, api, r))


def _walk_enforcing(schema: Any, r: Rules, mode: Any, allow_lossy: bool, optional_null: OptionalNull, diags: list,
                    trans: list, enforce: bool, describe: bool) -> tuple:
    """_walk_tool's findings, and the tool's enforcement (None if nothing is enforced). With `enforce`, a
    lossy change whose loss can be checked on a call's arguments against the original schema
    (toolcast.enforce.CHECKABLE) no longer keeps the tool from going strict: its findings' outcome is
    `enforced`, `result.enforced` lists them, the loop and the proxy check every call; with `describe`
    each enforced constraint is named in the description where it applies."""
    walking = allow_lossy or (enforce and mode is not False)
    walk, compiled, status, walked, held_gc = _walk_tool(schema, r, mode, walking, optional_null, diags, trans)
    if not (enforce and not allow_lossy and status == "strict" and walk.lossy()):
        return walk, compiled, status, walked, held_gc, None
    from toolcast.enforce import apply

    enforcing = apply(walk, compiled, walked, r, describe)
    if enforcing is not None:
        return walk, enforcing[0], status, walked, held_gc, enforcing[1]
    # A loss the arguments cannot show: compiled as without enforce (the first walk's pause kept).
    held_gc = held_gc or walk.gc_paused
    walk, compiled, status, walked, again_gc = _walk_tool(schema, r, mode, False, optional_null, diags, trans)
    return walk, compiled, status, walked, held_gc or again_gc, None


def _walk_tool(schema: Any, r: Rules, mode: Any, allow_lossy: bool, optional_null: OptionalNull, diags: list,
               trans: list, copies: bool = True) -> tuple:
    """(the walk, the strict form, the status, the schema walked, whether a first walk paused the
    cycle collector) of a tool's schema; the tool's own findings so far are in `diags` and `trans`.
    `copies`: whether the tool may be sent without strict as its original (see Walk.copies)."""
    n_diags = len(diags)
    held_gc = again = False
    while True:
        walk = Walk(r) if optional_null == "value" else chosen_walk(r, optional_null)
        walk.hold_gc = True  # a walk that pauses the collector leaves it paused for the copy below
        walk.builds_refused = False  # a refused schema's strict form is never sent (see Walk.builds)
        walk.copies = copies
        if not allow_lossy:
            walk.lossy_blocks = True
        if mode is False:  # (policy non_strict `converted`: the original cannot be sent)
            diags.append((r.patterns["strict-disabled"], "#", (), ()))
        try:
            compiled = walk_schema(walk, schema)
        except RecursionError:
            # Merging recursive definitions can unfold deeper than any guard foresaw.
            compiled = {}
            walk.report("schema-too-deep", (), count="too many", limit=depth_limit(walk.r, NEST_GUARD))
        if walk.refusals == 0 and not walk.lossy():
            status = "strict" if mode is not False else "non-strict"
        elif mode is not False:
            status = _blocked_status(walk, mode, allow_lossy, len(diags), len(trans))
        else:  # (strict off: blocked as under strict true with every loss allowed)
            status = "non-strict" if _blocked_status(walk, True, True, len(diags), len(trans)) == "strict" else "refused"
        if not walk.refusals or again or (type(schema) is dict and "$schema" in schema) or not _boolean_bounds(walk.diags, r):
            return walk, compiled, status, schema, held_gc
        # Draft-04's boolean exclusive bounds in a schema that declares no draft-04: read as what
        # they mean (exact) and walked again (the first walk's findings dropped); rare, so looked
        # for only once refused.
        held_gc = walk.gc_paused
        schema = numeric_bounds(copy_json(schema), r, trans)
        del diags[n_diags:]
        again = True


def _boolean_bounds(walk_diags: list, r: Rules) -> bool:
    """Whether the walk refused a boolean `exclusiveMinimum`/`exclusiveMaximum` (draft-04's form)."""
    invalid = r.patterns["invalid-keyword-value"]
    if invalid not in map(_first, walk_diags):  # (the common case: one look at the codes, in C)
        return False
    for d in walk_diags:  # noqa: SIM110 (a loop, not any() over a generator: run on every refused tool's findings)
        if d[0] == invalid and _boolean_bound(d, invalid):
            return True
    return False


def _boolean_bound(d: tuple, invalid: str) -> bool:
    return (d[0] == invalid and bool(d[2]) and d[2][-1] in ("exclusiveMinimum", "exclusiveMaximum")
            and dict(d[3]).get("value") in ("true", "false"))


def _unwalked(schema: Any, r: Rules, diags: list) -> Status:
    """The status of a tool sent with strict mode off (not walked), its findings added to `diags`:
    what the rules refuse in every mode (always_refused) is refused here too."""
    diags.append((r.patterns["strict-disabled"], "#", (), ()))
    bad = non_json(schema)
    if bad is not None:  # (the walk refuses it in the other modes)
        diags.append((r.patterns["non-json-value"], "#", bad[0], (("value", bad[1]),)))
        return "refused"
    not_object = root_not_object(schema)
    if not_object is not None and r.patterns["root-schema-not-object"] in r.always_refused:
        # (a provider that takes any root would send it as it is)
        diags.append((r.patterns["root-schema-not-object"], "#", not_object[0], (("value", not_object[1]),)))
        return "refused"
    # What the rules refuse in every mode beyond the root and the values (a keyword value no schema
    # may have, a non-schema where a schema belongs) only a walk finds: walked for its findings only.
    walk = Walk(r)
    walk.builds = False  # (its findings only: no strict form is built)
    try:
        walk_schema(walk, schema)
    except RecursionError:
        return "non-strict"
    invalid = r.patterns["invalid-keyword-value"]  # (but a draft-04 boolean bound: sent as its number)
    declared = type(schema) is dict and "$schema" in schema
    found = [d for d in walk.diags if d[0] in r.always_refused and (declared or not _boolean_bound(d, invalid))]
    if found:
        diags.extend(found)
        return "refused"
    return "non-strict"


def _result(name: Any, description: Any, schema: Any, status: Status, compiled: Any, walk: Walk | None,
            diags: list, trans: list, r: Rules, emitter: Any, api: str, enforcement: tuple | None = None) -> CompileResult:
    """The CompileResult of a tool whose findings are recorded (the tool's own in `diags` and
    `trans`, the schema's in `walk`, None when it was not walked): its emitted form (the compiled
    schema if strict, a copy of the original if not, none if refused) and its null paths."""
    schema_diags, schema_trans = (walk.diags, walk.trans) if walk is not None else ((), ())
    tool_out = None
    null_paths: tuple = ()
    if status == "strict":
        if walk is not None:
            null_paths = walk.null_paths
        trans.append(r.tool_records[1])
        tool_out = emitter.emit(name, description, compiled, True, api)
    elif status != "refused":
        if r.sends_original:
            params = _original(schema, r, diags, trans, schema_diags, walk)
            if params is not None and r.policy.get("root_type") == "object":
                params = _typed_root(params, r, trans)
        else:  # the converted schema, lossy changes and all; nothing to send after a refusal
            params = compiled if walk is not None and not walk.refusals else None
        if params is None:
            status = "refused"
            sent = r.patterns["sent-non-strict"]
            schema_diags = [d for d in schema_diags if d[0] != sent]
        else:
            tool_out = emitter.emit(name, description, params, False, api)
    # What was not sent: a non-strict tool's compiled schema (its original went out), all of a
    # refused tool. Its fixes are reported as not applied.
    unsent: tuple | None = None
    if status == "refused":
        unsent = (0, 0)
    elif status != "strict" and r.sends_original:  # (else the converted schema went out, every change in it)
        unsent = (len(diags), len(trans))
    diags += schema_diags  # (the compile's own lists: the result keeps them)
    trans += schema_trans
    res = CompileResult._from_records(name if isinstance(name, str) else "", status, tool_out, null_paths,
                                      diags, trans, r, api, unsent)
    if enforcement is not None and status == "strict":  # (enforce: what the run time checks)
        res._enforcement = enforcement
    return res


def _original(schema: Any, r: Rules, diags: list, trans: list, schema_diags: list, walk: Walk | None = None) -> Any:
    """A copy of the original schema to send non-strict, made acceptable to the provider without
    strict (toolcast.sendable, its rewrites recorded in `trans`), or None when it cannot be sent: no
    acceptable form exists, it is too deep to serialise safely (reported, unless the walk reported
    the depth already), or it names a property as the rules refuse in every mode (the walk judged
    only the places it walked). `walk`: the walk of `schema`, whose bundle of it is taken (Walk.bundled)."""
    seen = None
    try:
        if schema is None:
            sent = {"type": "object", "properties": {}}
        elif walk is not None and walk.copied is not None and walk.copied[0] is schema:
            _, sent, seen = walk.copied  # (made in the document scan's pass: walk.document)
            walk.copied = None
        else:  # (one traversal: the copy, and what sendable's passes look for)
            sent, seen = looked_copy(schema)
    except _TooDeep:
        too_deep = r.patterns["schema-too-deep"]
        if not any(d[0] == too_deep for d in schema_diags):
            diags.append((too_deep, "#", (), (("count", f"more than {MAX_COPY_DEPTH}"),
                                           ("limit", depth_limit(r, MAX_COPY_DEPTH)))))
        return None
    except budget.SchemaTooLarge as e:  # (shared in place below what the walk walks: see walk.budget)
        diags.append((r.patterns["too-many-schema-nodes"], "#", e.place, (("limit", f"{budget.NODE_BUDGET:,}"),)))
        return None
    if type(sent) is dict:
        bundled = walk.bundled if walk is not None else None
        sent = sendable(sent, r, diags, trans, seen, bundled if bundled is not None and bundled[0] is schema else None)
        if sent is None:
            return None
        not_object = root_not_object(sent)
        if not_object is None and "$ref" in sent and r.policy.get("sent_ref_siblings") == "dollar-only":
            not_object = ("$ref",), "a `$ref` that could not be resolved at the root"  # (`type` may not stand beside it)
        if not_object is not None:  # (a root that is still no object once made acceptable: a $ref to one)
            diags.append((r.patterns["root-schema-not-object"], "#", not_object[0], (("value", not_object[1]),)))
            return None
        # (a keyword value the walk did not read: one it drops unread, or in a definition nothing names)
        invalid = invalid_places(sent, _metaschema(sent, r))
        if not invalid and r.policy.get("sent_metaschema_formats") == "asserted":
            invalid = regex_places(sent)
        if invalid:
            code = r.patterns["invalid-keyword-value"]
            diags.extend((code, "#", place, (("keyword", k), ("value", describe(v)), ("expected", expected)))
                         for place, k, v, expected in invalid)
            return None
    code = r.patterns.get("property-key-invalid")
    if (r.property_key_re is not None and code in r.always_refused
            and (seen is None or not seen.names_match(r.property_key_re))):
        bad = [(code, "#", place, (("name", name), ("pattern", r.property_key_pattern)))
               for place, name in property_names(sent) if not (type(name) is str and r.property_key_re.fullmatch(name))]
        if bad:
            diags.extend(bad)
            return None
    return sent


def _metaschema(sent: dict, r: Rules) -> str:
    """The dialect whose metaschema the provider validates `sent` against (policy sent_metaschema)."""
    rule = r.policy.get("sent_metaschema", "declared")
    if rule != "declared":
        return rule
    return (dialect_of(sent["$schema"]) or "2020-12") if "$schema" in sent else "2020-12"


def _typed_root(sent: Any, r: Rules, trans: list) -> Any:
    """The original schema as sent, its root typed as the rules require every root to be (policy
    root_type): a root without `type` (its keywords say an object, or nothing: a tool without
    parameters) gains `type: object`, recorded; a `true` root is a tool without parameters. A
    provider that requires the type rejects the request without it, and arguments are objects."""
    if sent is True:
        trans.append((r.changes["inferred-type"], "#", (), "(an object without properties, for a `true` root)"))
        return {"type": "object", "properties": {}}
    if type(sent) is dict and "type" not in sent:
        trans.append((r.changes["inferred-type"], "#", ("type",), "(object, at the root of the schema sent as it was)"))
        return {"type": "object", **sent}
    return sent


def _blocked_status(walk: Walk, mode: StrictMode, allow_lossy: bool, n_diags: int, n_trans: int) -> Status:
    """The status of a tool whose walk refused or changed something lossily; notes why on the walk
    (whose findings follow the tool's own `n_diags` diagnostics and `n_trans` transformations)."""
    if walk.refusals == 0 and allow_lossy:
        return "strict"
    # The walk counts every refusing finding it records, and every code refused in all modes is
    # one: with no refusal, there is none to look for.
    always = walk.r.always_refused
    if (walk.refusals or not walk.refusing >= always) and not always.isdisjoint(map(_first, walk.diags)):
        return "refused"
    if mode == "auto":
        # The walk's findings are complete: the reason is read from them when it is first read.
        why = Deferred(_reason, n_diags, n_trans, walk.refusing, walk.lossy_codes, walk.r.optional_codes)
        walk.diags.append((walk.codes["sent-non-strict"], "#", (), why))
        return "non-strict"
    if walk.refusals == 0:
        codes = ", ".join(sorted({t[0] for t in walk.trans if t[0] in walk.lossy_codes}))
        walk.diags.append((walk.codes["lossy-change-refused"], "#", (), (("value", codes),)))
    return "refused"


def refuse_repeated_name(res: CompileResult, seen: set[str], rules: Rules) -> CompileResult:
    """`res` as part of one request in which the names in `seen` came first (`seen` is updated)."""
    if not res.name or res.status == "refused":
        return res
    if res.name not in seen:
        seen.add(res.name)
        return res
    code = rules.patterns["duplicate-tool-name"]
    return refused(res, rules, Diagnostic(code, "name", (), (("name", res.name),), rules.diagnostics[code]))


def compile_tools(
    tools: Iterable[Any],
    *,
    target: str = "openai",
    api: str | None = None,
    rules: str | Rules | None = None,
    strict: StrictMode | str = "auto",
    allow_lossy: bool = False,
    optional_null: OptionalNull = "value",
    enforce: bool = False,
    describe: bool = True,
) -> tuple[CompileResult, ...]:
    """Compile the tools of one request; a repeated name is refused after its first use, and the
    provider's request budgets are applied in input order (see toolcast.budgets). The cycle
    collector is paused until the last tool is compiled (see compile_tool, also for
    `optional_null`, `enforce` and `describe`)."""
    return compile_request(tools, target=target, api=api, rules=rules, strict=strict, allow_lossy=allow_lossy,
                           optional_null=optional_null, enforce=enforce, describe=describe).results


def compile_request(
    tools: Iterable[Any],
    *,
    target: str = "openai",
    api: str | None = None,
    rules: str | Rules | None = None,
    strict: StrictMode | str = "auto",
    allow_lossy: bool = False,
    optional_null: OptionalNull = "value",
    enforce: bool = False,
    describe: bool = True,
) -> Request:
    """compile_tools, with what the request used of each budget per tool and the request's
    `tools` value (Request)."""
    emitter, api, r = resolve_target(target, api, rules)
    optional_null = optional_null_mode(optional_null)
    results, usage = without_cycle_gc(_compile_all, tools, target, api, r, strict, allow_lossy, optional_null,
                                      _budget(emitter, api, r, target, strict), enforce, describe)  # paused once
    return Request(results, usage, emitter.request_tools([res.tool for res in results if res.tool is not None]))


def request_budget(*, target: str = "openai", api: str | None = None, rules: str | Rules | None = None,
                   strict: StrictMode | str = "auto") -> Budget:
    """The request budgets of the rules, to apply to results one at a time in request order
    (`Budget.take(tool, result)`), as compile_tools does with each tool it compiles."""
    emitter, api, r = resolve_target(target, api, rules)
    return _budget(emitter, api, r, target, strict)


def _budget(emitter: Any, api: str, r: Rules, target: str, strict: StrictMode | str) -> Budget:
    return Budget(r, emitter, _budget_mode(strict), _non_strict_compiler(target, api, r))


def _budget_mode(strict: StrictMode | str) -> Any:
    return "auto" if strict == "auto" else strict_mode(strict)


def _non_strict_compiler(target: str, api: str, r: Rules) -> Any:
    return lambda tool: compile_tool(tool, target=target, api=api, rules=r, strict=False)


def _compile_all(tools: Iterable[Any], target: str, api: str, r: Rules, strict: StrictMode | str,
                 allow_lossy: bool, optional_null: OptionalNull, budget: Budget, enforce: bool = False,
                 describe: bool = True) -> tuple[tuple, tuple]:
    """(results, what each used of the budgets): each tool's budgets are taken as soon as it is
    compiled, so a tool refused past a budget lets its emitted form go at once (a request of
    thousands of tools never holds every emitted form at the same time)."""
    results = []
    usage = []
    seen: set[str] = set()
    for tool in tools:
        res = compile_tool(tool, target=target, api=api, rules=r, strict=strict, allow_lossy=allow_lossy,
                           optional_null=optional_null, enforce=enforce, describe=describe)
        res, use = budget.take(tool, refuse_repeated_name(res, seen, r))
        results.append(res)
        usage.append(use)
    return tuple(results), tuple(usage)
