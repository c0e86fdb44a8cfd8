"""Packaging as the ecosystem does it, and the README's two commands as CI runs them: Cython asked for
only by a compiled build, test and benchmark requirements as dependency groups, pyyaml a
dependency, project URLs and classifiers; the README's test command in a venv of its own, run by
.ci/run exactly; the README's sample report is what the first command prints."""

from __future__ import annotations

import importlib.util
import io
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _backend():
    system = PYPROJECT["build-system"]
    (path,) = system["backend-path"]
    spec = importlib.util.spec_from_file_location("toolcast_build_under_test", ROOT / path / f"{system['build-backend']}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cython_is_a_build_requirement_only_when_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not [r for r in PYPROJECT["build-system"]["requires"] if r.lower().startswith("cython")]
    backend = _backend()
    # (setuptools' own answer needs the build environment's setuptools >= 77: only ours is tested here)
    monkeypatch.setattr(backend._setuptools, "get_requires_for_build_wheel", lambda config_settings=None: ["wheel"])
    for value, compiles in (("1", True), ("yes", True), ("0", False), ("", False), (None, False)):
        if value is None:
            monkeypatch.delenv("TOOLCAST_COMPILE", raising=False)
        else:
            monkeypatch.setenv("TOOLCAST_COMPILE", value)
        asked = [r for r in backend.get_requires_for_build_wheel() if r.lower().startswith("cython")]
        assert bool(asked) == compiles, value
    # The rest is setuptools' backend as it is.
    from setuptools import build_meta

    assert backend.build_wheel is build_meta.build_wheel and backend.build_sdist is build_meta.build_sdist
    assert backend.get_requires_for_build_editable is build_meta.get_requires_for_build_editable
    # The sdist carries the backend, or a build from it could not import it.
    assert "graft _build_backend" in (ROOT / "MANIFEST.in").read_text(encoding="utf-8")


def test_backend_reads_the_variable_as_setup_py_does() -> None:
    spec = importlib.util.spec_from_file_location("toolcast_setup_under_test", ROOT / "setup.py")
    setup_py = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(setup_py)
    backend = _backend()
    for value in ("1", "0", "", "true", " "):
        assert backend.compile_requested({"TOOLCAST_COMPILE": value}) == setup_py.compile_requested({"TOOLCAST_COMPILE": value})


def test_requirements_of_tests_and_benchmarks_are_groups_not_extras() -> None:
    extras = PYPROJECT["project"].get("optional-dependencies", {})
    assert not {"test", "bench", "dev"} & set(extras), extras
    groups = PYPROJECT["dependency-groups"]
    assert {"test", "bench"} <= set(groups)
    names = {re.split(r"[<>=\[; ]", r, maxsplit=1)[0].lower() for r in groups["test"] if isinstance(r, str)}
    assert {"pytest", "pytest-xdist", "pytest-timeout", "cython"} <= names


def test_pyyaml_is_a_dependency_and_the_project_says_where_it_lives() -> None:
    project = PYPROJECT["project"]
    assert any(d.lower().startswith("pyyaml") for d in project["dependencies"])
    assert {"Homepage", "Source", "Issues", "Documentation"} <= set(project["urls"])
    classifiers = project["classifiers"]
    assert "Typing :: Typed" in classifiers and any(c.startswith("Programming Language :: Python :: 3.11") for c in classifiers)


def _sh_blocks(text: str) -> list[str]:
    return re.findall(r"```sh\n(.*?)\n```", text, flags=re.S)


def test_ci_runs_the_readmes_test_command_exactly_in_a_venv_of_its_own() -> None:
    blocks = _sh_blocks(README[README.index("## Two commands"):README.index("## What you see")])
    first, test = blocks[0], blocks[-1]
    assert "pytest" in test and "pytest" not in first
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test in ci  # one line of .ci/run, as the README gives it
    # Its own venv: the build the first commands installed in .venv stays.
    assert ".venv-test/" in test and " .venv/" not in f" {test}" and ".venv/bin" not in test
    assert "-n auto" in test and "--group test" in test and "'pip>=25.1'" in test
    assert ".venv/" in first and "TOOLCAST_COMPILE" not in first  # the first command builds nothing
    # The second stage, the compiled build, is kept.
    assert any("TOOLCAST_COMPILE=1" in line and ".venv-compiled" in line for line in ci)


def test_the_readmes_sample_report_is_the_first_commands_output() -> None:
    from toolcast.cli.main import main

    first = _sh_blocks(README)[0]
    argv = first.split(".venv/bin/toolcast ", 1)[1].split()
    # The sample names the rule version it was made under (`openai@DATE`): run under that one, so a
    # new default version (a docs change) leaves the README true for the version it shows, not failing.
    named = set(re.findall(r"\((openai@\d{4}-\d{2}-\d{2}), ", README))
    assert len(named) == 1, named
    argv += ["--rules", named.pop()]
    out = io.StringIO()
    import os

    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        assert main(argv, stdout=out, stderr=io.StringIO()) == 0
    finally:
        os.chdir(cwd)
    real = out.getvalue().splitlines()
    section = README[README.index("## What you see"):README.index("## Using it from Python")]
    sample = re.search(r"```text\n(.*?)\n```", section, flags=re.S).group(1).splitlines()
    shown = [line for line in sample if line.strip() != "…"]
    assert len(shown) > 8
    missing = [line for line in shown if line not in real]
    assert not missing, missing
    # In the order the report gives them.
    assert [real.index(line) for line in shown] == sorted(real.index(line) for line in shown)
