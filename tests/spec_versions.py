"""The rule versions spec/ holds now, so tests name the latest, the default and a new version without pinning dates."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

SPEC = Path(__file__).resolve().parent.parent / "spec"


def versions(provider: str = "openai", spec: Path = SPEC) -> tuple[str, ...]:
    """Every version of `provider` in `spec`, oldest first (a version is a file named by its date)."""
    return tuple(sorted(p.stem for p in (spec / provider).glob("*.yaml")))


def default_version(provider: str = "openai", spec: Path = SPEC) -> str:
    """The version whose file says `default: true` (tools/new_rules_version.py moves that line)."""
    marked = [v for v in versions(provider, spec)
              if re.search(r"(?m)^default: true[ \t]*$", (spec / provider / f"{v}.yaml").read_text(encoding="utf-8"))]
    assert len(marked) == 1, f"{spec / provider}: {len(marked)} versions say default: true"
    return marked[0]


def after(version: str, days: int = 1) -> str:
    """The date `days` after a version's date."""
    return (datetime.date.fromisoformat(version) + datetime.timedelta(days=days)).isoformat()


VERSIONS = versions()
LATEST = VERSIONS[-1]
DEFAULT = default_version()
# A date after every version: what tests scaffold in a copy of spec/ (no version has it, however
# many a maintainer adds, and it is newer than any version it could extend).
NEXT = after(LATEST)
