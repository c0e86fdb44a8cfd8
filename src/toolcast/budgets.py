"""Request budgets: limits over all the tools of one request, applied in input order to compiled results."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from toolcast.model import CompileResult, Diagnostic, unsent
from toolcast.records import BudgetEntry


class BudgetUse(NamedTuple):
    """What one tool used of one budget: its own count and the request's total once it is added."""

    budget: str  # the budget's name in the spec (e.g. max_strict_tools)
    counts: str  # tools | strict-tools | optional-parameters | union-parameters
    used: int
    total: int
    limit: int


class Request(NamedTuple):
    """A compiled request: one result per tool (input order), what each tool used of each budget,
    and the request's `tools` value in the target's shape (the tools sent, in order)."""

    results: tuple[CompileResult, ...]
    usage: tuple[tuple[BudgetUse, ...], ...]
    tools: Any


def count_optional(schema: Any) -> int:
    """Properties not listed in their object's `required`, over every object of the schema."""
    return sum(len([p for p in node["properties"] if p not in set(node.get("required") or ())])
               for node in _nodes(schema) if isinstance(node.get("properties"), dict))


def count_union(schema: Any) -> int:
    """Schemas that use `anyOf` or a list of types (each is a union-typed parameter)."""
    return sum(1 for node in _nodes(schema) if "anyOf" in node or isinstance(node.get("type"), list))


def _nodes(schema: Any):
    """Every schema node of an emitted schema (properties, items, anyOf branches, definitions)."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        yield node
        for key in ("properties", "$defs"):
            if isinstance(node.get(key), dict):
                stack.extend(node[key].values())
        for key in ("items", "additionalProperties"):
            if isinstance(node.get(key), dict):
                stack.append(node[key])
        if isinstance(node.get("anyOf"), list):
            stack.extend(node["anyOf"])


def _counts(res: CompileResult, schema_of: Callable[[dict], Any]) -> dict[str, int]:
    strict = res.status == "strict"
    schema = schema_of(res.tool) if strict else None
    return {"tools": 1, "strict-tools": int(strict),
            "optional-parameters": count_optional(schema) if strict else 0,
            "union-parameters": count_union(schema) if strict else 0}


class Budget:
    """The budgets of one request as its tools come, in input order (compile_request takes each tool's
    as it is compiled, as the CLI does before it writes the result): a tool past a budget that
    applies to all tools is refused; past a budget of strict tools it is refused under strict true
    and, under auto, sent non-strict (`recompile(tool)` gives its non-strict form). A refused tool
    uses nothing."""

    def __init__(self, rules: Any, emitter: Any, mode: Any, recompile: Callable[[Any], CompileResult]) -> None:
        self.rules, self.emitter, self.mode, self.recompile = rules, emitter, mode, recompile
        self.budgets: dict[str, BudgetEntry] = rules.budgets
        self.totals = dict.fromkeys(("tools", "strict-tools", "optional-parameters", "union-parameters"), 0)

    def take(self, tool: Any, res: CompileResult) -> tuple[CompileResult, tuple[BudgetUse, ...]]:
        """The tool's result with the budgets applied, and what it used of each."""
        budgets, totals, rules = self.budgets, self.totals, self.rules
        if not budgets or res.status == "refused":
            return res, ()
        counts = _counts(res, self.emitter.schema_of)
        over = _over(budgets, totals, counts, "all")
        if over is not None:
            return _refused(res, rules, *over), ()
        over = _over(budgets, totals, counts, "strict") if counts["strict-tools"] else None
        if over is not None:
            if self.mode is True:
                return _refused(res, rules, *over), ()
            res = _non_strict(res, self.recompile(tool), rules, *over)
            if res.status == "refused":  # (its form without strict could not be sent either)
                return res, ()
            counts = _counts(res, self.emitter.schema_of)
        for k, v in counts.items():
            totals[k] += v
        return res, tuple(BudgetUse(name, b.counts, counts[b.counts], totals[b.counts], b.value)
                          for name, b in budgets.items() if counts[b.counts])


_ZERO = dict.fromkeys(("tools", "strict-tools", "optional-parameters", "union-parameters"), 0)


def alone(tool: Any, res: CompileResult, rules: Any, emitter: Any, mode: Any,
          recompile: Callable[[Any], CompileResult]) -> CompileResult:
    """`res` (a tool's own compile) as a request of that tool alone can take it: a strict tool whose own
    counts exceed a budget of strict tools (`applies: strict`) is never sent strict, whatever request
    it joins. Under strict true it is refused, under auto sent non-strict (`recompile(tool)` gives its
    non-strict form), with the budget's code, as Budget.take does past a request's total; in a request
    it then counts as the non-strict (or refused) tool it is."""
    if res.status != "strict" or not strict_budgets(rules):
        return res
    over = _over(rules.budgets, _ZERO, _counts(res, emitter.schema_of), "strict")
    if over is None:
        return res
    if mode is True:
        return _refused(res, rules, *over)
    return _non_strict(res, recompile(tool), rules, *over, alone=True)


# Per rule version (by its budgets' identity, the object held so the id stays its own): whether
# any budget counts strict tools alone (`applies: strict`). Most have none: `alone` ends there.
# The last one asked is also kept alone (compile_tool asks once per strict tool, mostly of one
# rule version): one identity test, without the id() and the dict look-up.
_STRICT_BUDGETS: dict[int, tuple[dict, bool]] = {}
_last_strict: tuple = (None, False)


def strict_budgets(rules: Any) -> bool:
    """Whether `rules` has a budget that applies to strict tools (one `alone` may apply)."""
    global _last_strict
    budgets = rules.budgets
    known = _last_strict
    if known[0] is budgets:
        return known[1]
    known = _STRICT_BUDGETS.get(id(budgets))
    if known is None or known[0] is not budgets:
        known = _STRICT_BUDGETS[id(budgets)] = (budgets, any(b.applies == "strict" for b in budgets.values()))
    _last_strict = known
    return known[1]


class Tally:
    """What the tools of a set of definitions (a CLI run) would use of each request budget if they were
    sent together, as compiled: nothing is demoted or refused. A refused tool uses nothing."""

    def __init__(self, rules: Any, emitter: Any) -> None:
        self.budgets: dict[str, BudgetEntry] = rules.budgets
        self.schema_of = emitter.schema_of
        self.totals = dict(_ZERO)

    def add(self, res: CompileResult) -> None:
        if not self.budgets or res.status == "refused":
            return
        for k, v in _counts(res, self.schema_of).items():
            self.totals[k] += v

    def exceeded(self) -> list[dict[str, Any]]:
        """Each budget the tools would exceed together, in the spec's order:
        {"budget", "code", "count", "limit"}."""
        return [{"budget": name, "code": b.code, "count": self.totals[b.counts], "limit": b.value}
                for name, b in self.budgets.items() if self.totals[b.counts] > b.value]


def _over(budgets: dict, totals: dict, counts: dict, applies: str) -> tuple | None:
    """(budget name, entry, the total with this tool) of the first budget this tool would exceed."""
    for name, b in budgets.items():
        if b.applies == applies and counts[b.counts] and totals[b.counts] + counts[b.counts] > b.value:
            return name, b, totals[b.counts] + counts[b.counts]
    return None


def _budget_diag(rules: Any, b: BudgetEntry, total: int) -> Diagnostic:
    return Diagnostic(b.code, "#", (), (("count", total), ("limit", b.value)), rules.diagnostics[b.code])


def _refused(res: CompileResult, rules: Any, name: str, b: BudgetEntry, total: int) -> CompileResult:
    """`res` refused because of budget `name`."""
    return refused(res, rules, _budget_diag(rules, b, total))


def refused(res: CompileResult, rules: Any, why: Diagnostic) -> CompileResult:
    """`res` refused by its request after its compile, for `why` (a budget, a repeated name): nothing
    of it is sent, its changes included."""
    kept = tuple(t for t in res.transformations if t.code != rules.changes["enabled-strict-mode"])
    return CompileResult(res.name, "refused", None, (), unsent((*res.diagnostics, why)), unsent(kept), res.rules,
                         res.api)


def _non_strict(res: CompileResult, plain: CompileResult, rules: Any, name: str, b: BudgetEntry,
                total: int, alone: bool = False) -> CompileResult:
    """`res` sent non-strict (the tool of `plain`, its non-strict compile) because of budget `name` (`alone`:
    the tool's own count exceeds it): the changes of its strict form are not in what is sent, those of its
    own fields (`plain`'s) are."""
    if plain.tool is None:  # the form sent without strict is refused too, for its own reasons: say them
        out = _refused(res, rules, name, b, total)
        why_not = tuple(d for d in plain.diagnostics if d.outcome == "refuses")
        return CompileResult(out.name, "refused", None, (), (*out.diagnostics, *why_not), out.transformations,
                             res.rules, res.api)
    code = rules.patterns["sent-non-strict"]
    reason = (f"exceed the request's budget {name} ({total} > {b.value}) on its own" if alone
              else f"exceed the request's budget {name} ({total} > {b.value})")
    why = Diagnostic(code, "#", (), (("value", reason),), rules.diagnostics[code])
    kept = tuple(t for t in res.transformations if t.code != rules.changes["enabled-strict-mode"])
    sent = (*plain.diagnostics, *plain.transformations)
    # (and the changes only the schema sent makes: a root that said no type is typed there)
    known = set(kept)
    own = tuple(t for t in plain.transformations if t.applied and t not in known)
    return CompileResult(res.name, "non-strict", plain.tool, (),
                         (*unsent(res.diagnostics, sent), _budget_diag(rules, b, total), why),
                         (*unsent(kept, sent), *own), res.rules, res.api)
