"""The compatibility matrix: what each provider@version does with each keyword, limit and request budget, read from the rule tables."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

# What happens to a keyword, from the mildest to the harshest.
STATES = ("kept", "kept-not-enforced", "converted", "dropped-without-loss", "dropped-with-loss", "refused")
_SHORT = {"kept": "kept", "kept-not-enforced": "kept*", "converted": "converted", "dropped-without-loss": "dropped",
          "dropped-with-loss": "LOSSY", "refused": "REFUSED"}


def keyword_cell(r: Any, entry: Any) -> dict:
    """{state, detail} for a keyword's records.KeywordEntry, or a records.ClassEntry (the
    unknown-keyword class) of rules `r`."""
    if hasattr(entry, "cls"):
        action, handler, dcode, tcode = entry.action, entry.handler, entry.diagnostic, entry.transformation
    else:
        action, handler, dcode, tcode = entry.action, None, entry.diagnostic, entry.transformation
    if action == "keep":
        detail = {"format": f"{len(r.formats)} formats", "pattern": "regex checked",
                  "at-most-one": "0 or 1 only", "at-most": f"up to {getattr(entry, 'most', None)}"}.get(handler or "", "")
        return {"state": "kept", "detail": detail}
    if action == "rewrite":
        return {"state": "converted", "detail": handler or ""}
    if dcode is not None and r.diagnostics[dcode].outcome == "refuses":
        return {"state": "refused", "detail": dcode}
    lossy = tcode is not None and r.transformations[tcode].lossy
    return {"state": "dropped-with-loss" if lossy else "dropped-without-loss", "detail": dcode or ""}


def policy_cells(r: Any) -> dict[str, dict]:
    """Cells the structural policy decides for keywords the spec keeps (the walk reads them itself):
    a dialect without `additionalProperties` (objects `unlisted`), and the OpenAPI subset form,
    which inlines references and writes one type per node."""
    cells = {}
    if r.policy.get("objects") == "unlisted":
        cells["additionalProperties"] = {"state": "dropped-with-loss", "detail": "objects unlisted (false or a schema is lost)"}
    if r.policy.get("schema_form") == "openapi-subset":
        cells["$ref"] = cells["$defs"] = {"state": "converted", "detail": "inlined"}
        cells["type"] = {"state": "converted", "detail": "one type plus nullable"}
    return cells


def never_strict(r: Any) -> bool:
    """Whether rules `r` send no tool strict (a strict-tools request budget of 0): what reaches the
    provider is then always the form sent without strict, and nothing in it is enforced."""
    return any(b.counts == "strict-tools" and b.value == 0 for b in r.budgets.values())


def sent_cell(r: Any, keyword: str, strict_cell: dict) -> dict:
    """{state, detail} for `keyword` in the form a never-strict target sends (toolcast.sendable):
    the original, with only the rewrites the provider's acceptance rules (policy sent_*) require."""
    if r.policy.get("non_strict") == "converted":  # the strict form is sent, without the flag
        if strict_cell["state"] == "kept":
            return {"state": "kept-not-enforced", "detail": "sent converted, never strict"}
        return strict_cell
    if keyword in r.sent_drop:
        return {"state": "dropped-with-loss", "detail": "rejected in any form (sent_keywords)"}
    if keyword == "definitions":
        return {"state": "converted", "detail": "as $defs"}
    if keyword in r.sent_root_keywords:
        return {"state": "kept-not-enforced", "detail": "never strict; at the root lifted or dropped (sent_root_keywords)"}
    return {"state": "kept-not-enforced", "detail": "sent as written, never strict"}


def build(rule_sets: Iterable[Any]) -> dict:
    """The matrix over `rule_sets` (toolcast.rules.Rules, in column order): keywords (and the
    unknown-keyword class), limits and request budgets, each cell per rule version. A version that
    sends no tool strict (never_strict) shows each keyword as its form sent without strict has it."""
    rule_sets = list(rule_sets)
    columns = [r.id for r in rule_sets]
    keywords = sorted({k for r in rule_sets for k in r.keywords})
    kw_rows = {k: {r.id: keyword_cell(r, r.keywords[k]) if k in r.keywords else keyword_cell(r, r.unknown_keyword)
                   for r in rule_sets} for k in keywords}
    for r in rule_sets:
        for k, cell in policy_cells(r).items():
            if k in kw_rows:
                kw_rows[k][r.id] = cell
    kw_rows["(unknown keyword)"] = {r.id: keyword_cell(r, r.unknown_keyword) for r in rule_sets}
    for r in filter(never_strict, rule_sets):
        for k, cells in kw_rows.items():
            cells[r.id] = sent_cell(r, k, cells[r.id])
    counters = sorted({e.counts for r in rule_sets for e in r.limits.values()})
    limits = {c: {r.id: (r.limit_of[c].value if c in r.limit_of else None) for r in rule_sets} for c in counters}
    budget_kinds = sorted({b.counts for r in rule_sets for b in r.budgets.values()})
    budgets = {c: {r.id: next((b.value for b in r.budgets.values() if b.counts == c), None) for r in rule_sets}
               for c in budget_kinds}
    formats = {r.id: sorted(r.formats) for r in rule_sets}
    policy_names = sorted({k for r in rule_sets for k in r.policy})
    policy = {k: {r.id: r.policy.get(k) for r in rule_sets} for k in policy_names}
    policy["property_keys"] = {r.id: r.property_key_pattern for r in rule_sets}
    policy["enum_values"] = {r.id: ",".join(sorted(r.enum_types)) if r.enum_types is not None else None
                             for r in rule_sets}
    return {"columns": columns, "states": list(STATES), "keywords": kw_rows, "limits": limits, "budgets": budgets,
            "formats": formats, "policy": policy}


def of_all() -> dict:
    """The matrix over every generated rule version (providers in name order, versions by date)."""
    from toolcast.rules import PROVIDERS, available, get_rules

    return build(get_rules(f"{p}@{v}") for p in PROVIDERS for v in available(p))


def render(m: dict, fmt: str = "text") -> str:
    if fmt == "json":
        return json.dumps(m, indent=2, ensure_ascii=False) + "\n"
    cols = m["columns"]
    rows = [[k] + [_SHORT[cells[c]["state"]] for c in cols] for k, cells in m["keywords"].items()]
    rows += [[f"limit: {k}"] + [_num(cells[c]) for c in cols] for k, cells in m["limits"].items()]
    rows += [[f"request: {k}"] + [_num(cells[c]) for c in cols] for k, cells in m["budgets"].items()]
    rows.append(["formats"] + [str(len(m["formats"][c])) for c in cols])
    rows += [[f"policy: {k}"] + ["-" if cells[c] is None else str(cells[c]) for c in cols]
             for k, cells in m["policy"].items()]
    header = ["keyword"] + cols
    if fmt == "markdown":
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(f"`{r[0]}`" if i == 0 and not r[0].startswith(("limit", "request", "(", "formats", "policy"))
                                    else r[0] if i == 0 else r[i] for i in range(len(r))) + " |" for r in rows]
        legend = ("kept: sent as it is; kept*: sent but not enforced; converted: rewritten with the same "
                  "meaning (oneOf as anyOf is lossy unless exclusive); dropped: removed without loss; LOSSY: "
                  "removed, the tool then accepts more (strict only with --allow-lossy); REFUSED: the tool cannot "
                  "be sent strict; a number is a limit, - none documented. A version that sends no tool strict "
                  "(request: strict-tools 0) shows the form it sends instead: kept* there is sent as written.")
        return "\n".join(lines) + "\n\n" + legend + "\n"
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    return "\n".join("  ".join(str(v).ljust(w) for v, w in zip(r, widths, strict=True)).rstrip()
                     for r in [header, *rows]) + "\n"


def _num(v: Any) -> str:
    return "-" if v is None else f"{v:,}"
