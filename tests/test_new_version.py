"""Adding a real rule version, as spec/README.md says, keeps the tests about versions passing (none pins a date)."""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from spec_versions import LATEST, after

ROOT = Path(__file__).resolve().parent.parent
# The modules whose assertions name versions: the latest, the default, the history, scaffolds.
VERSION_TESTS = ("test_spec.py", "test_spec_robustness.py", "test_rules_cli.py", "test_data_only.py", "test_golden.py")
IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis", "corpus", "*.so", "*.pyd", "*.c", "_built.py")


def _copy_repository(dest: Path) -> None:
    """What the version tests read: the package source, spec/, tools/, tests/ (not the corpus), docs/."""
    for part in ("spec", "tools", "tests", "docs", "examples"):
        shutil.copytree(ROOT / part, dest / part, ignore=IGNORE)
    shutil.copytree(ROOT / "src" / "toolcast", dest / "src" / "toolcast", ignore=IGNORE)
    (dest / "tests" / "corpus").mkdir()  # corpus_paths points here; the tests run below do not read it


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(cwd / "src"), TOOLCAST_PURE_PYTHON="1")
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_a_new_version_of_any_later_date_keeps_the_version_tests_passing(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    _copy_repository(repo)
    new = after(LATEST, 40)  # any later date; not NEXT, the day the tests scaffold their own
    made = _run(["tools/new_rules_version.py", "openai", new], repo)
    assert made.returncode == 0, made.stderr
    regenerated = _run(["tools/gen_tables.py"], repo)
    assert regenerated.returncode == 0, regenerated.stdout + regenerated.stderr
    which = _run(["-c", "import toolcast, toolcast.rules as r; print(toolcast.__file__); print(r.available('openai')[-1])"], repo)
    assert which.stdout.split() == [str(repo / "src" / "toolcast" / "__init__.py"), new], which.stderr
    tests = [f"tests/{name}" for name in VERSION_TESTS]
    # The corpus-wide impact run is left out: it reads tests/corpus, which is not copied. Of the
    # golden cases, those of the new version run (it has no golden file: it inherits every case of
    # the version it extends, tests/golden/README.md) with the checks over all files; the cases of
    # the other versions and families read no file of the new version and run in the suite itself.
    # test_data_only's refusal tests (`*_is_refused`: the generator refuses an edit) run in the suite
    # only: they scaffold their own version like the tests kept here, and the test below checks that
    # they name no date, which is all a new version could break in them.
    only = f"not impact_over_the_corpus and not _is_refused and (not test_golden[ or {new})"
    ran = _run(["-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", *tests, "-k", only], repo)
    assert ran.returncode == 0, ran.stdout[-4000:] + ran.stderr[-2000:]
    assert " passed" in ran.stdout and "failed" not in ran.stdout
    assert not (repo / "tests" / "golden" / "openai" / new).exists()  # nothing changed: nothing stored


def test_the_tests_left_out_of_the_copy_name_no_date() -> None:
    """test_data_only's `*_is_refused` tests, which the copy above does not run, pin no version date
    (their scaffolded version is NEXT, read from spec/)."""
    source = (ROOT / "tests" / "test_data_only.py").read_text(encoding="utf-8")
    left_out = [f for f in ast.parse(source).body
                if isinstance(f, ast.FunctionDef) and f.name.endswith("_is_refused")]
    assert len(left_out) >= 5
    for f in left_out:
        text = "".join(ast.get_source_segment(source, node) or "" for node in [*f.decorator_list, f])
        assert not re.search(r"\b(19|20)\d\d-\d\d-\d\d\b", text), f"{f.name} names a date"
