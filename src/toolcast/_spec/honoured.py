"""What a spec asks of the interpreter is something it does: keyword actions, reported patterns, policy rules, and no loss passed off as kept."""

from __future__ import annotations

import re
import string

# A slot kind (dialect.SCHEMA_SLOTS) -> the keyword `value` that holds it.
_VALUE_OF_SLOT = {"map": "schema-map", "list": "schema-list", "schema": "schema", "schema-or-list": "schema-or-list"}


def check_honoured(r: dict, fail, check_cites, own: dict) -> None:
    """What the spec asks of the interpreter is something it does: every keyword's class and handler
    has an action that fits it, every pattern an action reports has a code in the catalogue, every
    policy rule is one the walk applies, and nothing the walk loses passes as kept
    (toolcast.walk.actions declares all of it)."""
    from toolcast.walk import actions

    _check_keyword_actions(r, fail, actions, own)
    by_pattern, changes = _check_patterns(r, fail, actions)
    _check_policy(r, fail, check_cites, actions)
    _check_kept_under_policy(r, fail, actions, own)
    _check_losses(r, fail, actions, own, by_pattern, changes)
    _check_messages(r, fail, actions)
    _check_reserved(r, fail, actions, own)


def _check_keyword_actions(r: dict, fail, actions, own: dict) -> None:
    # (toolcast.walk is imported where it is used, as in toolcast._spec.checks)
    from toolcast.walk.dialect import SCHEMA_SLOTS

    classes, slots = r["keyword_classes"], r["slots"]
    handlers = {**actions.KEEP_HANDLERS, **actions.REWRITE_HANDLERS}
    schema_kinds = {"schema", "schema-map", "schema-list", "schema-or-list"}
    if classes["unknown"]["action"] not in actions.UNKNOWN_ACTIONS:
        # (the walk would pass unlisted keywords over without a finding: neither kept nor reported)
        raise fail(("keyword_classes", "unknown", "action"), f"the interpreter applies only "
                   f"{', '.join(actions.UNKNOWN_ACTIONS)} to unlisted keywords, not {classes['unknown']['action']!r}")
    for kw in actions.STRUCTURAL:
        if kw not in r["keywords"]:
            raise fail(("keywords", kw), f"{kw!r} is read by the walk itself (objects, arrays, types, references); "
                       "it must be listed, in a class that keeps it")
    for kw, entry in r["keywords"].items():
        path = ("keywords", kw)
        action, handler = classes[entry["class"]]["action"], entry.get("handler")
        if action == "rewrite":
            if handler not in actions.REWRITE_HANDLERS:
                raise fail(path + ("handler",), f"a rewrite keyword needs a rewrite handler; {handler!r} is none "
                           f"(rewrite handlers: {', '.join(sorted(actions.REWRITE_HANDLERS))})")
        elif handler is not None and handler not in actions.KEEP_HANDLERS:
            raise fail(path + ("handler",), f"{handler!r} rewrites, but class {entry['class']!r} does not: "
                       "only rewrite keywords take a rewrite handler")
        elif handler is not None and action != "keep" and path + ("handler",) in own:
            # (one inherited from a version that kept the keyword is left alone: it never applies)
            raise fail(path + ("handler",), f"{handler!r} checks the value of a kept keyword, but class "
                       f"{entry['class']!r} drops {kw!r}: the handler would never apply")
        if (handler == "at-most") != ("max" in entry):
            raise fail(path + ("max",), "`max` and handler at-most go together: the largest value kept")
        owner = handlers.get(handler)  # (a keyword, or the keywords a handler serves: at-most's counts)
        if handler is not None and kw not in (owner if type(owner) is tuple else (owner,)):
            # The walk applies each handler where its keyword is read: merge-all-of given to `not`
            # would drop `not` without a finding (a constraint lost in silence).
            raise fail(path + ("handler",), f"handler {handler!r} belongs to keyword {owner!r}: "
                       f"the interpreter has no action that applies it to {kw!r}")
        if kw in actions.STRUCTURAL and action != "keep":
            raise fail(path + ("class",), f"{kw!r} is read by the walk itself (objects, arrays, types, references); "
                       f"its class must keep it, not {action} it")
        if action == "keep" and entry["value"] in schema_kinds and kw not in actions.STRUCTURAL and kw not in slots:
            raise fail(path, f"kept keyword {kw!r} holds schemas but has no slot: the walk would keep them unchecked")
        held = SCHEMA_SLOTS.get(kw)  # what JSON Schema puts in this keyword, if schemas
        if held is not None and action == "keep" and entry["value"] != _VALUE_OF_SLOT[held]:
            # (kept as `any`, its schemas would be sent unwalked: not closed, not checked)
            raise fail(path + ("value",), f"{kw!r} holds schemas ({held}), so a class that keeps it needs value "
                       f"{_VALUE_OF_SLOT[held]!r}, not {entry['value']!r}")
        if held is not None and kw in slots and slots[kw]["kind"] != held:
            # (a map walked as one schema reads its names as unknown keywords, and drops them)
            raise fail(("slots", kw, "kind"), f"{kw!r} holds schemas as a {held!r}; a slot of kind "
                       f"{slots[kw]['kind']!r} would walk them as something else")
        if action == "keep":
            _check_kept(kw, entry, handler, fail, actions)


def _check_kept(kw: str, entry: dict, handler: str | None, fail, actions) -> None:
    """A kept keyword is one the walk can keep: its schemas narrowed only where that narrows the
    whole, not one the document pass has read and rewritten or a reference it does not resolve, and
    with the handler that checks its value where it needs one."""
    path = ("keywords", kw)
    if kw in actions.NON_MONOTONE:
        raise fail(path + ("class",), f"{kw!r} holds schemas in a {actions.NON_MONOTONE[kw]} position: the walk "
                   "narrows every schema it descends into (objects closed, properties required), which there "
                   f"does not narrow the schema around it, so class {entry['class']!r} cannot keep it (drop it, "
                   "or rewrite it with a handler that has one)")
    if kw in actions.DOCUMENT:
        raise fail(path + ("class",), f"{kw!r} is read by the document pass before the walk (dialect, resources, "
                   f"references), which rewrites the document it describes; class {entry['class']!r} would send "
                   "it beside a body it no longer describes (drop it)")
    if kw in actions.UNRESOLVED_REFS:
        raise fail(path + ("class",), f"{kw!r} is a reference the walk does not resolve: class {entry['class']!r} "
                   "would send it pointing at a definition never walked, or left out as unused (drop it)")
    from toolcast.sent_valid import spec_value

    wanted = None if kw in actions.STRUCTURAL else spec_value(kw)  # (those the walk reads itself)
    if wanted is not None and entry["value"] != wanted:
        # (the walk checks the value as `value` says, and sends it: a kind the metaschema does not
        # take sends a schema the provider rejects, and refuses one it takes)
        raise fail(path + ("value",), f"kept keyword {kw!r} takes {wanted!r} values in JSON Schema 2020-12's "
                   f"metaschema, so the walk checks them as {wanted!r}, not {entry['value']!r}")
    need = actions.HANDLER_REQUIRED.get(kw)
    if need is not None and handler != need:
        raise fail(path, f"kept keyword {kw!r} needs `handler: {need}`: without it every value is kept "
                   "unchecked (a version that restates the entry must restate its handler)")


def _check_kept_under_policy(r: dict, fail, actions, own: dict) -> None:
    """No kept keyword is one the version's policy breaks: one that counts or tests which properties
    are present, or names them by pattern, where optional properties are sent as nulls; an
    applicator of the same object as its parent where every object is closed (actions.PRESENCE,
    PATTERN_MEMBERS, CONJUNCTIVE)."""
    policy, classes = r["policy"], r["keyword_classes"]
    nullable = policy["optional_properties"]["rule"] == "nullable"
    closed = policy["objects"]["rule"] == "closed"
    for kw, entry in r["keywords"].items():
        if classes[entry["class"]]["action"] != "keep":
            continue
        if nullable and kw in actions.PRESENCE:
            rule, why = "optional_properties", (
                f"{kw!r} counts or tests which properties an object holds, and under policy.optional_properties "
                "nullable every optional property is sent (null where left out) and its null stripped before the "
                "handler: the provider would check another object than the tool")
        elif nullable and kw in actions.PATTERN_MEMBERS:
            rule, why = "optional_properties", (
                f"{kw!r} names properties by pattern, and a null path names each step exactly: under "
                "policy.optional_properties nullable a property made nullable below it would keep its null")
        elif closed and kw in actions.CONJUNCTIVE:
            rule, why = "objects", (
                f"{kw!r} applies its subschemas to the object around it, and under policy.objects closed each "
                "would be closed on its own, rejecting the properties the others declare"
                + (" (rewrite it: handler merge-all-of)" if kw == "allOf" else ""))
        else:
            continue
        # (at the edit that made the conflict: the keyword's class, or the policy rule this version set)
        path = ("keywords", kw, "class")
        raise fail(path if path[:2] in own or ("policy", rule) not in own else ("policy", rule, "rule"),
                   f"{why}; class {entry['class']!r} cannot keep it (drop it, lossy)")


def _check_patterns(r: dict, fail, actions) -> tuple[dict[str, str], dict[str, str]]:
    """Every pattern an action reports names one code of the catalogue (with its outcome); the
    catalogue by pattern (diagnostic pattern -> code, change pattern -> code)."""
    by_pattern: dict[str, str] = {}
    for code, entry in r["diagnostics"].items():
        pattern = entry.get("pattern")
        if pattern is None:
            continue
        if pattern in by_pattern:
            raise fail(("diagnostics", code, "pattern"), f"pattern {pattern!r} is already the pattern of {by_pattern[pattern]!r}")
        if pattern not in actions.ALL_REPORTS:
            raise fail(("diagnostics", code, "pattern"), f"no action reports pattern {pattern!r}")
        by_pattern[pattern] = code
    for family, patterns in actions.REPORTS.items():
        for pattern in patterns:
            if pattern not in by_pattern:
                raise fail(("diagnostics",), f"the catalogue has no code for pattern {pattern!r}, which the "
                           f"interpreter's {family!r} action reports (give one diagnostic `pattern: {pattern}`)")
    policy = r.get("policy", {})
    for (rule_name, rule), patterns in actions.POLICY_REPORTS.items():
        entry = policy.get(rule_name)
        if entry is not None:
            selected = entry.get("rule", "present")
        else:  # an optional rule left out is its default; a rule selected by being present is not
            selected = actions.OPTIONAL_POLICY.get(rule_name, (None,))[0]
        if selected != rule:
            continue
        for pattern in patterns:
            if pattern not in by_pattern:
                raise fail(("diagnostics",), f"the catalogue has no code for pattern {pattern!r}, which the walk "
                           f"reports under policy.{rule_name} {rule!r} (give one diagnostic `pattern: {pattern}`)")
    changes: dict[str, str] = {}
    for code, entry in r["transformations"].items():
        pattern = entry.get("pattern", code)
        if pattern in changes:
            raise fail(("transformations", code), f"change pattern {pattern!r} is already recorded as {changes[pattern]!r}")
        if "pattern" in entry and pattern not in actions.ALL_CHANGES:
            raise fail(("transformations", code, "pattern"), f"no action records change pattern {pattern!r}")
        changes[pattern] = code
    for family, patterns in actions.CHANGES.items():
        for pattern in patterns:
            if pattern not in changes:
                raise fail(("transformations",), f"the catalogue has no transformation for change pattern "
                           f"{pattern!r}, which the interpreter's {family!r} action records")
    return by_pattern, changes


def _check_policy(r: dict, fail, check_cites, actions) -> None:
    policy = r["policy"]
    for rule_name, honoured in actions.POLICY.items():
        if rule_name not in policy:
            raise fail(("policy",), f"policy.{rule_name} is missing (and no version it extends states it)")
        rule = policy[rule_name]["rule"]
        if rule not in honoured:
            raise fail(("policy", rule_name, "rule"), f"the interpreter has no action for policy.{rule_name} {rule!r} "
                       f"(it applies: {', '.join(honoured)})")
    for rule_name, honoured in actions.OPTIONAL_POLICY.items():
        if rule_name in policy and policy[rule_name]["rule"] not in honoured:
            raise fail(("policy", rule_name, "rule"), f"the interpreter has no action for policy.{rule_name} "
                       f"{policy[rule_name]['rule']!r} (it applies: {', '.join(honoured)})")
    for i, kw in enumerate(policy.get("sent_root_keywords", {}).get("keywords", ())):
        if kw not in actions.SENT_ROOT_KEYWORDS:
            raise fail(("policy", "sent_root_keywords", "keywords", i), f"the interpreter cannot rid a root of {kw!r} "
                       f"(it can: {', '.join(actions.SENT_ROOT_KEYWORDS)})")
    _check_sent_lists(policy, r, fail, actions)
    if "property_keys" in policy:
        try:
            re.compile(policy["property_keys"]["pattern"])
        except re.error as e:
            raise fail(("policy", "property_keys", "pattern"), f"not a regular expression: {e}") from None
    for rule_name in ("ref_siblings", "always_refused"):
        if rule_name not in policy:
            raise fail(("policy",), f"policy.{rule_name} is missing (and no version it extends states it)")
    for rule_name, entry in policy.items():
        check_cites(("policy", rule_name, "cite"), entry["cite"])
    read = actions.CONSTRAINING | {*actions.STRUCTURAL, *actions.DOCUMENT, *actions.UNRESOLVED_REFS, "definitions"}
    for i, kw in enumerate(policy["ref_siblings"]["keywords"]):
        if kw not in r["keywords"]:
            raise fail(("policy", "ref_siblings", "keywords", i), f"{kw!r} is not a keyword")
        if kw in read:
            # (beside `$ref`, and in a merge, the walk keeps the nearer value of these and drops the other)
            raise fail(("policy", "ref_siblings", "keywords", i), f"{kw!r} is not an annotation: it constrains "
                       "values or the walk reads it, and the walk treats what stands beside `$ref` as annotations "
                       "(the nearer one wins), which would lose the other's constraint")
    for i, code in enumerate(policy["always_refused"]["codes"]):
        if r["diagnostics"].get(code, {}).get("outcome") != "refuses":
            raise fail(("policy", "always_refused", "codes", i), f"{code!r} must be a diagnostic whose outcome refuses")
    for name, budget in r.get("budgets", {}).items():
        missing = [f for f in ("value", "code", "counts", "applies") if f not in budget]
        if missing:  # (a child restates only what it changes: a new budget states every field)
            raise fail(("budgets", name), f"budget {name!r} states no {', '.join(missing)} (nor does a version it extends)")
        check_cites(("budgets", name, "cite"), budget["cite"])
        if r["diagnostics"].get(budget["code"], {}).get("outcome") != "refuses":
            raise fail(("budgets", name, "code"), f"{budget['code']!r} must be a diagnostic whose outcome refuses")
    counted: dict[str, str] = {}
    for name, limit in r["limits"].items():
        counts = limit.get("counts")
        if counts not in actions.COUNTERS:
            raise fail(("limits", name), f"limit {name!r} must say what it counts (counts: one of {', '.join(actions.COUNTERS)})")
        if counts in counted:
            raise fail(("limits", name, "counts"), f"{counts!r} is counted by limit {counted[counts]!r} already")
        counted[counts] = name


def _check_sent_lists(policy: dict, r: dict, fail, actions) -> None:
    """policy sent_keywords drops only keywords the walk and sendable do not read, sent_empty refuses
    only where an empty list admits no value, sent_enum_values `typed` has enum_values' types to keep
    to, and sent_property_schemas `objects` has `not` to write `false` with (toolcast.sent_rules has
    no other way to)."""
    drop = policy.get("sent_keywords", {}).get("drop", ())
    for i, kw in enumerate(drop):
        if kw in actions.SENT_UNDROPPABLE:
            raise fail(("policy", "sent_keywords", "drop", i), f"{kw!r} is read by the walk or the sent form's passes "
                       "(objects, references, definitions, the dialect): the interpreter cannot drop it from a schema")
        if kw not in r["keywords"]:
            raise fail(("policy", "sent_keywords", "drop", i), f"{kw!r} is not a keyword")
    alone = policy.get("sent_any_of", {})
    if "keywords" in alone and alone.get("rule") != "alone":
        raise fail(("policy", "sent_any_of", "keywords"), "the keywords held alone are read under rule 'alone' only")
    for i, kw in enumerate(policy.get("sent_empty", {}).get("refuse", ())):
        if kw not in actions.SENT_EMPTY_UNSATISFIABLE:
            raise fail(("policy", "sent_empty", "refuse", i), f"an empty {kw!r} does not make a schema unsatisfiable: "
                       f"the interpreter refuses a tool only for an empty {', '.join(actions.SENT_EMPTY_UNSATISFIABLE)}")
    if policy.get("sent_enum_values", {}).get("rule") == "typed" and "enum_values" not in policy:
        raise fail(("policy", "sent_enum_values", "rule"), "`typed` keeps an enum's values to the types policy.enum_values "
                   "names, but this spec names none")
    if policy.get("sent_property_schemas", {}).get("rule") == "objects" and "not" in drop:
        raise fail(("policy", "sent_property_schemas", "rule"), "a `false` property schema is written "
                   "`{\"not\": {}}`, but policy.sent_keywords drops `not`: the interpreter has no other object for it")


def _check_losses(r: dict, fail, actions, own: dict, by_pattern: dict[str, str], changes: dict[str, str]) -> None:
    """Nothing the walk loses can pass as kept: a keyword that constrains values is dropped only as a
    lossy change or a refusal, a drop class's diagnostic and transformation agree on the loss, each
    change the walk knows to lose values is marked lossy, and each pattern it reports where it gives a
    place up refuses. Each of these, edited the other way in YAML alone, compiled a tool strict with
    a constraint gone (actions.CONSTRAINING, LOSSY_CHANGES, LOSSY_REPORTS, GIVES_UP say which)."""
    diagnostics, transformations, classes = r["diagnostics"], r["transformations"], r["keyword_classes"]

    def outcome(code: str) -> str:
        return diagnostics[code]["outcome"]

    def where(*paths: tuple) -> tuple:
        # The entry this version wrote itself (the edit that made the conflict), else the first.
        return next((p for p in paths if p[:2] in own), paths[0])

    for pattern in actions.LOSSY_CHANGES:
        code = changes.get(pattern)
        if code is not None and not transformations[code]["lossy"]:
            raise fail(("transformations", code, "lossy"), f"{code!r} records a change that loses values (the schema sent "
                       "accepts other values than the tool's); it must be marked lossy: true")
    for pattern in actions.LOSSY_REPORTS:
        code = by_pattern.get(pattern)
        if code is not None and outcome(code) not in ("lossy", "refuses"):
            raise fail(("diagnostics", code, "outcome"), f"{code!r} is reported beside a lossy change; its outcome must "
                       f"be lossy or refuses, not {outcome(code)!r}")
    policy = r["policy"]
    gives_up: list[tuple[str, tuple]] = [(p, ()) for p in actions.GIVES_UP]  # (pattern, the rule that makes it so)
    for (rule_name, rule), patterns in actions.POLICY_GIVES_UP.items():
        if policy.get(rule_name, {}).get("rule") == rule:
            gives_up.extend((p, ("policy", rule_name, "rule")) for p in patterns)
    for pattern, because in gives_up:
        code = by_pattern.get(pattern)
        if code is not None and outcome(code) != "refuses":
            raise fail(where(("diagnostics", code, "outcome"), *(because and (because,))), f"the walk reports {code!r} where it gives the place up (the "
                       f"schema it sends there is not the tool's); its outcome must be refuses, not {outcome(code)!r}")
    for cname, c in classes.items():
        if c["action"] != "drop":
            continue
        path = ("keyword_classes", cname)
        said, lossy = outcome(c["diagnostic"]), transformations[c["transformation"]]["lossy"]
        if said == "lossy" and not lossy:
            raise fail(where(path + ("transformation",), ("transformations", c["transformation"], "lossy"),
                             ("diagnostics", c["diagnostic"], "outcome")), f"class {cname!r} reports its drops as lossy ({c['diagnostic']!r}), but its "
                       f"transformation {c['transformation']!r} is not marked lossy: a tool would still be sent strict")
        if lossy and said in ("fixes", "reports"):
            raise fail(where(path + ("diagnostic",), ("diagnostics", c["diagnostic"], "outcome"),
                             ("transformations", c["transformation"], "lossy")), f"class {cname!r} drops with a lossy transformation, but its diagnostic "
                       f"{c['diagnostic']!r} says the outcome {said!r}")
    for kw in sorted(actions.CONSTRAINING):
        entry = r["keywords"].get(kw)
        cname = entry["class"] if entry else "unknown"
        c = classes[cname]
        if c["action"] != "drop" or transformations[c["transformation"]]["lossy"] or outcome(c["diagnostic"]) == "refuses":
            continue
        if entry is None:
            # (at the `kw: null` that removed it, where a version did)
            raise fail(where(("keywords", kw), ("keywords",)), f"keyword {kw!r} constrains values but is not listed: "
                       f"class 'unknown' would drop it, and {c['transformation']!r} is not lossy (list it, in a class "
                       "that says what happens)")
        path = where(("keywords", kw, "class"), ("keyword_classes", cname, "transformation"),
                     ("transformations", c["transformation"], "lossy"), ("diagnostics", c["diagnostic"], "outcome"))
        raise fail(path, f"keyword {kw!r} constrains values, but class {cname!r} drops it as {c['transformation']!r}, "
                   "which is not lossy: the constraint would be lost without a lossy change (choose a class whose "
                   "drop is lossy, or one that keeps it)")


def _given(r: dict, actions) -> dict[str, set[str]]:
    """code -> the parameters it is ever reported with, for every code some action reports (by its
    pattern, or named by a keyword class, a limit, a regex feature class or a budget)."""
    given: dict[str, set[str]] = {}
    for code, entry in r["diagnostics"].items():
        if entry.get("pattern") is not None:
            given.setdefault(code, set()).update(actions.PARAMS.get(entry["pattern"], ()))
    for c in r["keyword_classes"].values():
        if c["action"] == "drop":
            given.setdefault(c["diagnostic"], set()).update(actions.CLASS_PARAMS)
    for limit in r["limits"].values():
        given.setdefault(limit["code"], set()).update(actions.LIMIT_PARAMS.get(limit["counts"], ()))
    for c in r["regex_feature_classes"].values():
        given.setdefault(c["diagnostic"], set()).update(actions.REGEX_CLASS_PARAMS)
    for budget in r.get("budgets", {}).values():
        given.setdefault(budget["code"], set()).update(actions.BUDGET_PARAMS)
    return given


def _check_messages(r: dict, fail, actions) -> None:
    """A message names only parameters its code is reported with (any other would show as "?");
    a code nothing reports yet may name any (toolcast._spec.resolve.MESSAGE_FIELDS)."""
    given = _given(r, actions)
    for code, entry in r["diagnostics"].items():
        if code not in given:
            continue
        names = {f for _, f, _, _ in string.Formatter().parse(entry["message"]) if f is not None}
        never = sorted(names - given[code])
        if never:
            having = ", ".join(sorted(given[code])) or "none"
            raise fail(("diagnostics", code, "message"), f"placeholder(s) {', '.join('{' + n + '}' for n in never)} "
                       f"are never given to {code!r}: it is reported with these parameters only: {having}")


def _reported(r: dict, actions) -> set[str]:
    """The patterns (diagnostic and change) the walk reports under this spec whatever it is given
    to compile, of those whose reporting does not depend on its keywords or fields."""
    policy = r["policy"]

    def rule(name: str) -> str | None:
        if name in policy:
            return policy[name].get("rule", "present")
        return actions.OPTIONAL_POLICY.get(name, (None,))[0]

    conditional = set(actions.REPORTED_WHERE_SELECTED) | actions.POLICY_ONLY_REPORTS
    selected: set[str] = set()
    for (name, values), patterns in actions.REPORTED_UNDER.items():
        conditional.update(patterns)
        if rule(name) in values:
            selected.update(patterns)
    for (name, value), patterns in actions.POLICY_REPORTS.items():
        if rule(name) == value:
            selected.update(patterns)
    return ((actions.ALL_REPORTS | actions.ALL_CHANGES) - conditional) | (selected - set(actions.REPORTED_WHERE_SELECTED))


def _check_reserved(r: dict, fail, actions, own: dict) -> None:
    """No code the walk reports under this spec is marked `status: reserved` (which says this rule
    version never emits it): its pattern's, a keyword class's that some keyword is in, a limit's,
    a budget's."""
    reported = _reported(r, actions)
    classes, diagnostics, transformations = r["keyword_classes"], r["diagnostics"], r["transformations"]
    handlers = {e.get("handler") for e in r["keywords"].values() if classes[e["class"]]["action"] != "drop"}
    for (section, name), patterns in actions.SELECTED_BY.items():
        if (name in handlers) if section == "handler" else (r.get(section) or {}).get(name) is not None:
            reported = reported | set(patterns)
    emitted: dict[tuple[str, str], str] = {}  # (section, code) -> why the walk emits it
    for code, entry in diagnostics.items():
        if entry.get("pattern") in reported:
            emitted[("diagnostics", code)] = f"the walk reports pattern {entry['pattern']!r} under this spec"
    for code, entry in transformations.items():
        if entry.get("pattern", code) in reported:
            emitted[("transformations", code)] = f"the walk records change {entry.get('pattern', code)!r} under this spec"
    used = {e["class"] for e in r["keywords"].values()} | {"unknown"}
    for cname, c in classes.items():
        if c["action"] == "drop" and cname in used:
            why = f"class {cname!r} reports it for each keyword it drops"
            emitted[("diagnostics", c["diagnostic"])] = emitted[("transformations", c["transformation"])] = why
    for name, limit in r["limits"].items():
        if limit["counts"] != "enum-size":
            emitted[("diagnostics", limit["code"])] = f"limit {name!r} reports it"
    for name, budget in r.get("budgets", {}).items():
        emitted[("diagnostics", budget["code"])] = f"budget {name!r} reports it"
    for (section, code), why in emitted.items():
        entry = (diagnostics if section == "diagnostics" else transformations).get(code, {})
        if entry.get("status") == "reserved":
            path = (section, code, "status")
            raise fail(path if path in own else (section, code), f"{code!r} is marked reserved (never emitted), "
                       f"but {why}: mark it active, or leave it out of what reports it")
