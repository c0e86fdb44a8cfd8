"""`toolcast proxy --enforce`: a call that breaks an enforced constraint is answered with an error naming
it and never reaches the server; a valid call is forwarded unchanged (the SDK's client on stdio)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from test_enforce import FMT, VALID, VIOLATIONS
from test_proxy import proxied, run, text_of

# (its `url` has the format test_enforce's VALID and VIOLATIONS are written for: one the rules drop)
SERVER = f"{sys.executable} {Path(__file__).parent / 'servers' / 'enforce_server.py'} {FMT}"


@pytest.mark.parametrize("target", ["openai", "anthropic", "gemini", "vertex"])
def test_the_proxy_rejects_broken_constraints_before_forwarding(target):
    async def go():
        async with proxied("--server", f"e={SERVER}", "--target", target, "--enforce") as session:
            listed = {t.name: t for t in (await session.list_tools()).tools}
            answers = [await session.call_tool("e__fetch", {**VALID, **change}) for change, _, _ in VIOLATIONS]
            reached_before = text_of(await session.call_tool("e__calls", {}))
            good = await session.call_tool("e__fetch", VALID)
            reached_after = text_of(await session.call_tool("e__calls", {}))
            return listed, answers, reached_before, good, reached_after

    listed, answers, before, good, after = run(go())
    assert "e__fetch" in listed
    rejected = 0
    for (_, _, words), answer in zip(VIOLATIONS, answers, strict=True):
        if answer.is_error:
            rejected += 1
            for w in words:
                assert w in text_of(answer), (w, text_of(answer))
    assert rejected >= 3  # (the format check only where the target's strict mode drops `format: FMT`)
    assert before == str(len(VIOLATIONS) - rejected)  # a rejected call never reached the server
    assert not good.is_error and json.loads(text_of(good)) == VALID
    assert after == str(len(VIOLATIONS) - rejected + 1)


def test_without_enforce_the_proxy_forwards_as_before():
    async def go():
        async with proxied("--server", f"e={SERVER}") as session:
            answer = await session.call_tool("e__fetch", {**VALID, "tag": "draft"})
            return answer, text_of(await session.call_tool("e__calls", {}))

    answer, reached = run(go())
    assert not answer.is_error and reached == "1"
