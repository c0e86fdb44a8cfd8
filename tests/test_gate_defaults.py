"""check's default gate (what blocks, loses or refuses fails; fixes and notes do not), --quiet's
reasons, the text report's order and words, and help that matches the parser's real defaults."""

from __future__ import annotations

import argparse
import io
import json
import re
from pathlib import Path

import pytest
from rule_facts import unsupported_format

from toolcast.cli.main import main
from toolcast.cli.parser import build_parser
from toolcast.providers import EMITTERS

# Compiles strict with nothing lost: an optional property (made required and nullable: a fix).
WEATHER = {"name": "get_weather", "description": "Weather for a city.",
           "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
                          "required": ["city"]}}
# Loses a format the default rules drop (taken from the rules, so a version that adds a format moves it).
LOSSY = {"name": "fetch", "description": "d",
         "parameters": {"type": "object", "properties": {"url": {"type": "string", "format": unsupported_format()}},
                        "required": ["url"]}}
BLOCKS = {"name": "labels", "description": "d",
          "parameters": {"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}},
                         "required": ["m"]}}
REFUSED = {"name": "git.status", "description": "d", "parameters": {"type": "object", "properties": {}}}


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def tool_file(tmp_path: Path, tool: dict) -> str:
    path = tmp_path / f"{tool['name'].replace('.', '_')}.json"
    path.write_text(json.dumps(tool), encoding="utf-8")
    return str(path)


def test_a_tool_that_compiles_strict_with_fixes_passes_by_default(tmp_path: Path) -> None:
    path = tool_file(tmp_path, WEATHER)
    code, out, _ = run("check", path)
    assert code == 0, out
    assert out.splitlines()[0].startswith("✓ get_weather  strict: 2 fixed")
    # The severity levels still gate fixes when asked to.
    assert run("check", path, "--fail-on", "error")[0] == 1
    assert run("check", path, "--fail-on", "warning")[0] == 1


@pytest.mark.parametrize(("tool", "why"), [(LOSSY, "1 lossy (openai/unsupported-string-format)"),
                                           (BLOCKS, "1 blocks strict mode (openai/open-map)"),
                                           (REFUSED, "openai/tool-name-invalid-characters")])
def test_what_blocks_loses_or_refuses_fails_by_default_and_quiet_says_why(tmp_path: Path, tool: dict, why: str) -> None:
    path = tool_file(tmp_path, tool)
    assert run("check", path)[0] == 1
    assert run("check", path, "--fail-on", "never")[0] == 0
    code, out, _ = run("check", path, "--quiet")
    assert code == 1
    head = out.splitlines()[0]
    assert head.startswith(("~ ", "✗ ")) and "; fails: " in head and why in head


def test_quiet_names_the_reason_of_a_tool_failing_a_severity_level(tmp_path: Path) -> None:
    # --quiet listed only what blocks or is lossy: a tool failing --fail-on error on its fixes got
    # no line at all, only the summary.
    path = tool_file(tmp_path, WEATHER)
    code, out, _ = run("check", path, "--quiet", "--fail-on", "error")
    assert code == 1
    lines = out.splitlines()
    assert len(lines) == 2 and lines[-1].startswith("1 tool(s): 1 strict")
    assert "get_weather" in lines[0] and "fails --fail-on error: 2 errors (openai/object-missing-additional-properties, openai/strict-optional-property)" in lines[0]
    # A tool that passes stays out of the quiet report.
    code, out, _ = run("check", path, "--quiet")
    assert code == 0 and out.splitlines() == ["1 tool(s): 1 strict, 0 non-strict, 0 refused"]


def test_input_error_still_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert run("check", str(bad), tool_file(tmp_path, WEATHER))[0] == 2


def test_text_report_leads_with_what_blocks_or_loses_and_says_fixed(tmp_path: Path) -> None:
    both = {**LOSSY, "parameters": {**LOSSY["parameters"], "properties": {**LOSSY["parameters"]["properties"], "n": {"type": "integer"}}}}
    _, out, _ = run("check", tool_file(tmp_path, both), tool_file(tmp_path, WEATHER))
    lines = out.splitlines()
    assert not [x for x in lines if "error   fixed" in x or x.lstrip().startswith(("error ", "warning "))]
    fetch = lines[1:lines.index(next(x for x in lines if x.startswith("✓ get_weather")))]
    words = [x.split()[0].rstrip(",") for x in fetch if x.startswith("    ") and "[" in x]
    assert words[0] == "lossy" and "not" in words and words.index("lossy") < words.index("not")
    weather = [x.split()[0] for x in lines if x.startswith("    ") and "[openai/" in x][len(words):]
    assert weather[:2] == ["fixed", "fixed"] and set(weather[2:]) <= {"note"}


# -- help --------------------------------------------------------------------------------------


def _sub(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return action.choices[name]


def _help_of(parser: argparse.ArgumentParser, name: str) -> str:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return next(c.help for c in action._choices_actions if c.dest == name)


def test_top_level_help_names_every_provider_and_every_rules_action() -> None:
    parser = build_parser()
    assert all(name in parser.description for name in EMITTERS), parser.description
    assert "into OpenAI strict function tools" not in parser.description
    rules = _sub(parser, "rules")
    line = _help_of(parser, "rules")
    actions = next(a for a in rules._actions if isinstance(a, argparse._SubParsersAction)).choices
    assert set(actions) == {"list", "show", "matrix", "diff"} and all(a in line for a in actions), line


@pytest.mark.parametrize("command", ["compile", "check"])
def test_api_help_gives_each_targets_real_default(command: str) -> None:
    from toolcast.compile import resolve_target

    sp = _sub(build_parser(), command)
    api = next(a for a in sp._actions if "--api" in a.option_strings)
    for target in EMITTERS:
        default = resolve_target(target, None, None)[1]
        assert f"{target} {default}" in api.help, (target, default, api.help)
    assert "gemini json-schema" not in api.help and "gemini/vertex json-schema" not in api.help


def test_fail_on_help_and_default_agree() -> None:
    sp = _sub(build_parser(), "check")
    fail_on = next(a for a in sp._actions if "--fail-on" in a.option_strings)
    assert fail_on.default == "blocking" and list(fail_on.choices) == ["blocking", "error", "warning", "info", "never"]
    assert all(level in fail_on.help for level in fail_on.choices)


def _walk(parser: argparse.ArgumentParser, prog: str = "toolcast"):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _walk(sub, f"{prog} {name}")
        else:
            yield prog, action


def _same_number(a: str, b: str) -> bool:
    try:
        return float(a) == float(b)
    except ValueError:
        return False


def test_every_default_a_help_text_states_is_the_real_one() -> None:
    # A help text that writes its own "(default: X)" must say the default argparse really uses.
    wrong = []
    for prog, action in _walk(build_parser()):
        text = action.help or ""
        stated = re.findall(r"\(default: ([^)]*)\)", text)
        if not stated or action.default in (None, argparse.SUPPRESS) or isinstance(action.default, bool):
            continue
        real = ",".join(action.default) if isinstance(action.default, list) else str(action.default)
        if stated[0] not in (real, "%(default)s") and not _same_number(stated[0], real):
            wrong.append(f"{prog} {'/'.join(action.option_strings)}: says {stated[0]!r}, is {real!r}")
    assert not wrong, wrong
