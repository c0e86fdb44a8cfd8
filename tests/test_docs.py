"""The documentation site: mkdocs.yml builds with warnings as errors, every page in docs/ is in its nav, the README's links land."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def nav_pages() -> list[str]:
    """The pages mkdocs.yml's nav lists (read as text: the file holds a !!python/name tag)."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    nav = text[text.index("\nnav:"):]
    return re.findall(r"^\s+- (?:[^:\n]+: )?([\w./-]+\.md)\s*$", nav, flags=re.M)


def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    index = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert 'class="mermaid"' in index  # the flow picture, drawn by Material's Mermaid support
    for page in ("codes", "matrix", "target-report", "corpus-report", "benchmarks", "diff", "configuration", "rules"):
        assert (tmp_path / "site" / page / "index.html").is_file(), page


def test_every_page_in_docs_is_in_the_nav() -> None:
    pages = nav_pages()
    on_disk = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.md"))
    assert sorted(pages) == on_disk
    assert len(pages) == len(set(pages))


def test_the_flow_picture_names_each_step() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    flow = index[index.index("```mermaid"):]
    flow = flow[:flow.index("\n```\n")]
    for step in ("tool definition", "rules", "walk", "outcome", "sent tool", "model", "tool call", "checks", "server"):
        assert step in flow, step


def test_the_readmes_links_to_docs_exist() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\((docs/[^)#\s]+)", readme):
        assert (ROOT / target).exists(), target
