"""The end-of-run summary of tests/conftest.py: skips grouped by reason, expected outcomes counted, exit 0."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (Path(__file__).resolve().parent / "conftest.py").read_text(encoding="utf-8")


def test_skips_are_grouped_by_reason_and_expected_outcomes_counted(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_some="""
        import pytest

        @pytest.mark.parametrize("i", range(30))
        def test_needs_a_tool(i):
            pytest.skip("the frobnicator is not installed")

        @pytest.mark.skipif(True, reason="only on Tuesdays")
        def test_marked():
            pass

        @pytest.mark.parametrize("i", range(5))
        def test_by_design(i, expected_outcome):
            expected_outcome("cases out of scope", "code-a" if i < 3 else "code-b")

        def test_plain():
            pass
    """)
    result = pytester.runpytest("-q", "-p", "no:cacheprovider")
    assert result.ret == 0
    result.stdout.fnmatch_lines([
        "*skips and expected outcomes by reason*",
        "skipped (31):",
        "      30  the frobnicator is not installed [test_some.py]",
        "       1  only on Tuesdays [test_some.py]",
        "cases out of scope (5, not skips):",
        "       3  code-a",
        "       2  code-b",
    ])
    assert "6 passed, 31 skipped" in result.stdout.str()


def test_many_reasons_are_cut_to_a_few_lines(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_many="""
        import pytest

        @pytest.mark.parametrize("i", range(20))
        def test_each_its_own_reason(i):
            pytest.skip(f"reason {i:02d}")
    """)
    result = pytester.runpytest("-q", "-p", "no:cacheprovider")
    assert result.ret == 0
    out = result.stdout.str()
    assert out.count("  reason ") == 12
    assert "(8 more reasons)" in out


def test_no_summary_when_nothing_was_skipped(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_fine="def test_ok():\n    pass\n")
    result = pytester.runpytest("-q", "-p", "no:cacheprovider")
    assert result.ret == 0
    assert "by reason" not in result.stdout.str()
