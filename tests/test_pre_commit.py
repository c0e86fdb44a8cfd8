"""The pre-commit hooks, run as a user runs them: `pre-commit try-repo` of this checkout in a new git repository.

pre-commit clones the checkout (with its uncommitted changes) and pip-installs it into the hook's
environment (`language: python`), so the hooks run the code under test. Nothing is fetched from
the network by the test itself: the environment's build requirements and lark come from pip's
configured index (a local mirror on the CI machines), and TOOLCAST_PURE_PYTHON=1 skips the
Cython build, which would take a minute on two cores and changes no result.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from rule_facts import unsupported_format

ROOT = Path(__file__).resolve().parent.parent
PRE_COMMIT = Path(sys.executable).parent / "pre-commit"

pytestmark = [
    pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout"),
    pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed"),
]

READY = {"name": "lookup", "description": "Look a word up.",
         "parameters": {"type": "object", "properties": {"word": {"type": "string"}}, "required": ["word"],
                        "additionalProperties": False}}
# The same tool in YAML: the hook's environment reads it only if pyyaml is installed with toolcast
# (a dependency since issue 43; before, the hook said "reading YAML needs PyYAML").
READY_YAML = """\
name: lookup
description: Look a word up.
parameters:
  type: object
  properties:
    word: {type: string}
  required: [word]
  additionalProperties: false
"""
# A format the default rules drop (lossy): taken from the rules of the checkout the hooks install.
BAD = {"name": "fetch", "description": "Fetch.",
       "inputSchema": {"type": "object", "properties": {"url": {"type": "string", "format": unsupported_format()}}}}


def try_repo(repo: Path, env: dict) -> tuple[int, str]:
    proc = subprocess.run([str(PRE_COMMIT), "try-repo", str(ROOT), "--all-files", "--color", "never"],
                          cwd=repo, env=env, capture_output=True, text=True, timeout=600)
    return proc.returncode, proc.stdout + proc.stderr


def hook_line(out: str, name: str) -> str:
    return next(line for line in out.splitlines() if line.startswith(name + "."))


def test_both_hooks_through_pre_commit_try_repo(tmp_path: Path) -> None:
    if not PRE_COMMIT.exists():
        pytest.skip("pre-commit is not installed in this environment (it is in the test extra)")
    repo = tmp_path / "repo"
    (repo / "tools").mkdir(parents=True)
    (repo / "tools" / "lookup.yaml").write_text(READY_YAML, encoding="utf-8")
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "TOOLCAST_PURE_PYTHON": "1",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid", "NO_COLOR": "1"}
    env.pop("VIRTUAL_ENV", None)
    git = ["git", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "add", "."], cwd=repo, check=True, env=env)

    # First run: the check passes; compile writes generated/ and fails because it changed.
    code, out = try_repo(repo, env)
    assert code == 1, out
    assert hook_line(out, "toolcast check").endswith("Passed"), out
    assert hook_line(out, "toolcast compile").endswith("Failed"), out
    assert "--out generated/ changed" in out
    written = json.loads((repo / "generated" / "lookup.json").read_text(encoding="utf-8"))
    assert written["strict"] is True and written["name"] == "lookup"

    # Second run, generated/ staged: nothing changed, both pass (the check reads tools/ only).
    subprocess.run(["git", "add", "."], cwd=repo, check=True, env=env)
    code, out = try_repo(repo, env)
    assert code == 0, out
    assert hook_line(out, "toolcast check").endswith("Passed") and hook_line(out, "toolcast compile").endswith("Passed"), out

    # Third run, with a tool strict mode cannot take: the check fails at the finding's line, and
    # compile (--strict true) refuses the tool and changes generated/.
    (repo / "tools" / "fetch.json").write_text(json.dumps(BAD, indent=2) + "\n", encoding="utf-8")
    subprocess.run(["git", "add", "."], cwd=repo, check=True, env=env)
    code, out = try_repo(repo, env)
    assert code == 1, out
    assert hook_line(out, "toolcast check").endswith("Failed") and hook_line(out, "toolcast compile").endswith("Failed"), out
    assert "tools/fetch.json:9:" in out and "openai/unsupported-string-format" in out
    assert "✗ fetch  refused" in out


def test_the_compile_hook_runs_on_every_commit_and_suffixes_match_in_any_case() -> None:
    # pre-commit passes no deleted path: a commit that only removed tools/x.json (or only edited
    # generated/) matched no `files:`, and the compile hook was skipped (the red-team's round s13j #7).
    import re

    import yaml

    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))}
    assert hooks["toolcast-compile"]["always_run"] is True and hooks["toolcast-compile"]["pass_filenames"] is False
    check = re.compile(hooks["toolcast-check"]["files"])
    assert all(check.search(f) for f in ("tools/a.json", "tools/b/c.YAML", "tools/d.Jsonl", "tools/e.yml"))
    assert not any(check.search(f) for f in ("generated/a.json", "tools/notes.txt", "src/tools/a.json"))
    if PRE_COMMIT.exists():
        proc = subprocess.run([str(PRE_COMMIT), "validate-manifest", str(ROOT / ".pre-commit-hooks.yaml")],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stdout + proc.stderr
