"""The stdio line reader (toolcast._runtime.stdio_lines), shared by stdio_session, --mcp and the proxy: lines
split at C speed, a line over the limit or the answer budget skipped without being scanned byte by
byte in Python (only its head and its end are looked at), its request's id still found."""

from __future__ import annotations

import pytest

from toolcast._runtime import stdio_lines as _stdio_lines
from toolcast._runtime.stdio_lines import (
    HEAD_SCAN_BYTES,
    AnswerBudget,
    LineReader,
    Skipped,
    answer_id,
)

MIB = 1024 * 1024


def _chunks(data: bytes, size: int = 65536):
    return [data[i : i + size] for i in range(0, len(data), size)]


def _read(reader: LineReader, data: bytes) -> list:
    out = []
    for chunk in _chunks(data):
        out += reader.feed(chunk)
    return out + reader.close()


@pytest.fixture
def scanned(monkeypatch):
    """How many bytes the Python scanner is given, in all."""
    fed = [0]
    feed = _stdio_lines._AnswerScan.feed

    def counting(self, piece: bytes) -> None:
        fed[0] += len(piece)
        feed(self, piece)

    monkeypatch.setattr(_stdio_lines._AnswerScan, "feed", counting)
    return fed


def test_an_overlong_line_is_skipped_with_only_its_head_scanned(scanned):
    # 8 MiB of `[],` (the slowest text for a bracket-by-bracket scan) over a 1 MiB limit: the old
    # reader fed all of it to the Python scanner, on the event loop.
    line = b'{"jsonrpc": "2.0", "id": 7, "result": {"x": [' + b"[]," * (8 * MIB // 3) + b"[]]}}"
    budget = AnswerBudget(64 * MIB)
    out = _read(LineReader(MIB, budget), line + b"\n" + b'{"jsonrpc": "2.0", "id": 8, "result": {}}\n')
    assert isinstance(out[0], Skipped) and out[0].ident == 7 and out[0].why == f"it is over {MIB} bytes"
    assert out[0].head.startswith(b'{"jsonrpc": "2.0", "id": 7') and len(out[0].head) <= 160
    assert out[1] == b'{"jsonrpc": "2.0", "id": 8, "result": {}}'
    assert scanned[0] <= HEAD_SCAN_BYTES
    budget.give(len(out[1]))
    assert budget.held == 0


def test_an_overlong_answer_with_its_id_last_is_still_failed(scanned):
    line = b'{"result": {"text": "' + b"y\\\\\\\"" * (2 * MIB // 4) + b'"}, "jsonrpc": "2.0", "id": "r-9"}'
    out = _read(LineReader(MIB, AnswerBudget(64 * MIB)), line + b"\n")
    assert len(out) == 1 and isinstance(out[0], Skipped) and out[0].ident == "r-9"
    assert scanned[0] <= HEAD_SCAN_BYTES


def test_a_line_that_is_no_answer_gives_no_id():
    line = b'{"jsonrpc": "2.0", "method": "x", "params": {"p": "' + b"z" * (2 * MIB) + b'"}, "id": 3}'
    out = _read(LineReader(MIB, AnswerBudget(64 * MIB)), line + b"\n")
    assert isinstance(out[0], Skipped) and out[0].ident is None


def test_the_budget_bounds_the_lines_held_by_all_readers_at_once():
    # Each byte counts AnswerBudget.COPIES times: the budget holds 3 MiB of answers.
    copies = AnswerBudget.COPIES
    budget = AnswerBudget(3 * copies * MIB)
    first, second = LineReader(64 * MIB, budget), LineReader(64 * MIB, budget)
    half = b'{"jsonrpc": "2.0", "id": 1, "result": {"t": "' + b"a" * (2 * MIB)
    assert first.feed(half) == [] and budget.held == copies * len(half)
    skipped = second.feed(half.replace(b'"id": 1', b'"id": 2')) + second.feed(b'"}}\n')
    assert isinstance(skipped[0], Skipped) and skipped[0].ident == 2
    assert f"memory budget of {3 * copies} MiB" in skipped[0].why
    (line,) = first.feed(b'"}}\n')
    assert line == half + b'"}}' and budget.held == copies * len(line)  # held until the caller gives it back
    budget.give(len(line))
    assert budget.held == 0


def test_answer_id_of_a_line_is_bounded_too(scanned):
    line = b'{"jsonrpc": "2.0", "result": {"x": [' + b"[]," * (4 * MIB // 3) + b'[]]}, "id": 12}'
    assert answer_id(line) == 12
    assert scanned[0] <= HEAD_SCAN_BYTES
