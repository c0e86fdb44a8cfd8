"""Compiling a compile or check run's tools for one target: its rules, each tool in turn under
the target's request budgets, and the run's metadata."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterator
from typing import Any

from toolcast import __version__
from toolcast.budgets import Tally
from toolcast.cli.parser import UsageError
from toolcast.compile import compile_tool, refuse_repeated_name, request_budget
from toolcast.loader import InputError, Item
from toolcast.model import CompileResult, InvalidToolError
from toolcast.tool_input import resolve_target as compile_target


def _rules(args: argparse.Namespace) -> Any:
    """The rules for --rules under --target's provider (a usage error when they do not fit)."""
    try:
        _, args.api, rules = compile_target(args.target, args.api, args.rules)
    except ValueError as exc:
        raise UsageError(f"toolcast {args.command}: {exc}") from None
    return rules



class TargetRun:
    """One target's compile of a run's tools, tool by tool (`one`). With --request the tools are
    one request, whose budgets apply to them in order; else they are a set of definitions, and
    `exceeded()` gives the budgets they would exceed sent together (budgets.Tally.exceeded)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rules = _rules(args)
        self.budget = request_budget(target=args.target, api=args.api, rules=self.rules, strict=args.strict)
        self.tally = None if getattr(args, "request", False) else Tally(self.rules, self.budget.emitter)
        self.seen: set[str] = set()

    def one(self, item: Item) -> CompileResult | InputError:
        """The item's result, or the input error that says why it has none (one bad tool never stops the others)."""
        args = self.args
        try:
            res = compile_tool(item.tool, target=args.target, api=args.api, rules=self.rules, strict=args.strict,
                               allow_lossy=args.allow_lossy, optional_null=args.optional_null,
                               **({"enforce": True, "describe": not args.no_describe} if getattr(args, "enforce", False) else {}))
        except InvalidToolError as exc:
            return InputError(item.source, str(exc), *item.place(exc.field))
        except RecursionError:
            return InputError(item.source, "the tool is nested too deeply to compile")
        except Exception as exc:
            if os.environ.get("TOOLCAST_DEBUG"):
                raise
            return InputError(item.source, f"internal error while compiling: {type(exc).__name__}: {exc}")
        res = refuse_repeated_name(res, self.seen, self.rules)
        if self.tally is None:  # --request: the tools are one request, its budgets apply over all of them, in order
            res, _ = self.budget.take(item.tool, res)
        else:
            self.tally.add(res)
        return res

    def exceeded(self) -> list[dict]:
        return self.tally.exceeded() if self.tally is not None else []


def _iter_compiled(items: list[Item], args: argparse.Namespace, errors: list[InputError],
                   over: list[dict] | None = None) -> Iterator[tuple[str, CompileResult, Any]]:
    """Compile each item in turn, appending input errors to `errors`; yields (source, result,
    the item's place in its file); once the last is compiled, `over` gets the budgets the tools
    would exceed sent together (see TargetRun).

    Consumes `items` as it goes, so each input tool can be freed once compiled: with results
    written out as they come, memory stays near the size of the parsed input.
    """
    run = TargetRun(args)
    items.reverse()
    while items:
        item = items.pop()
        res = run.one(item)
        if isinstance(res, InputError):
            errors.append(res)
            continue
        yield item.source, res, item.where
    if over is not None:
        over.extend(run.exceeded())


def _meta(args: argparse.Namespace) -> dict:
    rules = _rules(args)
    return {
        "toolcast": __version__,
        "target": args.target,
        "api": args.api,
        "rules": rules.id,
        "strict": args.strict,
        "allow_lossy": bool(args.allow_lossy),
        # Only when chosen: the default run's document stays byte for byte what it was.
        **({"optional_null": args.optional_null} if getattr(args, "optional_null", "value") != "value" else {}),
        **({"enforce": True} if getattr(args, "enforce", False) else {}),
    }



def _read_baseline(args: argparse.Namespace) -> set | None:
    if args.command != "check" or args.baseline is None:
        return None
    if getattr(args, "write_baseline", None) and not os.path.lexists(args.baseline):
        return None  # (adopting the gate: the baseline this run writes is the first)
    from toolcast.baseline import BaselineError, read

    try:
        return read(args.baseline)
    except BaselineError as exc:
        raise UsageError(f"toolcast check: {exc.error}") from None
