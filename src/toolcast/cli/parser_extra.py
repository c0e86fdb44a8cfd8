"""The parsers of `toolcast diff` and `toolcast config` (cli.parser.build_parser registers them; their handlers are imported only when they run)."""

from __future__ import annotations

from typing import Any

DIFF_FAIL_ON = ("breaking", "any", "never")
DIFF_EPILOG = (
    "Tools are matched by name across all the files of each side; a renamed tool is one removed and one added. "
    "A change is breaking when a call the old definition accepted may be rejected now (a new required parameter, "
    "a removed parameter or tool, a narrower type, a removed enum value, a tighter bound, a keyword the diff does "
    "not classify), safe when every old call is still accepted (a new optional parameter or tool, a wider type, "
    "a looser bound), informational when no call's validity changes (descriptions, titles, examples, defaults). "
    "Per target, both sides are compiled as `toolcast compile` would: a tool whose outcome got worse (strict, "
    "then non-strict, then refused) regressed, one whose outcome got better was fixed. "
    "--fail-on breaking exits 1 on a breaking change or a regression; any on any change, regression or fix; "
    "never only on input errors (exit 2). Settings: [tool.toolcast] targets, strict, enforce, and paths with --git."
)
CONFIG_EPILOG = (
    "toolcast reads [tool.toolcast] from the nearest pyproject.toml that has it, from the current directory "
    "upward. Keys: paths (list of files or directories, used when no PATH is given), targets (a list, or "
    "\"all\"), strict (auto, true, false), enforce (true/false), fail-on (check's --fail-on), baseline (check's "
    "--baseline), out (compile's --out); paths are relative to the pyproject.toml's directory. A flag on the "
    "command line overrides the file. This command prints the settings in force and where each comes from; "
    "give flags to see them override."
)


def add_diff(sub: Any) -> None:
    """`toolcast diff OLD NEW` and `toolcast diff --git REV PATH...` (handler: diff_cli.run)."""
    d = sub.add_parser("diff", help="classify the changes between two versions of your tools: breaking, safe, informational",
                       epilog=DIFF_EPILOG)
    d.add_argument("paths", nargs="*", metavar="PATH",
                   help="OLD NEW: two files or directories of tools; with --git, the files or directories to compare "
                        "with their state at REV")
    d.add_argument("--git", default=None, metavar="REV",
                   help="compare the PATHs as they were at the git revision REV (read from git, nothing checked out) "
                        "with the work tree")
    d.add_argument("--target", default="openai", metavar="TARGET[,TARGET...]|all",
                   help="the targets to compile both sides for, to find the tools that regressed or were fixed")
    d.add_argument("--strict", default="auto", choices=["auto", "true", "false"],
                   help="compile both sides as compile --strict does")
    d.add_argument("--allow-lossy", action="store_true", help="compile both sides as compile --allow-lossy does")
    d.add_argument("--enforce", action="store_true", help="compile both sides as compile --enforce does")
    d.add_argument("--fail-on", default="breaking", choices=list(DIFF_FAIL_ON),
                   help="exit 1 on a breaking change or a regression (breaking), on any change (any), or never")
    d.add_argument("--format", default="text", choices=["text", "json", "sarif", "github"],
                   help="text for people, json (one document), sarif (SARIF 2.1.0) or github (Actions annotations)")
    d.set_defaults(handler="toolcast.cli.diff:run")


def add_config(sub: Any) -> None:
    """`toolcast config`: the settings in force and where each came from (handler: config.run)."""
    c = sub.add_parser("config", help="print the settings in force ([tool.toolcast] in pyproject.toml, flags) and their sources",
                       epilog=CONFIG_EPILOG)
    # Defaults of None: a value here was given as a flag (the real defaults are check's and compile's).
    c.add_argument("paths", nargs="*", metavar="PATH", help="as check's PATHs")
    c.add_argument("--target", default=None, metavar="TARGET[,TARGET...]|all", help="as check's --target")
    c.add_argument("--strict", default=None, metavar="auto|true|false", help="as check's --strict")
    c.add_argument("--enforce", action="store_true", default=None, help="as check's --enforce")
    c.add_argument("--fail-on", default=None, metavar="LEVEL", help="as check's --fail-on")
    c.add_argument("--baseline", default=None, metavar="FILE", help="as check's --baseline")
    c.add_argument("--out", default=None, metavar="DIR", help="as compile's --out")
    c.add_argument("--format", default="text", choices=["text", "json"], help="text for people, json for one document")
    c.set_defaults(handler="toolcast.config:run")
