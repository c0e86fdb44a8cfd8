"""The parser of `toolcast probe`: compile's inputs, rules and policy options, and the probe's bounds."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 or more")
    return value


def _positive(text: str) -> int:
    value = _count(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give 1 or more")
    return value


def add_probe(sub: Any, common_options: Callable[[Any], None], seconds: Callable[[str], float]) -> None:
    """`toolcast probe` (handler: cli.probe.run). cli.parser passes its option builders in, so this
    module imports none of it (cli.parser imports this one). --target takes a list, as compile's does."""
    sp = sub.add_parser("probe", help="send each compiled tool to the provider once and report what it did; "
                        "exit 1 on a rejection or invalid arguments, 3 when no verdict could be had",
                        epilog="Keys come from each SDK's environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, "
                               "GEMINI_API_KEY or GOOGLE_API_KEY; Vertex AI: GOOGLE_CLOUD_PROJECT with Application "
                               "Default Credentials, or GOOGLE_API_KEY) and never appear in any output. See docs/probe.md.")
    common_options(sp)
    sp.add_argument("--model", action="append", default=[], metavar="[TARGET=]MODEL",
                    help="the model to probe (TARGET=MODEL for one of several targets; repeatable; default: "
                         "TOOLCAST_PROBE_<TARGET>_MODEL, else gpt-5-mini, claude-haiku-4-5, gemini-2.5-flash)")
    sp.add_argument("--dry-run", action="store_true", help="print the requests that would be sent, send nothing (no key needed)")
    sp.add_argument("--record", default=None, metavar="FILE", help="write every verdict with its date, model, rule version and exact request to FILE (evidence a spec can cite)")
    sp.add_argument("--timeout", type=seconds, default=60.0, metavar="SECONDS", help="how long one request may take")
    sp.add_argument("--max-requests", type=_count, default=20, metavar="N", help="the most requests this run makes, retries included; a tool past it is skipped")
    sp.add_argument("--retries", type=_count, default=2, metavar="N", help="further attempts after a rate limit (429), and only then")
    sp.add_argument("--max-wait", type=seconds, default=60.0, metavar="SECONDS", help="the longest wait before a retry; a longer Retry-After is reported, not waited for")
    sp.add_argument("--jobs", type=_positive, default=4, metavar="N", help="requests under way at once (at most 16)")
    sp.add_argument("--max-output-tokens", type=_positive, default=1024, metavar="N", help="the output cap of each request")
    sp.set_defaults(handler="toolcast.cli.probe:run")
