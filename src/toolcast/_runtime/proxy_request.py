"""The proxy's listing taken as one request: a client sends the tools it listed together, with each
model request, so the target's request budgets (toolcast.budgets) are applied across the listing in
its order, as the loops' tools() apply them: past a budget of strict tools a tool is listed non-strict
under auto (refused under strict true), past a budget of all tools (OpenAI's 128) it is left out."""

from __future__ import annotations

from typing import Any

__all__ = ["ListingBudget"]


class ListingBudget:
    """The request budgets of one listing (built anew for each: a relist is a new request)."""

    def __init__(self, target: str, api: str | None, rules: str | None, strict: Any) -> None:
        from toolcast.compile import request_budget

        self.budget = request_budget(target=target, api=api, rules=rules, strict=strict)
        self._before: dict[str, int] | None = None

    def take(self, tool: Any, result: Any) -> Any:
        """``result`` (``tool``'s compile) as the listing so far can take it."""
        self._before = dict(self.budget.totals)
        taken, _ = self.budget.take(tool, result)
        return taken

    def give_back(self) -> None:
        """The tool last taken is left out after all (for a reason of its own): it uses nothing."""
        if self._before is not None:
            self.budget.totals.update(self._before)
            self._before = None

    def why(self, result: Any) -> str:
        """The budget ``result`` is past, as the proxy's stderr says it after a tool's line; "" when none is."""
        budgets = self.budget.budgets
        for d in result.diagnostics:
            for name, b in budgets.items():
                if str(d.code) == b.code:
                    params = dict(d.params)
                    return f": past the listing's request budget {name} ({params.get('count')} > {params.get('limit')})"
        return ""
