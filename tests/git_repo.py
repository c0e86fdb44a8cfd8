"""A throwaway git repository for the tests of what toolcast reads from git (diff --git REV)."""

from __future__ import annotations

import subprocess
from pathlib import Path


def repo(where: Path) -> None:
    """`where` made (if need be) a git repository with a committer configured."""
    where.mkdir(parents=True, exist_ok=True)
    for args in (["init", "-q"], ["config", "user.email", "t@example.com"], ["config", "user.name", "t"]):
        git(where, *args)


def git(where: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "protocol.file.allow=always", *args], cwd=where, check=True, capture_output=True)


def commit(where: Path) -> None:
    """Everything in `where` committed."""
    git(where, "add", "-A")
    git(where, "commit", "-q", "-m", "c")
