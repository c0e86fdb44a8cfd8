"""Shared test options and reporting: `--update-goldens`, and a summary of skips and expected outcomes by reason."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

# {group title: Counter(reason -> count)} of outcomes the tests asserted as expected by design
# (a case out of scope is not a skip); printed once at the end, one line per reason.
_EXPECTED = pytest.StashKey[dict]()
# At most this many lines per group of the summary: the rest are counted on one line.
SUMMARY_LINES = 12


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        default=False,
        help="rewrite tests/golden expectations from what the code does now (review the diff!)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.stash[_EXPECTED] = {}


@pytest.fixture(scope="session")
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


@pytest.fixture(scope="session")
def expected_outcome(request: pytest.FixtureRequest):
    """`expected_outcome(group, reason, n=1)`: count an asserted, by-design outcome for the summary."""
    groups = request.config.stash[_EXPECTED]

    def record(group: str, reason: str, n: int = 1) -> None:
        groups.setdefault(group, Counter())[reason] += n

    return record


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Under pytest-xdist, a worker hands its by-design outcomes to the controller, which prints them."""
    out = getattr(session.config, "workeroutput", None)
    if out is not None:
        out["toolcast_expected"] = {g: dict(c) for g, c in session.config.stash.get(_EXPECTED, {}).items()}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error) -> None:  # (pytest-xdist's controller: a worker finished)
    groups = node.config.stash[_EXPECTED]
    for group, counts in getattr(node, "workeroutput", {}).get("toolcast_expected", {}).items():
        groups.setdefault(group, Counter()).update(counts)


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        reason = str(longrepr[2])
        return reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason
    return str(longrepr)


def _lines(counts: Counter) -> list[str]:
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    out = [f"  {n:6,d}  {reason}" for reason, n in ranked[:SUMMARY_LINES]]
    rest = ranked[SUMMARY_LINES:]
    if rest:
        out.append(f"  {sum(n for _, n in rest):6,d}  ({len(rest)} more reasons)")
    return out


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """Why tests did not run, grouped by reason, and the by-design outcomes that were asserted."""
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if getattr(r, "when", "") in ("setup", "call")]
    expected = config.stash.get(_EXPECTED, {})
    if not skipped and not expected:
        return
    terminalreporter.section("skips and expected outcomes by reason")
    if skipped:
        by_reason = Counter()
        for r in skipped:
            where = r.nodeid.split("::")[0]
            by_reason[f"{_skip_reason(r)} [{where}]"] += 1
        terminalreporter.write_line(f"skipped ({len(skipped):,}):")
        for line in _lines(by_reason):
            terminalreporter.write_line(line)
    for group, counts in sorted(expected.items()):
        terminalreporter.write_line(f"{group} ({sum(counts.values()):,}, not skips):")
        for line in _lines(counts):
            terminalreporter.write_line(line)
