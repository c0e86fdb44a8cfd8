"""An installed toolcast (a wheel, no checkout beside it) can load a spec folder that extends a
built-in provider: setup.py's BuildPy copies the rule spec into toolcast/_spec/builtin/, and the
loader finds it there. Built here without a network: the package as setup.py lays it out."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ACME = """\
provider: acme
version: "2026-01-01"
reviewed: "2026-01-01"
extends: openai@{parent}
summary: An OpenAI-compatible host that does not take `pattern`.
terms: {{provider_name: Acme, docs: "https://acme.example/docs/tools"}}
catalogue_cite: [ACME]
sources:
  ACME: {{title: "Acme tool use", url: "https://acme.example/docs/tools", date: "2026-01-01", evidence: D}}
keywords:
  pattern: {{class: tier1, value: string, cite: [ACME]}}
"""

PROBE = """
import json, sys
import toolcast
from toolcast import rules
from toolcast._spec.resolve import builtin_spec_dir
try:
    added = rules.load_spec_dir(sys.argv[1])
except rules.SpecFolderError as e:
    print(json.dumps({"error": str(e)}))
    raise SystemExit(0)
r = toolcast.compile_tool({"name": "f", "description": "d", "inputSchema": {"type": "object",
    "properties": {"a": {"type": "string", "pattern": "^a"}}, "required": ["a"], "additionalProperties": False}},
    target="acme")
print(json.dumps({"file": toolcast.__file__, "builtin": str(builtin_spec_dir()), "added": added,
                  "codes": [d.code for d in r.diagnostics]}))
"""


def _setup_module():
    spec = importlib.util.spec_from_file_location("toolcast_setup_under_test", ROOT / "setup.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # (setup() runs only under __main__)
    return module


def _installed(tmp: Path, with_spec: bool) -> Path:
    """toolcast's source laid out as a wheel installs it, with or without the spec BuildPy copies."""
    site = tmp / "lib" / "python" / "site"
    shutil.copytree(ROOT / "src" / "toolcast", site / "toolcast",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.c", "builtin"))
    if with_spec:
        setup = _setup_module()
        for rel in setup.spec_files():
            (site / "toolcast" / "_spec" / "builtin" / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / "spec" / rel, site / "toolcast" / "_spec" / "builtin" / rel)
    return site


def _run(site: Path, spec_dir: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(site)}
    env.pop("TOOLCAST_SPEC_PATH", None)
    done = subprocess.run([sys.executable, "-c", PROBE, str(spec_dir)], capture_output=True, text=True,
                          env=env, cwd=site, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _acme(tmp: Path) -> Path:
    from toolcast import rules

    folder = tmp / "myspec"
    (folder / "acme").mkdir(parents=True)
    (folder / "acme" / "2026-01-01.yaml").write_text(ACME.format(parent=rules.default_version("openai")),
                                                    encoding="utf-8")
    return folder


def test_the_wheel_ships_the_catalogue_the_meta_schemas_and_every_providers_rule_versions() -> None:
    files = {str(p) for p in _setup_module().spec_files()}
    assert {"catalogue.yaml", "spec.schema.json"} <= files
    from toolcast import rules

    for provider in rules.providers():
        for version in rules.available(provider):
            assert f"{provider}/{version}.yaml" in files, (provider, version)
    assert "README.md" not in files


def test_an_installed_toolcast_loads_a_spec_folder_that_extends_openai(tmp_path: Path) -> None:
    site = _installed(tmp_path, with_spec=True)
    out = _run(site, _acme(tmp_path))
    assert out["file"].startswith(str(site))
    assert out["builtin"] == str(site / "toolcast" / "_spec" / "builtin")
    assert out["added"] == ["acme"]
    assert "acme/unsupported-keyword" in out["codes"]


def test_without_the_shipped_spec_the_error_names_the_folder_and_nothing_crashes(tmp_path: Path) -> None:
    site = _installed(tmp_path, with_spec=False)
    out = _run(site, _acme(tmp_path))
    assert "myspec" in out["error"] and "no built-in spec folder" in out["error"]
