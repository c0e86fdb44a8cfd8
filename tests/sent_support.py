"""Shared by tests/test_sent_accepted.py, tests/test_rejection_replay.py, tests/test_sent_copy.py,
tests/test_sent_shared.py and tools/target_report.py:
every target and API toolcast sends through, the strict modes, and a Checker that compiles tools
and asks the independent oracle (tests/oracles/sent.py) about every tool sent."""

from __future__ import annotations

import copy
import json
from collections import Counter
from typing import Any, ClassVar

import toolcast
from toolcast import InvalidToolError

try:
    from oracles.sent import sent_violations
except ImportError:  # pragma: no cover - when tests/ becomes a package
    from tests.oracles.sent import sent_violations

# (target, api): every API each target sends through.
TARGETS = (("openai", "responses"), ("openai", "chat"), ("anthropic", None), ("gemini", "parameters"),
           ("gemini", "json-schema"), ("vertex", "parameters"), ("vertex", "json-schema"),
           ("mcp", None), ("deepseek", None), ("xai", None), ("mistral", None), ("bedrock", None))
MODES = ("auto", True, False)
SHOWN = 15  # rejected tools quoted in a failure message (all are counted)


def compiled_unmutated(schema: dict, target: str, api: str | None) -> dict:
    """compile_tool's result (to_dict) for a tool of parameters `schema`, asserting the input is left as it was."""
    tool = {"name": "t", "description": "d", "inputSchema": schema}
    before = copy.deepcopy(tool)
    res = toolcast.compile_tool(tool, target=target, api=api)
    assert tool == before  # never mutated
    return res.to_dict()


def label(target: str, api: str | None, mode: Any = None) -> str:
    out = target if api is None else f"{target}/{api}"
    return out if mode is None else f"{out}/strict={str(mode).lower()}"


def flag_violations(result: toolcast.CompileResult, target: str, mode: object) -> list[tuple[str, str]]:
    """The tool says what toolcast reports (DESIGN, Policy): the strict flag matches the status."""
    out = []
    if (mode is True and result.status == "non-strict") or (mode is False and result.status == "strict"):
        out.append(("status-against-mode", result.status))
    tool = result.tool
    if target == "openai":
        fn = tool.get("function", tool) if isinstance(tool, dict) else {}
        if fn.get("strict") is not (result.status == "strict"):
            out.append(("strict-flag-against-status", f"strict={fn.get('strict')!r}"))
    elif target == "anthropic" and (tool.get("strict") is True) != (result.status == "strict"):
        out.append(("strict-flag-against-status", f"strict={tool.get('strict')!r}"))
    return out


class Checker:
    """Compiles tools for one target, API and mode and asks the oracle about each one sent; equal
    tools sent in the same form are judged once."""

    _verdicts: ClassVar[dict] = {}

    def __init__(self, target: str, api: str | None, mode: object):
        self.target, self.api, self.mode = target, api, mode
        self.sent = 0
        self.rejected: list[tuple[str, list[tuple[str, str]]]] = []

    def check(self, tool: object, name: str) -> None:
        try:
            result = toolcast.compile_tool(tool, target=self.target, api=self.api, strict=self.mode)
        except InvalidToolError:
            return  # not a tool at all: nothing is sent
        except Exception as exc:  # never hidden: a crash is a failure of its own
            self.rejected.append((name, [("crash", f"{type(exc).__name__}: {exc}")]))
            return
        if result.tool is None:
            if result.status != "refused":
                self.rejected.append((name, [("no-tool-but-" + result.status, "")]))
            return
        self.sent += 1
        key = (self.target, self.api, result.status, result.rules, json.dumps(result.tool, sort_keys=True, default=repr))
        found = self._verdicts.get(key)
        if found is None:
            found = self._verdicts[key] = sent_violations(result.tool, self.target, self.api, result.status,
                                                          result.rules.partition("@")[2] or None)
        found = found + flag_violations(result, self.target, self.mode)
        if found:
            self.rejected.append((name, found))

    def rule_counts(self) -> Counter:
        """Tools rejected per rule id (a tool counts once per rule)."""
        return Counter(rule for _, found in self.rejected for rule in {r for r, _ in found})

    def report(self, what: str) -> str:
        head = (f"{what} under {label(self.target, self.api, self.mode)}: {len(self.rejected)} of {self.sent} "
                f"sent tools rejected; per rule: {dict(self.rule_counts().most_common())}")
        lines = [f"  {name}: {found[:6]}{' ...' if len(found) > 6 else ''}" for name, found in self.rejected[:SHOWN]]
        more = len(self.rejected) - SHOWN
        return "\n".join([head, *lines] + ([f"  ... and {more} more"] if more > 0 else []))
