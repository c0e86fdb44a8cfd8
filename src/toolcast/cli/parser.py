"""The `toolcast` command line's parser: its subcommands, their options and help.

A subcommand is added by one function here (or in its own module, called from `build_parser`) that
calls `sub.add_parser(...)` and sets `handler="module:function"`; `cli.main` imports that function
only when the subcommand runs and calls it as `function(args, out, stdin, err) -> exit status`.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from typing import IO, Any

from toolcast.cli.streams import _Closed
from toolcast.gate import DEFAULT_FAIL_ON, FAIL_ON
from toolcast.providers import EMITTERS


class UsageError(Exception):
    pass


class _HelpFormatter(argparse.HelpFormatter):
    """Help that ends each option's text with its default, unless the text gives it already."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "(default" in text or action.default in (None, False, argparse.SUPPRESS, []):
            return text
        return f"{text} (default: %(default)s)"


class _VersionAction(argparse.Action):
    """--version: toolcast's version and which build runs (the compiled modules, or pure Python)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, help: str | None = None):
        super().__init__(option_strings, dest=dest, default=argparse.SUPPRESS, nargs=0, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from toolcast import build_info

        (sys.stdout or _Closed("output")).write(f"{build_info()}\n")  # looked up only when asked: it reads the installed files
        parser.exit()


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("formatter_class", _HelpFormatter)  # subcommands' parsers too
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # argparse would exit itself; keep one exit path
        raise UsageError(f"{self.prog}: {message}")

    def _print_message(self, message: str, file: IO[str] | None = None) -> None:
        # argparse drops a failed write: --help to a full disk or a closed stdout would exit 0.
        if message:
            (file or _Closed("output")).write(message)


STRICT_HELP = ("auto: a tool that cannot be sent strict without loss is sent non-strict with its original schema "
               "(rewritten only where the provider would reject it, each rewrite reported); "
               "true: such a tool is refused; false: every tool is sent non-strict")
FORMAT_HELP = "text for people, json for one machine-readable document"
DESCRIPTION = (f"Compile LLM tool definitions into each provider's dialect ({', '.join(EMITTERS)}: strict "
               "function tools where the provider has them) and report every change, loss and refusal.")
# Each target's API when --api is not given, as compile resolves it (tool_input._emitter).
API_DEFAULTS = ", ".join(f"{name} {e.DEFAULT_API}" for name, e in EMITTERS.items())
DIRECTORY_RULE = (
    "A directory PATH is read recursively, in sorted order of paths: every file ending in .json, .jsonl, "
    ".ndjson, .yaml or .yml, skipping hidden files and directories (names starting with '.'), symlinked "
    "directories, the run's --out directory and baseline files, and any directory holding a manifest.json "
    "toolcast wrote. "
    "A bare JSON Schema file is a tool named after the file's stem (--name NAME for a single schema). "
    "The PATHs are a set of tool definitions, not one request: the provider's request budgets (OpenAI's "
    "128 tools, Anthropic's 20 strict tools and their optional and union parameters) demote or refuse "
    "nothing, and the report says once which ones the tools would exceed sent together; with --request "
    "they are one request, and the budgets apply in input order. A tool that exceeds a budget of strict "
    "tools on its own is never sent strict, in either mode."
)



def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above zero."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of seconds above 0")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="toolcast", description=DESCRIPTION)
    p.add_argument("--version", action=_VersionAction, help="print the version and which build runs (the compiled modules, or pure Python), and exit")
    p.add_argument("--spec", action="append", metavar="DIR", help="load the rule spec folder DIR (<provider>/<version>.yaml, "
                   "as spec/ holds them) before the command: its providers become rule versions and targets like the "
                   "built-in ones (repeatable; TOOLCAST_SPEC_PATH does the same)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser, help="run `toolcast COMMAND --help` for its options")
    # One line per subcommand, in the order `toolcast --help` lists them.
    add_compile_and_check(sub)
    add_rules(sub)
    add_proxy(sub)
    # (diff and config: their own module)
    from toolcast.cli.parser_extra import add_config, add_diff

    add_diff(sub)
    add_config(sub)
    # (probe: its own modules; it gets the option builders it reuses)
    from toolcast.cli.probe_args import add_probe

    add_probe(sub, common_options, seconds)
    return p


def common_options(sp: argparse.ArgumentParser) -> None:
    """The options compile and check share (a flag for both is added here)."""
    sp.add_argument("paths", nargs="*", metavar="PATH", help="tool file(s): one tool, a list, {\"tools\": [...]}, JSON Lines, YAML or a bare JSON Schema; a directory (see below); - reads stdin")
    sp.add_argument("--target", default="openai", action=_Targets, metavar="TARGET",
                    help=f"the provider dialect to compile to: {', '.join(EMITTERS)}; several, comma-separated "
                         "(openai,anthropic), or all: one outcome per tool and target")
    sp.add_argument("--api", default=None, choices=sorted({a for e in EMITTERS.values() for a in e.APIS}),
                    help=f"the target's API (default: {API_DEFAULTS})")
    sp.add_argument("--rules", default=None, metavar="VERSION", help="rule version: VERSION, openai@VERSION or latest (default: the reviewed default)")
    sp.add_argument("--strict", default="auto", choices=["auto", "true", "false"], help=STRICT_HELP)
    sp.add_argument("--allow-lossy", action="store_true", help="send strict even when that accepts values the original rejects")
    add_enforce_flags(sp)
    sp.add_argument("--optional-null", default="value", choices=["value", "omit"],
                    help="an optional property that already accepts null: 'value' sends it required, so "
                         "the handler receives the model's null; 'omit' strips that null too (lossy: an explicit "
                         "null can no longer be sent)")
    sp.add_argument("--format", default="text", choices=["text", "json", "sarif", "github"],
                    help="text for people, json (one document), sarif (SARIF 2.1.0 for code scanning) or github (Actions annotations)")
    sp.add_argument("--quiet", action="store_true", help="list only findings that block strict mode or are lossy, and the summary (default: every finding)")
    sp.add_argument("--summary", action="store_true", help="in the text report, one line per tool (name, outcome, counts) instead of its findings (default: off)")
    sp.add_argument("--name", default=None, metavar="NAME", help="the tool name of a bare JSON Schema file (one schema only; default: the file's stem)")
    sp.add_argument("--mcp", action="append", default=[], metavar="COMMAND", help="start a stdio MCP server with this command and use its tools (repeatable)")
    sp.add_argument("--mcp-url", action="append", default=[], metavar="URL", help="use the tools of the Streamable HTTP MCP server at URL (repeatable)")
    sp.add_argument("--mcp-auth-env", default=None, metavar="VAR", help="send the environment variable VAR's value as the Authorization header to every --mcp-url server ('Bearer ' is added to a value without a scheme)")
    sp.add_argument("--mcp-env", action="append", default=[], metavar="VAR", help="pass the environment variable VAR to every --mcp server (repeatable; by default a stdio server gets only HOME, PATH, SHELL, TERM, USER and LOGNAME)")
    sp.add_argument("--mcp-timeout", type=seconds, default=30.0, metavar="SECONDS", help="how long to wait for each --mcp or --mcp-url server to start and list its tools")
    sp.add_argument("--request", action="store_true",
                    help="read the tools as one request: the target's request budgets apply over them in input order "
                         "(a tool past one is refused, or sent non-strict past a budget of strict tools under --strict auto); "
                         "default: a set of definitions, the budgets they would exceed together only noted")

def add_compile_and_check(sub: Any) -> None:
    c = sub.add_parser("compile", help="compile tools; exit 1 if a tool was refused", epilog=DIRECTORY_RULE)
    common_options(c)
    c.add_argument("--out", metavar="DIR", help="write one file per tool plus manifest.json here")
    c.add_argument("--fail-on-change", action="store_true", help="with --out: exit 1 when this run added, rewrote or removed a file there (for pre-commit; default: off)")
    k = sub.add_parser("check", help="report findings only; exit 1 on what blocks strict mode, is lossy or refuses a tool (--fail-on)", epilog=DIRECTORY_RULE)
    common_options(k)
    k.add_argument("--fail-on", default=DEFAULT_FAIL_ON, choices=list(FAIL_ON),
                   help="blocking: exit 1 when a finding blocks strict mode, is lossy or refuses a tool (a fix or a note "
                        "never fails); error, warning, info: on a finding at least this severe; never: findings leave the exit status 0")
    k.add_argument("--baseline", default=None, metavar="FILE", help="fail only on findings this baseline does not hold (matched by tool name, code and schema path; default: none)")
    k.add_argument("--write-baseline", default=None, metavar="FILE", help="write every finding to FILE as the baseline and exit 0 (default: none)")


def add_rules(sub: Any) -> None:
    r = sub.add_parser("rules", help="list, show, matrix or diff rule versions")
    rsub = r.add_subparsers(dest="rules_command", metavar="ACTION", parser_class=_Parser, help="run `toolcast rules ACTION --help` for its options")
    rl = rsub.add_parser("list", help="providers and rule versions")
    rl.add_argument("--format", default="text", choices=["text", "json"], help=FORMAT_HELP)
    rs = rsub.add_parser("show", help="one rule version's resolved tables")
    rs.add_argument("version", nargs="?", default=None, metavar="VERSION", help="VERSION, openai@VERSION or latest (default: the reviewed default)")
    rs.add_argument("--format", default="text", choices=["text", "json"], help=FORMAT_HELP)
    rm = rsub.add_parser("matrix", help="what every provider@version does with each keyword, limit and budget")
    rm.add_argument("--format", default="text", choices=["text", "json", "markdown"], help="text for people, json for machines, markdown for docs/matrix.md")
    rd = rsub.add_parser("diff", help="what changes between two rule versions (and, with --impact, for your tools)")
    rd.add_argument("old", metavar="A", help="VERSION, openai@VERSION or latest")
    rd.add_argument("new", metavar="B", help="VERSION, openai@VERSION or latest")
    rd.add_argument("--format", default="text", choices=["text", "json"], help=FORMAT_HELP)
    rd.add_argument("--impact", nargs="+", default=None, metavar="PATH", help="recompile these tools under A and B and report what changes")
    rd.add_argument("--api", default="responses", choices=["responses", "chat"], help="with --impact: the OpenAI API to compile for")
    rd.add_argument("--strict", default="auto", choices=["auto", "true", "false"], help="with --impact: " + STRICT_HELP)
    rd.add_argument("--allow-lossy", action="store_true", help="with --impact: compile as compile --allow-lossy does")
    rd.add_argument("--details", default="20", metavar="N|all", help="with --impact: how many tools the text output lists one by one (default: 20)")


def add_proxy(sub: Any) -> None:
    x = sub.add_parser("proxy", help="serve MCP on stdio in front of MCP servers, their tools compiled for a target")
    x.add_argument("--server", action="append", default=[], metavar="NAME=COMMAND|NAME=URL", help="a stdio MCP server command, or a Streamable HTTP URL, whose tools are exposed as NAME__TOOL (repeatable)")
    x.add_argument("--target", default="openai", metavar="TARGET", help=f"the provider dialect to compile the tools' input schemas to: {', '.join(EMITTERS)}")
    x.add_argument("--api", default=None, choices=sorted({a for e in EMITTERS.values() for a in e.APIS}),
                   help="the target's API to compile for, one whose tools are JSON Schema (default: the target's "
                        "proxy API, as its spec's wire: states it; openai responses)")
    x.add_argument("--rules", default=None, metavar="VERSION", help="rule version (default: the reviewed default)")
    x.add_argument("--strict", default="auto", choices=["auto", "true"], help="auto: a tool that cannot be strict is listed with its original schema (rewritten only where the provider would reject it); true: it is left out")
    x.add_argument("--allow-lossy", action="store_true", help="send strict even when that accepts values the original rejects")
    x.add_argument("--enforce", action="store_true", help=ENFORCE_HELP + "; a call that breaks one is answered with an error and not forwarded")
    x.add_argument("--timeout", type=seconds, default=60.0, metavar="SECONDS", help="how long each server may take to start and to answer one call")
    x.add_argument("--server-timeout", action="append", default=[], metavar="NAME=SECONDS", help="--timeout for one server (repeatable)")
    x.add_argument("--auth-env", action="append", default=[], metavar="NAME=VAR", help="send the environment variable VAR's value as the Authorization header to the URL server NAME (repeatable)")
    x.add_argument("--server-env", action="append", default=[], metavar="NAME=VAR", help="pass the environment variable VAR to the stdio server NAME (repeatable; by default a stdio server gets only HOME, PATH, SHELL, TERM, USER and LOGNAME)")
    x.add_argument("--pass-environment", action="store_true", help="pass the proxy's whole environment to every stdio server")
    x.add_argument("--memory-budget", type=float, default=512.0, metavar="MIB", help="how many MiB of servers' answers the proxy reads and holds at once, over all of them; an answer that would take it over fails its call alone (default: 512)")


ENFORCE_HELP = ("send strict even when a constraint is lost, where the loss can be checked on the arguments "
                "against the original schema (outcome: enforced); the loop and the proxy check each call")


def add_enforce_flags(sp: argparse.ArgumentParser) -> None:
    sp.add_argument("--enforce", action="store_true", help=ENFORCE_HELP)
    sp.add_argument("--no-describe", action="store_true",
                    help="with --enforce: leave descriptions as they are (default: each enforced constraint is named "
                         "in the description where it applies)")


class _Targets(argparse.Action):
    """--target: `targets` gets the list parse_targets reads, `target` its first (the one target of
    a single-target run, as code that knows one target reads it)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        try:
            targets = parse_targets(values)
        except argparse.ArgumentTypeError as exc:
            raise argparse.ArgumentError(self, str(exc)) from None
        namespace.target, namespace.targets = targets[0], targets


def targets_of(args: argparse.Namespace) -> list[str]:
    """The run's targets: --target's list, or the one target (the default, or set by other means)."""
    return list(getattr(args, "targets", None) or [args.target])


def parse_targets(text: str) -> list[str]:
    """An argparse type: one target, a comma-separated list of them (`openai,anthropic`) or `all`
    (every provider, in EMITTERS' order), as a list without repeats, in the order given."""
    names = [t.strip() for t in text.split(",")]
    if names == ["all"]:
        return list(EMITTERS)
    out: list[str] = []
    for name in names:
        if name not in EMITTERS:
            choices = ", ".join([*EMITTERS, "all"])
            raise argparse.ArgumentTypeError(f"invalid choice: {name!r} (choose from {choices}, or a comma-separated list)")
        if name not in out:
            out.append(name)
    return out
